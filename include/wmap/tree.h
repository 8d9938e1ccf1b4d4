// The workload tree: a live workload, its child objects and its pods, attributed to the
// definition's components and instances, with desired/current/ready counts, nodes and resource
// totals (reference section 2.5 and 2.6).
//
// Attribution has two steps, as upstream's describe does:
//   1. Ownership: from each pod, follow the *controller* ownerReference (the one with
//      `controller: true`) upwards through the given child objects and pods, at most 6 hops, until
//      the workload's UID is reached. An intermediate owner is followed only when its kind belongs
//      to the workload: a component kind, an `additionalChildKinds` entry, or a core Pod (an LWS
//      worker StatefulSet is owned by its leader pod). A pod whose UID is the workload's own (a
//      core Pod definition) belongs at depth 0.
//   2. Component: the sole component with a pod definition claims every owned pod; otherwise
//      PodQuerier::InferPodComponent decides. The instance is the component's
//      componentInstanceSelector key (or the single instance "" when the component has no
//      instanceIdPath); the replica key is the replicaSelector of the component or, failing
//      that, of its nearest ancestor that has one.
// Pods that fail either step are kept in WorkloadTree::unattributed with the reason, and so is
// a second pod with a UID already seen.
//
// Building is a pure function of its inputs: one Definition may serve any number of threads
// building trees at the same time.
#ifndef WMAP_TREE_H_
#define WMAP_TREE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/definition.h"
#include "wmap/resources.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

struct PodNode {
  std::string name;
  std::string namespace_name;
  std::string uid;
  std::string node_name;  // spec.nodeName ("" when not scheduled)
  std::string phase;      // status.phase ("" when absent)
  // The Ready condition is "True"; without conditions, every containerStatuses[].ready is true
  // (and there is at least one).
  bool ready = false;
  std::optional<std::string> replica_key;
  ResourceList requests;  // EffectivePodResources(spec).requests
};

struct InstanceNode {
  std::string id;  // "" for a component without instanceIdPath
  // Pods the scale definition asks for: replicas × podsPerReplica × the units of scaled
  // ancestors; nullopt when the component states no count for this instance.
  std::optional<int32_t> desired;
  int32_t current = 0;        // pods attributed
  int32_t ready = 0;          // of which ready
  std::vector<PodNode> pods;  // sorted by name
  // From the pods when any pod was given to BuildTree (terminated pods, phase Succeeded or
  // Failed, hold nothing and are left out); else the instance's pod template × its replicas (one
  // pod when replicas is not defined) for a component with a pod definition.
  ResourceList requests;
};

struct ComponentNode {
  size_t component = 0;  // index in Definition::components()
  std::string name;
  std::optional<GroupVersionKind> kind;
  bool has_pod_definition = false;
  std::vector<InstanceNode> instances;  // sorted by id
  std::vector<ComponentNode> children;  // definition order
  // Matched statuses of a component with a statusDefinition (evaluated on the workload).
  std::optional<std::vector<ResourceStatus>> statuses;

  // Over the subtree (this component and its descendants). `desired` counts only components with
  // a pod definition (a grouping component's replicas are not pods); there an instance without
  // a replica count counts as one pod.
  int32_t desired = 0;
  int32_t current = 0;
  int32_t ready = 0;
  ResourceList requests;
};

struct UnattributedPod {
  std::string name;
  std::string namespace_name;
  std::string uid;
  std::string reason;
};

enum class TotalsSource {
  kPods,       // summed over the attributed pods
  kTemplates,  // no pods given: pod templates × replicas
};

struct WorkloadTree {
  GroupVersionKind kind;
  std::string name;
  std::string namespace_name;
  std::string uid;
  ComponentNode root;
  std::vector<UnattributedPod> unattributed;  // in input order
  TotalsSource totals_source = TotalsSource::kTemplates;
  // Equal to root's subtree figures.
  int32_t desired = 0;
  int32_t current = 0;
  int32_t ready = 0;
  ResourceList requests;
};

// Builds the tree of `object` (the workload) from its child objects and pods. Errors are those
// of evaluating the definition on the workload (instances, scale, templates); a pod that cannot
// be attributed is not an error (see WorkloadTree::unattributed).
Result<WorkloadTree> BuildTree(const Definition& definition, const Value& object,
                               std::span<const Value> children, std::span<const Value> pods,
                               const EvalOptions& options = {});

// The tree as a JSON-shaped value for library callers (`wmap describe -o json` prints a larger
// document built from the same tree, with status, definition and gangs: docs/output.md):
// {"kind", "name", "namespace", "uid", "totalsSource": "pods"|"templates", "desired", "current",
//  "ready", "requests": RESOURCES, "root": COMPONENT,
//  "unattributed": [{"name", "namespace", "uid", "reason"}]}, where COMPONENT is
// {"name", "kind"?, "hasPodDefinition", "statuses"?, "desired", "current", "ready", "requests",
//  "instances": [{"id", "desired"?, "current", "ready", "requests",
//                 "pods": [{"name", "namespace", "uid", "node", "phase", "ready", "replicaKey"?,
//                           "requests"}]}],
//  "children": [COMPONENT...]}.
Value TreeToValue(const WorkloadTree& tree);
// RESOURCES is ResourceListToValue's {"cpu": "250m", "memory": "1Gi", "nvidia.com/gpu": "8", ...}.

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_TREE_H_
