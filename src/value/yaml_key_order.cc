#include "value/yaml_key_order.h"

#include <cstdint>
#include <vector>

#include "wmap/text.h"

namespace wmap::yaml::internal {
namespace {

// Decodes UTF-8 to code points; an invalid byte becomes U+FFFD, as Go's []rune conversion does.
std::vector<char32_t> Runes(std::string_view s) {
  std::vector<char32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) out.push_back(text::DecodeUtf8(s, &i));
  return out;
}

bool IsDigitRune(char32_t r) { return r >= '0' && r <= '9'; }

bool IsLetterRune(char32_t r) {
  if (r < 0x80) return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z');
  if (r == 0xAA || r == 0xB5 || r == 0xBA) return true;
  if (r >= 0xC0 && r <= 0x24F) return r != 0xD7 && r != 0xF7;
  if (r >= 0x370 && r <= 0x3FF) return r != 0x37E && r != 0x387;      // Greek
  if (r >= 0x400 && r <= 0x52F) return r < 0x482 || r > 0x489;        // Cyrillic
  if (r >= 0x5D0 && r <= 0x5EA) return true;                          // Hebrew
  if (r >= 0x620 && r <= 0x64A) return true;                          // Arabic
  if (r >= 0x3041 && r <= 0x30FF) return r != 0x30A0 && r != 0x30FB;  // Kana
  if (r >= 0x4E00 && r <= 0x9FFF) return true;                        // CJK ideographs
  if (r >= 0xAC00 && r <= 0xD7A3) return true;                        // Hangul
  return false;
}

}  // namespace

bool KeyLess(std::string_view a_text, std::string_view b_text) {
  std::vector<char32_t> a = Runes(a_text);
  std::vector<char32_t> b = Runes(b_text);
  bool digits = false;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) {
      digits = IsDigitRune(a[i]);
      continue;
    }
    bool al = IsLetterRune(a[i]);
    bool bl = IsLetterRune(b[i]);
    if (al && bl) return a[i] < b[i];
    if (al || bl) return digits ? al : bl;
    // Go's int64 arithmetic wraps on long digit runs; unsigned arithmetic reproduces that.
    uint64_t an = 0;
    uint64_t bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (size_t j = i; j-- > 0 && IsDigitRune(a[j]);) {
        if (a[j] != '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    size_t ai = i;
    for (; ai < a.size() && IsDigitRune(a[ai]); ++ai) an = an * 10 + (a[ai] - '0');
    size_t bi = i;
    for (; bi < b.size() && IsDigitRune(b[bi]); ++bi) bn = bn * 10 + (b[bi] - '0');
    if (an != bn) return static_cast<int64_t>(an) < static_cast<int64_t>(bn);
    if (ai != bi) return ai < bi;
    return a[i] < b[i];
  }
  return a.size() < b.size();
}

}  // namespace wmap::yaml::internal
