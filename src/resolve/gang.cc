// Gang scheduling of a pod: the deprecated `podGroups` form with its group size, and the newer
// `podGroup` form with its flat subgroups (reference section 2.8).
#include "resolve/gang_karta.h"

#include <algorithm>

#include "resolve/extract.h"
#include "wmap/jq.h"

namespace wmap {

using resolve::MakeError;
using resolve::Wrap;

namespace {

// The component or any descendant has a type selector matching the pod.
Result<bool> SubtreeMatches(const Definition& d, const PodQuerier& q, size_t component,
                            const Value& pod) {
  Result<bool> own = q.MatchesComponentType(component, pod);
  if (!own.ok()) return own.error();
  if (*own) return true;
  for (size_t child : d.Children(component)) {
    Result<bool> m = SubtreeMatches(d, q, child, pod);
    if (!m.ok() || *m) return m;
  }
  return false;
}

}  // namespace

Result<std::optional<PodGangMembership>> EvaluatePodGangGroup(const Workload& workload,
                                                              const PodQuerier& querier,
                                                              const Value& pod) {
  Result<std::optional<PodQuerier::GangGroup>> group = querier.PodGangGroup(pod);
  if (!group.ok()) return group.error();
  if (!*group) return std::optional<PodGangMembership>();
  PodGangMembership m;
  m.pod_group = std::move((*group)->pod_group);
  m.member_component = (*group)->member_component;
  m.keys = std::move((*group)->keys);
  Result<std::optional<std::string>> instance = querier.InstanceKey(m.member_component, pod);
  if (!instance.ok()) return instance.error();
  m.instance_id = *instance;
  if (m.instance_id) {
    // A pod of an instance the workload does not have joins no group (upstream's text).
    Result<std::vector<std::string>> ids = workload.InstanceIds(m.member_component);
    if (!ids.ok()) return ids.error();
    if (std::find(ids->begin(), ids->end(), *m.instance_id) == ids->end()) {
      std::string existing;
      for (const std::string& id : *ids) existing += (existing.empty() ? "" : " ") + id;
      return MakeError("could not match instance id " + jq::GoQuote(*m.instance_id) +
                       ". existing instance ids [" + existing + "]");
    }
  }
  Result<int32_t> scale = workload.SubtreeScale(m.member_component, m.instance_id);
  if (!scale.ok()) {
    return Wrap("failed to calculate the scale of component " +
                    workload.definition().components()[m.member_component].name,
                scale.error());
  }
  m.min_available = *scale;
  return std::optional<PodGangMembership>(std::move(m));
}

Result<std::optional<PodGroupPlan>> EvaluatePodGroup(const Workload& workload,
                                                     const PodQuerier& querier, const Value& pod) {
  const Definition& d = workload.definition();
  const std::optional<GangScheduling>& gang = d.gang_scheduling();
  if (!gang || !gang->pod_group) return std::optional<PodGroupPlan>();
  const PodGroupV2& spec = *gang->pod_group;
  PodGroupPlan plan;
  plan.name = spec.name;
  plan.topology = spec.topology;
  for (const SubGroup& sub : spec.sub_groups) {
    int index = d.FindComponent(sub.component_name);
    if (index < 0) {
      return MakeError("subgroup component " + sub.component_name + " not found in the definition");
    }
    size_t c = static_cast<size_t>(index);
    Result<int32_t> scale = workload.SubtreeScale(c);
    if (!scale.ok()) {
      return Wrap("failed to calculate the scale of component " + sub.component_name,
                  scale.error());
    }
    if (*scale <= 0) {
      return MakeError("component " + sub.component_name +
                       " must expose a replica scale definition");
    }
    PodGroupPlan::Member member{sub.component_name, c, *scale, sub.topology, false};
    if (!pod.is_null()) {
      Result<bool> contains = SubtreeMatches(d, querier, c, pod);
      if (!contains.ok()) {
        return Wrap("failed to check if pod matches component " + sub.component_name,
                    contains.error());
      }
      member.contains_pod = *contains;
    }
    plan.sub_groups.push_back(std::move(member));
  }
  if (!plan.sub_groups.empty()) {
    plan.min_sub_group = static_cast<int32_t>(plan.sub_groups.size());
  } else {
    Result<int32_t> scale = workload.SubtreeScale(0);
    if (!scale.ok()) return Wrap("failed to calculate the scale of the root", scale.error());
    plan.min_available = *scale;
  }
  return std::optional<PodGroupPlan>(std::move(plan));
}

}  // namespace wmap
