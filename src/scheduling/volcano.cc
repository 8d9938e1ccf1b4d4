// Volcano: scheduling.volcano.sh/v1beta1 PodGroup; scheduler-plugins coscheduling:
// scheduling.x-k8s.io/v1alpha1 PodGroup. Neither has nested subgroups: Volcano keeps the leaves
// as tasks (minTaskMember), coscheduling keeps only the total.
#include "scheduling/emit_context.h"
#include "wmap/resources.h"

namespace wmap::scheduling {

Result<SchedulerObjects> EmitVolcano(const EmitContext& c) {
  SchedulerObjects out;
  for (const GangPlan& g : c.plans.gangs) {
    Value spec = Value::EmptyObject();
    spec.set("minMember", Value::Int(EffectiveMinPods(g)));
    Value tasks = Value::EmptyObject();
    for (const SubGroupPlan& s : g.sub_groups) {
      if (IsLeaf(g, s)) tasks.set(s.name, Value::Int(s.min_member));
    }
    if (tasks.size() > 0) spec.set("minTaskMember", std::move(tasks));
    if (!g.queue.empty()) spec.set("queue", Value::String(g.queue));
    if (!g.priority_class_name.empty()) {
      spec.set("priorityClassName", Value::String(g.priority_class_name));
    }
    Value resources = ResourceListToValue(g.min_resources);
    if (resources.size() > 0) spec.set("minResources", std::move(resources));
    if (g.topology && (!g.topology->required_topology_level.empty() ||
                       !g.topology->preferred_topology_level.empty())) {
      const bool hard = !g.topology->required_topology_level.empty();
      spec.set("networkTopology",
               Value::Object({{"mode", Value::String(hard ? "hard" : "soft")},
                              {"highestTierName",
                               Value::String(hard ? g.topology->required_topology_level
                                                  : g.topology->preferred_topology_level)}}));
    }
    out.objects.push_back(MakeObject("scheduling.volcano.sh/v1beta1", "PodGroup",
                                     ObjectMeta(c.identity, g.name), std::move(spec)));
  }
  PodPatches patches(c.identity);
  for (const PodGangAssignment& p : c.plans.pods) {
    if (p.gang.empty()) continue;
    patches.Annotate(p.pod, "scheduling.k8s.io/group-name", p.gang);
    if (!p.sub_group.empty()) patches.Annotate(p.pod, "volcano.sh/task-spec", p.sub_group);
  }
  out.pod_patches = patches.Take();
  return out;
}

Result<SchedulerObjects> EmitCoscheduling(const EmitContext& c) {
  SchedulerObjects out;
  for (const GangPlan& g : c.plans.gangs) {
    Value spec = Value::Object({{"minMember", Value::Int(EffectiveMinPods(g))}});
    Value resources = ResourceListToValue(g.min_resources);
    if (resources.size() > 0) spec.set("minResources", std::move(resources));
    out.objects.push_back(MakeObject("scheduling.x-k8s.io/v1alpha1", "PodGroup",
                                     ObjectMeta(c.identity, LabelSafeGangName(g.name)),
                                     std::move(spec)));
    if (!g.sub_groups.empty()) {
      out.warnings.push_back("gang " + g.name +
                             ": coscheduling has no subgroups; only the total minimum is kept");
    }
  }
  PodPatches patches(c.identity);
  for (const PodGangAssignment& p : c.plans.pods) {
    if (!p.gang.empty())
      patches.Label(p.pod, "scheduling.x-k8s.io/pod-group", LabelSafeGangName(p.gang));
  }
  out.pod_patches = patches.Take();
  return out;
}

}  // namespace wmap::scheduling
