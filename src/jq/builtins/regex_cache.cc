#include "jq/builtins/regex_cache.h"

#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "jq/parse_error.h"

namespace wmap::jq::builtins {
namespace {

// Go's regexp/syntax wording for RE2's error codes.
std::string_view GoErrorText(RE2::ErrorCode code) {
  switch (code) {
    case RE2::ErrorBadEscape:
      return "invalid escape sequence";
    case RE2::ErrorBadCharClass:
      return "invalid character class";
    case RE2::ErrorBadCharRange:
      return "invalid character class range";
    case RE2::ErrorMissingBracket:
      return "missing closing ]";
    case RE2::ErrorMissingParen:
      return "missing closing )";
    case RE2::ErrorUnexpectedParen:
      return "unexpected )";
    case RE2::ErrorTrailingBackslash:
      return "trailing backslash at end of expression";
    case RE2::ErrorRepeatArgument:
      return "missing argument to repetition operator";
    case RE2::ErrorRepeatSize:
      return "invalid repeat count";
    case RE2::ErrorRepeatOp:
      return "invalid nested repetition operator";
    case RE2::ErrorBadPerlOp:
      return "invalid or unsupported Perl syntax";
    case RE2::ErrorBadUTF8:
      return "invalid UTF-8";
    case RE2::ErrorBadNamedCapture:
      return "invalid named capture";
    case RE2::ErrorPatternTooLarge:
      return "expression too large";
    default:
      return "invalid regular expression";
  }
}

// Extended mode: whitespace and #-comments (to the end of the line) outside character classes
// are not part of the pattern.
std::string StripExtended(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size());
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out.push_back(c);
      out.push_back(pattern[++i]);
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out.push_back(c);
      continue;
    }
    if (c == '[') {
      in_class = true;
      out.push_back(c);
      // A ']' right after '[' or '[^' is a literal member of the class.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out.push_back(pattern[++i]);
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out.push_back(pattern[++i]);
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') continue;
    if (c == '#') {
      while (i < pattern.size() && pattern[i] != '\n') ++i;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

// LRU of compiled expressions keyed by the final pattern text (flags already applied) and the
// match mode.
class RegexLru {
 public:
  std::shared_ptr<const RE2> Get(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  void Put(const std::string& key, std::shared_ptr<const RE2> re) {
    std::lock_guard<std::mutex> lock(mu_);
    if (index_.count(key) != 0) return;
    order_.emplace_front(key, std::move(re));
    index_[key] = order_.begin();
    if (order_.size() > kRegexCacheCapacity) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const RE2>>;
  std::mutex mu_;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

RegexLru& Cache() {
  static RegexLru cache;
  return cache;
}

}  // namespace

bool CompileRegex(std::string_view pattern, std::string_view flags, CompiledRegex* out,
                  std::string* error) {
  bool global = false;
  bool icase = false;
  bool dotall = false;
  bool extended = false;
  bool skip_empty = false;
  bool longest = false;
  for (char f : flags) {
    switch (f) {
      case 'g':
        global = true;
        break;
      case 'i':
        icase = true;
        break;
      case 'm':
        dotall = true;
        break;
      case 'x':
      case 'p':
        extended = true;
        break;
      case 'n':
        skip_empty = true;
        break;
      case 'l':
        longest = true;
        break;
      case 's':
        break;
      default:
        error->assign("unsupported regular expression flag: ");
        error->append(GoQuote(flags));
        return false;
    }
  }
  std::string text;
  text.reserve(pattern.size() + 8);
  if (icase) text.append("(?i)");
  if (dotall) text.append("(?s)");
  std::string stripped;
  if (extended) {
    stripped = StripExtended(pattern);
    pattern = stripped;
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 3, "(?<") == 0) {
      text.append("(?P<");
      i += 2;
    } else {
      text.push_back(pattern[i]);
    }
  }
  out->global = global;
  out->skip_empty = skip_empty;
  std::string key = longest ? "l:" + text : "f:" + text;
  if ((out->re = Cache().Get(key)) != nullptr) return true;
  RE2::Options options;
  options.set_log_errors(false);
  options.set_longest_match(longest);
  // Bounds the memory of each cached program (RE2 falls back to slower matching beyond it).
  options.set_max_mem(kRegexMaxMemory);
  auto re = std::make_shared<const RE2>(text, options);
  if (!re->ok()) {
    error->assign("invalid regular expression ");
    error->append(GoQuote(text));
    error->append(": error parsing regexp: ");
    error->append(GoErrorText(re->error_code()));
    error->append(": `");
    error->append(re->error_arg());
    error->append("`");
    return false;
  }
  Cache().Put(key, re);
  out->re = std::move(re);
  return true;
}

}  // namespace wmap::jq::builtins
