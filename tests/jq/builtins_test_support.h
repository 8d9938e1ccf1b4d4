// Helpers for the builtin tests: call a native by name and arity on JSON text, and render
// results as compact JSON for comparison.
#ifndef WMAP_TESTS_JQ_BUILTINS_TEST_SUPPORT_H_
#define WMAP_TESTS_JQ_BUILTINS_TEST_SUPPORT_H_

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "jq/native.h"
#include "wmap/json.h"
#include "wmap/value.h"

namespace wmap::jq::testing {

inline Value Json(std::string_view text) {
  auto r = json::Parse(text);
  if (!r.ok()) return Value::String("<bad test json: " + std::string(text) + ">");
  return *r;
}

inline const NativeSpec* FindNative(std::string_view name, int arity) {
  for (const NativeSpec& spec : NativeBuiltins()) {
    if (spec.name == name && spec.arity == arity) return &spec;
  }
  return nullptr;
}

// A WorkMeter that counts what a native charges and refuses bytes past max_bytes.
class TestMeter final : public WorkMeter {
 public:
  explicit TestMeter(size_t max_bytes = std::numeric_limits<size_t>::max())
      : max_bytes_(max_bytes) {}
  bool ChargeBytes(size_t bytes) override {
    bytes_ += bytes;
    return bytes_ <= max_bytes_;
  }
  bool ChargeWork(size_t units) override {
    work_ += units;
    return true;
  }
  size_t bytes() const { return bytes_; }
  size_t work() const { return work_; }

 private:
  size_t max_bytes_;
  size_t bytes_ = 0;
  size_t work_ = 0;
};

// Calls a native function (not a generator) and renders the outcome: the compact JSON of the
// result, or "error: " followed by the error message (a string error value verbatim).
inline std::string Call(std::string_view name, std::string_view input,
                        const std::vector<std::string_view>& args = {},
                        const RunContext& run = {}) {
  const NativeSpec* spec = FindNative(name, static_cast<int>(args.size()));
  if (spec == nullptr || spec->function == nullptr) return "<no native " + std::string(name) + ">";
  std::vector<Value> values;
  for (std::string_view a : args) values.push_back(Json(a));
  TestMeter meter;
  NativeContext ctx{run, meter};
  Value out;
  if (!spec->function(ctx, Json(input), values, &out)) {
    return "error: " +
           (out.is_string() ? std::string(out.as_string()) : json::ToCompactString(out));
  }
  return json::ToCompactString(out);
}

// Calls a native function on values with `meter`; true when it succeeded.
inline bool CallMetered(std::string_view name, const Value& input, const std::vector<Value>& args,
                        TestMeter& meter, Value* out) {
  const NativeSpec* spec = FindNative(name, static_cast<int>(args.size()));
  if (spec == nullptr || spec->function == nullptr) return false;
  RunContext run;
  NativeContext ctx{run, meter};
  return spec->function(ctx, input, args, out);
}

struct Case {
  std::string_view name;
  std::string_view input;
  std::vector<std::string_view> args;
  std::string_view want;
};

}  // namespace wmap::jq::testing

#endif  // WMAP_TESTS_JQ_BUILTINS_TEST_SUPPORT_H_
