// The executable form of a jq program: an immutable tree of Ops produced by the compiler.
//
// Every Op can run in value mode (Run: push each output to a Sink) and in path mode (Paths: push
// each output together with its path, for path(f), paths and assignment). Ops hold no run
// state: all mutable state lives in the Runtime and in Frames on the C++ stack, so one tree
// may be run by many threads at once.
#ifndef WMAP_JQ_EVAL_OP_H_
#define WMAP_JQ_EVAL_OP_H_

#include <memory>
#include <string>
#include <vector>

#include "jq/eval/runtime.h"
#include "wmap/value.h"

namespace wmap::jq::eval {

class Op;
using OpPtr = std::unique_ptr<Op>;
struct FuncDef;

// Context for the static path-expression query: the closure arguments of the calls being
// analysed, innermost last, and the functions already on the analysis stack.
struct PathQuery {
  std::vector<const std::vector<OpPtr>*> args;
  std::vector<const FuncDef*> visiting;
};

class Op {
 public:
  virtual ~Op() = default;

  virtual Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const = 0;

  // Path mode: `in` is the value at *path (path == null: not a path, see PathSink). The default
  // runs in value mode and passes an output on as a path only when it is the input itself
  // (gojq's rule that lets `path(if . then . else empty end)` work and `path(1)` fail).
  virtual Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                       PathSink out) const;

  // True when path mode can succeed for this expression by its structure.
  virtual bool IsPath(PathQuery& q) const {
    (void)q;
    return false;
  }

  // The single value this op always produces without effects, or null.
  virtual const Value* Constant() const { return nullptr; }

  // True when every run of this op ends with exactly one output or with a failure (an error, a
  // budget, a break): never with none, never with several.
  virtual bool SingleOutput() const { return Constant() != nullptr; }

  // Updates in place: true when RunOwned may change the input it is given instead of copying
  // it, which callers that own their input outright (reduce's state) use so that a loop of
  // `.[k] = v` or `. + [v]` is linear rather than quadratic. Such an op has SingleOutput()
  // semantics for RunOwned: one output or a failure.
  virtual bool TakesOwnedInput() const { return false; }
  // Run with an input the caller gives up; the input's storage is reused when nothing else
  // shares it (copy-on-write otherwise), so results never differ from Run's.
  virtual Status RunOwned(Runtime& rt, Frame* f, Value in, Sink out) const {
    return Run(rt, f, in, out);
  }
};

// gojq's identity test between a value produced in path mode and the value at the tracked path.
bool PathIntact(const Value& produced, const Value& tracked);

// A compiled jq function. Its frame holds `num_slots` variable slots; `params` closures are
// passed by the caller.
struct FuncDef {
  std::string name;
  int num_params = 0;
  int num_slots = 0;
  // The definition needs no enclosing frame (prelude and top-level functions without free
  // variables from enclosing scopes); calls then pass a null parent.
  bool global = false;
  OpPtr body;
};

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_OP_H_
