// What a workload needs from a cluster before any pod exists: per-pod requests and limits as
// Kubernetes counts them, pod counts per component and instance, and totals at full size and at
// the minimum the workload can run with.
//
// Amounts follow the scheduler's accounting: CPU in millicores, every other resource (memory,
// ephemeral-storage, hugepages-*, GPUs and other extended resources) in whole units, each
// quantity rounded up when it is converted, before anything is summed. Quantities are parsed
// exactly (decimal arithmetic, no floating point); an amount beyond int64 is an error, and sums
// saturate at the int64 maximum rather than wrap.
#ifndef WMAP_RESOURCES_H_
#define WMAP_RESOURCES_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/quantity.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// Resource name -> amount (millicores for "cpu", units otherwise). Sorted by name.
using ResourceList = std::map<std::string, int64_t, std::less<>>;

// The GPU resources: nvidia.com/gpu, amd.com/gpu, gpu.intel.com/i915, gpu.intel.com/xe.
bool IsGpuResource(std::string_view name);
// The sum of the GPU resources of `list`, saturating.
int64_t GpuCount(const ResourceList& list);
// The amount of `name` in `list`; 0 when absent.
int64_t AmountOf(const ResourceList& list, std::string_view name);

// Amounts are read and written by QuantityAmount and FormatAmount (wmap/quantity.h).

// a += b, a = max(a, b) and a * n, per resource, saturating.
void AddTo(ResourceList* a, const ResourceList& b);
void MaxInto(ResourceList* a, const ResourceList& b);
ResourceList Times(const ResourceList& a, int64_t n);
// {"cpu": "250m", "memory": "1Gi", ...}, resources with amount 0 left out.
Value ResourceListToValue(const ResourceList& list);

// The effective resources of one pod spec, as the scheduler and the kubelet account them:
// - per container, requests; a resource only in limits is requested at its limit (the API
//   server's defaulting);
// - app containers and sidecars (init containers with restartPolicy Always) are summed; each
//   regular init container runs alone with the sidecars started before it, and the pod needs the
//   largest of those and of the app phase, per resource;
// - pod-level `resources` (spec.resources), when set, replace the container sum for the
//   resources they name;
// - `overhead` is added.
// Limits are computed the same way from the limits the containers set (a container without a
// limit for a resource adds nothing for it, as Kubernetes' PodLimits counts).
struct PodResources {
  ResourceList requests;
  ResourceList limits;
  // spec.resourceClaims[], as written ({name, resourceClaimName | resourceClaimTemplateName}).
  std::vector<Value> claims;
};
Result<PodResources> EffectivePodResources(const Value& pod_spec);

struct InstanceResourceNeeds {
  std::string id;  // "" for a component without instanceIdPath
  // replicas (1 when the component has no replica count) × pods per replica (podsPerReplicaPath,
  // 1 when not defined) × the units of the component's scaled ancestors (a LeaderWorkerSet
  // leader per group); min_pods uses minReplicas instead of replicas where it is defined.
  int64_t pods = 0;
  int64_t min_pods = 0;
  PodResources per_pod;       // from the instance's pod template
  ResourceList requests;      // per_pod.requests × pods
  ResourceList min_requests;  // per_pod.requests × min_pods
};

struct ComponentResourceNeeds {
  size_t component = 0;  // index in Definition::components()
  std::string name;
  std::vector<InstanceResourceNeeds> instances;  // in instance order
  int64_t pods = 0;
  int64_t min_pods = 0;
  ResourceList requests;
  ResourceList min_requests;
};

struct WorkloadResourceNeeds {
  // The components that have a pod definition, in definition order.
  std::vector<ComponentResourceNeeds> components;
  int64_t pods = 0;
  int64_t min_pods = 0;
  ResourceList requests;
  ResourceList min_requests;
};

// Reads the pod templates and scale of every component with a pod definition (pod template,
// pod spec, or fragments: the `resources` fragment counts as one container's resources).
Result<WorkloadResourceNeeds> ComputeResourceNeeds(const Workload& workload);

// {"pods", "minPods", "requests", "minRequests", "components": [{"name", "pods", "minPods",
//  "requests", "minRequests", "instances": [{"id", "pods", "minPods", "perPod": {"requests",
//  "limits", "claims"?}, "requests", "minRequests"}]}]}
Value ResourceNeedsToValue(const WorkloadResourceNeeds& needs);

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_RESOURCES_H_
