// Changes to the workload object's own pod templates that a scheduler needs before the pods
// exist (the Workload API's schedulingGroup, Kueue's topology annotations), made through the
// definition's paths as `wmap mutate` makes them.
#ifndef WMAP_SCHEDULING_TEMPLATE_CHANGES_H_
#define WMAP_SCHEDULING_TEMPLATE_CHANGES_H_

#include <functional>
#include <string>
#include <vector>

#include "scheduling/emit_context.h"
#include "wmap/mutate.h"

namespace wmap::scheduling {

// One pod template of the workload: a component with a pod definition and one of its instances
// ("" for a component without instanceIdPath).
struct TemplateRef {
  size_t component = 0;
  std::string instance;
  bool operator<(const TemplateRef& o) const {
    return component != o.component ? component < o.component : instance < o.instance;
  }
  bool operator==(const TemplateRef& o) const = default;
};

// The templates a gang's pods are created from: its leaves' components and instances, or,
// without subgroups, every pod-bearing component (only the gang's instance when it has one).
Result<std::vector<TemplateRef>> GangTemplates(const EmitContext& c, const GangPlan& gang);

// What one template must get.
struct TemplateChange {
  TemplateRef ref;
  PodChanges changes;
  std::string why;  // for warnings: "gang NAME"
};

// The workload object with every change applied (in order, each through MutateWorkload on the
// object as changed so far). A change the definition cannot write is left out with a warning
// naming `why` and the reason.
Result<Value> ApplyTemplateChanges(const EmitContext& c, const std::vector<TemplateChange>& changes,
                                   std::vector<std::string>* warnings);

}  // namespace wmap::scheduling

#endif  // WMAP_SCHEDULING_TEMPLATE_CHANGES_H_
