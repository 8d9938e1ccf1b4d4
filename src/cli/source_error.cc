#include "cli/source_error.h"

#include <algorithm>
#include <cstdint>

namespace wmap::cli {
namespace {

constexpr size_t kWindowBefore = 48;
constexpr size_t kWindowWidth = 64;

bool IsWide(uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
         (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
         (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

// Length of the UTF-8 sequence starting with b (1 for ASCII and stray bytes).
size_t SeqLen(unsigned char b) {
  if (b >= 0xF0) return 4;
  if (b >= 0xE0) return 3;
  if (b >= 0xC0) return 2;
  return 1;
}

// Drops a truncated UTF-8 sequence at the end of s.
std::string_view TrimLastInvalid(std::string_view s) {
  for (size_t k = 1; k <= 4 && k <= s.size(); ++k) {
    unsigned char b = static_cast<unsigned char>(s[s.size() - k]);
    if (b < 0x80) return s;
    if (b >= 0xC0) {
      return SeqLen(b) > k ? s.substr(0, s.size() - k) : s;
    }
  }
  return s;
}

size_t IndexNewline(std::string_view s) {
  size_t nl = s.find('\n');
  size_t cr = s.substr(0, nl).find('\r');
  return cr != std::string_view::npos ? cr : nl;
}

struct LineInfo {
  std::string_view text;
  int line = 0;
  size_t column = 0;
};

// gojq's getLineByOffset: `offset` is 1-based (0 means the start).
LineInfo LineByOffset(std::string_view str, size_t offset) {
  LineInfo info;
  size_t pos = 0;
  size_t start = 0;
  while (pos < str.size()) {
    start = pos;
    std::string_view rest = str.substr(start);
    size_t i = IndexNewline(rest);
    ++info.line;
    if (i == std::string_view::npos) {
      info.text = rest;
      pos = str.size();
    } else {
      info.text = rest.substr(0, i);
      if (rest.substr(i).starts_with("\r\n")) ++i;
      pos = start + i + 1;
    }
    if (pos >= offset) break;
  }
  offset = offset >= start ? offset - start : 0;
  if (offset > info.text.size()) {
    offset = info.text.size();
  } else if (offset > 0) {
    --offset;
  }
  std::string_view text = info.text;
  if (offset > kWindowBefore) {
    size_t skip = TrimLastInvalid(text.substr(0, offset - kWindowBefore)).size();
    text = text.substr(skip);
    offset -= skip;
  }
  if (text.size() > kWindowWidth) text = text.substr(0, kWindowWidth);
  text = TrimLastInvalid(text);
  if (offset >= text.size()) {
    offset = text.size();
  } else {
    offset = TrimLastInvalid(text.substr(0, offset)).size();
  }
  info.text = text;
  info.column = DisplayWidth(text.substr(0, offset));
  return info;
}

std::string LineInfoBlock(std::string_view text, int line, size_t column) {
  std::string l = std::to_string(line);
  std::string out = "    " + l + " | ";
  out.append(text);
  out.push_back('\n');
  out.append(l.size() + column, ' ');
  out.append("       ^");
  return out;
}

}  // namespace

size_t DisplayWidth(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    size_t len = SeqLen(b);
    if (i + len > s.size()) len = 1;
    uint32_t cp = b;
    if (len > 1) {
      cp = b & (0x7F >> len);
      for (size_t k = 1; k < len; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    width += IsWide(cp) ? 2 : 1;
    i += len;
  }
  return width;
}

std::string FormatSourceError(const SourceErrorSpec& spec) {
  LineInfo info = LineByOffset(spec.contents, spec.offset + 1);
  info.line += spec.line_base;
  std::string out(spec.kind);
  out.append(": ");
  bool multiline = spec.contents.find_first_of("\r\n") != std::string_view::npos;
  bool line_layout = spec.query ? (spec.name != "<arg>" || multiline) : info.line > 1;
  if (spec.query && !line_layout) {
    out.append(spec.contents);
  } else {
    out.append(spec.name);
  }
  if (line_layout) {
    out.push_back(':');
    out.append(std::to_string(info.line));
    out.push_back('\n');
    out.append(LineInfoBlock(info.text, info.line, info.column));
  } else {
    out.append("\n    ");
    out.append(info.text);
    out.push_back('\n');
    out.append(info.column, ' ');
    out.append("    ^");
  }
  out.append("  ");
  out.append(spec.message);
  return out;
}

std::string FormatLineError(std::string_view kind, std::string_view name, std::string_view contents,
                            int line, int column, std::string_view message) {
  std::string out(kind);
  out.append(": ");
  out.append(name);
  if (line <= 0) return out;
  // Locate the line's text.
  std::string_view text;
  size_t pos = 0;
  for (int n = 1; pos <= contents.size(); ++n) {
    std::string_view rest = contents.substr(pos);
    size_t i = IndexNewline(rest);
    std::string_view cur = i == std::string_view::npos ? rest : rest.substr(0, i);
    if (n == line) {
      text = cur;
      break;
    }
    if (i == std::string_view::npos) break;
    if (rest.substr(i).starts_with("\r\n")) ++i;
    pos += i + 1;
  }
  if (text.size() > kWindowWidth) text = TrimLastInvalid(text.substr(0, kWindowWidth));
  size_t col =
      column > 1 ? DisplayWidth(text.substr(0, std::min<size_t>(column - 1, text.size()))) : 0;
  out.push_back(':');
  out.append(std::to_string(line));
  out.push_back('\n');
  out.append(LineInfoBlock(text, line, col));
  out.append("  ");
  out.append(message);
  return out;
}

}  // namespace wmap::cli
