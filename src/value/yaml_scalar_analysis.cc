#include "value/yaml_scalar_analysis.h"
#include "wmap/text.h"

namespace wmap::yaml::internal {

bool IsPrintable(std::string_view s, size_t i) {
  unsigned char c = At(s, i);
  unsigned char c1 = At(s, i + 1);
  unsigned char c2 = At(s, i + 2);
  return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c == 0xC2 && c1 >= 0xA0) ||
         (c > 0xC2 && c < 0xED) || (c == 0xED && c1 < 0xA0) || c == 0xEE ||
         (c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)));
}

Analysis Analyze(std::string_view value, bool tab_is_special) {
  Analysis a;
  if (value.empty()) {
    a.block_allowed = false;
    return a;
  }
  bool block_indicators = false;
  bool line_breaks = false;
  bool special_characters = false;
  bool tab_characters = false;
  bool leading_space = false, leading_break = false;
  bool trailing_space = false, trailing_break = false;
  bool break_space = false, space_break = false;
  bool previous_space = false, previous_break = false;
  if (value.size() >= 3 && (value.substr(0, 3) == "---" || value.substr(0, 3) == "...")) {
    block_indicators = true;
  }
  bool preceded_by_whitespace = true;
  for (size_t i = 0, w = 0; i < value.size(); i += w) {
    auto c = static_cast<unsigned char>(value[i]);
    w = text::Utf8LengthFromLead(c);
    // Whether the next character is blank (v3: space or tab; v2 also a break or the end).
    auto followed_by_whitespace = [&] {
      return tab_is_special ? IsBlankz(value, i + w)
                            : (i + w >= value.size() || IsBlank(value, i + w));
    };
    if (i == 0) {
      switch (c) {
        case '#':
        case ',':
        case '[':
        case ']':
        case '{':
        case '}':
        case '&':
        case '*':
        case '!':
        case '|':
        case '>':
        case '\'':
        case '"':
        case '%':
        case '@':
        case '`':
          block_indicators = true;
          break;
        case '?':
        case ':':
        case '-':
          if (followed_by_whitespace()) block_indicators = true;
          break;
        default:
          break;
      }
    } else if (c == ':') {
      if (followed_by_whitespace()) block_indicators = true;
    } else if (c == '#') {
      if (preceded_by_whitespace) block_indicators = true;
    }
    bool is_break;
    if (c < 0x80) {
      // ASCII: printable is LF or 0x20-0x7E; tabs are treated by the caller's rule.
      if (c == '\t' && !tab_is_special) {
        tab_characters = true;
      } else if (c != '\n' && (c < 0x20 || c > 0x7E)) {
        special_characters = true;
      }
      is_break = c == '\n' || c == '\r';
    } else {
      if (!IsPrintable(value, i)) special_characters = true;
      is_break = IsBreak(value, i);
    }
    if (c == ' ') {
      if (i == 0) leading_space = true;
      if (i + w == value.size()) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (is_break) {
      line_breaks = true;
      if (i == 0) leading_break = true;
      if (i + w == value.size()) trailing_break = true;
      if (previous_space) space_break = true;
      previous_space = false;
      previous_break = true;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = c == ' ' || c == '\t' || c == '\0' || is_break;
  }
  a.multiline = line_breaks;
  if (leading_space || leading_break || trailing_space || trailing_break) {
    a.block_plain_allowed = false;
  }
  if (trailing_space) a.block_allowed = false;
  if (break_space) {
    a.block_plain_allowed = false;
    a.single_quoted_allowed = false;
  }
  if (space_break || tab_characters || special_characters) {
    a.block_plain_allowed = false;
    a.single_quoted_allowed = false;
  }
  if (space_break || special_characters) a.block_allowed = false;
  if (line_breaks) a.block_plain_allowed = false;
  if (block_indicators) a.block_plain_allowed = false;
  return a;
}

bool HasBreak(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (IsBreak(s, i)) return true;
  }
  return false;
}

bool NeedsEscape(std::string_view s) {
  if (s.size() >= 3 && At(s, 0) == 0xEF && At(s, 1) == 0xBB && At(s, 2) == 0xBF) return true;
  for (size_t i = 0; i < s.size();
       i += text::Utf8LengthFromLead(static_cast<unsigned char>(s[i]))) {
    if (!IsPrintable(s, i) || IsBreak(s, i) || s[i] == '"' || s[i] == '\\') return true;
  }
  return false;
}

}  // namespace wmap::yaml::internal
