// Per-run state of the evaluator: budgets, the error that ends a run, label identities and the
// environment frames that compiled code reads variables and closures from.
//
// A Runtime lives on the stack of Program::Run and is used by one thread only. Every abnormal
// end of evaluation is a Status other than kOk, returned up the C++ stack; the details (error
// value, break target, halt code, budget message) are kept in the Runtime.
#ifndef WMAP_JQ_EVAL_RUNTIME_H_
#define WMAP_JQ_EVAL_RUNTIME_H_

#include <cstdint>
#include <string>

#include "jq/eval/function_ref.h"
#include "jq/native.h"
#include "wmap/jq.h"
#include "wmap/value.h"

namespace wmap::jq::eval {

// How an evaluation step ended. Only kError is caught by try; kBreak unwinds to the label whose
// identity is Runtime::break_label; kStop means the final consumer wants no more outputs.
enum class Status : uint8_t { kOk, kError, kBreak, kStop, kBudget, kHalt };

// Receives one output; anything but kOk stops the producer, which returns that status.
using Sink = FunctionRef<Status(const Value&)>;
// Receives one (path, value) pair in path mode. `path` is null when the value did not come from
// a path expression (gojq's "invalid path"); consumers that need a path report the error.
using PathSink = FunctionRef<Status(const Value* path, const Value& value)>;

class Op;
struct Frame;

// A filter argument: the argument's code together with the frame it was written in.
struct Closure {
  const Op* body = nullptr;
  Frame* frame = nullptr;
};

// The activation of one jq function (or of the main program). `parent` is the frame of the
// function the definition is nested in (lexical scope); variables and closure parameters are
// addressed at compile time as (number of parent hops, index).
struct Frame {
  Frame* parent = nullptr;
  const Closure* args = nullptr;
  Value* slots = nullptr;
};

inline Frame* Up(Frame* f, int hops) {
  while (hops-- > 0) f = f->parent;
  return f;
}

class Runtime final : public WorkMeter {
 public:
  Runtime(const RunContext& context);  // NOLINT(google-explicit-constructor)
  ~Runtime() = default;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const RunContext& context() const { return context_; }
  const NativeContext& native_context() const { return native_context_; }

  // Errors. Fail() raises an evaluator error whose value is the message (catchable by try);
  // Throw() raises a user error (error/1) with any value.
  Status Fail(std::string message);
  // Fail() for a value met where a path was needed (gojq's "invalid path ..." errors).
  Status FailInvalidPath(std::string message);
  // An evaluator error with any value (errors reported by natives).
  Status FailWith(Value value);
  Status Throw(Value value);
  Status Halt(Value value, int exit_code);
  Status BudgetExceeded(std::string message);
  // The value of the last error, for catch; clears it.
  Value TakeError();
  const Value& error_value() const { return error_value_; }
  bool error_is_user() const { return error_is_user_; }
  bool error_is_invalid_path() const { return error_is_invalid_path_; }
  const std::string& budget_message() const { return budget_message_; }
  int exit_code() const { return exit_code_; }

  // Budgets. Step() is called on every function call and every loop iteration.
  Status Step() {
    if (++steps_ < step_check_at_) return Status::kOk;
    return StepSlow();
  }
  Status EnterCall() {
    char probe;
    if (++depth_ > max_depth_ || &probe < stack_limit_) return DepthExceeded();
    return Step();
  }
  void LeaveCall() { --depth_; }
  // Charges approximately `bytes` of newly built data against the memory budget; building is
  // work too (one unit per kBytesPerWorkUnit bytes).
  Status Charge(size_t bytes) {
    memory_ += bytes;
    if (memory_ > max_memory_) return BudgetExceeded("memory limit exceeded");
    return Work(bytes / kBytesPerWorkUnit);
  }
  // Charges work that builds nothing; the deadline is checked each time kWorkCheckInterval units
  // have added up, so a step that costs much (sorting a large array, copying a long string) brings
  // the check closer by what it cost.
  Status Work(uint64_t units) {
    work_ += units;
    if (work_ < work_check_at_) return Status::kOk;
    return WorkSlow();
  }
  // WorkMeter, for natives.
  bool ChargeBytes(size_t bytes) override { return Charge(bytes) == Status::kOk; }
  bool ChargeWork(size_t units) override { return Work(units) == Status::kOk; }
  size_t memory_charged() const { return memory_; }
  // A budget has been exceeded (by the evaluator or by a native's charge).
  bool budget_spent() const { return budget_spent_; }
  Status ChargeValue(const Value& v);
  Status CountOutput() {
    if (++outputs_ > max_outputs_) return BudgetExceeded("too many results");
    return Status::kOk;
  }
  // Checks recursion over data (e.g. `..` on deeply nested input) against the same limits.
  Status EnterData() { return EnterCall(); }

  // Labels: every activation of `label $x` gets a fresh identity.
  uint64_t NewLabel() { return ++label_counter_; }
  Status Break(uint64_t label) {
    break_label_ = label;
    return Status::kBreak;
  }
  uint64_t break_label() const { return break_label_; }

 private:
  static constexpr size_t kBytesPerWorkUnit = 16;
  static constexpr uint64_t kWorkCheckInterval = uint64_t{1} << 16;

  Status StepSlow();
  Status WorkSlow();
  Status DepthExceeded();

  const RunContext& context_;
  NativeContext native_context_;
  uint64_t steps_ = 0;
  uint64_t step_check_at_ = 0;
  uint64_t max_steps_ = 0;
  size_t depth_ = 0;
  size_t max_depth_ = 0;
  const char* stack_limit_ = nullptr;
  size_t memory_ = 0;
  size_t max_memory_ = 0;
  uint64_t work_ = 0;
  uint64_t work_check_at_ = 0;
  bool budget_spent_ = false;
  size_t outputs_ = 0;
  size_t max_outputs_ = 0;
  uint64_t label_counter_ = 0;
  uint64_t break_label_ = 0;
  Value error_value_;
  bool error_is_invalid_path_ = false;
  bool error_is_user_ = false;
  int exit_code_ = 5;
  std::string budget_message_;
};

// RAII pairing of EnterCall/LeaveCall.
class CallScope {
 public:
  explicit CallScope(Runtime& rt) : rt_(rt), status_(rt.EnterCall()) {}
  ~CallScope() { rt_.LeaveCall(); }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  Status status() const { return status_; }

 private:
  Runtime& rt_;
  Status status_;
};

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_RUNTIME_H_
