// Regular-expression natives over RE2 (gojq uses Go's regexp, the same syntax and leftmost-first
// semantics): _match (behind match/test/capture/scan/sub), _capture and split/2.
#include <string>
#include <vector>

#include "jq/builtins/common.h"
#include "jq/builtins/regex_cache.h"
#include "jq/builtins/registry.h"
#include "wmap/text.h"

namespace wmap::jq::builtins {
namespace {

using Args = std::span<const Value>;

// Byte offsets of one match: groups[2k], groups[2k+1] for group k (-1 when it did not take part).
using Groups = std::vector<int64_t>;

// Every match of `re` in `s` (all of them when `global`, else at most one), with Go's rules for
// empty matches: the search moves one code point past an empty match, and an empty match right
// after the previous match is dropped. With `skip_empty` no empty match is reported at all.
// Each match found is charged to the run (false, with *result partial, once the budget is spent).
bool FindMatches(const NativeContext& ctx, const RE2& re, std::string_view s, bool global,
                 bool skip_empty, std::vector<Groups>* result) {
  int ngroups = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> sub(static_cast<size_t>(ngroups));
  size_t pos = 0;
  int64_t prev_end = -1;
  while (pos <= s.size()) {
    if (!re.Match(s, pos, s.size(), RE2::UNANCHORED, sub.data(), ngroups)) break;
    int64_t start = sub[0].data() - s.data();
    int64_t end = start + static_cast<int64_t>(sub[0].size());
    bool accept = true;
    if (end == static_cast<int64_t>(pos) && start == end) {
      if (start == prev_end) accept = false;
      if (pos < s.size()) {
        text::DecodeUtf8(s, &pos);
      } else {
        pos = s.size() + 1;
      }
    } else {
      pos = static_cast<size_t>(end);
    }
    prev_end = end;
    if (skip_empty && start == end) accept = false;
    if (accept) {
      Groups g(static_cast<size_t>(ngroups) * 2, -1);
      for (int k = 0; k < ngroups; ++k) {
        if (sub[k].data() == nullptr) continue;
        g[2 * k] = sub[k].data() - s.data();
        g[2 * k + 1] = g[2 * k] + static_cast<int64_t>(sub[k].size());
      }
      if (!ctx.Charge(sizeof(Groups) + g.size() * sizeof(int64_t))) return false;
      result->push_back(std::move(g));
    }
    if (!global && (accept || !skip_empty)) break;
  }
  // The search itself is linear in the text (RE2).
  return ctx.Work(s.size() / 16);
}

// What a match object of `ngroups` groups costs to build, roughly.
size_t MatchObjectBytes(size_t ngroups) { return 256 + ngroups * 224; }

// Converts increasing byte offsets to code point offsets without rescanning from the start.
class CodepointCursor {
 public:
  explicit CodepointCursor(std::string_view s) : s_(s) {}
  // Code points before byte `b`; `b` may go backwards only down to the last Mark().
  int64_t At(int64_t b) {
    if (static_cast<size_t>(b) < byte_) {
      byte_ = mark_byte_;
      cp_ = mark_cp_;
    }
    while (byte_ < static_cast<size_t>(b)) {
      text::DecodeUtf8(s_, &byte_);
      ++cp_;
    }
    return cp_;
  }
  void Mark() {
    mark_byte_ = byte_;
    mark_cp_ = cp_;
  }

