// The interface between the evaluator and builtins implemented in C++ ("natives").
//
// A native is called with its input and its arguments already evaluated to values: when a call
// such as `f(a; b)` has argument expressions yielding several values, the evaluator calls the
// native once per combination (cartesian product, in gojq's order). Natives never see closures;
// builtins that need closures (path(f), sort_by(f), ...) are written in jq in the prelude, usually
// over a native helper (e.g. `def sort_by(f): _sort_by_impl(map([f]));`).
//
// Error contract: a native returns false and stores the error value (usually a string message
// with gojq's wording) in *out. It must never throw, and must bound its own work by the sizes of
// its inputs (the evaluator charges the run's memory budget for the outputs it receives).
#ifndef WMAP_JQ_NATIVE_H_
#define WMAP_JQ_NATIVE_H_

#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "wmap/jq.h"
#include "wmap/value.h"

namespace wmap::jq {

// The run's budgets as a native sees them while it works. A native whose output or work is not
// small (proportional to a large input or argument) charges it here as it goes, before building
// each large piece; once a charge returns false the run is over: the native returns false at
// once (its error value is ignored) and the run ends with the budget's error, which `try` does not
// catch.
class WorkMeter {
 public:
  // `bytes` of data about to be built; also counts as work. False once a budget is spent.
  virtual bool ChargeBytes(size_t bytes) = 0;
  // `units` of work that builds nothing (elements visited or compared); checks the deadline as
  // the work adds up. False once a budget is spent.
  virtual bool ChargeWork(size_t units) = 0;

 protected:
  ~WorkMeter() = default;
};

// What a native may use besides its input and arguments.
struct NativeContext {
  const RunContext& run;
  WorkMeter& meter;

  bool Charge(size_t bytes) const { return meter.ChargeBytes(bytes); }
  bool Work(size_t units) const { return meter.ChargeWork(units); }
};

// One output: returns true and sets *out, or false with the error value in *out.
using NativeFunction = bool (*)(const NativeContext& ctx, const Value& input,
                                std::span<const Value> args, Value* out);

// Any number of outputs through `emit` (which returns false when the consumer wants no more:
// the generator must then return true at once). Returns false with the error value in *error.
using NativeGenerator = bool (*)(const NativeContext& ctx, const Value& input,
                                 std::span<const Value> args,
                                 const std::function<bool(const Value&)>& emit, Value* error);

struct NativeSpec {
  std::string_view name;
  int arity = 0;
  NativeFunction function = nullptr;  // exactly one of function / generator is set
  NativeGenerator generator = nullptr;
};

// Every native builtin, by name and arity (names starting with '_' are internal helpers that the
// prelude uses; they are still callable, as in gojq).
std::span<const NativeSpec> NativeBuiltins();

// jq source of the builtins written in jq, compiled once per process, in two parts: the core
// definitions that belong with the evaluator (path-aware control builtins: select, recurse,
// first, limit, paths, del, to_entries..., src/jq/eval/) and the library of value builtins
// (strings, regexes, dates, math..., src/jq/builtins/). The evaluator compiles CorePrelude()
// first, then LibraryPrelude(); a later definition may use an earlier one.
std::string_view CorePrelude();
std::string_view LibraryPrelude();

}  // namespace wmap::jq

#endif  // WMAP_JQ_NATIVE_H_
