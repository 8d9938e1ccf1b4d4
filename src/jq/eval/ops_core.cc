// Value-mode and path-mode evaluation of the structural ops: identity, literals, indexing,
// iteration, pipes, commas, arithmetic and logic.
#include <cmath>

#include "jq/eval/ops.h"
#include "jq/eval/preview.h"
#include "jq/eval/value_ops.h"

namespace wmap::jq::eval {
namespace {

Status InvalidPath(Runtime& rt, const Value& v) {
  return rt.FailInvalidPath("invalid path against: " + TypeErrorPreview(v));
}

Value AppendPath(const Value& path, Value key) {
  Value p = path;
  p.push_back(std::move(key));
  return p;
}

}  // namespace

bool PathIntact(const Value& produced, const Value& tracked) {
  Type t = produced.type();
  if (t == Type::kArray || t == Type::kObject) {
    return tracked.type() == t && produced.identical(tracked);
  }
  if (produced.is_number() && tracked.is_number()) {
    double a = produced.as_double(), b = tracked.as_double();
    if (std::isnan(a) && std::isnan(b)) return true;
  }
  if (t != tracked.type()) return false;
  return Compare(produced, tracked) == 0;
}

Status Op::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path, PathSink out) const {
  return Run(rt, f, in, [&](const Value& v) -> Status {
    if (path != nullptr && PathIntact(v, in)) return out(path, v);
    return out(nullptr, v);
  });
}

Status IdentityOp::Run(Runtime&, Frame*, const Value& in, Sink out) const { return out(in); }

Status IdentityOp::Paths(Runtime&, Frame*, const Value& in, const Value* path, PathSink out) const {
  return out(path, in);
}

Status LiteralOp::Run(Runtime&, Frame*, const Value&, Sink out) const { return out(value_); }

// ---- .. ----

namespace {

Status RecurseValues(Runtime& rt, const Value& v, Sink out) {
  Status s = out(v);
  if (s != Status::kOk) return s;
  if (v.is_array()) {
    if (v.size() == 0) return Status::kOk;
    CallScope scope(rt);
    if (scope.status() != Status::kOk) return scope.status();
    for (const Value& item : v.items()) {
      s = RecurseValues(rt, item, out);
      if (s != Status::kOk) return s;
    }
  } else if (v.is_object()) {
    if (v.size() == 0) return Status::kOk;
    CallScope scope(rt);
    if (scope.status() != Status::kOk) return scope.status();
    for (const Member* m : v.sorted_members()) {
      s = RecurseValues(rt, m->value, out);
      if (s != Status::kOk) return s;
    }
  }
  return Status::kOk;
}

Status RecursePaths(Runtime& rt, const Value& v, const Value& path, PathSink out) {
  Status s = out(&path, v);
  if (s != Status::kOk) return s;
  if (v.is_array()) {
    if (v.size() == 0) return Status::kOk;
    CallScope scope(rt);
    if (scope.status() != Status::kOk) return scope.status();
    int64_t i = 0;
    for (const Value& item : v.items()) {
      Value p = AppendPath(path, Value::Int(i++));
      s = RecursePaths(rt, item, p, out);
      if (s != Status::kOk) return s;
    }
  } else if (v.is_object()) {
    if (v.size() == 0) return Status::kOk;
    CallScope scope(rt);
    if (scope.status() != Status::kOk) return scope.status();
    for (const Member* m : v.sorted_members()) {
      Value p = AppendPath(path, m->key);
      s = RecursePaths(rt, m->value, p, out);
      if (s != Status::kOk) return s;
    }
  }
  return Status::kOk;
}

}  // namespace

Status RecurseAllOp::Run(Runtime& rt, Frame*, const Value& in, Sink out) const {
  return RecurseValues(rt, in, out);
}

Status RecurseAllOp::Paths(Runtime& rt, Frame*, const Value& in, const Value* path,
                           PathSink out) const {
  // `..` is recurse(.[]?): without a path only the input itself is output.
  if (path == nullptr) return out(nullptr, in);
  return RecursePaths(rt, in, *path, out);
}

// ---- .a.b.c ----

FieldChainOp::FieldChainOp(OpPtr target, std::vector<std::string> names, bool optional)
    : target_(std::move(target)), names_(std::move(names)), optional_(optional) {
  for (const std::string& n : names_) keys_.push_back(Value::String(n));
}

