// The three gang forms' planners behind PlanGangs (one file each).
#ifndef WMAP_RESOLVE_GANG_PLAN_INTERNAL_H_
#define WMAP_RESOLVE_GANG_PLAN_INTERNAL_H_

#include <span>

#include "resolve/gang_plan_support.h"
#include "wmap/gang.h"

namespace wmap::resolve {

// Karta `podGroup` (v2): one gang with flat subgroups, as KAI Scheduler's Karta fallback builds it.
Result<GangPlans> PlanKartaPodGroup(WorkloadReader& reader, std::span<const Value> pods);
// Karta `podGroups` (alpha): one gang per distinct key tuple of the given pods.
Result<GangPlans> PlanKartaPodGroups(WorkloadReader& reader, std::span<const Value> pods);
// The `gangs` form.
Result<GangPlans> PlanGangForm(WorkloadReader& reader, std::span<const Value> pods);

// A pod's name and uid for PodGangAssignment.
PodGangAssignment AssignmentFor(const Value& pod);

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_GANG_PLAN_INTERNAL_H_
