#include "jq/eval/builtin_ops.h"

#include <cmath>

#include "jq/eval/modules.h"
#include "jq/eval/ops.h"
#include "jq/eval/paths.h"
#include "jq/eval/preview.h"
#include "jq/eval/value_ops.h"

namespace wmap::jq::eval {
namespace {

Status InvalidPath(Runtime& rt, const Value& v) {
  return rt.FailInvalidPath("invalid path against: " + TypeErrorPreview(v));
}

// The arithmetic an update-assignment applies: `-=` subtracts, ...; `+=` and the others add
// (`//=` and `=` do not use it).
ast::BinaryOp ArithmeticOf(ast::AssignOp op) {
  switch (op) {
    case ast::AssignOp::kSub:
      return ast::BinaryOp::kSub;
    case ast::AssignOp::kMul:
      return ast::BinaryOp::kMul;
    case ast::AssignOp::kDiv:
      return ast::BinaryOp::kDiv;
    case ast::AssignOp::kMod:
      return ast::BinaryOp::kMod;
    default:
      return ast::BinaryOp::kAdd;
  }
}

}  // namespace

Status ErrorOp::Run(Runtime& rt, Frame* f, const Value& in, Sink) const {
  if (!arg_) return rt.Throw(in);
  return arg_->Run(rt, f, in, [&](const Value& v) { return rt.Throw(v); });
}

Status PlusOp::Run(Runtime& rt, Frame*, const Value& in, Sink out) const {
  if (!in.is_number()) return rt.Fail("cannot plus: " + TypeErrorPreview(in));
  return out(in);
}

Status LastOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  bool any = false;
  Value last;
  Status s = body_->Run(rt, f, in, [&](const Value& v) -> Status {
    any = true;
    last = v;
    return Status::kOk;
  });
  if (s != Status::kOk || !any) return s;
  return out(last);
}

Status LastOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                     PathSink out) const {
  bool any = false;
  bool has_path = false;
  Value last, last_path;
  Status s = body_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
    any = true;
    last = v;
    has_path = p != nullptr;
    if (p) last_path = *p;
    return Status::kOk;
  });
  if (s != Status::kOk || !any) return s;
  return out(has_path ? &last_path : nullptr, last);
}

Status ModuleMetaOp::Run(Runtime& rt, Frame*, const Value& in, Sink out) const {
  if (!in.is_string()) return rt.Fail("modulemeta cannot be applied to: " + TypeErrorPreview(in));
  Value meta;
  std::string error;
  if (!ModuleMeta(in.as_string(), paths_, &meta, &error)) return rt.Fail(std::move(error));
  return out(meta);
}

// ---- path(f) / getpath ----

Status PathOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  Value root = Value::EmptyArray();
  return body_->Paths(rt, f, in, &root, [&](const Value* p, const Value& v) -> Status {
    if (p == nullptr) return InvalidPath(rt, v);
    return out(*p);
  });
}

Status GetpathOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return arg_->Run(rt, f, in, [&](const Value& p) -> Status {
    Value r;
    Status s = GetPath(rt, in, p, &r);
    if (s != Status::kOk) return s;
    return out(r);
  });
}

Status GetpathOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                        PathSink out) const {
  return arg_->Run(rt, f, in, [&](const Value& p) -> Status {
    Value r;
    Status s = GetPath(rt, in, p, &r);
    if (s != Status::kOk) return s;
    if (path == nullptr) return InvalidPath(rt, in);
    Value np = *path;
    for (const Value& key : p.items()) np.push_back(key);
    return out(&np, r);
  });
}

// ---- select / repeat ----

Status SelectOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return cond_->Run(rt, f, in, [&](const Value& c) -> Status {
    if (c.truthy()) return out(in);
    return Status::kOk;
  });
}

Status SelectOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                       PathSink out) const {
  return cond_->Run(rt, f, in, [&](const Value& c) -> Status {
    if (c.truthy()) return out(path, in);
    return Status::kOk;
  });
}

Status RepeatOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  while (true) {
    Status s = rt.Step();
    if (s == Status::kOk) s = body_->Run(rt, f, in, out);
    if (s != Status::kOk) return s;
  }
}

Status RepeatOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                       PathSink out) const {
  while (true) {
    Status s = rt.Step();
    if (s == Status::kOk) s = body_->Paths(rt, f, in, path, out);
    if (s != Status::kOk) return s;
  }
}

// ---- first / limit / skip ----

