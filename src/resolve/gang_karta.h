// The Karta gang forms evaluated for one pod, as upstream's per-pod functions do. Internal:
// callers use PlanGangs (wmap/gang.h), which builds its Karta plans from these.
#ifndef WMAP_RESOLVE_GANG_KARTA_H_
#define WMAP_RESOLVE_GANG_KARTA_H_

#include <optional>
#include <string>
#include <vector>

#include "wmap/workload.h"

namespace wmap {

// Gang scheduling of one pod of a workload (reference section 2.8), under either form.
//
// Deprecated form (`podGroups`): the entry PodQuerier::PodGangGroup picks, with
// `min_available` = Workload::SubtreeScale of the effective component, restricted to the pod's
// instance of it when that component has a componentInstanceSelector.
struct PodGangMembership {
  std::string pod_group;    // podGroups[].name
  size_t member_component;  // the effective component
  std::vector<std::string> keys;
  std::optional<std::string> instance_id;
  int32_t min_available = 0;
};
// nullopt when the definition has no `podGroups` entry for the pod.
Result<std::optional<PodGangMembership>> EvaluatePodGangGroup(const Workload& workload,
                                                              const PodQuerier& querier,
                                                              const Value& pod);

// Newer form (`podGroup`): one group for the whole workload, one flat subgroup per
// `subGroups[]` entry. A subgroup's `min_available` is the subtree scale of its component over
// all instances, and 0 is an error ("component NAME must expose a replica scale definition"); a
// subgroup naming no component is an error. With subgroups, the group's `min_available` is 0
// and `min_sub_group` the number of subgroups; without, `min_available` is the root's subtree
// scale. `contains_pod` marks the subgroups whose component, or a descendant of it, has a
// componentTypeSelector matching the pod.
struct PodGroupPlan {
  struct Member {
    std::string name;  // the component name
    size_t component;
    int32_t min_available = 0;
    std::optional<Topology> topology;
    bool contains_pod = false;
  };
  std::string name;  // podGroup.name
  int32_t min_available = 0;
  int32_t min_sub_group = 0;
  std::optional<Topology> topology;
  std::vector<Member> sub_groups;
};
// nullopt when the definition has no `podGroup`. `pod` may be null (no subgroup contains it).
Result<std::optional<PodGroupPlan>> EvaluatePodGroup(const Workload& workload,
                                                     const PodQuerier& querier, const Value& pod);

}  // namespace wmap

#endif  // WMAP_RESOLVE_GANG_KARTA_H_
