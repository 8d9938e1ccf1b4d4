// The Op kinds the compiler builds. Each class states what it evaluates; construction is by the
// compiler only (src/jq/eval/compiler.cc), and every instance is immutable afterwards.
#ifndef WMAP_JQ_EVAL_OPS_H_
#define WMAP_JQ_EVAL_OPS_H_

#include <string>
#include <vector>

#include "jq/ast.h"
#include "jq/eval/op.h"
#include "jq/native.h"

namespace wmap::jq::eval {

// `.`
class IdentityOp final : public Op {
 public:
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery&) const override { return true; }
  bool SingleOutput() const override { return true; }
};

// A constant.
class LiteralOp final : public Op {
 public:
  explicit LiteralOp(Value v) : value_(std::move(v)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  const Value* Constant() const override { return &value_; }
  bool IsPath(PathQuery&) const override { return value_.is_null(); }

 private:
  Value value_;
};

// `..`: the input and every value inside it, depth first, containers before their contents.
class RecurseAllOp final : public Op {
 public:
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery&) const override { return true; }
};

// `target.a.b.c` with constant keys (target null means `.`). When `optional` (`.a.b?`), an
// error of the last step drops that output instead of failing.
class FieldChainOp final : public Op {
 public:
  FieldChainOp(OpPtr target, std::vector<std::string> names, bool optional = false);
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return !target_ || target_->IsPath(q); }

 private:
  Status Apply(Runtime& rt, const Value& v, Sink out) const;
  OpPtr target_;
  std::vector<std::string> names_;
  std::vector<Value> keys_;
  bool optional_;
};

// `target[index]`: the index expression runs on the original input (outer loop), the target
// on the same input (inner loop). `optional` as for FieldChainOp.
class IndexOp final : public Op {
 public:
  IndexOp(OpPtr target, OpPtr index, bool optional = false)
      : target_(std::move(target)), index_(std::move(index)), optional_(optional) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return target_->IsPath(q); }

 private:
  OpPtr target_, index_;
  bool optional_;
};

// `target[from:to]` (either bound may be absent).
class SliceOp final : public Op {
 public:
  SliceOp(OpPtr target, OpPtr from, OpPtr to, bool optional = false)
      : target_(std::move(target)),
        from_(std::move(from)),
        to_(std::move(to)),
        optional_(optional) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return target_->IsPath(q); }

 private:
  template <typename Fn>
  Status Bounds(Runtime& rt, Frame* f, const Value& in, Fn&& fn) const;
  OpPtr target_, from_, to_;
  bool optional_;
};

// `target[]`
class IterateOp final : public Op {
 public:
  explicit IterateOp(OpPtr target, bool optional = false)
      : target_(std::move(target)), optional_(optional) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return !target_ || target_->IsPath(q); }

 private:
  OpPtr target_;  // null means `.`
  bool optional_;
};

class PipeOp final : public Op {
 public:
  PipeOp(OpPtr left, OpPtr right) : left_(std::move(left)), right_(std::move(right)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return left_->IsPath(q) && right_->IsPath(q); }

 private:
  OpPtr left_, right_;
};

class CommaOp final : public Op {
 public:
  CommaOp(OpPtr left, OpPtr right) : left_(std::move(left)), right_(std::move(right)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return left_->IsPath(q) && right_->IsPath(q); }

 private:
  OpPtr left_, right_;
};

class NegOp final : public Op {
 public:
  explicit NegOp(OpPtr body) : body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  OpPtr body_;
};

// True when `l op r` builds a large string or array (more than a few KiB), which the compiler
// then leaves to the run (and its budget) instead of folding it.
bool BuildsLargeValue(ast::BinaryOp op, const Value& l, const Value& r);

// Arithmetic and comparison: the right operand is the outer loop (gojq's order).
class BinaryOp final : public Op {
 public:
  BinaryOp(ast::BinaryOp op, OpPtr left, OpPtr right);
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  bool SingleOutput() const override { return left_->SingleOutput() && right_->SingleOutput(); }
  // `. + x` with a single-output x: appends to (merges into) the input in place.
  bool TakesOwnedInput() const override { return appends_to_input_; }
  Status RunOwned(Runtime& rt, Frame* f, Value in, Sink out) const override;

