// Evaluation of binding, reduction, labels, function calls, natives and constructors.
#include <array>
#include <memory>

#include "jq/eval/ops.h"
#include "jq/eval/preview.h"
#include "jq/eval/value_ops.h"
#include "wmap/json.h"

namespace wmap::jq::eval {
namespace {

// A buffer of `n` elements on the stack when small, on the heap otherwise.
template <typename T, size_t kInline>
class SmallBuffer {
 public:
  explicit SmallBuffer(size_t n) {
    if (n > kInline) {
      heap_ = std::make_unique<T[]>(n);
      data_ = heap_.get();
    } else {
      data_ = inline_.data();
    }
  }
  T* data() { return data_; }
  T& operator[](size_t i) { return data_[i]; }

 private:
  std::array<T, kInline> inline_{};
  std::unique_ptr<T[]> heap_;
  T* data_;
};

}  // namespace

// ---- patterns ----

namespace {

Status BindEntries(Runtime& rt, Frame* f, const Value& dot, const PatternCode& pattern,
                   const Value& value, size_t i, BindThen then);

Status BindElements(Runtime& rt, Frame* f, const Value& dot, const PatternCode& pattern,
                    const Value& value, size_t i, BindThen then) {
  if (i == pattern.elements.size()) return then();
  Value item;
  if (value.is_array() && i < value.size()) item = value[i];
  return BindPattern(rt, f, dot, *pattern.elements[i], item,
                     [&]() { return BindElements(rt, f, dot, pattern, value, i + 1, then); });
}

Status BindEntryValue(Runtime& rt, Frame* f, const Value& dot, const PatternCode& pattern,
                      const Value& value, size_t i, const Value& key, BindThen then) {
  const PatternCode::Entry& entry = pattern.entries[i];
  if (!key.is_string()) {
    return rt.Fail("expected a string for object key but got: " + TypeErrorPreview(key));
  }
  Value field;
  std::string error;
  if (!IndexField(value, key.as_string(), &field, &error)) return rt.Fail(std::move(error));
  if (entry.key_slot >= 0) f->slots[entry.key_slot] = field;
  auto next = [&]() { return BindEntries(rt, f, dot, pattern, value, i + 1, then); };
  if (!entry.value) return next();
  return BindPattern(rt, f, dot, *entry.value, field, next);
}

Status BindEntries(Runtime& rt, Frame* f, const Value& dot, const PatternCode& pattern,
                   const Value& value, size_t i, BindThen then) {
  if (i == pattern.entries.size()) return then();
  const PatternCode::Entry& entry = pattern.entries[i];
  if (entry.key_expr) {
    return entry.key_expr->Run(rt, f, dot, [&](const Value& key) {
      return BindEntryValue(rt, f, dot, pattern, value, i, key, then);
    });
  }
  Value key = Value::String(entry.key_name);
  return BindEntryValue(rt, f, dot, pattern, value, i, key, then);
}

}  // namespace

Status BindPattern(Runtime& rt, Frame* f, const Value& dot, const PatternCode& pattern,
                   const Value& value, BindThen then) {
  switch (pattern.kind) {
    case PatternCode::Kind::kVar:
      f->slots[pattern.slot] = value;
      return then();
    case PatternCode::Kind::kArray:
      if (!value.is_array() && !value.is_null()) {
        return rt.Fail("expected an array but got: " + TypeErrorPreview(value));
      }
      return BindElements(rt, f, dot, pattern, value, 0, then);
    case PatternCode::Kind::kObject:
      if (!value.is_object() && !value.is_null()) {
        return rt.Fail("expected an object but got: " + TypeErrorPreview(value));
      }
      return BindEntries(rt, f, dot, pattern, value, 0, then);
  }
  return Status::kOk;
}

template <typename Body>
Status BindOp::Each(Runtime& rt, Frame* f, const Value& in, Body&& body) const {
  return source_->Run(rt, f, in, [&](const Value& v) -> Status {
    if (patterns_.size() == 1) {
      return BindPattern(rt, f, in, *patterns_[0], v, [&]() { return body(); });
    }
    // `?//`: an error while binding or in the body moves on to the next alternative; the
    // error of the last alternative is the result.
    for (size_t i = 0; i < patterns_.size(); ++i) {
      for (int slot : all_slots_) f->slots[slot] = Value();
      Status s = BindPattern(rt, f, in, *patterns_[i], v, [&]() { return body(); });
      if (s == Status::kError && i + 1 < patterns_.size()) {
        rt.TakeError();
        continue;
      }
      return s;
    }
    return Status::kOk;
  });
}

Status BindOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return Each(rt, f, in, [&]() { return body_->Run(rt, f, in, out); });
}

Status BindOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                     PathSink out) const {
  return Each(rt, f, in, [&]() { return body_->Paths(rt, f, in, path, out); });
}

