// Character classes and scalar analysis of go-yaml's emitter, used by the YAML writer to pick a
// scalar style. Private to the value layer. Positions index the first byte of a UTF-8
// character; reads past the end see NUL.
#ifndef WMAP_SRC_VALUE_YAML_SCALAR_ANALYSIS_H_
#define WMAP_SRC_VALUE_YAML_SCALAR_ANALYSIS_H_

#include <cstddef>
#include <string_view>

#include "wmap/text.h"

namespace wmap::yaml::internal {

inline unsigned char At(std::string_view s, size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

inline bool IsSpace(std::string_view s, size_t i) { return At(s, i) == ' '; }

inline bool IsBreak(std::string_view s, size_t i) {
  unsigned char c = At(s, i);
  if (i >= s.size()) return false;
  return c == '\r' || c == '\n' || (c == 0xC2 && At(s, i + 1) == 0x85) ||
         (c == 0xE2 && At(s, i + 1) == 0x80 && (At(s, i + 2) == 0xA8 || At(s, i + 2) == 0xA9));
}

inline bool IsBlank(std::string_view s, size_t i) {
  return i < s.size() && (s[i] == ' ' || s[i] == '\t');
}

inline bool IsBlankz(std::string_view s, size_t i) {
  return i >= s.size() || s[i] == '\0' || IsBlank(s, i) || IsBreak(s, i);
}

// go-yaml's "printable": LF, 0x20-0x7E, and Unicode up to U+FFFD except surrogates, the byte
// order mark and U+FFFE/U+FFFF; characters beyond the BMP are not printable (they are escaped).
bool IsPrintable(std::string_view s, size_t i);

// What the emitter may do with a scalar's text.
struct Analysis {
  bool multiline = false;
  bool block_plain_allowed = true;
  bool single_quoted_allowed = true;
  bool block_allowed = true;
};

// go-yaml's scalar analysis for block context. tab_is_special: v2 (libyaml) treats a tab as a
// non-printable character; v3 forbids only plain and single-quoted styles for it.
Analysis Analyze(std::string_view value, bool tab_is_special);

// Number of characters (not bytes) in UTF-8 text.

bool HasBreak(std::string_view s);
// Whether the double-quoted writer must escape some character of s (as go-yaml decides).
bool NeedsEscape(std::string_view s);

}  // namespace wmap::yaml::internal

#endif  // WMAP_SRC_VALUE_YAML_SCALAR_ANALYSIS_H_
