#include "jq/eval/runtime.h"

#include <pthread.h>

#include <algorithm>
#include <limits>

namespace wmap::jq::eval {
namespace {

constexpr uint64_t kDeadlineCheckInterval = 1024;
// Stack kept free below the deepest evaluation frame for natives and the C library.
constexpr size_t kStackReserve = 256 * 1024;

// The lowest address the evaluator may use on the current thread's stack, or null if unknown.
// Computed once per thread: pthread_getattr_np reads /proc for the main thread.
const char* ComputeStackLimit() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return nullptr;
  void* addr = nullptr;
  size_t size = 0;
  const char* limit = nullptr;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr) {
    size_t reserve = std::max(kStackReserve, size / 8);
    if (size > reserve) limit = static_cast<const char*>(addr) + reserve;
  }
  pthread_attr_destroy(&attr);
  return limit;
}

const char* StackLimit() {
  thread_local const char* limit = ComputeStackLimit();
  return limit;
}

template <typename T>
T OrMax(T v) {
  return v == 0 ? std::numeric_limits<T>::max() : v;
}

}  // namespace

Runtime::Runtime(const RunContext& context) : context_(context), native_context_{context, *this} {
  const Budget& b = context.budget;
  max_steps_ = OrMax<uint64_t>(b.max_steps);
  step_check_at_ = b.deadline ? std::min<uint64_t>(max_steps_, kDeadlineCheckInterval) : max_steps_;
  max_depth_ = OrMax<size_t>(b.max_depth);
  max_memory_ = OrMax<size_t>(b.max_memory_bytes);
  max_outputs_ = OrMax<size_t>(b.max_outputs);
  work_check_at_ = b.deadline ? kWorkCheckInterval : std::numeric_limits<uint64_t>::max();
  // pthread_getattr_np reads /proc/self/maps on the main thread: once per thread is enough.
  thread_local const char* const kThreadStackLimit = StackLimit();
  stack_limit_ = kThreadStackLimit;
}

Status Runtime::Fail(std::string message) {
  error_value_ = Value::String(std::move(message));
  error_is_user_ = false;
  error_is_invalid_path_ = false;
  return Status::kError;
}

Status Runtime::FailInvalidPath(std::string message) {
  Status s = Fail(std::move(message));
  error_is_invalid_path_ = true;
  return s;
}

Status Runtime::FailWith(Value value) {
  error_value_ = std::move(value);
  error_is_invalid_path_ = false;
  error_is_user_ = false;
  return Status::kError;
}

Status Runtime::Throw(Value value) {
  error_value_ = std::move(value);
  error_is_invalid_path_ = false;
  error_is_user_ = true;
  return Status::kError;
}

Status Runtime::Halt(Value value, int exit_code) {
  error_value_ = std::move(value);
  exit_code_ = exit_code;
  return Status::kHalt;
}

Status Runtime::BudgetExceeded(std::string message) {
  // The first budget that ran out is the one reported.
  if (!budget_spent_) budget_message_ = std::move(message);
  budget_spent_ = true;
  return Status::kBudget;
}

Value Runtime::TakeError() {
  Value v = std::move(error_value_);
  error_value_ = Value();
  return v;
}

Status Runtime::ChargeValue(const Value& v) {
  switch (v.type()) {
    case Type::kString:
      return v.as_string().size() > 14 ? Charge(v.as_string().size() + 16) : Status::kOk;
    case Type::kArray:
      return Charge(v.size() * sizeof(Value) + 32);
    case Type::kObject:
      return Charge(v.size() * (2 * sizeof(Value) + 8) + 48);
    default:
      return Status::kOk;
  }
}

Status Runtime::StepSlow() {
  if (steps_ >= max_steps_) return BudgetExceeded("step limit exceeded");
  if (context_.budget.deadline && std::chrono::steady_clock::now() >= *context_.budget.deadline) {
    return BudgetExceeded("deadline exceeded");
  }
  uint64_t next = steps_ + kDeadlineCheckInterval;
  step_check_at_ = context_.budget.deadline ? std::min(next, max_steps_) : max_steps_;
  return Status::kOk;
}

Status Runtime::WorkSlow() {
  if (budget_spent_) return Status::kBudget;
  if (std::chrono::steady_clock::now() >= *context_.budget.deadline) {
    return BudgetExceeded("deadline exceeded");
  }
  work_check_at_ = work_ + kWorkCheckInterval;
  return Status::kOk;
}

Status Runtime::DepthExceeded() { return BudgetExceeded("recursion depth limit exceeded"); }

}  // namespace wmap::jq::eval
