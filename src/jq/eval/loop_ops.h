// until(cond; next), while(cond; update) and recurse(f), run as loops.
//
// jq defines them recursively (`def _until: if cond then . else next | _until end`,
// `def r: ., (f | r)`), so a loop of a million iterations would nest a million calls and hit the
// recursion budget, where gojq (whose calls in tail position do not nest) runs it. Here the last
// output of each step continues the loop in place; only the earlier outputs of a step that yields
// several recurse (counted against the recursion budget). Outputs, their order and errors are those
// of the recursive definitions; each output of a step is taken up once the step has produced its
// next output or finished (one output of lookahead).
#ifndef WMAP_JQ_EVAL_LOOP_OPS_H_
#define WMAP_JQ_EVAL_LOOP_OPS_H_

#include "jq/eval/op.h"

namespace wmap::jq::eval {

class LoopOp final : public Op {
 public:
  enum class Kind { kUntil, kWhile, kRecurse };  // kRecurse has no condition
  LoopOp(Kind kind, OpPtr cond, OpPtr step)
      : kind_(kind), cond_(std::move(cond)), step_(std::move(step)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  // As the recursive definitions: a path expression when the step is one.
  bool IsPath(PathQuery& q) const override { return step_->IsPath(q); }

 private:
  Kind kind_;
  OpPtr cond_;
  OpPtr step_;
};

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_LOOP_OPS_H_
