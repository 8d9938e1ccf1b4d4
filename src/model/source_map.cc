#include "model/source_map.h"

namespace wmap::model {
namespace {

// The position of byte `target` (>= from.offset), counting lines forward from `from`.
Position Advance(std::string_view source, Position from, size_t target) {
  Position p = from;
  size_t line_start = from.offset - static_cast<size_t>(from.column - 1);
  for (size_t i = from.offset; i < target && i < source.size(); ++i) {
    if (source[i] == '\n') {
      ++p.line;
      line_start = i + 1;
    }
  }
  p.offset = target;
  p.column = static_cast<int>(target - line_start) + 1;
  return p;
}

size_t SkipBlanks(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

}  // namespace

Position MapScalarOffset(std::string_view source, Position field, bool is_member,
                         std::string_view scalar_text, size_t offset) {
  if (!field.known() || field.column < 1 || field.offset >= source.size()) return field;
  size_t i = field.offset;
  if (is_member) {
    if (source[i] == '"' || source[i] == '\'') {
      char quote = source[i];
      for (++i; i < source.size() && source[i] != quote && source[i] != '\n'; ++i) {
        if (quote == '"' && source[i] == '\\') ++i;
      }
      ++i;
    }
    while (i < source.size() && source[i] != ':' && source[i] != '\n') ++i;
    if (i >= source.size() || source[i] != ':') return field;
    i = SkipBlanks(source, i + 1);
  }
  if (i >= source.size()) return field;
  std::string_view before =
      scalar_text.substr(0, offset < scalar_text.size() ? offset : scalar_text.size());
  size_t newlines = 0;
  size_t last_newline = std::string_view::npos;
  for (size_t k = 0; k < before.size(); ++k) {
    if (before[k] == '\n') {
      ++newlines;
      last_newline = k;
    }
  }
  char c = source[i];
  if (c == '|' || c == '>') {
    // Block scalar: content starts on the first non-empty line after the indicator line.
    size_t eol = source.find('\n', i);
    if (eol == std::string_view::npos) return field;
    size_t line = eol + 1;
    while (line < source.size()) {
      size_t indent_end = SkipBlanks(source, line);
      if (indent_end < source.size() && source[indent_end] != '\n') break;
      line = indent_end + 1;
    }
    if (line >= source.size()) return field;
    size_t indent = 0;
    while (line + indent < source.size() && source[line + indent] == ' ') ++indent;
    if (c == '>') return Advance(source, field, line + indent);
    // Literal: scalar line k is source line k after the first content line.
    size_t at = line;
    for (size_t k = 0; k < newlines; ++k) {
      size_t next = source.find('\n', at);
      if (next == std::string_view::npos) return Advance(source, field, line + indent);
      at = next + 1;
    }
    size_t column_in_line =
        last_newline == std::string_view::npos ? before.size() : before.size() - last_newline - 1;
    return Advance(source, field, at + indent + column_in_line);
  }
  if (newlines > 0) return Advance(source, field, i);
  size_t start = (c == '"' || c == '\'') ? i + 1 : i;
  return Advance(source, field, start + before.size());
}

}  // namespace wmap::model
