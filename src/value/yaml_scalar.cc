#include "value/yaml_scalar.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace wmap::yaml::internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Parses a number in the float syntax both resolvers accept, as Go's ParseFloat would for such
// text; false when the text is not of that shape or overflows (Go reports a range error).
// Shape: [-+]? ( '.' digits | digits ( '.' digits* )? ) ( [eE] [-+]? digits )?
bool ParseYamlFloat(std::string_view s, double* out) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t mantissa_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t frac = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++frac;
    // ".": needs digits on one side; "." followed by nothing after an integer part is fine.
    if (mantissa_digits == 0 && frac == 0) return false;
    mantissa_digits += frac;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  if (i != s.size()) return false;
  // strtod needs a terminated buffer; scalars of this shape are short except in hostile input.
  std::string buf(s);
  char* end = nullptr;
  double d = std::strtod(buf.c_str(), &end);
  if (std::isinf(d)) return false;
  *out = d;
  return true;
}

// The '.'-led floats Go's ParseFloat accepts: '.' digits ( [eE] [-+]? digits )?
bool ParseDotFloat(std::string_view s, double* out) {
  if (s.size() < 2 || s[0] != '.' || !IsDigit(s[1])) return false;
  return ParseYamlFloat(s, out);
}

bool IsMapCandidate(char c) {
  switch (c) {
    case 'y':
    case 'Y':
    case 'n':
    case 'N':
    case 't':
    case 'T':
    case 'f':
    case 'F':
    case 'o':
    case 'O':
    case '~':
      return true;
    default:
      return false;
  }
}

// The fixed words of the resolve tables. Returns true when s is one of them.
bool LookupWord(std::string_view s, Schema schema, Resolved* r) {
  auto set_bool = [r](bool b) {
    r->kind = ScalarKind::kBool;
    r->b = b;
    return true;
  };
  auto set_float = [r](double d) {
    r->kind = ScalarKind::kFloat;
    r->d = d;
    return true;
  };
  if (s == "true" || s == "True" || s == "TRUE") return set_bool(true);
  if (s == "false" || s == "False" || s == "FALSE") return set_bool(false);
  if (schema == Schema::kKubernetes) {
    if (s == "y" || s == "Y" || s == "yes" || s == "Yes" || s == "YES" || s == "on" || s == "On" ||
        s == "ON") {
      return set_bool(true);
    }
    if (s == "n" || s == "N" || s == "no" || s == "No" || s == "NO" || s == "off" || s == "Off" ||
        s == "OFF") {
      return set_bool(false);
    }
  }
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") {
    r->kind = ScalarKind::kNull;
    return true;
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return set_float(std::nan(""));
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") {
    return set_float(HUGE_VAL);
  }
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return set_float(-HUGE_VAL);
  // gojq's YAML decoder keeps the sign of a negative zero.
  if (schema == Schema::kGojq && (s == "-0" || s == "-0.0")) return set_float(-0.0);
  return false;
}

// Unsigned part of Go's ParseUint with base 0 (prefix detection); s has no sign.
bool ParseGoUnsigned(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  int base = 10;
  if (s[0] == '0') {
    char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : 0;
    if (p == 'b') {
      base = 2;
      s.remove_prefix(2);
    } else if (p == 'o') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'x') {
      base = 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  uint64_t n = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
      d = (c | 0x20) - 'a' + 10;
    } else {
      return false;
    }
    if (d >= base) return false;
    if (n > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return false;
    n = n * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  *out = n;
  return true;
}

// Reads 1 or 2 digits (Go's getnum with fixed=false).
bool GetNum(std::string_view s, size_t* i, int* out) {
  if (*i >= s.size() || !IsDigit(s[*i])) return false;
  int v = s[*i] - '0';
  ++*i;
  if (*i < s.size() && IsDigit(s[*i])) {
    v = v * 10 + (s[*i] - '0');
    ++*i;
  }
  *out = v;
  return true;
}

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

// Optional fractional seconds: [.,] 1-9 digits.
bool ReadFraction(std::string_view s, size_t* i, int* nanos) {
  if (*i + 1 < s.size() && (s[*i] == '.' || s[*i] == ',') && IsDigit(s[*i + 1])) {
    size_t j = *i + 1;
    int n = 0;
    int digits = 0;
    while (j < s.size() && IsDigit(s[j])) {
      n = n * 10 + (s[j] - '0');
      ++digits;
      ++j;
      if (digits > 9) return false;
    }
    for (; digits < 9; ++digits) n *= 10;
    *nanos = n;
    *i = j;
  }
  return true;
}

}  // namespace

bool ParseGoUint(std::string_view s, uint64_t* out) { return ParseGoUnsigned(s, out); }

bool ParseGoInt(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t u;
  if (!ParseGoUnsigned(s, &u)) return false;
  constexpr uint64_t kCutoff = uint64_t{1} << 63;
  if (!neg && u >= kCutoff) return false;
  if (neg && u > kCutoff) return false;
  *out = neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  return true;
}

