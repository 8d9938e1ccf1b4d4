#include <algorithm>

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

std::string_view SchedulerApiVersions(Scheduler scheduler) {
  switch (scheduler) {
    case Scheduler::kKai:
      return "v2alpha2";
    case Scheduler::kVolcano:
      return "v1beta1";
    case Scheduler::kCoscheduling:
      return "v1alpha1";
    case Scheduler::kKueue:
      return "v1beta2|v1beta1";
    case Scheduler::kWorkloadApi:
      return "v1beta1|v1alpha3";
  }
  return "";
}

bool IsSchedulerApiVersion(Scheduler scheduler, std::string_view version) {
  std::string_view versions = SchedulerApiVersions(scheduler);
  for (size_t start = 0; start <= versions.size();) {
    const size_t end = std::min(versions.find('|', start), versions.size());
    if (versions.substr(start, end - start) == version) return true;
    start = end + 1;
  }
  return false;
}

namespace {

// The version `options` ask for, checked against the scheduler's; the default when none.
Result<std::string> ApiVersionOf(Scheduler scheduler, const SchedulingOptions& options) {
  std::string_view versions = SchedulerApiVersions(scheduler);
  if (options.api_version.empty()) return std::string(versions.substr(0, versions.find('|')));
  if (IsSchedulerApiVersion(scheduler, options.api_version)) return options.api_version;
  return Error{"API version \"" + options.api_version + "\" is not one " +
                   std::string(SchedulerName(scheduler)) + " objects are emitted in",
               "",
               {},
               "use " + std::string(versions),
               ErrorCode::kUsage};
}

}  // namespace

Result<SchedulerObjects> BuildSchedulerObjects(Scheduler scheduler, const Workload& workload,
                                               const GangPlans& plans,
                                               const SchedulingOptions& options) {
  Result<std::string> version = ApiVersionOf(scheduler, options);
  if (!version.ok()) return version.error();
  scheduling::EmitContext context{
      scheduler, workload, plans, options, scheduling::WorkloadIdentity::Of(workload.object()),
      *version};
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
  if (out.ok()) {
    out->warnings.insert(out->warnings.begin(), plans.warnings.begin(), plans.warnings.end());
  }
  if (out.ok() && context.identity.uid.empty() && !out->objects.empty()) {
    out->warnings.push_back(
        "the workload has no metadata.uid, so the objects carry no ownerReference; apply them "
        "after the workload exists, or add the reference by hand");
  }
  return out;
}

}  // namespace wmap
