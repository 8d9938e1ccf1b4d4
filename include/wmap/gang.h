// Gang plans: the pod groups a workload needs, scheduler-agnostic, from any of the three gang
// forms a definition may use.
//
// - Karta `podGroup` (v2): one gang named "pg-<uid>-<podGroup.name>" with flat subgroups, one per
//   `subGroups[]` entry, each with the subtree scale of its component (as KAI Scheduler's Karta
//   fallback builds it).
// - Karta `podGroups` (alpha): one gang per distinct key tuple of the given pods, named
//   "pg-<uid>-<key1>-<key2>...", minimum = the subtree scale of the effective component.
// - `gangs` (workloadmap.dev/v1alpha1 definitions, docs/gangs.md): gangs per workload or per
//   instance of a component, nested subgroups with parents, minima from expressions, optional
//   components, pods-per-replica multipliers, queue / priority class / preemptibility read from
//   the workload, topology at every level, and a per-workload minimum override annotation.
//   Gangs may also be made per replica of each instance (`forEachReplica`, e.g. one per
//   LeaderWorkerSet group); their instance_id is then "<instance>-<replica>" ("<replica>" for a
//   component without instanceIdPath).
//
// A plan is a pure function of the definition, the workload object and the given pods.
#ifndef WMAP_GANG_H_
#define WMAP_GANG_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wmap/export.h"

#include "wmap/definition.h"
#include "wmap/resources.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

struct SubGroupPlan {
  std::string name;    // unique within its gang
  std::string parent;  // "" for a subgroup directly under the gang
  // Leaves: the pods that must be placed together (0 for an optional component). Parents: 0.
  int32_t min_member = 0;
  // Parents: how many child subgroups must be satisfied. Leaves: 0.
  int32_t min_sub_group = 0;
  std::optional<Topology> topology;
  // What the subgroup stands for: a component, one of its instances, one replica of it.
  std::optional<size_t> component;
  std::string instance_id;             // "" when the subgroup spans every instance
  std::optional<std::string> replica;  // set on per-replica subgroups
  // Leaves: pods at full size, the pod template they are created from (null when the definition
  // has no template for them) and the effective requests of one pod. A leaf that spans several
  // instances or components has the first instance's template and the per-resource maximum of
  // their pods' requests. Parents: pods is the sum of their children's.
  int32_t pods = 0;
  Value pod_template;
  ResourceList per_pod_requests;
};

struct GangPlan {
  std::string name;                 // the PodGroup name
  std::string definition_gang;      // the gang's name in the definition
  std::string instance_id;          // the instance, for gangs made per instance of a component
  int32_t min_member = 0;           // pods required (0 when the gang is defined by its subgroups)
  int32_t min_sub_group = 0;        // top-level subgroups required (0 without subgroups)
  int32_t pods = 0;                 // pods at full size
  std::string queue;                // "" when the definition reads none
  std::string priority_class_name;  // "" when the definition reads none
  std::string preemptibility;       // "" when the definition reads none
  // The fewest pods the gang may be admitted with, running smaller (Kueue's partial admission);
  // nullopt when it runs with all its pods or none.
  std::optional<int32_t> partial_admission;
  std::optional<Topology> topology;
  // Parents always precede their children; siblings keep definition and instance order.
  std::vector<SubGroupPlan> sub_groups;
  // Requests of the smallest set of pods that satisfies the gang, and of all its pods.
  ResourceList min_resources;
  ResourceList resources;
};

// Where a given pod goes.
struct PodGangAssignment {
  std::string pod;        // metadata.name
  std::string uid;        // metadata.uid ("" when absent)
  std::string gang;       // GangPlan::name; "" when the pod joins none (see reason)
  std::string sub_group;  // the leaf subgroup; "" when the gang has none for it
  std::string reason;     // why the pod joins no gang
};

struct GangPlans {
  std::vector<GangPlan> gangs;
  std::vector<PodGangAssignment> pods;  // in the order the pods were given
  // What the plan could not read without changing who joins which gang (a Karta form's
  // requests or templates when a pod definition path fails): those fields are left empty.
  std::vector<std::string> warnings;
};

// Plans the gangs of `workload`. An empty plan (no gangs) when the definition has no gang
// instructions. Errors are evaluation errors of the definition's expressions and the rules of
// each form (e.g. a Karta v2 subgroup whose component has no replica scale).
Result<GangPlans> PlanGangs(const Workload& workload, std::span<const Value> pods = {});

// {"gangs": [{"name", "definitionGang", "instance"?, "minMember", "minSubGroup", "pods",
//   "queue"?, "priorityClassName"?, "preemptibility"?, "partialAdmission"?, "topology"?,
//   "minResources", "resources",
//   "subGroups": [{"name", "parent"?, "minMember", "minSubGroup", "component"?, "instance"?,
//   "replica"?, "pods", "topology"?}]}], "pods": [{"pod", "uid"?, "gang", "subGroup"?,
//   "reason"?}], "warnings"?: [...]}
Value GangPlansToValue(const Definition& definition, const GangPlans& plans);

// {"topologyName", "requiredTopologyLevel"?, "preferredTopologyLevel"?}: a topology in every
// document (plans, definitions, scheduler objects' sources).
Value TopologyToValue(const Topology& topology);

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_GANG_H_
