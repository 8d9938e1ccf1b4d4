// The Kubernetes Workload API (KEP-4671): one scheduling.k8s.io/v1alpha1 Workload per workload.
#include <algorithm>
#include <map>
#include <set>

#include "scheduling/emit_context.h"

namespace wmap::scheduling {

Result<SchedulerObjects> EmitWorkloadApi(const EmitContext& c) {
  SchedulerObjects out;
  // One pod group per gang of the definition; gangs made per instance share it and pods tell
  // them apart with podGroupReplicaKey.
  Value groups = Value::EmptyArray();
  std::set<std::string> seen;
  std::map<std::string, int64_t> min_count;
  for (const GangPlan& g : c.plans.gangs) {
    const std::string name = DnsLabel(g.definition_gang.empty() ? g.name : g.definition_gang);
    const int64_t min = EffectiveMinPods(g);
    auto [it, inserted] = min_count.emplace(name, min);
    if (!inserted) {
      if (it->second != min) {
        out.warnings.push_back("pod group " + name +
                               ": instances need different minimums; the Workload API keeps "
                               "one per pod group, the largest is used");
      }
      it->second = std::max(it->second, min);
      continue;
    }
    seen.insert(name);
  }
  for (const GangPlan& g : c.plans.gangs) {
    const std::string name = DnsLabel(g.definition_gang.empty() ? g.name : g.definition_gang);
    if (seen.erase(name) == 0) continue;
    const int64_t min = min_count[name];
    Value policy = min > 1
                       ? Value::Object({{"gang", Value::Object({{"minCount", Value::Int(min)}})}})
                       : Value::Object({{"basic", Value::EmptyObject()}});
    groups.push_back(Value::Object({{"name", Value::String(name)}, {"policy", policy}}));
  }
  if (groups.size() > c.options.max_pod_sets) {
    return Error{"the workload needs " + std::to_string(groups.size()) +
                     " pod groups; a Workload holds at most " +
                     std::to_string(c.options.max_pod_sets),
                 "",
                 {},
                 "define fewer gangs (gangs made per instance share one pod group)",
                 ErrorCode::kUnsupported};
  }
  if (groups.size() == 0) return out;
  Value spec = Value::EmptyObject();
  spec.set("controllerRef", Value::Object({{"apiGroup", Value::String(c.identity.Group())},
                                           {"kind", Value::String(c.identity.kind)},
                                           {"name", Value::String(c.identity.name)}}));
  spec.set("podGroups", std::move(groups));
  out.objects.push_back(MakeObject("scheduling.k8s.io/v1alpha1", "Workload",
                                   ObjectMeta(c.identity, c.identity.name), std::move(spec)));
  PodPatches patches(c.identity);
  for (const PodGangAssignment& p : c.plans.pods) {
    const GangPlan* g = FindGang(c.plans, p.gang);
    if (g == nullptr) continue;
    Value ref = Value::Object(
        {{"name", Value::String(c.identity.name)},
         {"podGroup",
          Value::String(DnsLabel(g->definition_gang.empty() ? g->name : g->definition_gang))}});
    if (!g->instance_id.empty()) ref.set("podGroupReplicaKey", Value::String(g->instance_id));
    patches.SetSpec(p.pod, "workloadRef", std::move(ref));
  }
  out.pod_patches = patches.Take();
  return out;
}

}  // namespace wmap::scheduling
