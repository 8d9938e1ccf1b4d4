// KAI Scheduler: scheduling.run.ai/v2alpha2 PodGroup with its subgroup tree.
#include "scheduling/emit_context.h"
#include "wmap/meta.h"
#include "wmap/resources.h"

namespace wmap::scheduling {
namespace {

Value TopologyConstraint(const Topology& t) {
  Value v = Value::Object({{"topology", Value::String(t.topology_name)}});
  if (!t.required_topology_level.empty()) {
    v.set("requiredTopologyLevel", Value::String(t.required_topology_level));
  }
  if (!t.preferred_topology_level.empty()) {
    v.set("preferredTopologyLevel", Value::String(t.preferred_topology_level));
  }
  return v;
}

}  // namespace

Result<SchedulerObjects> EmitKai(const EmitContext& c) {
  SchedulerObjects out;
  for (const GangPlan& g : c.plans.gangs) {
    if (!g.preemptibility.empty() && g.preemptibility != "preemptible" &&
        g.preemptibility != "non-preemptible") {
      Error e{"gang " + g.name + ": preemptibility \"" + g.preemptibility +
                  "\" is not one KAI Scheduler accepts",
              "",
              {},
              "the workload must say preemptible or non-preemptible",
              ErrorCode::kInvalidInput};
      return e;
    }
    Value spec = Value::EmptyObject();
    // KAI's webhook refuses minMember beside minSubGroup: a gang with subgroups is defined by
    // how many of them it needs, one without by its pods. The CRD wants both >= 1.
    if (!g.sub_groups.empty() && g.min_sub_group > 0) {
      spec.set("minSubGroup", Value::Int(g.min_sub_group));
    } else if (g.min_member > 0) {
      spec.set("minMember", Value::Int(g.min_member));
    }
    std::string queue =
        g.queue.empty() ? std::string(meta::LabelValue(c.workload.object(), "kai.scheduler/queue"))
                        : g.queue;
    if (!queue.empty()) {
      spec.set("queue", Value::String(queue));
    } else {
      // For a PodGroup it did not make, KAI reads the queue from spec.queue only.
      out.warnings.push_back("gang " + g.name +
                             ": no queue (the definition gives none and the workload has no "
                             "kai.scheduler/queue label); KAI places the PodGroup in its default "
                             "queue");
    }
    if (!g.priority_class_name.empty()) {
      spec.set("priorityClassName", Value::String(g.priority_class_name));
    }
    if (!g.preemptibility.empty()) spec.set("preemptibility", Value::String(g.preemptibility));
    if (g.topology) spec.set("topologyConstraint", TopologyConstraint(*g.topology));
    if (!g.sub_groups.empty()) {
      Value subs = Value::EmptyArray(g.sub_groups.size());
      for (const SubGroupPlan& s : g.sub_groups) {
        // Subgroup names and parents are DNS labels in the CRD.
        Value sv = Value::Object({{"name", Value::String(DnsLabel(s.name))}});
        if (IsLeaf(g, s)) {
          sv.set("minMember", Value::Int(s.min_member));
        } else {
          sv.set("minSubGroup", Value::Int(s.min_sub_group));
        }
        if (!s.parent.empty()) sv.set("parent", Value::String(DnsLabel(s.parent)));
        if (s.topology) sv.set("topologyConstraint", TopologyConstraint(*s.topology));
        subs.push_back(std::move(sv));
      }
      spec.set("subGroups", std::move(subs));
    }
    out.objects.push_back(MakeObject("scheduling.run.ai/v2alpha2", "PodGroup",
                                     ObjectMeta(c.identity, ObjectNameOf(g.name)),
                                     std::move(spec)));
  }
  PodPatches patches(c.identity);
  for (const PodGangAssignment& p : c.plans.pods) {
    if (p.gang.empty()) continue;
    patches.Annotate(p.pod, "pod-group-name", ObjectNameOf(p.gang));
    // Without it KAI's pod grouper replaces the group and subgroup with its own.
    patches.Annotate(p.pod, "kai.scheduler/skip-podgrouper", "true");
    if (!p.sub_group.empty()) {
      patches.Label(p.pod, "kai.scheduler/subgroup-name", DnsLabel(p.sub_group));
    }
  }
  out.pod_patches = patches.Take();
  return out;
}

}  // namespace wmap::scheduling