Status FieldChainOp::Apply(Runtime& rt, const Value& v, Sink out) const {
  const Value* cur = &v;
  for (const std::string& name : names_) {
    if (cur->is_object()) {
      const Value* next = cur->find(name);
      if (next == nullptr) {
        // Every further step on null is null.
        static const Value kNull;
        cur = &kNull;
        break;
      }
      cur = next;
    } else if (cur->is_null()) {
      break;
    } else {
      if (optional_) return Status::kOk;
      Value ignored;
      std::string error;
      IndexField(*cur, name, &ignored, &error);
      return rt.Fail(std::move(error));
    }
  }
  if (cur->is_null()) return out(Value());
  return out(*cur);
}

Status FieldChainOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  if (!target_) return Apply(rt, in, out);
  return target_->Run(rt, f, in, [&](const Value& v) { return Apply(rt, v, out); });
}

Status FieldChainOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                           PathSink out) const {
  auto apply = [&](const Value* p, const Value& v) -> Status {
    Value cur = v;
    Value cur_path = p ? *p : Value();
    for (size_t i = 0; i < names_.size(); ++i) {
      Value next;
      std::string error;
      if (!IndexField(cur, names_[i], &next, &error)) {
        if (optional_) return Status::kOk;
        return rt.Fail(std::move(error));
      }
      if (p == nullptr) return InvalidPath(rt, cur);
      cur_path.push_back(keys_[i]);
      cur = std::move(next);
    }
    return out(&cur_path, cur);
  };
  if (!target_) return apply(path, in);
  return target_->Paths(rt, f, in, path, apply);
}

// ---- x[i] ----

Status IndexOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return index_->Run(rt, f, in, [&](const Value& key) -> Status {
    return target_->Run(rt, f, in, [&](const Value& v) -> Status {
      Value r;
      std::string error;
      if (!IndexValue(v, key, &r, &error)) {
        return optional_ ? Status::kOk : rt.Fail(std::move(error));
      }
      return out(r);
    });
  });
}

Status IndexOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                      PathSink out) const {
  return index_->Run(rt, f, in, [&](const Value& key) -> Status {
    return target_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
      Value r;
      std::string error;
      if (!IndexValue(v, key, &r, &error)) {
        return optional_ ? Status::kOk : rt.Fail(std::move(error));
      }
      if (p == nullptr) return InvalidPath(rt, v);
      Value np = AppendPath(*p, key);
      return out(&np, r);
    });
  });
}

// ---- x[a:b] ----

template <typename Fn>
Status SliceOp::Bounds(Runtime& rt, Frame* f, const Value& in, Fn&& fn) const {
  static const Value kNull;
  // The start bound is the outer loop, then the end bound (gojq's order).
  auto with_to = [&](const Value& from) -> Status {
    if (!to_) return fn(from, kNull);
    return to_->Run(rt, f, in, [&](const Value& to) { return fn(from, to); });
  };
  if (!from_) return with_to(kNull);
  return from_->Run(rt, f, in, [&](const Value& from) { return with_to(from); });
}

Status SliceOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return Bounds(rt, f, in, [&](const Value& from, const Value& to) -> Status {
    return target_->Run(rt, f, in, [&](const Value& v) -> Status {
      Value r;
      std::string error;
      if (!SliceValue(v, from, to, &r, &error)) {
        return optional_ ? Status::kOk : rt.Fail(std::move(error));
      }
      Status s = rt.ChargeValue(r);
      if (s != Status::kOk) return s;
      return out(r);
    });
  });
}

Status SliceOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                      PathSink out) const {
  return Bounds(rt, f, in, [&](const Value& from, const Value& to) -> Status {
    return target_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
      Value r;
      std::string error;
      if (!SliceValue(v, from, to, &r, &error)) {
        return optional_ ? Status::kOk : rt.Fail(std::move(error));
      }
      if (p == nullptr) return InvalidPath(rt, v);
      Value key = Value::EmptyObject(2);
      key.set("start", from);
      key.set("end", to);
      Value np = AppendPath(*p, std::move(key));
      return out(&np, r);
    });
  });
}

// ---- x[] ----