 private:
  ast::BinaryOp op_;
  OpPtr left_, right_;
  bool appends_to_input_ = false;
};

// `and` / `or`, short-circuiting per left output.
class LogicOp final : public Op {
 public:
  LogicOp(bool is_and, OpPtr left, OpPtr right)
      : is_and_(is_and), left_(std::move(left)), right_(std::move(right)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  bool is_and_;
  OpPtr left_, right_;
};

// `a // b`: the truthy outputs of a; the outputs of b when a produced none. Errors in a
// propagate (as in gojq and jq 1.6).
class AlternativeOp final : public Op {
 public:
  AlternativeOp(OpPtr left, OpPtr right) : left_(std::move(left)), right_(std::move(right)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return left_->IsPath(q) && right_->IsPath(q); }

 private:
  OpPtr left_, right_;
};

// if/elif/else; a missing else branch yields the input.
class IfOp final : public Op {
 public:
  IfOp(OpPtr cond, OpPtr then, OpPtr otherwise)
      : cond_(std::move(cond)), then_(std::move(then)), else_(std::move(otherwise)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override {
    return then_->IsPath(q) && (!else_ || else_->IsPath(q));
  }

 private:
  OpPtr cond_, then_, else_;
};

// try body catch handler: an error raised inside body (not by the consumer of its outputs)
// ends body and runs handler on the error value; without a handler, nothing more is output.
class TryOp final : public Op {
 public:
  TryOp(OpPtr body, OpPtr handler) : body_(std::move(body)), handler_(std::move(handler)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return body_->IsPath(q); }

 private:
  OpPtr body_, handler_;
};

// A compiled destructuring pattern; variables are slots of the current frame.
struct PatternCode {
  enum class Kind { kVar, kArray, kObject };
  struct Entry {
    int key_slot = -1;  // `$name` key: the value is also bound to this slot
    std::string key_name;
    OpPtr key_expr;  // otherwise the key expression (run on the binding's input)
    std::unique_ptr<PatternCode> value;
  };
  Kind kind = Kind::kVar;
  int slot = -1;
  std::vector<std::unique_ptr<PatternCode>> elements;
  std::vector<Entry> entries;
};

// Binds `value` to `pattern` (every combination, for key expressions with several outputs)
// and calls `then` for each binding. `dot` is the input of the binding expression.
using BindThen = FunctionRef<Status()>;
Status BindPattern(Runtime& rt, Frame* f, const Value& dot, const PatternCode& pattern,
                   const Value& value, BindThen then);

// `source as p1 ?// p2 ... | body`
class BindOp final : public Op {
 public:
  BindOp(OpPtr source, std::vector<std::unique_ptr<PatternCode>> patterns,
         std::vector<int> all_slots, OpPtr body)
      : source_(std::move(source)),
        patterns_(std::move(patterns)),
        all_slots_(std::move(all_slots)),
        body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return body_->IsPath(q); }

 private:
  template <typename Body>
  Status Each(Runtime& rt, Frame* f, const Value& in, Body&& body) const;
  OpPtr source_;
  std::vector<std::unique_ptr<PatternCode>> patterns_;
  std::vector<int> all_slots_;  // every variable of every alternative (reset to null)
  OpPtr body_;
};

// reduce / foreach. State after an update with no output is the previous state; with several
// outputs, each is a state (foreach) and the last one carries on.
class ReduceOp final : public Op {
 public:
  ReduceOp(bool is_foreach, OpPtr source, std::unique_ptr<PatternCode> pattern, OpPtr init,
           OpPtr update, OpPtr extract)
      : is_foreach_(is_foreach),
        source_(std::move(source)),
        pattern_(std::move(pattern)),
        init_(std::move(init)),
        update_(std::move(update)),
        extract_(std::move(extract)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override {
    return init_->IsPath(q) && update_->IsPath(q) && (!extract_ || extract_->IsPath(q));
  }

 private:
  bool is_foreach_;
  OpPtr source_;
  std::unique_ptr<PatternCode> pattern_;
  OpPtr init_, update_, extract_;
};

// `$name`: a variable slot `hops` frames up.
class VarOp final : public Op {
 public:
  VarOp(int hops, int slot) : hops_(hops), slot_(slot) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  bool SingleOutput() const override { return true; }

