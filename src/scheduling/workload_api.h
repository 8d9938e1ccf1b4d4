// What the two forms of the Kubernetes Workload API emitter share: a flat Workload of pod group
// templates (v1beta1, or v1alpha3 for gangs without subgroups) and, with v1alpha3, the
// CompositePodGroup tree of a gang's subgroups.
#ifndef WMAP_SCHEDULING_WORKLOAD_API_H_
#define WMAP_SCHEDULING_WORKLOAD_API_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scheduling/emit_context.h"
#include "scheduling/template_changes.h"

namespace wmap::scheduling {

// {"gang": {"minCount": N}} for more than one pod, else {"basic": {}}.
Value Policy(int64_t min_pods);
// The pod group template of a gang: its definition gang's name as a DNS label.
std::string TemplateName(const GangPlan& g);
// A gang's PodGroup (or CompositePodGroup) name: its planned name, lowered as a label would be
// when it is not one.
std::string PodGroupName(const GangPlan& g);
// The priority class every template of the Workload carries (they must agree): the first
// gang's, with a warning for each other one.
std::string PriorityClassOf(const GangPlans& plans, std::vector<std::string>* warnings);
// spec.controllerRef: the workload.
Value ControllerRef(const WorkloadIdentity& identity);
// Sets out->workload_patch to the patch that sets spec.schedulingGroup.podGroupName in each pod
// template to the PodGroup `owners` give it. A template given several PodGroups (gangs or
// subgroups made per replica of one template) names none, with a warning; so do given pods,
// which cannot join (the field is immutable).
std::optional<Error> SetSchedulingGroups(
    const EmitContext& c, const std::vector<std::pair<TemplateRef, std::string>>& owners,
    SchedulerObjects* out);

// v1alpha3 with CompositePodGroups (workload_api_composite.cc).
Result<SchedulerObjects> EmitWorkloadApiComposite(const EmitContext& c);

}  // namespace wmap::scheduling

#endif  // WMAP_SCHEDULING_WORKLOAD_API_H_
