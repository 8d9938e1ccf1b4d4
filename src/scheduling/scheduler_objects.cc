#include <algorithm>

#include "scheduling/emit_context.h"
#include "wmap/scheduling.h"

namespace wmap {

namespace {

// Every scheduler: its --for name and the API versions of its objects (the default first).
struct SchedulerInfo {
  Scheduler scheduler;
  std::string_view name;
  std::string_view api_versions;
};

constexpr SchedulerInfo kSchedulers[] = {
    {Scheduler::kKai, "kai", "v2alpha2"},
    {Scheduler::kVolcano, "volcano", "v1beta1"},
    {Scheduler::kCoscheduling, "coscheduling", "v1alpha1"},
    {Scheduler::kKueue, "kueue", "v1beta2|v1beta1"},
    {Scheduler::kWorkloadApi, "k8s-workload", "v1beta1|v1alpha3"},
};

const SchedulerInfo* InfoOf(Scheduler scheduler) {
  for (const SchedulerInfo& info : kSchedulers) {
    if (info.scheduler == scheduler) return &info;
  }
  return nullptr;
}

}  // namespace

std::optional<Scheduler> ParseScheduler(std::string_view name) {
  for (const SchedulerInfo& info : kSchedulers) {
    if (info.name == name) return info.scheduler;
  }
  return std::nullopt;
}

std::string_view SchedulerName(Scheduler scheduler) {
  const SchedulerInfo* info = InfoOf(scheduler);
  return info != nullptr ? info->name : std::string_view();
}

std::string_view SchedulerNames() { return "kai|volcano|coscheduling|kueue|k8s-workload"; }

std::string_view SchedulerApiVersions(Scheduler scheduler) {
  const SchedulerInfo* info = InfoOf(scheduler);
  return info != nullptr ? info->api_versions : std::string_view();
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