// ---- reduce / foreach ----

Status ReduceOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return init_->Run(rt, f, in, [&](const Value& init) -> Status {
    Value state = init;
    Status s = source_->Run(rt, f, in, [&](const Value& item) -> Status {
      Status st = rt.Step();
      if (st != Status::kOk) return st;
      return BindPattern(rt, f, in, *pattern_, item, [&]() -> Status {
        if (update_->TakesOwnedInput()) {
          // The state is handed over, so `.[k] = v` and `. + [v]` update it in place; the
          // update ends with exactly one output (the next state) or a failure.
          return update_->RunOwned(rt, f, std::move(state), [&](const Value& next) -> Status {
            state = next;
            if (!is_foreach_) return Status::kOk;
            if (!extract_) return out(next);
            return extract_->Run(rt, f, next, out);
          });
        }
        Value current = std::move(state);
        bool produced = false;
        // `state` was moved from, and the callback assigns it before anything reads it.
        // NOLINTNEXTLINE(bugprone-use-after-move)
        Status st2 = update_->Run(rt, f, current, [&](const Value& next) -> Status {
          state = next;
          produced = true;
          if (!is_foreach_) return Status::kOk;
          if (!extract_) return out(next);
          return extract_->Run(rt, f, next, out);
        });
        if (!produced) state = std::move(current);
        return st2;
      });
    });
    if (s != Status::kOk) return s;
    if (is_foreach_) return Status::kOk;
    return out(state);
  });
}

Status ReduceOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                       PathSink out) const {
  return init_->Paths(rt, f, in, path, [&](const Value* init_path, const Value& init) -> Status {
    Value state = init;
    bool has_path = init_path != nullptr;
    Value state_path = has_path ? *init_path : Value();
    Status s = source_->Run(rt, f, in, [&](const Value& item) -> Status {
      Status st = rt.Step();
      if (st != Status::kOk) return st;
      return BindPattern(rt, f, in, *pattern_, item, [&]() -> Status {
        Value current = state;
        Value current_path = state_path;
        bool current_has = has_path;
        return update_->Paths(rt, f, current, current_has ? &current_path : nullptr,
                              [&](const Value* p, const Value& next) -> Status {
                                state = next;
                                has_path = p != nullptr;
                                state_path = has_path ? *p : Value();
                                if (!is_foreach_) return Status::kOk;
                                if (!extract_) return out(p, next);
                                return extract_->Paths(rt, f, next, p, out);
                              });
      });
    });
    if (s != Status::kOk) return s;
    if (is_foreach_) return Status::kOk;
    return out(has_path ? &state_path : nullptr, state);
  });
}

// ---- variables and labels ----

Status VarOp::Run(Runtime&, Frame* f, const Value&, Sink out) const {
  return out(Up(f, hops_)->slots[slot_]);
}

Status LabelOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  uint64_t id = rt.NewLabel();
  f->slots[slot_] = Value::Int(static_cast<int64_t>(id));
  Status s = body_->Run(rt, f, in, out);
  if (s == Status::kBreak && rt.break_label() == id) return Status::kOk;
  return s;
}

Status LabelOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                      PathSink out) const {
  uint64_t id = rt.NewLabel();
  f->slots[slot_] = Value::Int(static_cast<int64_t>(id));
  Status s = body_->Paths(rt, f, in, path, out);
  if (s == Status::kBreak && rt.break_label() == id) return Status::kOk;
  return s;
}

Status BreakOp::Run(Runtime& rt, Frame* f, const Value&, Sink) const {
  return rt.Break(static_cast<uint64_t>(Up(f, hops_)->slots[slot_].as_int()));
}

Status BreakOp::Paths(Runtime& rt, Frame* f, const Value&, const Value*, PathSink) const {
  return rt.Break(static_cast<uint64_t>(Up(f, hops_)->slots[slot_].as_int()));
}

// ---- function calls ----

template <typename Body>
Status CallOp::Enter(Runtime& rt, Frame* f, Body&& body) const {
  CallScope scope(rt);
  if (scope.status() != Status::kOk) return scope.status();
  Frame* parent = def_->global ? nullptr : Up(f, hops_);
  size_t n = args_.size();
  SmallBuffer<Closure, 4> closures(n);
  for (size_t i = 0; i < n; ++i) {
    const Op* arg = args_[i].get();
    if (const auto* param = dynamic_cast<const ParamOp*>(arg)) {
      // Passing a parameter on: reuse the caller's closure instead of wrapping it.
      closures[i] = Up(f, param->hops())->args[param->index()];
    } else {
      closures[i] = Closure{arg, f};
    }
  }
  SmallBuffer<Value, 6> slots(static_cast<size_t>(def_->num_slots));
  Frame frame{parent, closures.data(), slots.data()};
  return body(&frame);
}