namespace {

Status IterateValue(Runtime& rt, const Value& v, bool optional, Sink out) {
  if (v.is_array()) {
    for (const Value& item : v.items()) {
      Status s = rt.Step();
      if (s != Status::kOk) return s;
      s = out(item);
      if (s != Status::kOk) return s;
    }
    return Status::kOk;
  }
  if (v.is_object()) {
    for (const Member* m : v.sorted_members()) {
      Status s = rt.Step();
      if (s != Status::kOk) return s;
      s = out(m->value);
      if (s != Status::kOk) return s;
    }
    return Status::kOk;
  }
  if (optional) return Status::kOk;
  return rt.Fail(IterateError(v));
}

Status IteratePaths(Runtime& rt, const Value* path, const Value& v, bool optional, PathSink out) {
  if (!v.is_array() && !v.is_object()) {
    if (optional) return Status::kOk;
    return rt.Fail(IterateError(v));
  }
  if (path == nullptr) {
    if (optional) return Status::kOk;
    return rt.FailInvalidPath("invalid path on iterating against: " + TypeErrorPreview(v));
  }
  if (v.is_array()) {
    int64_t i = 0;
    for (const Value& item : v.items()) {
      Status s = rt.Step();
      if (s != Status::kOk) return s;
      Value np = AppendPath(*path, Value::Int(i++));
      s = out(&np, item);
      if (s != Status::kOk) return s;
    }
    return Status::kOk;
  }
  for (const Member* m : v.sorted_members()) {
    Status s = rt.Step();
    if (s != Status::kOk) return s;
    Value np = AppendPath(*path, m->key);
    s = out(&np, m->value);
    if (s != Status::kOk) return s;
  }
  return Status::kOk;
}

}  // namespace

Status IterateOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  if (!target_) return IterateValue(rt, in, optional_, out);
  return target_->Run(rt, f, in,
                      [&](const Value& v) { return IterateValue(rt, v, optional_, out); });
}

Status IterateOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                        PathSink out) const {
  if (!target_) return IteratePaths(rt, path, in, optional_, out);
  return target_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) {
    return IteratePaths(rt, p, v, optional_, out);
  });
}

// ---- | and , ----

Status PipeOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  const Op* right = right_.get();
  return left_->Run(rt, f, in, [&](const Value& v) { return right->Run(rt, f, v, out); });
}

Status PipeOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                     PathSink out) const {
  return left_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) {
    return right_->Paths(rt, f, v, p, out);
  });
}

Status CommaOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  Status s = left_->Run(rt, f, in, out);
  if (s != Status::kOk) return s;
  return right_->Run(rt, f, in, out);
}

Status CommaOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                      PathSink out) const {
  Status s = left_->Paths(rt, f, in, path, out);
  if (s != Status::kOk) return s;
  return right_->Paths(rt, f, in, path, out);
}

// ---- arithmetic ----

Status NegOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return body_->Run(rt, f, in, [&](const Value& v) -> Status {
    Value r;
    std::string error;
    if (!Negate(v, &r, &error)) return rt.Fail(std::move(error));
    return out(r);
  });
}

BinaryOp::BinaryOp(ast::BinaryOp op, OpPtr left, OpPtr right)
    : op_(op), left_(std::move(left)), right_(std::move(right)) {
  appends_to_input_ = op_ == ast::BinaryOp::kAdd &&
                      dynamic_cast<const IdentityOp*>(left_.get()) != nullptr &&
                      right_->SingleOutput();
}

Status BinaryOp::RunOwned(Runtime& rt, Frame* f, Value in, Sink out) const {
  if (!appends_to_input_) return Run(rt, f, in, out);
  Value right;
  Status s = right_->Run(rt, f, in, [&](const Value& r) -> Status {
    right = r;
    return Status::kOk;
  });
  if (s != Status::kOk) return s;
  if (in.is_array() && right.is_array()) {
    // Only what is appended is new (the input's storage is reused when unshared).
    s = rt.Charge(right.size() * sizeof(Value));
    if (s != Status::kOk) return s;
    Value sum = std::move(in);
    if (right.size() > 0) {
      auto& items = sum.mutable_items();
      items.insert(items.end(), right.items().begin(), right.items().end());
    }
    return out(sum);
  }
  if (in.is_object() && right.is_object()) {
    s = rt.Charge(right.size() * (2 * sizeof(Value) + 8));
    if (s != Status::kOk) return s;
    Value sum = std::move(in);
    for (const Member& m : right.members()) sum.set(m.key, m.value);
    return out(sum);
  }
  Value result;
  std::string error;
  if (!BinaryOperation(op_, in, right, &result, &error)) return rt.Fail(std::move(error));
  if (result.is_string() || result.is_array() || result.is_object()) {
    s = rt.ChargeValue(result);
    if (s != Status::kOk) return s;
  }
  return out(result);
}

