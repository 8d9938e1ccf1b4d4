#include "scheduling/emit_context.h"
#include "wmap/scheduling.h"

namespace wmap {

std::optional<Scheduler> ParseScheduler(std::string_view name) {
  if (name == "kai") return Scheduler::kKai;
  if (name == "volcano") return Scheduler::kVolcano;
  if (name == "coscheduling") return Scheduler::kCoscheduling;
  if (name == "kueue") return Scheduler::kKueue;
  if (name == "k8s-workload") return Scheduler::kWorkloadApi;
  return std::nullopt;
}

std::string_view SchedulerName(Scheduler scheduler) {
  switch (scheduler) {
    case Scheduler::kKai:
      return "kai";
    case Scheduler::kVolcano:
      return "volcano";
    case Scheduler::kCoscheduling:
      return "coscheduling";
    case Scheduler::kKueue:
      return "kueue";
    case Scheduler::kWorkloadApi:
      return "k8s-workload";
  }
  return "";
}

std::string_view SchedulerNames() { return "kai|volcano|coscheduling|kueue|k8s-workload"; }

Result<SchedulerObjects> BuildSchedulerObjects(Scheduler scheduler, const Workload& workload,
                                               const GangPlans& plans,
                                               const SchedulingOptions& options) {
  scheduling::EmitContext context{scheduler, workload, plans, options,
                                  scheduling::WorkloadIdentity::Of(workload.object())};
  Result<SchedulerObjects> out = [&]() -> Result<SchedulerObjects> {
    switch (scheduler) {
      case Scheduler::kKai:
        return scheduling::EmitKai(context);
      case Scheduler::kVolcano:
        return scheduling::EmitVolcano(context);
      case Scheduler::kCoscheduling:
        return scheduling::EmitCoscheduling(context);
      case Scheduler::kKueue:
        return scheduling::EmitKueue(context);
      case Scheduler::kWorkloadApi:
        return scheduling::EmitWorkloadApi(context);
    }
    return Error{"unknown scheduler", "", {}, "", ErrorCode::kUsage};
  }();
  if (out.ok() && context.identity.uid.empty() && !out->objects.empty()) {
    out->warnings.push_back(
        "the workload has no metadata.uid, so the objects carry no ownerReference; apply them "
        "after the workload exists, or add the reference by hand");
  }
  return out;
}

}  // namespace wmap