Status CallOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  return Enter(rt, f, [&](Frame* frame) { return def_->body->Run(rt, frame, in, out); });
}

Status CallOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                     PathSink out) const {
  return Enter(rt, f, [&](Frame* frame) { return def_->body->Paths(rt, frame, in, path, out); });
}

bool CallOp::IsPath(PathQuery& q) const {
  for (const FuncDef* d : q.visiting) {
    if (d == def_) return true;
  }
  if (q.visiting.size() > 64) return true;
  q.visiting.push_back(def_);
  q.args.push_back(&args_);
  bool r = def_->body->IsPath(q);
  q.args.pop_back();
  q.visiting.pop_back();
  return r;
}

Status ParamOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  Status s = rt.Step();
  if (s != Status::kOk) return s;
  const Closure& c = Up(f, hops_)->args[index_];
  return c.body->Run(rt, c.frame, in, out);
}

Status ParamOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                      PathSink out) const {
  Status s = rt.Step();
  if (s != Status::kOk) return s;
  const Closure& c = Up(f, hops_)->args[index_];
  return c.body->Paths(rt, c.frame, in, path, out);
}

bool ParamOp::IsPath(PathQuery& q) const {
  // The argument lists on the query stack correspond to enclosing calls; a parameter `hops`
  // frames up belongs to the call that many levels out.
  if (q.args.size() <= static_cast<size_t>(hops_)) return true;
  const std::vector<OpPtr>* args = q.args[q.args.size() - 1 - hops_];
  if (static_cast<size_t>(index_) >= args->size()) return true;
  std::vector<const std::vector<OpPtr>*> saved(q.args.end() - 1 - hops_, q.args.end());
  q.args.resize(q.args.size() - 1 - hops_);
  bool r = (*args)[index_]->IsPath(q);
  q.args.insert(q.args.end(), saved.begin(), saved.end());
  return r;
}

// ---- natives ----

namespace {

Status ArgsRec(Runtime& rt, Frame* f, const Value& in, const std::vector<OpPtr>& args, int i,
               Value* vals, ArgsThen then) {
  if (i < 0) return then(std::span<const Value>(vals, args.size()));
  // One native frame per argument: guarded like a call.
  CallScope scope(rt);
  if (scope.status() != Status::kOk) return scope.status();
  if (const Value* c = args[i]->Constant()) {
    vals[i] = *c;
    return ArgsRec(rt, f, in, args, i - 1, vals, then);
  }
  return args[i]->Run(rt, f, in, [&](const Value& v) -> Status {
    vals[i] = v;
    return ArgsRec(rt, f, in, args, i - 1, vals, then);
  });
}

}  // namespace

Status ForEachArgs(Runtime& rt, Frame* f, const Value& in, const std::vector<OpPtr>& args,
                   ArgsThen then) {
  SmallBuffer<Value, 4> vals(args.size());
  return ArgsRec(rt, f, in, args, static_cast<int>(args.size()) - 1, vals.data(), then);
}

namespace {

// A native's work is at least proportional to the size of its input: charged before the call so
// that the deadline is checked often when natives run over large values.
uint64_t InputWork(const Value& in) {
  if (in.is_string()) return in.as_string().size() / 16;
  if (in.is_array() || in.is_object()) return in.size();
  return 0;
}

}  // namespace

Status NativeOp::Call(Runtime& rt, const Value& in, std::span<const Value> args, Sink out) const {
  if (Status w = rt.Work(InputWork(in)); w != Status::kOk) return w;
  if (spec_->function != nullptr) {
    Value r;
    size_t charged_before = rt.memory_charged();
    bool ok = spec_->function(rt.native_context(), in, args, &r);
    if (rt.budget_spent()) return Status::kBudget;
    if (!ok) return rt.FailWith(std::move(r));
    // A native that charged what it built as it went is not charged a second time.
    if ((r.is_string() || r.is_array() || r.is_object()) && rt.memory_charged() == charged_before) {
      Status s = rt.ChargeValue(r);
      if (s != Status::kOk) return s;
    }
    return out(r);
  }
  Status status = Status::kOk;
  std::function<bool(const Value&)> emit = [&](const Value& v) -> bool {
    Status s = rt.Step();
    if (s == Status::kOk) s = rt.ChargeValue(v);
    if (s == Status::kOk) s = out(v);
    if (s != Status::kOk) {
      status = s;
      return false;
    }
    return true;
  };
  Value error;
  bool ok = spec_->generator(rt.native_context(), in, args, emit, &error);
  if (status != Status::kOk) return status;
  if (rt.budget_spent()) return Status::kBudget;
  if (!ok) return rt.FailWith(std::move(error));
  return Status::kOk;
}