template <typename Emit>
Status LimitOp::WithCount(Runtime& rt, Frame* f, const Value& in, Emit&& emit) const {
  if (kind_ == Kind::kFirst) return emit(int64_t{1});
  return count_->Run(rt, f, in, [&](const Value& n) -> Status {
    if (!n.is_number()) {
      Value ignored;
      std::string error;
      BinaryOperation(ast::BinaryOp::kSub, n, Value::Int(1), &ignored, &error);
      return rt.Fail(error.empty() ? "cannot subtract: " + TypeErrorPreview(n) : error);
    }
    double d = n.as_double();
    if (d < 0) {
      return rt.Fail(kind_ == Kind::kLimit ? "limit doesn't support negative count"
                                           : "skip doesn't support negative count");
    }
    int64_t count =
        std::isnan(d) ? 0 : (d >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(std::ceil(d)));
    return emit(count);
  });
}

Status LimitOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return WithCount(rt, f, in, [&](int64_t count) -> Status {
    if (kind_ == Kind::kSkip) {
      int64_t seen = 0;
      return body_->Run(rt, f, in, [&](const Value& v) -> Status {
        if (seen < count) {
          ++seen;
          return Status::kOk;
        }
        return out(v);
      });
    }
    if (count <= 0) return Status::kOk;
    uint64_t id = rt.NewLabel();
    int64_t seen = 0;
    Status s = body_->Run(rt, f, in, [&](const Value& v) -> Status {
      Status st = out(v);
      if (st != Status::kOk) return st;
      if (++seen >= count) return rt.Break(id);
      return Status::kOk;
    });
    if (s == Status::kBreak && rt.break_label() == id) return Status::kOk;
    return s;
  });
}

Status LimitOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                      PathSink out) const {
  return WithCount(rt, f, in, [&](int64_t count) -> Status {
    if (kind_ == Kind::kSkip) {
      int64_t seen = 0;
      return body_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
        if (seen < count) {
          ++seen;
          return Status::kOk;
        }
        return out(p, v);
      });
    }
    if (count <= 0) return Status::kOk;
    uint64_t id = rt.NewLabel();
    int64_t seen = 0;
    Status s = body_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
      Status st = out(p, v);
      if (st != Status::kOk) return st;
      if (++seen >= count) return rt.Break(id);
      return Status::kOk;
    });
    if (s == Status::kBreak && rt.break_label() == id) return Status::kOk;
    return s;
  });
}

Status IsEmptyOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  uint64_t id = rt.NewLabel();
  bool any = false;
  Status s = body_->Run(rt, f, in, [&](const Value&) -> Status {
    any = true;
    return rt.Break(id);
  });
  if (s == Status::kBreak && rt.break_label() == id) s = Status::kOk;
  if (s != Status::kOk) return s;
  return out(Value::Bool(!any));
}

Status AnyAllOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  // any: true at the first truthy condition output; all: false at the first falsy one.
  uint64_t id = rt.NewLabel();
  bool decided = false;
  auto check = [&](const Value& x) -> Status {
    auto test = [&](const Value& c) -> Status {
      if (c.truthy() == is_any_) {
        decided = true;
        return rt.Break(id);
      }
      return Status::kOk;
    };
    if (!cond_) return test(x);
    return cond_->Run(rt, f, x, test);
  };
  Status s;
  if (gen_) {
    s = gen_->Run(rt, f, in, check);
  } else if (in.is_array()) {
    s = Status::kOk;
    for (const Value& item : in.items()) {
      s = rt.Step();
      if (s == Status::kOk) s = check(item);
      if (s != Status::kOk) break;
    }
  } else if (in.is_object()) {
    s = Status::kOk;
    for (const Member* m : in.sorted_members()) {
      s = rt.Step();
      if (s == Status::kOk) s = check(m->value);
      if (s != Status::kOk) break;
    }
  } else {
    s = rt.Fail(IterateError(in));
  }
  if (s == Status::kBreak && rt.break_label() == id) s = Status::kOk;
  if (s != Status::kOk) return s;
  return out(Value::Bool(decided ? is_any_ : !is_any_));
}

// ---- range ----

