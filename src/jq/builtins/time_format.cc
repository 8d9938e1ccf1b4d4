#include "jq/builtins/time_format.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace wmap::jq::builtins {
namespace {

constexpr std::array<std::string_view, 12> kLongMonths = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<std::string_view, 12> kShortMonths = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<std::string_view, 7> kLongDays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 7> kShortDays = {"Sun", "Mon", "Tue", "Wed",
                                                        "Thu", "Fri", "Sat"};
constexpr int kMaxWidth = 1024;

// Directives that expand to other directives (separators are copied literally).
std::string_view Composition(char c) {
  switch (c) {
    case 'c':
      return "a b e H:M:S Y";
    case '+':
      return "a b e H:M:S Z Y";
    case 'F':
      return "Y-m-d";
    case 'D':
    case 'x':
      return "m/d/y";
    case 'v':
      return "e-b-Y";
    case 'T':
    case 'X':
      return "H:M:S";
    case 'r':
      return "I:M:S p";
    case 'R':
      return "H:M";
    default:
      return {};
  }
}

// Padding of one directive: none ('-' flag), or a fill character that is either the directive's
// default or chosen explicitly by a flag.
struct Pad {
  bool none = false;
  bool explicit_fill = false;
  char fill = '0';
};

void AppendInt(std::string* out, int64_t num, int width, Pad pad) {
  std::string digits = std::to_string(num < 0 ? -num : num);
  bool negative = num < 0;
  size_t len = digits.size() + (negative ? 1 : 0);
  if (pad.none || static_cast<size_t>(width) <= len) {
    if (negative) out->push_back('-');
    out->append(digits);
    return;
  }
  size_t fill = static_cast<size_t>(width) - len;
  if (pad.fill == '0') {
    if (negative) out->push_back('-');
    out->append(fill, '0');
  } else {
    out->append(fill, pad.fill);
    if (negative) out->push_back('-');
  }
  out->append(digits);
}

void AppendText(std::string* out, std::string_view s, int width, Pad pad, bool upper, bool swap) {
  if (!pad.none && static_cast<size_t>(width) > s.size()) {
    char fill = pad.explicit_fill ? pad.fill : ' ';
    out->append(static_cast<size_t>(width) - s.size(), fill);
  }
  if (swap && !s.empty() && s.back() < 'a') {
    for (char c : s) out->push_back(static_cast<char>(c | 0x20));
  } else if (swap || upper) {
    for (char c : s) out->push_back(static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c));
  } else {
    out->append(s);
  }
}

void AppendZone(std::string* out, int64_t offset, int colons) {
  out->push_back(offset < 0 ? '-' : '+');
  if (offset < 0) offset = -offset;
  Pad zero;
  AppendInt(out, offset / 3600, 2, zero);
  int64_t rest = offset % 3600;
  if (colons <= 2 || rest != 0) {
    if (colons != 0) out->push_back(':');
    AppendInt(out, rest / 60, 2, zero);
    rest %= 60;
    if (colons == 2 || (colons == 3 && rest != 0)) {
      out->push_back(':');
      AppendInt(out, rest, 2, zero);
    }
  }
}

}  // namespace

