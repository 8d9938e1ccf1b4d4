#include "jq/eval/loop_ops.h"

#include <optional>
#include <utility>

#include "jq/eval/runtime.h"

namespace wmap::jq::eval {
namespace {

// One state of the loop: a value and, in path mode, its path (absent when the value did not
// come from a path expression).
struct Item {
  Value value;
  Value path;
  bool has_path = false;
};

// The sink of the mode a loop does not run in (never called).
const auto kNoValues = [](const Value&) { return Status::kOk; };
const auto kNoPaths = [](const Value*, const Value&) { return Status::kOk; };

template <bool kPaths>
class Loop {
 public:
  Loop(Runtime& rt, Frame* f, LoopOp::Kind kind, const Op* cond, const Op* step, Sink out,
       PathSink path_out)
      : rt_(rt), f_(f), kind_(kind), cond_(cond), step_(step), out_(out), path_out_(path_out) {}

  Status Go(Item item) {
    while (true) {
      Status s = rt_.Step();
      if (s != Status::kOk) return s;
      // The latest output of the step: continued in place when the step ends, or recursed into
      // first when the step yields another output.
      std::optional<Item> tail;
      auto take_tail = [&]() -> Status {
        if (!tail) return Status::kOk;
        Item t = std::move(*tail);
        tail.reset();
        CallScope scope(rt_);
        if (scope.status() != Status::kOk) return scope.status();
        return Go(std::move(t));
      };
      auto on_next = [&](Item&& next) -> Status {
        Status ts = take_tail();
        if (ts != Status::kOk) return ts;
        tail = std::move(next);
        return Status::kOk;
      };
      if (kind_ == LoopOp::Kind::kRecurse) {
        s = Emit(item);
        if (s == Status::kOk) s = RunStep(item, on_next);
      } else {
        s = cond_->Run(rt_, f_, item.value, [&](const Value& c) -> Status {
          Status ts = take_tail();
          if (ts != Status::kOk) return ts;
          if (kind_ == LoopOp::Kind::kUntil) {
            if (c.truthy()) return Emit(item);
            return RunStep(item, on_next);
          }
          if (!c.truthy()) return Status::kOk;
          Status es = Emit(item);
          if (es != Status::kOk) return es;
          return RunStep(item, on_next);
        });
      }
      if (s != Status::kOk) {
        // The step (or condition) failed after yielding `tail`: as in the recursive form, that
        // output's results come before the failure.
        Status ts = take_tail();
        return ts != Status::kOk ? ts : s;
      }
      if (!tail) return Status::kOk;
      item = std::move(*tail);
    }
  }

 private:
  Status Emit(const Item& item) {
    if constexpr (kPaths) {
      return path_out_(item.has_path ? &item.path : nullptr, item.value);
    } else {
      return out_(item.value);
    }
  }

  template <typename Each>
  Status RunStep(const Item& item, Each& each) {
    if constexpr (kPaths) {
      return step_->Paths(rt_, f_, item.value, item.has_path ? &item.path : nullptr,
                          [&](const Value* p, const Value& v) -> Status {
                            return each(Item{v, p != nullptr ? *p : Value(), p != nullptr});
                          });
    } else {
      return step_->Run(rt_, f_, item.value, [&](const Value& v) -> Status {
        return each(Item{v, Value(), false});
      });
    }
  }

  Runtime& rt_;
  Frame* f_;
  LoopOp::Kind kind_;
  const Op* cond_;
  const Op* step_;
  Sink out_;
  PathSink path_out_;
};

}  // namespace

Status LoopOp::Run(Runtime& rt, Frame* f, const Value& in, Sink out) const {
  Loop<false> loop(rt, f, kind_, cond_.get(), step_.get(), out, kNoPaths);
  return loop.Go(Item{in, Value(), false});
}

Status LoopOp::Paths(Runtime& rt, Frame* f, const Value& in, const Value* path,
                     PathSink out) const {
  Loop<true> loop(rt, f, kind_, cond_.get(), step_.get(), kNoValues, out);
  return loop.Go(Item{in, path != nullptr ? *path : Value(), path != nullptr});
}

}  // namespace wmap::jq::eval
