// Format checks and message texts.
#include "schema/formats.h"

#include <cmath>
#include <cstdint>

#include "wmap/json.h"
#include "wmap/quantity.h"
#include "wmap/text.h"

namespace wmap::schema {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Consumes n digits at *i.
bool Digits(std::string_view s, size_t* i, size_t n) {
  for (size_t k = 0; k < n; ++k, ++*i) {
    if (*i >= s.size() || !IsDigit(s[*i])) return false;
  }
  return true;
}

bool Expect(std::string_view s, size_t* i, char c) {
  if (*i >= s.size() || s[*i] != c) return false;
  ++*i;
  return true;
}

// A date-time. Strict: RFC 3339 as Go's time.Parse(time.RFC3339) reads it, the form
// metav1.Time decodes ("2006-01-02T15:04:05Z", optional fraction, "Z" or "+hh:mm"). Loose: the
// OpenAPI format checker of custom resources, which also takes a space or lower-case 't', a
// lower-case 'z', "+hhmm", no zone at all, and no seconds.
bool IsDateTime(std::string_view s, bool strict) {
  size_t i = 0;
  if (!Digits(s, &i, 4) || !Expect(s, &i, '-') || !Digits(s, &i, 2) || !Expect(s, &i, '-') ||
      !Digits(s, &i, 2)) {
    return false;
  }
  if (i >= s.size()) return false;
  if (s[i] != 'T' && (strict || (s[i] != 't' && s[i] != ' '))) return false;
  ++i;
  if (!Digits(s, &i, 2) || !Expect(s, &i, ':') || !Digits(s, &i, 2)) return false;
  if (i < s.size() && s[i] == ':') {
    ++i;
    if (!Digits(s, &i, 2)) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      size_t start = i;
      while (i < s.size() && IsDigit(s[i])) ++i;
      if (i == start) return false;
    }
  } else if (strict) {
    return false;
  }
  if (i == s.size()) return !strict;
  if (s[i] == 'Z' || (!strict && s[i] == 'z')) return i + 1 == s.size();
  if (s[i] == '+' || s[i] == '-') {
    ++i;
    if (!Digits(s, &i, 2)) return false;
    if (i < s.size() && s[i] == ':') {
      ++i;
    } else if (strict) {
      return false;
    }
    return Digits(s, &i, 2) && i == s.size();
  }
  return false;
}

bool IntegralIn(const Value& v, double lo, double hi) {
  if (v.is_integer()) {
    return static_cast<double>(v.as_int()) >= lo && static_cast<double>(v.as_int()) <= hi;
  }
  double d = v.as_double();
  return std::isfinite(d) && d == std::floor(d) && d >= lo && d <= hi;
}

}  // namespace

bool FormatHolds(Format format, const Value& v) {
  switch (format) {
    case Format::kNone:
      return true;
    case Format::kInt32:
      return !v.is_number() || IntegralIn(v, -2147483648.0, 2147483647.0);
    case Format::kInt64:
      return !v.is_number() || v.is_integer() ||
             IntegralIn(v, -9223372036854775808.0, 9223372036854775807.0 - 1024.0);
    case Format::kDateTime:
      return !v.is_string() || IsDateTime(v.as_string(), false);
    case Format::kDateTimeStrict:
      return !v.is_string() || IsDateTime(v.as_string(), true);
    case Format::kByte: {
      std::string decoded;
      return !v.is_string() || text::DecodeBase64(v.as_string(), /*padded=*/true, &decoded);
    }
    case Format::kQuantity:
      return !v.is_string() || ::wmap::IsQuantity(v.as_string());
  }
  return true;
}

std::string_view FormatName(Format format) {
  switch (format) {
    case Format::kNone:
      return "";
    case Format::kInt32:
      return "int32";
    case Format::kInt64:
      return "int64";
    case Format::kDateTime:
    case Format::kDateTimeStrict:
      return "date-time";
    case Format::kByte:
      return "byte";
    case Format::kQuantity:
      return "quantity";
  }
  return "";
}

uint8_t ValueBits(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return 0;
    case Type::kBoolean:
      return kBooleanBit;
    case Type::kNumber: {
      if (v.is_integer()) return kIntegerBit | kNumberBit;
      double d = v.as_double();
      return std::isfinite(d) && d == std::floor(d) ? (kIntegerBit | kNumberBit) : kNumberBit;
    }
    case Type::kString:
      return kStringBit;
    case Type::kArray:
      return kArrayBit;
    case Type::kObject:
      return kObjectBit;
  }
  return 0;
}

std::string_view ValueTypeName(const Value& v) {
  if (v.is_number()) return (ValueBits(v) & kIntegerBit) != 0 ? "integer" : "number";
  return TypeName(v.type());
}

std::string ExpectedTypes(uint8_t bits) {
  static constexpr std::pair<uint8_t, std::string_view> kNames[] = {
      {kObjectBit, "object"}, {kArrayBit, "array"},   {kIntegerBit, "integer"},
      {kStringBit, "string"}, {kNumberBit, "number"}, {kBooleanBit, "boolean"},
  };
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((bits & bit) == 0) continue;
    if (!out.empty()) out += " or ";
    out += name;
  }
  return out;
}

std::string ShowValue(const Value& v) {
  constexpr size_t kMaxShown = 120;
  std::string out;
  if (v.is_string()) {
    json::WriteString(v.as_string(), false, &out);
  } else if (v.is_number()) {
    json::FormatNumber(v, &out);
  } else {
    out = json::ToCompactString(v);
  }
  if (out.size() > kMaxShown) {
    out.resize(kMaxShown);
    out += "...";
  }
  return out;
}

}  // namespace wmap::schema
