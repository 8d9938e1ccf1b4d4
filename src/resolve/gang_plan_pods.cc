// Placing pods in the gangs of the `gangs` form: the pod's component, instance and replica
// pick its gang and its leaf subgroup.
#include "resolve/gang_plan_form.h"
#include "resolve/gang_plan_internal.h"

namespace wmap::resolve::gang_form {

Result<bool> GangFormPlanner::Matches(const Value& pod, size_t pod_component,
                                      std::optional<size_t> component,
                                      const std::optional<std::string>& instance,
                                      const std::optional<int64_t>& replica, PodKeys* keys) const {
  if (!component) return true;
  if (!Within(pod_component, *component)) return false;
  if (instance && HasInstances(*component)) {
    auto it = keys->instance.find(*component);
    if (it == keys->instance.end()) {
      auto key = querier_.InstanceKey(*component, pod);
      if (!key.ok()) return key.error();
      it = keys->instance.emplace(*component, *key).first;
    }
    if (!it->second || *it->second != *instance) return false;
  }
  if (replica) {
    // The replica key of the component, else of its nearest ancestor with a replicaSelector.
    int with_selector = static_cast<int>(*component);
    while (with_selector >= 0) {
      const ComponentDefinition& c = definition_.components()[with_selector];
      if (c.pod_selector && c.pod_selector->replica_key_path) break;
      with_selector = definition_.Parent(with_selector);
    }
    if (with_selector < 0) return false;
    size_t at = static_cast<size_t>(with_selector);
    auto it = keys->replica.find(at);
    if (it == keys->replica.end()) {
      auto key = querier_.ReplicaKey(at, pod);
      if (!key.ok()) return key.error();
      it = keys->replica.emplace(at, *key).first;
    }
    if (!it->second || *it->second != std::to_string(*replica)) return false;
  }
  return true;
}

Result<PodGangAssignment> GangFormPlanner::Assign(const Value& pod) const {
  PodGangAssignment a = AssignmentFor(pod);
  auto computed = AssignComputed(pod, &a);
  if (!computed.ok()) return computed.error();
  if (*computed) return a;
  auto component = querier_.InferPodComponent(pod);
  if (!component.ok()) return component.error();
  if (!*component) {
    a.reason = "no component of the definition matches the pod";
    return a;
  }
  size_t p = **component;
  PodKeys keys;
  for (size_t i = 0; i < built_.size(); ++i) {
    const BuiltGang& b = built_[i];
    if (b.computed) continue;
    auto in_gang = Matches(pod, p, b.anchor, b.selection.instance, b.selection.replica, &keys);
    if (!in_gang.ok()) return in_gang.error();
    if (!*in_gang) continue;
    a.gang = plans_.gangs[i].name;
    for (size_t n = 0; n < b.nodes.size(); ++n) {
      if (!b.nodes[n].leaf) continue;
      bool all = true;
      for (int at = static_cast<int>(n); at >= 0 && all; at = b.nodes[at].parent) {
        const NodeInfo& node = b.nodes[at];
        auto m = Matches(pod, p, node.component, node.instance, node.replica, &keys);
        if (!m.ok()) return m.error();
        all = *m;
      }
      if (all) {
        a.sub_group = plans_.gangs[i].sub_groups[n].name;
        break;
      }
    }
    return a;
  }
  a.reason = "no gang of the definition takes pods of component " +
             definition_.components()[p].name + " with this instance and replica";
  return a;
}

}  // namespace wmap::resolve::gang_form