std::string FormatTime(const CivilTime& t, int64_t unix_seconds, std::string_view format) {
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    size_t start = i;
    if (++i == format.size()) {
      out.push_back('%');
      break;
    }
    Pad pad;
    int width = 0;
    bool upper = false;
    bool swap = false;
    int colons = 0;
    // Flags and width.
    while (i < format.size()) {
      char f = format[i];
      if (f == '-') {
        pad.none = true;
      } else if (f == '_') {
        pad = {false, true, ' '};
      } else if (f == '0') {
        pad = {false, true, '0'};
      } else if (f == '^') {
        upper = true;
      } else if (f == '#') {
        swap = true;
      } else if (f == ':') {
        ++colons;
      } else if (f >= '1' && f <= '9') {
        width = 0;
        while (i < format.size() && format[i] >= '0' && format[i] <= '9') {
          width = std::min(kMaxWidth, width * 10 + (format[i] - '0'));
          ++i;
        }
        if (pad.none) pad = {false, true, ' '};
        continue;
      } else {
        break;
      }
      ++i;
    }
    if (i == format.size()) {
      out.append(format.substr(start));
      break;
    }
    char c = format[i];
    std::string_view comp = Composition(c);
    std::string expansion;
    if (!comp.empty()) {
      for (char p : comp) {
        if ((p >= 'a' && p <= 'z') || (p >= 'A' && p <= 'Z')) {
          expansion.push_back('%');
        }
        expansion.push_back(p);
      }
      std::string sub = FormatTime(t, unix_seconds, expansion);
      if (upper || swap) {
        for (char& ch : sub) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
      }
      if (!pad.none && static_cast<size_t>(width) > sub.size()) {
        out.append(static_cast<size_t>(width) - sub.size(), pad.explicit_fill ? pad.fill : ' ');
      }
      out.append(sub);
      continue;
    }
    Pad space_default = pad;
    if (!pad.explicit_fill && !pad.none) space_default.fill = ' ';
    int hour12 = t.hour % 12 == 0 ? 12 : t.hour % 12;
    switch (c) {
      case 'Y':
        AppendInt(&out, t.year, width == 0 ? 4 : width, pad);
        break;
      case 'y':
        AppendInt(&out, t.year % 100, std::max(width, 2), pad);
        break;
      case 'C':
        AppendInt(&out, t.year / 100, std::max(width, 2), pad);
        break;
      case 'g':
      case 'G': {
        int64_t iso_year;
        int iso_week;
        IsoWeek(t, &iso_year, &iso_week);
        if (c == 'g') {
          AppendInt(&out, iso_year % 100, std::max(width, 2), pad);
        } else {
          AppendInt(&out, iso_year, width == 0 ? 4 : width, pad);
        }
        break;
      }
      case 'V': {
        int64_t iso_year;
        int iso_week;
        IsoWeek(t, &iso_year, &iso_week);
        AppendInt(&out, iso_week, std::max(width, 2), pad);
        break;
      }
      case 'm':
        AppendInt(&out, t.month, std::max(width, 2), pad);
        break;
      case 'B':
        AppendText(&out, kLongMonths[t.month - 1], width, pad, upper, swap);
        break;
      case 'b':
      case 'h':
        AppendText(&out, kShortMonths[t.month - 1], width, pad, upper, swap);
        break;
      case 'A':
        AppendText(&out, kLongDays[t.weekday], width, pad, upper, swap);
        break;
      case 'a':
        AppendText(&out, kShortDays[t.weekday], width, pad, upper, swap);
        break;
      case 'w':
        AppendInt(&out, t.weekday, width, pad);
        break;
      case 'u':
        AppendInt(&out, t.weekday == 0 ? 7 : t.weekday, width, pad);
        break;
      case 'U':
        AppendInt(&out, (t.yday + 1 + 6 - t.weekday) / 7, std::max(width, 2), pad);
        break;
      case 'W': {
        int week = t.yday + 1;
        if (t.weekday > 0) week -= t.weekday - 7;
        AppendInt(&out, week / 7, std::max(width, 2), pad);
        break;
      }
      case 'e':
        AppendInt(&out, t.day, std::max(width, 2), space_default);
        break;
      case 'd':
        AppendInt(&out, t.day, std::max(width, 2), pad);
        break;
      case 'j':
        AppendInt(&out, t.yday + 1, std::max(width, 3), pad);
        break;
      case 'k':
        AppendInt(&out, t.hour, std::max(width, 2), space_default);
        break;
      case 'H':
        AppendInt(&out, t.hour, std::max(width, 2), pad);
        break;
      case 'l':
        AppendInt(&out, t.hour > 12 ? t.hour - 12 : t.hour, std::max(width, 2), space_default);
        break;
      case 'I':
        AppendInt(&out, hour12, std::max(width, 2), pad);
        break;
      case 'p':
        AppendText(&out, t.hour < 12 ? "AM" : "PM", width, pad, upper, swap);
        break;
      case 'P':
        AppendText(&out, t.hour < 12 ? "am" : "pm", width, pad, upper, swap);
        break;
      case 'M':
        AppendInt(&out, t.minute, std::max(width, 2), pad);
        break;
      case 'S':
        AppendInt(&out, t.second, std::max(width, 2), pad);
        break;
      case 's':
        AppendInt(&out, unix_seconds, width, space_default);
        break;
      case 'f':
        AppendInt(&out, t.nanos / 1000, width == 0 ? 6 : width, pad);
        break;
      case 'Z':
        if (!t.zone.empty()) {
          AppendText(&out, t.zone, width, pad, upper, swap);
          break;
        }
        AppendZone(&out, t.offset, colons);
        break;
      case 'z':
        AppendZone(&out, t.offset, colons);
        break;
      case 't':
        AppendText(&out, "\t", width, pad, false, false);
        break;
      case 'n':
        AppendText(&out, "\n", width, pad, false, false);
        break;
      case '%':
        AppendText(&out, "%", width, pad, false, false);
        break;
      default:
        out.append(format.substr(start, i - start + 1));
        break;
    }
  }
  return out;
}