Status NativeOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  if (args_.empty()) return Call(rt, in, {}, out);
  return ForEachArgs(rt, f, in, args_,
                     [&](std::span<const Value> vals) { return Call(rt, in, vals, out); });
}

// ---- constructors ----

Status ArrayOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  if (!body_) return out(Value::EmptyArray());
  std::vector<Value> items;
  Status s = body_->Run(rt, f, in, [&](const Value& v) -> Status {
    items.push_back(v);
    return rt.Charge(sizeof(Value));
  });
  if (s != Status::kOk) return s;
  return out(Value::Array(std::move(items)));
}

namespace {

struct ObjectBuilder {
  Runtime& rt;
  Frame* f;
  const Value& in;
  const std::vector<ObjectOp::Entry>& entries;
  std::vector<std::pair<Value, Value>>& kv;
  Sink out;

  Status Emit() {
    Value obj = Value::EmptyObject(kv.size());
    for (const auto& [k, v] : kv) obj.set(k.as_string(), v);
    Status s = rt.Charge(kv.size() * 40 + 48);
    if (s != Status::kOk) return s;
    return out(obj);
  }

  Status Entry(size_t i) {
    if (i == entries.size()) return Emit();
    // One native frame per entry: guarded like a call.
    CallScope scope(rt);
    if (scope.status() != Status::kOk) return scope.status();
    const ObjectOp::Entry& e = entries[i];
    auto with_key = [&](const Value& key) -> Status {
      if (!key.is_string()) {
        return rt.Fail("expected a string for object key but got: " + TypeErrorPreview(key));
      }
      kv[i].first = key;
      if (!e.value) {
        std::string error;
        if (!IndexValue(in, key, &kv[i].second, &error)) return rt.Fail(std::move(error));
        return Entry(i + 1);
      }
      if (const Value* c = e.value->Constant()) {
        kv[i].second = *c;
        return Entry(i + 1);
      }
      return e.value->Run(rt, f, in, [&](const Value& v) -> Status {
        kv[i].second = v;
        return Entry(i + 1);
      });
    };
    if (const Value* c = e.key->Constant()) return with_key(*c);
    return e.key->Run(rt, f, in, with_key);
  }
};

}  // namespace

bool ObjectOp::SingleOutput() const {
  for (const Entry& e : entries_) {
    if (!e.key->SingleOutput() || (e.value && !e.value->SingleOutput())) return false;
  }
  return true;
}

bool StringOp::SingleOutput() const {
  for (const Part& p : parts_) {
    if (p.expr && !p.expr->SingleOutput()) return false;
  }
  return true;
}

Status ObjectOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  std::vector<std::pair<Value, Value>> kv(entries_.size());
  ObjectBuilder builder{rt, f, in, entries_, kv, out};
  return builder.Entry(0);
}

Value ToStringValue(const Value& v) {
  if (v.is_string()) return v;
  return Value::String(json::ToCompactString(v));
}

Status StringOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  // Interpolated values: the last interpolation is the outermost loop (gojq's order).
  size_t n = parts_.size();
  std::vector<Value> pieces(n);
  auto emit = [&]() -> Status {
    std::string s;
    for (size_t i = 0; i < n; ++i) {
      if (parts_[i].expr) {
        s.append(pieces[i].as_string());
      } else {
        s.append(parts_[i].literal);
      }
    }
    Status st = rt.Charge(s.size());
    if (st != Status::kOk) return st;
    return out(Value::String(std::move(s)));
  };
  struct Rec {
    const StringOp* self;
    Runtime& rt;
    Frame* f;
    const Value& in;
    std::vector<Value>& pieces;
    decltype(emit)& done;
    Status Go(int i) {
      while (i >= 0 && !self->parts_[static_cast<size_t>(i)].expr) --i;
      if (i < 0) return done();
      // One native frame per interpolated part: guarded like a call.
      CallScope scope(rt);
      if (scope.status() != Status::kOk) return scope.status();
      const Part& part = self->parts_[static_cast<size_t>(i)];
      return part.expr->Run(rt, f, in, [&](const Value& v) -> Status {
        if (self->format_ != nullptr) {
          Value formatted;
          Value arg = self->format_name_;
          bool ok = self->format_->function(rt.native_context(), v, std::span<const Value>(&arg, 1),
                                            &formatted);
          if (rt.budget_spent()) return Status::kBudget;
          if (!ok) return rt.FailWith(std::move(formatted));
          pieces[static_cast<size_t>(i)] = ToStringValue(formatted);
        } else {
          pieces[static_cast<size_t>(i)] = ToStringValue(v);
        }
        return Go(i - 1);
      });
    }
  };
  Rec rec{this, rt, f, in, pieces, emit};
  return rec.Go(static_cast<int>(n) - 1);
}

}  // namespace wmap::jq::eval
