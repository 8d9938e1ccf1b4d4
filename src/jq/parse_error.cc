#include "jq/parse_error.h"

#include <cstdint>
#include <string>

namespace wmap::jq {
namespace {

// Decodes one UTF-8 code point at s[i]. Returns the number of bytes consumed (1 for an invalid
// byte, with *cp = U+FFFD), like Go's utf8.DecodeRuneInString.
size_t DecodeRune(std::string_view s, size_t i, uint32_t* cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  *cp = 0xFFFD;
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t n;
  uint32_t v;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
    v = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    v = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    v = b0 & 0x07;
  } else {
    return 1;
  }
  if (i + n > s.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 1;
    v = (v << 6) | (b & 0x3F);
  }
  if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
      (v >= 0xD800 && v <= 0xDFFF)) {
    return 1;
  }
  *cp = v;
  return n;
}

struct Range {
  uint32_t lo, hi;
};

// Characters that take two columns (East Asian Wide and Fullwidth, and emoji presentation).
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD},
};

// Characters that take no column (combining marks, zero-width characters, controls).
constexpr Range kZero[] = {
    {0x0000, 0x001F}, {0x007F, 0x009F}, {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD},
    {0x05BF, 0x05BF}, {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8},
    {0x06EA, 0x06ED}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x200B, 0x200F},
    {0x2028, 0x202E}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
};

template <size_t N>
bool InRanges(const Range (&ranges)[N], uint32_t cp) {
  size_t lo = 0, hi = N;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (cp > ranges[mid].hi) {
      lo = mid + 1;
    } else if (cp < ranges[mid].lo) {
      hi = mid;
    } else {
      return true;
    }
  }
  return false;
}

// Drops a trailing incomplete or invalid UTF-8 sequence, as gojq does before printing a line.
std::string_view TrimLastInvalidRune(std::string_view s) {
  const size_t len = s.size();
  for (size_t k = 0; k < len && k < 3; ++k) {
    const size_t i = len - 1 - k;
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) return s.substr(0, i + 1);
    if ((b & 0xC0) != 0x80) {  // a leading byte
      uint32_t cp;
      DecodeRune(s, i, &cp);
      if (cp == 0xFFFD) return s.substr(0, i);
      break;
    }
  }
  return s;
}

// Splits at "\n", "\r\n" or "\r" like gojq's line scanner.
struct LineScanner {
  std::string_view str;
  size_t offset = 0;

  bool Next(std::string_view* line, size_t* start) {
    if (offset == str.size()) return false;
    *start = offset;
    std::string_view rest = str.substr(offset);
    size_t i = rest.find('\n');
    std::string_view head = i == std::string_view::npos ? rest : rest.substr(0, i);
    const size_t j = head.find('\r');
    if (j != std::string_view::npos) i = j;
    if (i == std::string_view::npos) {
      offset = str.size();
      *line = rest;
      return true;
    }
    *line = rest.substr(0, i);
    if (rest.substr(i).starts_with("\r\n")) ++i;
    offset += i + 1;
    return true;
  }
};

struct LineInfo {
  std::string_view text;
  int line = 0;
  size_t column = 0;
};

// gojq's getLineByOffset: `offset` is 1-based (the caret goes under byte offset-1).
LineInfo LineByOffset(std::string_view str, size_t offset) {
  LineInfo info;
  LineScanner scanner{str};
  std::string_view line;
  size_t start = 0;
  for (;;) {
    std::string_view l;
    size_t s = 0;
    if (!scanner.Next(&l, &s)) {
      start = 0;
      break;
    }
    ++info.line;
    line = l;
    start = s;
    if (scanner.offset >= offset) break;
  }
  size_t off = offset >= start ? offset - start : 0;
  if (off > line.size()) {
    off = line.size();
  } else if (off > 0) {
    --off;
  }
  if (off > 48) {
    const size_t skip = TrimLastInvalidRune(line.substr(0, off - 48)).size();
    line = line.substr(skip);
    off -= skip;
  }
  if (line.size() > 64) line = line.substr(0, 64);
  line = TrimLastInvalidRune(line);
  if (off >= line.size()) {
    off = line.size();
  } else {
    off = TrimLastInvalidRune(line.substr(0, off)).size();
  }
  info.text = line;
  info.column = DisplayWidth(line.substr(0, off));
  return info;
}

}  // namespace

size_t DisplayWidth(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp;
    i += DecodeRune(s, i, &cp);
    if (InRanges(kZero, cp)) continue;
    width += InRanges(kWide, cp) ? 2 : 1;
  }
  return width;
}

std::string QuoteForMessage(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      switch (b) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (b < 0x20 || b == 0x7F) {
            out += "\\u00";
            out += kHex[b >> 4];
            out += kHex[b & 0xF];
          } else {
            out += static_cast<char>(b);
          }
      }
      ++i;
      continue;
    }
    uint32_t cp;
    const size_t n = DecodeRune(s, i, &cp);
    if (n == 1) {
      out += "\\ufffd";
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  out += '"';
  return out;
}

std::string GoQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\x";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out += "\"";
  return out;
}

std::string CaretHint(std::string_view query, size_t offset) {
  const LineInfo info = LineByOffset(query, offset + 1);
  std::string out(info.text);
  out += '\n';
  out.append(info.column, ' ');
  out += '^';
  return out;
}

std::string FormatQueryError(std::string_view query, const Error& error,
                             std::string_view file_name) {
  if (!error.position.known()) return "compile error: " + error.message;
  const LineInfo info = LineByOffset(query, error.position.offset + 1);
  const bool multiline = query.find_first_of("\r\n") != std::string_view::npos;
  std::string out = "invalid query: ";
  if (file_name != "<arg>" || multiline) {
    const std::string line = std::to_string(info.line);
    out.append(file_name);
    out += ':';
    out += line;
    out += "\n    ";
    out += line;
    out += " | ";
    out.append(info.text);
    out += '\n';
    out.append(line.size() + info.column, ' ');
    out += "       ^  ";
  } else {
    out.append(query);
    out += "\n    ";
    out.append(info.text);
    out += '\n';
    out.append(info.column, ' ');
    out += "    ^  ";
  }
  out += error.message;
  return out;
}

}  // namespace wmap::jq
