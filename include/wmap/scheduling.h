// Scheduler objects from gang plans: what each gang scheduler needs created for a workload, and
// what each of the workload's pods must carry to join it.
//
//   kai           scheduling.run.ai/v2alpha2 PodGroup (minMember, minSubGroup, subGroups tree
//                 with parents, topology constraints, queue, priority class, preemptibility);
//                 pods: annotation pod-group-name, label kai.scheduler/subgroup-name (leaf).
//   volcano       scheduling.volcano.sh/v1beta1 PodGroup (minMember, subGroupPolicy: a policy
//                 per parent and leaf size, with subGroupSize, minSubGroups and network
//                 topology; or, as an option, the legacy minTaskMember of required leaves;
//                 minResources, queue, priority class, networkTopology by HyperNode tier
//                 name); pods: annotations scheduling.k8s.io/group-name and
//                 volcano.sh/task-spec (the leaf), labels workloadmap.dev/subgroup-policy and
//                 workloadmap.dev/subgroup for the policies' selectors.
//   coscheduling  scheduling.x-k8s.io/v1alpha1 PodGroup (minMember, minResources); pods: label
//                 scheduling.x-k8s.io/pod-group.
//   kueue         for kinds Kueue integrates (Job, JobSet, LeaderWorkerSet, Ray, Kubeflow,
//                 TrainJob, AppWrapper, Deployment, StatefulSet, Pod): the queue label and
//                 topology annotations through the workload patch, nothing else (Kueue builds
//                 the Workload). Otherwise a kueue.x-k8s.io/v1beta2 prebuilt Workload
//                 (non-controller owner), one podSet per component instance (count, minCount
//                 with partial admission, pod template, topologyRequest); at most 18 podSets.
//                 Pods: annotations kueue.x-k8s.io/pod-group-name, prebuilt-workload-name and
//                 pod-group-total-count, label queue-name.
//   k8s-workload  scheduling.k8s.io/v1beta1 Workload (KEP-4671, Kubernetes 1.37): a pod group
//                 template per gang of the definition (gangs made per instance share it), and
//                 a PodGroup per planned gang naming its template (gang policy minCount).
//                 Subgroups are flattened and topology left out, with warnings (v1alpha3:
//                 CompositePodGroups per parent, a PodGroup per leaf). Pods name their
//                 group in spec.schedulingGroup, which only their template can set: the
//                 workload patch sets it in each gang's pod templates; no pod patch.
//
// Every object carries the workload's namespace and, when the workload has a uid, a controller
// ownerReference to it. Pod changes are JSON merge patches (`kubectl patch --type merge`).
#ifndef WMAP_SCHEDULING_H_
#define WMAP_SCHEDULING_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/gang.h"
#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

enum class Scheduler { kKai, kVolcano, kCoscheduling, kKueue, kWorkloadApi };

// "kai", "volcano", "coscheduling", "kueue", "k8s-workload"; nullopt for anything else.
std::optional<Scheduler> ParseScheduler(std::string_view name);
std::string_view SchedulerName(Scheduler scheduler);
// The accepted names, for help and error messages: "kai|volcano|coscheduling|kueue|k8s-workload".
std::string_view SchedulerNames();
// The versions --api-version accepts for `scheduler`, the default first ("v1beta2|v1beta1").
std::string_view SchedulerApiVersions(Scheduler scheduler);
bool IsSchedulerApiVersion(Scheduler scheduler, std::string_view version);

struct SchedulingOptions {
  // The Workload API's limit on pod group templates per Workload.
  size_t max_pod_sets = 8;
  // Kueue's limit on pod sets per Workload (its CRD allows 1 to 18).
  size_t max_kueue_pod_sets = 18;
  // Kueue: a prebuilt Workload and pod group for every kind, also those Kueue integrates itself
  // (for a cluster whose Kueue configuration leaves that integration off).
  bool kueue_prebuilt = false;
  // The API version of the objects ("" for the scheduler's default, the first of
  // SchedulerApiVersions). Kueue: v1beta2 or v1beta1 (the same Workload either way: what
  // differs between them, the priority fields, is never emitted). Workload API: v1beta1, or
  // v1alpha3, which keeps subgroup trees as CompositePodGroups.
  std::string api_version;
  // Volcano: the legacy per-task minimums (minTaskMember) instead of subGroupPolicy, for
  // Volcano releases whose PodGroup has no subGroupPolicy.
  bool volcano_min_task_member = false;
  // Volcano: the HyperNode tier name (spec.tierName) for a topology level (a node label key
  // such as "nvidia.com/gpu-clique"). networkTopology.highestTierName must name a tier; a level
  // without one is left out with a warning.
  std::map<std::string, std::string> volcano_tier_names;
};

struct SchedulerObjects {
  std::vector<Value> objects;  // to create, in dependency order
  // Per given pod, in plan order: {"metadata": {"name", "namespace"?, "labels"?,
  // "annotations"?}, "spec"?: {...}}. Pods that join no gang are left out.
  std::vector<Value> pod_patches;
  // What the workload object itself needs before it is submitted, as an RFC 6902 JSON patch of
  // it (`kubectl patch --type json`): the queue label on kinds Kueue builds Workloads for
  // itself, and pod template changes made through the definition (spec.schedulingGroup for the
  // Workload API, Kueue's topology annotations). Empty when none.
  Value workload_patch = Value::EmptyArray();
  // Things a user should know (no uid: no ownerReference; queue missing for Kueue...).
  std::vector<std::string> warnings;
};

// `workload` is the workload the plans were made from (PlanGangs(workload, pods)).
Result<SchedulerObjects> BuildSchedulerObjects(Scheduler scheduler, const Workload& workload,
                                               const GangPlans& plans,
                                               const SchedulingOptions& options = {});

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_SCHEDULING_H_