Status RangeOp::Bind(Runtime& rt, Frame* f, const Value& in, size_t i, Value* vals,
                     Sink out) const {
  if (i < args_.size()) {
    return args_[i]->Run(rt, f, in, [&](const Value& v) -> Status {
      vals[i] = v;
      return Bind(rt, f, in, i + 1, vals, out);
    });
  }
  Value start, end, step;
  switch (args_.size()) {
    case 1:
      start = Value::Int(0);
      end = vals[0];
      step = Value::Int(1);
      break;
    case 2:
      start = vals[0];
      end = vals[1];
      step = Value::Int(1);
      break;
    default:
      start = vals[0];
      end = vals[1];
      step = vals[2];
  }
  for (const Value* v : {&start, &end, &step}) {
    if (!v->is_number()) return rt.Fail("range cannot be applied to: " + TypeErrorPreview(*v));
  }
  int dir = Compare(step, Value::Int(0));
  if (start.is_integer() && end.is_integer() && step.is_integer()) {
    int64_t e = end.as_int(), st = step.as_int();
    int64_t x = start.as_int();
    for (; dir * ((x < e) ? -1 : (x > e ? 1 : 0)) < 0;) {
      Status s = rt.Step();
      if (s == Status::kOk) s = out(Value::Int(x));
      if (s != Status::kOk) return s;
      // Past int64 the end is behind, so the range is over.
      if (__builtin_add_overflow(x, st, &x)) break;
    }
    return Status::kOk;
  }
  Value x = start;
  while (dir * Compare(x, end) < 0) {
    Status s = rt.Step();
    if (s == Status::kOk) s = out(x);
    if (s != Status::kOk) return s;
    Value next;
    std::string error;
    if (!BinaryOperation(ast::BinaryOp::kAdd, x, step, &next, &error)) {
      return rt.Fail(std::move(error));
    }
    x = std::move(next);
  }
  return Status::kOk;
}

Status RangeOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  Value vals[3];
  return Bind(rt, f, in, 0, vals, out);
}

// ---- run context ----

Status ContextOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  const RunContext& ctx = rt.context();
  switch (kind_) {
    case Kind::kInput:
    case Kind::kInputs: {
      while (true) {
        if (!ctx.next_input) {
          if (kind_ == Kind::kInputs) return Status::kOk;
          return rt.Fail("break");
        }
        Value v;
        RunError error;
        error.kind = ErrorKind::kBudget;  // marks "not set"
        if (!ctx.next_input(&v, &error)) {
          if (error.kind != ErrorKind::kBudget) {
            return rt.FailWith(error.message.empty() ? error.value : Value::String(error.message));
          }
          if (kind_ == Kind::kInputs) return Status::kOk;
          return rt.Fail("break");
        }
        Status s = rt.Step();
        if (s == Status::kOk) s = out(v);
        if (s != Status::kOk || kind_ == Kind::kInput) return s;
      }
    }
    case Kind::kDebug:
      if (ctx.debug) ctx.debug(in);
      return out(in);
    case Kind::kDebugMsg: {
      Status s = arg_->Run(rt, f, in, [&](const Value& m) -> Status {
        if (ctx.debug) ctx.debug(m);
        return Status::kOk;
      });
      if (s != Status::kOk) return s;
      return out(in);
    }
    case Kind::kStderr:
      if (ctx.stderr_output) ctx.stderr_output(in);
      return out(in);
    case Kind::kInputFilename:
      return out(ctx.input_filename ? ctx.input_filename() : Value());
    case Kind::kEnv:
      return out(ctx.env);
    case Kind::kHalt:
      return rt.Halt(Value(), 0);
    case Kind::kHaltError:
      return rt.Halt(in, 5);
    case Kind::kHaltErrorCode:
      return arg_->Run(rt, f, in, [&](const Value& code) -> Status {
        if (!code.is_number()) {
          return rt.Fail("halt_error cannot be applied to: " + TypeErrorPreview(code));
        }
        return rt.Halt(in, static_cast<int>(ToIndex(code)));
      });
  }
  return Status::kOk;
}

Status ContextOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                        PathSink out) const {
  switch (kind_) {
    case Kind::kDebug:
    case Kind::kStderr:
    case Kind::kDebugMsg:
      return Run(rt, f, in, [&](const Value& v) { return out(path, v); });
    default:
      return Op::Paths(rt, f, in, path, out);
  }
}

// ---- runtime-aware value builtins ----

Status CoreFnOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return ForEachArgs(rt, f, in, args_, [&](std::span<const Value> vals) -> Status {
    Value r;
    Status s = fn_(rt, in, vals, &r);
    if (s != Status::kOk) return s;
    return out(r);
  });
}

Status CoreSetpath(Runtime& rt, const Value& in, std::span<const Value> args, Value* out) {
  return SetPath(rt, in, args[0], args[1], out);
}

Status CoreDelpaths(Runtime& rt, const Value& in, std::span<const Value> args, Value* out) {
  return DelPaths(rt, in, args[0], out);
}

// ---- assignment ----

Status AssignOp::Modify(Runtime& rt, Frame* f, const Value& in, Updater update,
                        Value* result) const {
  Value v = in;
  std::vector<Value> deleted;
  Value root = Value::EmptyArray();
  Status s = lhs_->Paths(rt, f, in, &root, [&](const Value* p, const Value& pv) -> Status {
    if (p == nullptr) return InvalidPath(rt, pv);
    Value old;
    Status st = GetPath(rt, v, *p, &old);
    if (st != Status::kOk) return st;
    Value next;
    bool produced = false;
    st = update(old, &next, &produced);
    if (st != Status::kOk) return st;
    if (!produced) {
      deleted.push_back(*p);
      return Status::kOk;
    }
    old = Value();
    return SetPath(rt, std::move(v), *p, next, &v);
  });
  if (s != Status::kOk) return s;
  if (!deleted.empty()) return DelPaths(rt, v, Value::Array(std::move(deleted)), result);
  *result = std::move(v);
  return Status::kOk;
}

