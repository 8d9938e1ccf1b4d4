// A process-wide cache of compiled regular expressions, with gojq's flag handling.
#ifndef WMAP_JQ_BUILTINS_REGEX_CACHE_H_
#define WMAP_JQ_BUILTINS_REGEX_CACHE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "re2/re2.h"

namespace wmap::jq::builtins {

// A compiled expression, whether the flags asked for every match ("g") and whether empty
// matches are to be ignored ("n").
struct CompiledRegex {
  std::shared_ptr<const RE2> re;
  bool global = false;
  bool skip_empty = false;
};

// Compiles `pattern` with jq flags (empty for none) the way gojq does: "(?<name>" becomes a named
// group, "i" prepends (?i), "m" prepends (?s), "g" asks for every match. jq's other Oniguruma
// flags are mapped too: "x" drops whitespace and #-comments outside classes, "n" ignores empty
// matches, "l" prefers the longest match, "s" is the default single-line mode and "p" is "s"
// with "x". On failure returns false and sets *error to gojq's message (unsupported flag, or
// invalid regular expression with Go's wording). Thread-safe; at most kRegexCacheCapacity
// expressions stay cached, least recently used first out.
bool CompileRegex(std::string_view pattern, std::string_view flags, CompiledRegex* out,
                  std::string* error);

inline constexpr size_t kRegexCacheCapacity = 128;
// Memory budget of one compiled expression, so the whole cache stays within a few hundred MiB.
inline constexpr int64_t kRegexMaxMemory = 2 << 20;

}  // namespace wmap::jq::builtins

#endif  // WMAP_JQ_BUILTINS_REGEX_CACHE_H_