namespace {

// What `l op r` will build, when it is large and known before building it: strings and arrays
// joined by `+`, a string repeated by `*`. 0 when the operation builds nothing large (or the size
// is not known in advance); the result is then charged once built.
size_t BytesBeforeBuilding(ast::BinaryOp op, const Value& l, const Value& r) {
  if (op == ast::BinaryOp::kAdd) {
    if (l.is_string() && r.is_string()) return l.as_string().size() + r.as_string().size() + 16;
    if (l.is_array() && r.is_array()) return (l.size() + r.size()) * sizeof(Value) + 32;
    return 0;
  }
  if (op == ast::BinaryOp::kMul) {
    const Value* text = l.is_string() ? &l : (r.is_string() ? &r : nullptr);
    const Value* times = l.is_string() ? &r : &l;
    if (text == nullptr || !times->is_number()) return 0;
    double n = times->as_double();
    if (!(n > 1)) return 0;
    double bytes = static_cast<double>(text->as_string().size()) * n;
    // Larger results are refused by the operation itself ("repeat string result too large").
    return bytes < 0x10000000 ? static_cast<size_t>(bytes) + 16 : 0;
  }
  return 0;
}

}  // namespace

bool BuildsLargeValue(ast::BinaryOp op, const Value& l, const Value& r) {
  constexpr size_t kLarge = 4096;
  return BytesBeforeBuilding(op, l, r) > kLarge;
}

Status BinaryOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  auto apply = [&](const Value& l, const Value& r) -> Status {
    size_t bytes = BytesBeforeBuilding(op_, l, r);
    if (bytes > 0) {
      Status s = rt.Charge(bytes);
      if (s != Status::kOk) return s;
    }
    Value result;
    std::string error;
    if (!BinaryOperation(op_, l, r, &result, &error)) return rt.Fail(std::move(error));
    if (bytes == 0 && (result.is_string() || result.is_array() || result.is_object())) {
      Status s = rt.ChargeValue(result);
      if (s != Status::kOk) return s;
    }
    return out(result);
  };
  if (const Value* rc = right_->Constant()) {
    if (const Value* lc = left_->Constant()) return apply(*lc, *rc);
    return left_->Run(rt, f, in, [&](const Value& l) { return apply(l, *rc); });
  }
  return right_->Run(rt, f, in, [&](const Value& r) -> Status {
    return left_->Run(rt, f, in, [&](const Value& l) { return apply(l, r); });
  });
}

Status LogicOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return left_->Run(rt, f, in, [&](const Value& l) -> Status {
    if (is_and_ ? !l.truthy() : l.truthy()) return out(Value::Bool(!is_and_));
    return right_->Run(rt, f, in, [&](const Value& r) { return out(Value::Bool(r.truthy())); });
  });
}

Status AlternativeOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  bool found = false;
  Status s = left_->Run(rt, f, in, [&](const Value& v) -> Status {
    if (!v.truthy()) return Status::kOk;
    found = true;
    return out(v);
  });
  if (s != Status::kOk) return s;
  if (found) return Status::kOk;
  return right_->Run(rt, f, in, out);
}

Status AlternativeOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                            PathSink out) const {
  bool found = false;
  Status s = left_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
    if (!v.truthy()) return Status::kOk;
    found = true;
    return out(p, v);
  });
  if (s != Status::kOk) return s;
  if (found) return Status::kOk;
  return right_->Paths(rt, f, in, path, out);
}

// ---- if / try ----

Status IfOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return cond_->Run(rt, f, in, [&](const Value& c) -> Status {
    if (c.truthy()) return then_->Run(rt, f, in, out);
    if (else_) return else_->Run(rt, f, in, out);
    return out(in);
  });
}

Status IfOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path, PathSink out) const {
  return cond_->Run(rt, f, in, [&](const Value& c) -> Status {
    if (c.truthy()) return then_->Paths(rt, f, in, path, out);
    if (else_) return else_->Paths(rt, f, in, path, out);
    return out(path, in);
  });
}

Status TryOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  bool downstream = false;
  Status s = body_->Run(rt, f, in, [&](const Value& v) -> Status {
    Status st = out(v);
    if (st != Status::kOk) downstream = true;
    return st;
  });
  if (s != Status::kError || downstream) return s;
  Value error = rt.TakeError();
  if (!handler_) return Status::kOk;
  return handler_->Run(rt, f, error, out);
}

Status TryOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path, PathSink out) const {
  bool downstream = false;
  Status s = body_->Paths(rt, f, in, path, [&](const Value* p, const Value& v) -> Status {
    Status st = out(p, v);
    if (st != Status::kOk) downstream = true;
    return st;
  });
  if (s != Status::kError || downstream) return s;
  Value error = rt.TakeError();
  if (!handler_) return Status::kOk;
  return handler_->Paths(rt, f, error, nullptr, out);
}

}  // namespace wmap::jq::eval
