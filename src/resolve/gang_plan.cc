// PlanGangs: dispatch on the definition's gang form.
#include "resolve/gang_plan_internal.h"
#include "wmap/gang.h"

namespace wmap {

namespace resolve {

PodGangAssignment AssignmentFor(const Value& pod) {
  PodGangAssignment a;
  const Value* metadata = pod.find("metadata");
  const Value* name = metadata ? metadata->find("name") : nullptr;
  const Value* uid = metadata ? metadata->find("uid") : nullptr;
  if (name && name->is_string()) a.pod = std::string(name->as_string());
  if (uid && uid->is_string()) a.uid = std::string(uid->as_string());
  return a;
}

}  // namespace resolve

Result<GangPlans> PlanGangs(const Workload& workload, std::span<const Value> pods) {
  resolve::WorkloadReader reader(workload);
  const std::optional<GangScheduling>& gang = workload.definition().gang_scheduling();
  if (gang && !gang->gangs.empty()) return resolve::PlanGangForm(reader, pods);
  if (gang && gang->pod_group) return resolve::PlanKartaPodGroup(reader, pods);
  if (gang && !gang->pod_groups.empty()) return resolve::PlanKartaPodGroups(reader, pods);
  GangPlans empty;
  for (const Value& pod : pods) {
    PodGangAssignment a = resolve::AssignmentFor(pod);
    a.reason = "the definition has no gang scheduling instructions";
    empty.pods.push_back(std::move(a));
  }
  return empty;
}

}  // namespace wmap
