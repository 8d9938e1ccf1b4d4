// Builtins that the evaluator implements directly, because they need closures, path mode, the
// run context or control over evaluation (empty, error, path, getpath, select, first, limit,
// range, any/all, input, debug, halt, assignment...). Each behaves exactly as the gojq builtin
// of the same name.
#ifndef WMAP_JQ_EVAL_BUILTIN_OPS_H_
#define WMAP_JQ_EVAL_BUILTIN_OPS_H_

#include <span>
#include <string>
#include <vector>

#include "jq/ast.h"
#include "jq/eval/op.h"

namespace wmap::jq::eval {

class EmptyOp final : public Op {
 public:
  Status Run(Runtime&, Frame*, const Value&, Sink) const override { return Status::kOk; }
  Status Paths(Runtime&, Frame*, const Value&, const Value*, PathSink) const override {
    return Status::kOk;
  }
  bool IsPath(PathQuery&) const override { return true; }
};

// error/0 (arg null: the input is the error value) and error/1.
class ErrorOp final : public Op {
 public:
  explicit ErrorOp(OpPtr arg) : arg_(std::move(arg)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value*, PathSink) const override {
    return Run(rt, f, in, [](const Value&) { return Status::kOk; });
  }
  bool IsPath(PathQuery&) const override { return true; }

 private:
  OpPtr arg_;
};

class NotOp final : public Op {
 public:
  Status Run(Runtime&, Frame*, const Value& in, Sink out) const override {
    return out(Value::Bool(!in.truthy()));
  }
};

// Unary `+`: numbers pass, anything else is an error.
class PlusOp final : public Op {
 public:
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
};

// last(f): the last output of f; nothing when f has none.
class LastOp final : public Op {
 public:
  explicit LastOp(OpPtr body) : body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return body_->IsPath(q); }

 private:
  OpPtr body_;
};

// modulemeta: reads the named module from the library paths given at compile time.
class ModuleMetaOp final : public Op {
 public:
  explicit ModuleMetaOp(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  std::vector<std::string> paths_;
};

// path(f)
class PathOp final : public Op {
 public:
  explicit PathOp(OpPtr body) : body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  OpPtr body_;
};

// getpath(p): in path mode it extends the path by p.
class GetpathOp final : public Op {
 public:
  explicit GetpathOp(OpPtr arg) : arg_(std::move(arg)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery&) const override { return true; }

 private:
  OpPtr arg_;
};

// select(f)
class SelectOp final : public Op {
 public:
  explicit SelectOp(OpPtr cond) : cond_(std::move(cond)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery&) const override { return true; }

 private:
  OpPtr cond_;
};

// repeat(f): f, f, f... on the same input, forever (gojq).
class RepeatOp final : public Op {
 public:
  explicit RepeatOp(OpPtr body) : body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return body_->IsPath(q); }

 private:
  OpPtr body_;
};

// first(f), limit(n; f), skip(n; f)
class LimitOp final : public Op {
 public:
  enum class Kind { kFirst, kLimit, kSkip };
  LimitOp(Kind kind, OpPtr count, OpPtr body)
      : kind_(kind), count_(std::move(count)), body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return body_->IsPath(q); }

 private:
  template <typename Emit>
  Status WithCount(Runtime& rt, Frame* f, const Value& in, Emit&& emit) const;
  Kind kind_;
  OpPtr count_;  // null for first
  OpPtr body_;
};

// isempty(f)
class IsEmptyOp final : public Op {
 public:
  explicit IsEmptyOp(OpPtr body) : body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  OpPtr body_;
};

// any(g; y) / all(g; y); g null means `.[]`, y null means `.`.
class AnyAllOp final : public Op {
 public:
  AnyAllOp(bool is_any, OpPtr gen, OpPtr cond)
      : is_any_(is_any), gen_(std::move(gen)), cond_(std::move(cond)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  bool is_any_;
  OpPtr gen_, cond_;
};

// range/1, range/2, range/3: arguments bound like `$` parameters (first argument outermost).
class RangeOp final : public Op {
 public:
  explicit RangeOp(std::vector<OpPtr> args) : args_(std::move(args)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  Status Bind(Runtime& rt, Frame* f, const Value& in, size_t i, Value* vals, Sink out) const;
  std::vector<OpPtr> args_;
};

// Builtins reading the run context: input, inputs, debug, debug(msg), stderr,
// input_filename, $ENV / env, halt, halt_error, halt_error(code).
class ContextOp final : public Op {
 public:
  enum class Kind {
    kInput,
    kInputs,
    kDebug,
    kDebugMsg,
    kStderr,
    kInputFilename,
    kEnv,
    kHalt,
    kHaltError,
    kHaltErrorCode
  };
  ContextOp(Kind kind, OpPtr arg) : kind_(kind), arg_(std::move(arg)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery&) const override {
    return kind_ == Kind::kDebug || kind_ == Kind::kStderr || kind_ == Kind::kDebugMsg;
  }

 private:
  Kind kind_;
  OpPtr arg_;
};

// A builtin over values that needs the Runtime (budgets, error kinds): setpath, delpaths...
// Arguments are evaluated like a native's.
using CoreFunction = Status (*)(Runtime& rt, const Value& in, std::span<const Value> args,
                                Value* out);
class CoreFnOp final : public Op {
 public:
  CoreFnOp(CoreFunction fn, std::vector<OpPtr> args) : fn_(fn), args_(std::move(args)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  CoreFunction fn_;
  std::vector<OpPtr> args_;
};

Status CoreSetpath(Runtime& rt, const Value& in, std::span<const Value> args, Value* out);
Status CoreDelpaths(Runtime& rt, const Value& in, std::span<const Value> args, Value* out);

// Assignment: `lhs = rhs`, `lhs |= rhs`, `lhs op= rhs`, `lhs //= rhs` (jq 1.7 / gojq).
class AssignOp final : public Op {
 public:
  AssignOp(ast::AssignOp op, OpPtr lhs, OpPtr rhs)
      : op_(op), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  // `|=` gives one output per input; the other forms when their right side does.
  bool TakesOwnedInput() const override {
    return op_ == ast::AssignOp::kUpdate || rhs_->SingleOutput();
  }
  // The paths are found first, over the input as given; then the input itself is changed.
  Status RunOwned(Runtime& rt, Frame* f, Value in, Sink out) const override;

 private:
  // Updates every path of lhs in `in`; `update` maps the old value to the new one and returns
  // kOk with *produced false to delete the path.
  using Updater = FunctionRef<Status(const Value& old, Value* result, bool* produced)>;
  Status Modify(Runtime& rt, Frame* f, const Value& in, Updater update, Value* result) const;
  ast::AssignOp op_;
  OpPtr lhs_, rhs_;
};

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_BUILTIN_OPS_H_