namespace {

// Reads up to `size` digits at source[*pos]; false when there is none.
bool ParseDigits(std::string_view source, size_t* pos, size_t size, int64_t* value) {
  size_t end = std::min(source.size(), *pos + size);
  size_t i = *pos;
  int64_t v = 0;
  while (i < end && source[i] >= '0' && source[i] <= '9') v = v * 10 + (source[i++] - '0');
  if (i == *pos) return false;
  *value = v;
  *pos = i;
  return true;
}

// Case-insensitive match of one of `names` at source[*pos]; returns the 1-based index or 0.
template <size_t N>
int Lookup(std::string_view source, size_t* pos, const std::array<std::string_view, N>& names) {
  for (size_t k = 0; k < N; ++k) {
    std::string_view n = names[k];
    if (source.size() - *pos < n.size()) continue;
    bool ok = true;
    for (size_t j = 0; j < n.size(); ++j) {
      if ((n[j] | 0x20) != (source[*pos + j] | 0x20)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      *pos += n.size();
      return static_cast<int>(k) + 1;
    }
  }
  return 0;
}

std::string Quote(std::string_view s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r.push_back('\\');
    r.push_back(c);
  }
  r.push_back('"');
  return r;
}

}  // namespace

bool ParseTime(std::string_view source, std::string_view format, int64_t* unix_seconds,
               int64_t* nanos, std::string* error) {
  int64_t year = 1900, month = 1, day = 1, hour = 0, minute = 0, second = 0, nsec = 0;
  int64_t century = -1, yday = 0, offset = 0;
  bool pm = false;
  size_t j = 0;
  auto fail = [&](std::string why) {
    *error = "failed to parse " + Quote(source) + " with " + Quote(format) + ": " + why;
    return false;
  };
  auto cannot = [&](char c) { return fail(std::string("cannot parse %") + c); };
  auto expected = [&](char c) { return fail(std::string("expected '") + c + "'"); };
  std::string pending;
  for (size_t i = 0; i < format.size() || !pending.empty();) {
    char b;
    bool directive;
    if (!pending.empty()) {
      b = pending[0];
      pending.erase(0, 1);
      directive = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    } else if (format[i] == '%') {
      if (++i == format.size()) return fail("stray %");
      b = format[i++];
      directive = true;
    } else {
      b = format[i++];
      directive = false;
    }
    if (!directive) {
      if (j >= source.size() || source[j] != b) return expected(b);
      ++j;
      continue;
    }
    int64_t v = 0;
    switch (b) {
      case 'Y':
        if (!ParseDigits(source, &j, 4, &year)) return cannot(b);
        break;
      case 'y':
        if (!ParseDigits(source, &j, 2, &year)) return cannot(b);
        year += year < 69 ? 2000 : 1900;
        break;
      case 'C':
        if (!ParseDigits(source, &j, 2, &century)) return cannot(b);
        break;
      case 'g':
        if (!ParseDigits(source, &j, 2, &year)) return cannot(b);
        year += 2000;
        break;
      case 'G':
        if (!ParseDigits(source, &j, 4, &year)) return cannot(b);
        break;
      case 'm':
        if (!ParseDigits(source, &j, 2, &month)) return cannot(b);
        break;
      case 'B':
        if ((month = Lookup(source, &j, kLongMonths)) == 0) return cannot(b);
        break;
      case 'b':
      case 'h':
        if ((month = Lookup(source, &j, kShortMonths)) == 0) return cannot(b);
        break;
      case 'A':
        if (Lookup(source, &j, kLongDays) == 0) return cannot(b);
        break;
      case 'a':
        if (Lookup(source, &j, kShortDays) == 0) return cannot(b);
        break;
      case 'w':
        if (j >= source.size() || source[j] < '0' || source[j] > '6') return cannot(b);
        ++j;
        break;
      case 'u':
        if (j >= source.size() || source[j] < '1' || source[j] > '7') return cannot(b);
        ++j;
        break;
      case 'V':
      case 'U':
      case 'W':
        if (!ParseDigits(source, &j, 2, &v)) return cannot(b);
        break;
      case 'e':
        if (j < source.size() && source[j] == ' ') ++j;
        [[fallthrough]];
      case 'd':
        if (!ParseDigits(source, &j, 2, &day)) return cannot(b);
        break;
      case 'j':
        if (!ParseDigits(source, &j, 3, &yday)) return cannot(b);
        break;
      case 'k':
        if (j < source.size() && source[j] == ' ') ++j;
        [[fallthrough]];
      case 'H':
        if (!ParseDigits(source, &j, 2, &hour)) return cannot(b);
        break;
      case 'l':
        if (j < source.size() && source[j] == ' ') ++j;
        [[fallthrough]];
      case 'I':
        if (!ParseDigits(source, &j, 2, &hour)) return cannot(b);
        if (hour == 12) hour = 0;
        break;
      case 'p':
      case 'P': {
        static constexpr std::array<std::string_view, 2> kAmPm = {"AM", "PM"};
        int k = Lookup(source, &j, kAmPm);
        if (k == 0) return cannot('p');
        pm = k == 2;
        break;
      }
      case 'M':
        if (!ParseDigits(source, &j, 2, &minute)) return cannot(b);
        break;
      case 'S':
        if (!ParseDigits(source, &j, 2, &second)) return cannot(b);
        break;
      case 's': {
        if (!ParseDigits(source, &j, 10, &v)) return cannot(b);
        CivilTime t = CivilFromUnix(v, 0, 0, "UTC");
        year = t.year;
        month = t.month;
        day = t.day;
        hour = t.hour;
        minute = t.minute;
        second = t.second;
        break;
      }
      case 'f': {
        size_t before = j;
        if (!ParseDigits(source, &j, 6, &v)) return cannot(b);
        nsec = v * 1000;
        for (size_t d = j - before; d < 6; ++d) nsec *= 10;
        break;
      }
      case 'Z': {
        size_t k = j;
        while (k < source.size() && source[k] >= 'A' && source[k] <= 'Z') ++k;
        if (k - j < 3 && source.substr(j, k - j) != "Z") {
          return fail("cannot parse " + Quote(source.substr(j, k - j)) + " with \"%Z\"");
        }
        offset = 0;
        j = k;
        break;
      }
      case 'z': {
        if (j >= source.size()) return fail("cannot parse %z");
        char sign = source[j];
        if (sign == 'Z') {
          offset = 0;
          ++j;
          break;
        }
        if (sign != '+' && sign != '-') return fail("cannot parse %z");
        size_t k = j + 1;
        int64_t h = 0, m = 0;
        if (!ParseDigits(source, &k, 2, &h) || k != j + 3) return fail("cannot parse %z");
        if (k < source.size() && source[k] == ':') ++k;
        size_t before = k;
        if (!ParseDigits(source, &k, 2, &m) || k != before + 2) {
          k = before;
          m = 0;
        }
        offset = (sign == '-' ? -1 : 1) * (h * 3600 + m * 60);
        j = k;
        break;
      }
      case 't':
      case 'n': {
        size_t k = j;
        while (k < source.size() &&
               (source[k] == ' ' || (source[k] >= '\t' && source[k] <= '\r'))) {
          ++k;
        }
        if (k == j) return fail(std::string("expected a space for %") + b);
        j = k;
        break;
      }
      case '%':
        if (j >= source.size() || source[j] != '%') return expected('%');
        ++j;
        break;
      default: {
        std::string_view comp = Composition(b);
        if (comp.empty()) return fail(std::string("unexpected format: \"%") + b + "\"");
        pending = std::string(comp) + pending;
        break;
      }
    }
  }
  if (j < source.size()) return fail("unconverted string: " + Quote(source.substr(j)));
  if (pm) hour += 12;
  if (century >= 0) year = century * 100 + year % 100;
  std::optional<int64_t> seconds =
      yday > 0 ? UnixFromFields(year, 1, yday, hour, minute, second, offset)
               : UnixFromFields(year, month, day, hour, minute, second, offset);
  if (!seconds) return fail("date out of range");
  *unix_seconds = *seconds;
  *nanos = nsec;
  return true;
}

}  // namespace wmap::jq::builtins