 private:
  std::string_view s_;
  size_t byte_ = 0;
  int64_t cp_ = 0;
  size_t mark_byte_ = 0;
  int64_t mark_cp_ = 0;
};

Value MatchObject(const RE2& re, std::string_view s, const Groups& g, CodepointCursor* cursor) {
  int64_t start = cursor->At(g[0]);
  cursor->Mark();
  int64_t end = cursor->At(g[1]);
  const auto& names = re.CapturingGroupNames();
  size_t ngroups = g.size() / 2;
  Value captures = Value::EmptyArray(ngroups - 1);
  auto& items = captures.mutable_items();
  for (size_t k = 1; k < ngroups; ++k) {
    Value c = Value::EmptyObject(4);
    auto name_it = names.find(static_cast<int>(k));
    Value name = name_it == names.end() ? Value() : Value::String(name_it->second);
    if (g[2 * k] < 0) {
      c.set("offset", Value::Int(-1));
      c.set("length", Value::Int(0));
      c.set("string", Value());
    } else {
      int64_t cs = cursor->At(g[2 * k]);
      int64_t ce = cursor->At(g[2 * k + 1]);
      c.set("offset", Value::Int(cs));
      c.set("length", Value::Int(ce - cs));
      c.set("string", Value::String(s.substr(g[2 * k], g[2 * k + 1] - g[2 * k])));
    }
    c.set("name", std::move(name));
    items.push_back(std::move(c));
  }
  cursor->At(g[1]);
  Value m = Value::EmptyObject(4);
  m.set("offset", Value::Int(start));
  m.set("length", Value::Int(end - start));
  m.set("string", Value::String(s.substr(g[0], g[1] - g[0])));
  m.set("captures", std::move(captures));
  return m;
}

// _match(re; flags; testing): an array of match objects, or a boolean when testing is true.
bool Match(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  bool testing = args[2].is_bool() && args[2].as_bool();
  std::string_view name = testing ? "test" : "match";
  const Value& flags = args[1];
  if ((!flags.is_null() && !flags.is_string()) || !in.is_string() || !args[0].is_string()) {
    return Fail(out, FuncArgsTypeError(name, args.first(2), in));
  }
  CompiledRegex regex;
  std::string error;
  if (!CompileRegex(args[0].as_string(), flags.is_null() ? "" : flags.as_string(), &regex,
                    &error)) {
    return Fail(out, std::move(error));
  }
  std::string_view s = in.as_string();
  if (testing && !regex.skip_empty) {
    return Ok(out, Value::Bool(RE2::PartialMatch(s, *regex.re)));
  }
  std::vector<Groups> matches;
  if (!FindMatches(ctx, *regex.re, s, regex.global && !testing, regex.skip_empty || testing,
                   &matches)) {
    return false;
  }
  if (testing) return Ok(out, Value::Bool(!matches.empty()));
  Value result = Value::EmptyArray(matches.size());
  auto& items = result.mutable_items();
  CodepointCursor cursor(s);
  for (const Groups& g : matches) {
    if (!ctx.Charge(MatchObjectBytes(g.size() / 2) + static_cast<size_t>(g[1] - g[0]))) {
      return false;
    }
    items.push_back(MatchObject(*regex.re, s, g, &cursor));
  }
  return Ok(out, std::move(result));
}

// _capture: the named captures of a match object as {name: string}.
bool Capture(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_object()) return Fail(out, "expected an object but got: " + TypePreview(in));
  const Value* captures = in.find("captures");
  Value none;
  if (captures == nullptr) captures = &none;
  if (!captures->is_array()) {
    return Fail(out, "expected an array but got: " + TypePreview(*captures));
  }
  Value result = Value::EmptyObject(captures->size());
  for (const Value& c : captures->items()) {
    if (!c.is_object()) continue;
    const Value* name = c.find("name");
    if (name == nullptr || !name->is_string()) continue;
    const Value* str = c.find("string");
    result.set(name->as_string(), str == nullptr ? Value() : *str);
  }
  return Ok(out, std::move(result));
}

// split(re; flags): the pieces between every match (empty matches included), as jq 1.7.
bool SplitRegex(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("split", in));
  if (!args[0].is_string()) return Fail(out, FuncTypeError("split", args[0]));
  if (!args[1].is_null() && !args[1].is_string()) return Fail(out, FuncTypeError("split", args[1]));
  CompiledRegex regex;
  std::string error;
  if (!CompileRegex(args[0].as_string(), args[1].is_null() ? "" : args[1].as_string(), &regex,
                    &error)) {
    return Fail(out, std::move(error));
  }
  std::string_view s = in.as_string();
  std::vector<Groups> matches;
  if (!FindMatches(ctx, *regex.re, s, true, regex.skip_empty, &matches)) return false;
  Value result = Value::EmptyArray(matches.size() + 1);
  auto& items = result.mutable_items();
  int64_t prev = 0;
  for (const Groups& g : matches) {
    int64_t start = std::max(prev, g[0]);
    if (!ctx.Charge(PieceBytes(static_cast<size_t>(start - prev)))) return false;
    items.push_back(Value::String(s.substr(prev, start - prev)));
    prev = std::max(prev, g[1]);
  }
  items.push_back(Value::String(s.substr(prev)));
  return Ok(out, std::move(result));
}

constexpr NativeSpec kNatives[] = {
    {"_match", 3, Match},
    {"_capture", 0, Capture},
    {"split", 2, SplitRegex},
};

}  // namespace

std::span<const NativeSpec> RegexNatives() { return kNatives; }

}  // namespace wmap::jq::builtins
