// EvalOptions defaults and the thread's EvalLimitsScope stack.
#include <algorithm>

#include "wmap/workload.h"

namespace wmap {
namespace {

// The innermost active scope's limits on this thread, or null.
thread_local const EvalOptions* current_limits = nullptr;

}  // namespace

EvalOptions::EvalOptions() {
  if (current_limits != nullptr) *this = *current_limits;
}

std::chrono::steady_clock::time_point EvalOptions::EvaluationDeadline() const {
  auto own = std::chrono::steady_clock::now() + timeout;
  return deadline ? std::min(own, *deadline) : own;
}

EvalLimitsScope::EvalLimitsScope(const EvalOptions& limits)
    : previous_(current_limits), limits_(limits) {
  current_limits = &limits_;
}

EvalLimitsScope::~EvalLimitsScope() { current_limits = previous_; }

}  // namespace wmap