bool ParseTimestamp(std::string_view s, Timestamp* out) {
  size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i != 4 || i == s.size() || s[i] != '-') return false;
  Timestamp t;
  t.year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  ++i;
  if (!GetNum(s, &i, &t.month) || t.month < 1 || t.month > 12) return false;
  if (i >= s.size() || s[i] != '-') return false;
  ++i;
  if (!GetNum(s, &i, &t.day) || t.day < 1 || t.day > DaysIn(t.month, t.year)) return false;
  if (i == s.size()) {
    *out = t;
    return true;
  }
  char sep = s[i];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  ++i;
  if (!GetNum(s, &i, &t.hour) || t.hour > 23) return false;
  if (i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!GetNum(s, &i, &t.minute) || t.minute > 59) return false;
  if (i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!GetNum(s, &i, &t.second) || t.second > 59) return false;
  if (!ReadFraction(s, &i, &t.nanos)) return false;
  if (sep == ' ') {
    if (i != s.size()) return false;
    *out = t;
    return true;
  }
  if (i < s.size() && s[i] == 'Z') {
    ++i;
  } else {
    // [+-]hh:mm, two digits each.
    if (s.size() - i != 6 || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':' ||
        !IsDigit(s[i + 1]) || !IsDigit(s[i + 2]) || !IsDigit(s[i + 4]) || !IsDigit(s[i + 5])) {
      return false;
    }
    int hh = (s[i + 1] - '0') * 10 + (s[i + 2] - '0');
    int mm = (s[i + 4] - '0') * 10 + (s[i + 5] - '0');
    if (hh > 24 || mm > 60) return false;
    t.offset_seconds = (hh * 3600 + mm * 60) * (s[i] == '-' ? -1 : 1);
    i += 6;
  }
  if (i != s.size()) return false;
  *out = t;
  return true;
}

bool IsBase60Float(std::string_view s) {
  // ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i >= s.size() || !IsDigit(s[i])) return false;
  ++i;
  while (i < s.size() && (IsDigit(s[i]) || s[i] == '_')) ++i;
  int groups = 0;
  while (i < s.size() && s[i] == ':') {
    ++i;
    // [0-5]?[0-9]: one digit, or two digits with the first in 0-5.
    if (i >= s.size() || !IsDigit(s[i])) return false;
    if (i + 1 < s.size() && IsDigit(s[i + 1]) && s[i] <= '5') {
      i += 2;
    } else {
      i += 1;
    }
    ++groups;
  }
  if (groups == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (IsDigit(s[i]) || s[i] == '_')) ++i;
  }
  return i == s.size();
}

Resolved ResolvePlain(std::string_view s, Schema schema) {
  Resolved r;
  char hint = 'N';  // empty text: looked up in the table (null)
  if (!s.empty()) {
    char c = s[0];
    if (c == '+' || c == '-') {
      hint = 'S';
    } else if (IsDigit(c)) {
      hint = 'D';
    } else if (IsMapCandidate(c)) {
      hint = 'M';
    } else if (c == '.') {
      hint = '.';
    } else {
      return r;
    }
  }
  if (LookupWord(s, schema, &r)) return r;
  if (hint == '.') {
    if (ParseDotFloat(s, &r.d)) r.kind = ScalarKind::kFloat;
    return r;
  }
  if (hint != 'D' && hint != 'S') return r;
  Timestamp ts;
  if (ParseTimestamp(s, &ts)) {
    r.kind = ScalarKind::kTimestamp;
    return r;
  }
  // Go removes every '_' before the numeric attempts.
  char stack_buf[64];
  std::string heap_buf;
  std::string_view plain = s;
  if (s.find('_') != std::string_view::npos) {
    char* dst = stack_buf;
    if (s.size() > sizeof(stack_buf)) {
      heap_buf.resize(s.size());
      dst = heap_buf.data();
    }
    size_t n = 0;
    for (char c : s) {
      if (c != '_') dst[n++] = c;
    }
    plain = std::string_view(dst, n);
  }
  if (ParseGoInt(plain, &r.i)) {
    r.kind = ScalarKind::kInt;
    return r;
  }
  if (ParseGoUint(plain, &r.u)) {
    r.kind = ScalarKind::kUint;
    return r;
  }
  if (ParseYamlFloat(plain, &r.d)) {
    r.kind = ScalarKind::kFloat;
    return r;
  }
  // The explicit 0b/-0b (and, in v3, 0o/-0o) branches of go-yaml accept nothing that Go's
  // base-0 integer parsing above has not already accepted.
  return r;
}

void FormatGoFloat(double d, int bits, std::string* out) {
  if (std::isnan(d)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(d)) {
    out->append(d > 0 ? "+Inf" : "-Inf");
    return;
  }
  char buf[64];
  std::to_chars_result res;
  if (bits == 32) {
    res =
        std::to_chars(buf, buf + sizeof(buf), static_cast<float>(d), std::chars_format::scientific);
  } else {
    res = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  }
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));
  bool neg = false;
  if (!sci.empty() && sci[0] == '-') {
    neg = true;
    sci.remove_prefix(1);
  }
  size_t epos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, epos)) {
    if (c != '.') digits.push_back(c);
  }
  int exp = 0;
  std::from_chars(sci.data() + epos + 1 + (sci[epos + 1] == '+' ? 1 : 0), sci.data() + sci.size(),
                  exp);
  // Zero has the single digit "0"; to_chars never yields trailing zeros otherwise.
  if (neg) out->push_back('-');
  if (exp < -4 || exp >= 6) {
    out->push_back(digits[0]);
    if (digits.size() > 1) {
      out->push_back('.');
      out->append(digits, 1, std::string::npos);
    }
    out->push_back('e');
    out->push_back(exp < 0 ? '-' : '+');
    int e = exp < 0 ? -exp : exp;
    if (e < 10) out->push_back('0');
    out->append(std::to_string(e));
    return;
  }
  int dp = exp + 1;  // digits before the decimal point
  if (dp <= 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-dp), '0');
    out->append(digits);
    return;
  }
  if (static_cast<size_t>(dp) >= digits.size()) {
    out->append(digits);
    out->append(static_cast<size_t>(dp) - digits.size(), '0');
    return;
  }
  out->append(digits, 0, static_cast<size_t>(dp));
  out->push_back('.');
  out->append(digits, static_cast<size_t>(dp), std::string::npos);
}

}  // namespace wmap::yaml::internal