 private:
  int hops_, slot_;
};

// `label $name | body`: the slot holds this activation's label identity.
class LabelOp final : public Op {
 public:
  LabelOp(int slot, OpPtr body) : slot_(slot), body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override { return body_->IsPath(q); }

 private:
  int slot_;
  OpPtr body_;
};

class BreakOp final : public Op {
 public:
  BreakOp(int hops, int slot) : hops_(hops), slot_(slot) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery&) const override { return true; }

 private:
  int hops_, slot_;
};

// A call of a jq-defined function.
class CallOp final : public Op {
 public:
  CallOp(const FuncDef* def, int hops, std::vector<OpPtr> args)
      : def_(def), hops_(hops), args_(std::move(args)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override;

 private:
  template <typename Body>
  Status Enter(Runtime& rt, Frame* f, Body&& body) const;
  const FuncDef* def_;
  int hops_;
  std::vector<OpPtr> args_;
};

// A call of a closure parameter.
class ParamOp final : public Op {
 public:
  ParamOp(int hops, int index) : hops_(hops), index_(index) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  Status Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
               PathSink out) const override;
  bool IsPath(PathQuery& q) const override;
  int hops() const { return hops_; }
  int index() const { return index_; }

 private:
  int hops_, index_;
};

// A call of a C++ native: arguments are evaluated on the input, every combination with the
// last argument as the outermost loop (gojq's order).
class NativeOp final : public Op {
 public:
  NativeOp(const NativeSpec* spec, std::vector<OpPtr> args) : spec_(spec), args_(std::move(args)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;

 private:
  Status Call(Runtime& rt, const Value& in, std::span<const Value> args, Sink out) const;
  const NativeSpec* spec_;
  std::vector<OpPtr> args_;
};

// Evaluates `args` on `in` for every combination (last argument outermost) and calls `then`
// with the argument values.
using ArgsThen = FunctionRef<Status(std::span<const Value>)>;
Status ForEachArgs(Runtime& rt, Frame* f, const Value& in, const std::vector<OpPtr>& args,
                   ArgsThen then);

// `[body]`
class ArrayOp final : public Op {
 public:
  explicit ArrayOp(OpPtr body) : body_(std::move(body)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  bool SingleOutput() const override { return true; }

 private:
  OpPtr body_;  // may be null for []
};

// `{k: v, ...}`: one object per combination of entry outputs, first entry outermost.
class ObjectOp final : public Op {
 public:
  struct Entry {
    OpPtr key;    // yields the key (must be a string)
    OpPtr value;  // yields the value; null: the input indexed by the key (`{"\(e)"}`)
  };
  explicit ObjectOp(std::vector<Entry> entries) : entries_(std::move(entries)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  bool SingleOutput() const override;

 private:
  std::vector<Entry> entries_;
};

// String interpolation; `format` (a native format/1, may be null) applies to interpolated
// values, else they are converted with tostring semantics.
class StringOp final : public Op {
 public:
  struct Part {
    std::string literal;
    OpPtr expr;
  };
  StringOp(std::vector<Part> parts, const NativeSpec* format, Value format_name)
      : parts_(std::move(parts)), format_(format), format_name_(std::move(format_name)) {}
  Status Run(Runtime& rt, Frame* f, const Value& in, Sink out) const override;
  bool SingleOutput() const override;

 private:
  std::vector<Part> parts_;
  const NativeSpec* format_;
  Value format_name_;
};

// The tostring conversion used by interpolation: strings unchanged, others as compact JSON.
Value ToStringValue(const Value& v);

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_OPS_H_