Status AssignOp::RunOwned(Runtime& rt, Frame* f, Value in, Sink out) const {
  if (!TakesOwnedInput()) return Run(rt, f, in, out);
  // The right side first (as Run does), then every path, both over the unchanged input.
  Value rv;
  if (op_ != ast::AssignOp::kUpdate) {
    Status s = rhs_->Run(rt, f, in, [&](const Value& v) -> Status {
      rv = v;
      return Status::kOk;
    });
    if (s != Status::kOk) return s;
  }
  std::vector<Value> paths;
  Value root = Value::EmptyArray();
  Status s = lhs_->Paths(rt, f, in, &root, [&](const Value* p, const Value& pv) -> Status {
    if (p == nullptr) return InvalidPath(rt, pv);
    paths.push_back(*p);
    return Status::kOk;
  });
  if (s != Status::kOk) return s;
  Value v = std::move(in);
  if (op_ == ast::AssignOp::kSet) {
    for (const Value& p : paths) {
      s = SetPath(rt, std::move(v), p, rv, &v);
      if (s != Status::kOk) return s;
    }
    return out(v);
  }
  const ast::BinaryOp bop = ArithmeticOf(op_);
  std::vector<Value> deleted;
  for (const Value& p : paths) {
    Value old;
    s = GetPath(rt, v, p, &old);
    if (s != Status::kOk) return s;
    Value next;
    bool produced = false;
    if (op_ == ast::AssignOp::kUpdate) {
      uint64_t id = rt.NewLabel();
      s = rhs_->Run(rt, f, old, [&](const Value& r) -> Status {
        next = r;
        produced = true;
        return rt.Break(id);
      });
      if (s == Status::kBreak && rt.break_label() == id) s = Status::kOk;
      if (s != Status::kOk) return s;
    } else if (op_ == ast::AssignOp::kAlt) {
      next = old.truthy() ? old : rv;
      produced = true;
    } else {
      std::string error;
      if (!BinaryOperation(bop, old, rv, &next, &error)) return rt.Fail(std::move(error));
      produced = true;
    }
    if (!produced) {
      deleted.push_back(p);
      continue;
    }
    old = Value();
    s = SetPath(rt, std::move(v), p, next, &v);
    if (s != Status::kOk) return s;
  }
  if (!deleted.empty()) {
    Value result;
    s = DelPaths(rt, v, Value::Array(std::move(deleted)), &result);
    if (s != Status::kOk) return s;
    return out(result);
  }
  return out(v);
}

Status AssignOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  switch (op_) {
    case ast::AssignOp::kSet:
      return rhs_->Run(rt, f, in, [&](const Value& rv) -> Status {
        Value v = in;
        Value root = Value::EmptyArray();
        Status s = lhs_->Paths(rt, f, in, &root, [&](const Value* p, const Value& pv) -> Status {
          if (p == nullptr) return InvalidPath(rt, pv);
          return SetPath(rt, std::move(v), *p, rv, &v);
        });
        if (s != Status::kOk) return s;
        return out(v);
      });
    case ast::AssignOp::kUpdate: {
      Value result;
      Status s = Modify(
          rt, f, in,
          [&](const Value& old, Value* next, bool* produced) -> Status {
            uint64_t id = rt.NewLabel();
            Status st = rhs_->Run(rt, f, old, [&](const Value& v) -> Status {
              *next = v;
              *produced = true;
              return rt.Break(id);
            });
            if (st == Status::kBreak && rt.break_label() == id) st = Status::kOk;
            return st;
          },
          &result);
      if (s != Status::kOk) return s;
      return out(result);
    }
    default:
      break;
  }
  const ast::BinaryOp bop = ArithmeticOf(op_);
  bool alt = op_ == ast::AssignOp::kAlt;
  return rhs_->Run(rt, f, in, [&](const Value& rv) -> Status {
    Value result;
    Status s = Modify(
        rt, f, in,
        [&](const Value& old, Value* next, bool* produced) -> Status {
          *produced = true;
          if (alt) {
            *next = old.truthy() ? old : rv;
            return Status::kOk;
          }
          std::string error;
          if (!BinaryOperation(bop, old, rv, next, &error)) return rt.Fail(std::move(error));
          return Status::kOk;
        },
        &result);
    if (s != Status::kOk) return s;
    return out(result);
  });
}

}  // namespace wmap::jq::eval
