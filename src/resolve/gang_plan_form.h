// The planner of the `gangs` form, shared by its two halves: building the gangs and their
// subgroup trees (gang_plan_gangs.cc) and placing pods in them (gang_plan_pods.cc).
#ifndef WMAP_RESOLVE_GANG_PLAN_FORM_H_
#define WMAP_RESOLVE_GANG_PLAN_FORM_H_

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "resolve/extract.h"
#include "resolve/gang_plan_support.h"
#include "wmap/gang.h"

namespace wmap::resolve::gang_form {

// Where a level of the plan stands: the component it is about (none: the whole workload),
// restricted to an instance and/or replica, and the values of $instance and $replica.
// Gangs and subgroups one plan may hold; a replica count read from a hostile or mistaken object
// must not make the planner loop for ever.
inline constexpr size_t kMaxPlanned = 100000;

inline Error TooMany() {
  return MakeError("the plan needs more than " + std::to_string(kMaxPlanned) +
                   " gangs and subgroups; check the replica counts");
}

struct Level {
  std::optional<size_t> component;
  Selection selection;
  GangVariables variables;
  // A per-replica level of a component whose replicaSelector is an ancestor's: the replicas are
  // that ancestor's (`replica_owner`), `selection.replica` names one of them, and the level's
  // pods are counted inside `owner_selection` of the ancestor.
  std::optional<size_t> replica_owner;
  Selection owner_selection;
};

// Planning data of one subgroup, parallel to GangPlan::sub_groups.
struct NodeInfo {
  std::optional<size_t> component;
  std::optional<std::string> instance;  // restricts pods (component has instanceIdPath)
  std::optional<int64_t> replica;
  int parent = -1;
  bool leaf = true;
  int64_t min_pods = 0;  // pods of the smallest set that satisfies the subgroup
  ResourceList min_requests;
  ResourceList max_per_pod;
};

// A planned gang with what pods are matched against.
struct BuiltGang {
  size_t definition = 0;
  bool computed = false;  // made by a `computed` gang: pods join by its podGang expression
  std::optional<size_t> anchor;
  Selection selection;
  std::vector<NodeInfo> nodes;
};

// Plans every gang of a definition's `gangs` form for one workload, then places the given pods.
// Invariants after BuildGangs: built_[i] describes plans_.gangs[i], and built_[i].nodes is
// parallel to plans_.gangs[i].sub_groups (parents before children). One planner, one call.
class GangFormPlanner {
 public:
  explicit GangFormPlanner(WorkloadReader& reader)
      : reader_(reader), definition_(reader.definition()), querier_(definition_) {}

  Result<GangPlans> Plan(std::span<const Value> pods);

 private:
  std::optional<Error> BuildGangs(size_t index, const GangDefinition& g);
  std::optional<Error> BuildGang(size_t index, const GangDefinition& g, const Level& level,
                                 const std::string& instance_label);
  // The `computed` form (gang_plan_computed.cc).
  std::optional<Error> BuildComputedGangs(size_t index, const GangDefinition& g);
  // Places `pod` by the podGang / podSubGroup expressions of the computed gangs; false when no
  // computed gang takes it (a->reason then says why, when a computed gang was asked).
  Result<bool> AssignComputed(const Value& pod, PodGangAssignment* a) const;
  // Appends the subgroups of `s` under `parent` (an index into plan->sub_groups, or -1) and
  // their descendants; `emitted` receives the indexes of the subgroups made for `s` itself.
  std::optional<Error> Expand(const GangDefinition& g, const GangSubGroupDefinition& s,
                              const Level& scope, int parent, GangPlan* plan,
                              std::vector<NodeInfo>* nodes, std::vector<size_t>* emitted);
  std::optional<Error> Finish(const GangDefinition& g, const GangSubGroupDefinition& s,
                              const Level& scope, const Level& self, int parent,
                              const std::string& name, GangPlan* plan, std::vector<NodeInfo>* nodes,
                              std::vector<size_t>* emitted);

  bool Within(size_t component, size_t ancestor) const {
    for (int c = static_cast<int>(component); c >= 0; c = definition_.Parent(c)) {
      if (static_cast<size_t>(c) == ancestor) return true;
    }
    return false;
  }
  bool OwnsReplicaSelector(size_t c) const {
    const ComponentDefinition& d = definition_.components()[c];
    return d.pod_selector && d.pod_selector->replica_key_path;
  }
  // The component or its nearest ancestor with a replicaSelector (the loader guarantees one for
  // every forEachReplica level; the root stands in otherwise).
  size_t ReplicaOwner(size_t c) const {
    for (int at = static_cast<int>(c); at >= 0; at = definition_.Parent(at)) {
      if (OwnsReplicaSelector(static_cast<size_t>(at))) return static_cast<size_t>(at);
    }
    return 0;
  }
  bool HasInstances(size_t c) const {
    return definition_.components()[c].instance_id_path.has_value();
  }

  // Pod matching ---------------------------------------------------------------------------
  struct PodKeys {
    std::map<size_t, std::optional<std::string>> instance;
    std::map<size_t, std::optional<std::string>> replica;
  };
  Result<bool> Matches(const Value& pod, size_t pod_component, std::optional<size_t> component,
                       const std::optional<std::string>& instance,
                       const std::optional<int64_t>& replica, PodKeys* keys) const;
  Result<PodGangAssignment> Assign(const Value& pod) const;

  WorkloadReader& reader_;
  const Definition& definition_;
  PodQuerier querier_;
  GangPlans plans_;
  std::vector<BuiltGang> built_;
  size_t planned_ = 0;  // gangs and subgroups so far (at most kMaxPlanned)
};

}  // namespace wmap::resolve::gang_form

#endif  // WMAP_RESOLVE_GANG_PLAN_FORM_H_
