// scheduler-plugins coscheduling: scheduling.x-k8s.io/v1alpha1 PodGroup. It has no subgroups,
// so only the gang's total minimum is kept; pods join through a label, so the group's name must
// fit a label value.
#include <algorithm>

#include "scheduling/emit_context.h"
#include "wmap/resources.h"

namespace wmap::scheduling {

Result<SchedulerObjects> EmitCoscheduling(const EmitContext& c) {
  SchedulerObjects out;
  for (const GangPlan& g : c.plans.gangs) {
    // The CRD wants at least 1; a gang that needs no pod now (a workload scaled to zero) is
    // not held back by one.
    const int64_t min = EffectiveMinPods(g);
    if (min < 1) {
      out.warnings.push_back("gang " + g.name +
                             " needs no pod now; coscheduling's minMember is at least 1");
    }
    Value spec = Value::Object({{"minMember", Value::Int(std::max<int64_t>(min, 1))}});
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
