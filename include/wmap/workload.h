// A workload object seen through its definition: components, instances, pod templates and specs,
// fragments, scale and status, with upstream's cardinality and pairing rules.
//
// Every jq output is one item; a missing path yields one null (one empty item); iterating a
// missing array is an error. Per-instance data zips by position with the instance ids and the
// counts must agree ("instance ids count (N) does not match results count (M)"); the scale paths
// and the fragment paths zip among themselves by index, padding with null. A data path the
// definition does not have gives "not defined" (std::nullopt), never an error. Runtime jq errors
// are errors, never "false".
//
// A Workload is immutable; its reads may run concurrently from many threads (each read carries
// its own evaluation budget). The Definition is shared, not copied.
#ifndef WMAP_WORKLOAD_H_
#define WMAP_WORKLOAD_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "wmap/export.h"

#include "wmap/definition.h"
#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// Limits of one jq evaluation. A default-constructed EvalOptions takes the limits of the
// innermost EvalLimitsScope active on the calling thread, or the defaults below (upstream's
// runner's result count and timeout, and a memory budget upstream does not have).
struct EvalOptions {
  EvalOptions();

  size_t max_results = 1000;  // reaching this many results is an error
  std::chrono::milliseconds timeout{10000};
  // Approximate bytes of data one evaluation may build (0: no limit); more is an error
  // ("memory limit exceeded", ErrorCode::kLimitExceeded).
  size_t max_memory_bytes = size_t{256} << 20;
  // An overall deadline (a command's): no evaluation runs past it, whatever its timeout.
  std::optional<std::chrono::steady_clock::time_point> deadline;

  // When an evaluation starting now must end: now + timeout, or the overall deadline if sooner.
  std::chrono::steady_clock::time_point EvaluationDeadline() const;
};

// Makes `limits` what a default-constructed EvalOptions takes on this thread while the scope
// lives (scopes nest; the innermost wins). Front ends set a command's flags this way once,
// instead of passing options to every read.
class EvalLimitsScope {
 public:
  explicit EvalLimitsScope(const EvalOptions& limits);
  ~EvalLimitsScope();
  EvalLimitsScope(const EvalLimitsScope&) = delete;
  EvalLimitsScope& operator=(const EvalLimitsScope&) = delete;

 private:
  const EvalOptions* previous_;
  EvalOptions limits_;
};

struct Scale {
  std::optional<int32_t> replicas;
  std::optional<int32_t> min_replicas;
  std::optional<int32_t> max_replicas;
};

// One instance's fragments; a field is null when its path is absent or yielded nothing for
// this index.
struct FragmentedPodSpec {
  Value scheduler_name;
  Value labels;
  Value annotations;
  Value resources;
  Value resource_claims;
  Value pod_affinity;
  Value node_affinity;
  Value containers;
  Value container;
  Value priority_class_name;
  Value image;

  // {"schedulerName": ..., ...} with null fields left out.
  Value ToValue() const;
};

struct Condition {
  std::string type;
  std::optional<std::string> status;
  std::string message;
  std::optional<std::string> reason;
};

struct WorkloadStatus {
  std::optional<std::string> phase;
  std::vector<Condition> conditions;
  // In evaluation order; [Undefined] when nothing matched.
  std::vector<ResourceStatus> matched;
};

class Workload {
 public:
  Workload(Definition definition, Value object, EvalOptions options = {});

  const Definition& definition() const { return definition_; }
  const Value& object() const { return object_; }

  // Component indexes are those of Definition::components() (root = 0).

  // The instance ids: the results of instanceIdPath (each a non-empty string), or one "" when
  // the component has none.
  Result<std::vector<std::string>> InstanceIds(size_t component) const;

  // Per instance (parallel to InstanceIds), or nullopt when the path is not defined.
  Result<std::optional<std::vector<Value>>> PodTemplateSpecs(size_t component) const;
  Result<std::optional<std::vector<Value>>> PodSpecs(size_t component) const;
  Result<std::optional<std::vector<Value>>> PodMetadata(size_t component) const;
  Result<std::optional<std::vector<FragmentedPodSpec>>> FragmentedPodSpecs(size_t component) const;
  // Each instance's pod template as the definition gives it ({"metadata"?, "spec"}): the
  // podTemplateSpecPath's value; the podSpecPath's spec with the metadataPath's metadata; or one
  // assembled from the fragments (the containers, the main container or one holding only the
  // resources, containers without a name called "main", the image on the first container, the
  // scheduler name, priority class, affinity, resource claims, labels and annotations). An
  // assembled template carries what scheduling and resource accounting read; it is not a pod
  // to create. Null for an instance the paths yield nothing for; nullopt when the component
  // has no pod definition.
  Result<std::optional<std::vector<Value>>> EffectivePodTemplates(size_t component) const;
  Result<std::optional<std::vector<Scale>>> Scales(size_t component) const;
  // Pods per replica (scaleDefinition.podsPerReplicaPath), per instance: a null result reads as
  // 1, anything but a non-negative int32 (or its numeric string) is an error. nullopt when the
  // path is not defined (every replica is then one pod).
  Result<std::optional<std::vector<int32_t>>> PodsPerReplica(size_t component) const;

  // nullopt when the component has no statusDefinition.
  Result<std::optional<WorkloadStatus>> Status(size_t component = 0) const;

  // Updates through the same paths. Each returns the whole updated object (field order kept);
  // this Workload is left unchanged. Values are given per instance id and every instance id
  // must have one ("value not found for instance id: ID"). Without instanceIdPath the path is
  // assigned (`(path) = $val`); with it, the values are zipped onto `[path(path)]` in instance
  // order, and the counts must agree. A path that cannot be written (not a jq path at run
  // time) is refused with "cannot update through ...".
  using InstanceValues = std::map<std::string, Value>;
  Result<Value> UpdatePodTemplateSpecs(size_t component, const InstanceValues& values) const;
  Result<Value> UpdatePodSpecs(size_t component, const InstanceValues& values) const;
  Result<Value> UpdatePodMetadata(size_t component, const InstanceValues& values) const;
  Result<Value> UpdateReplicas(size_t component,
                               const std::map<std::string, int32_t>& values) const;
  // Field by field (schedulerName, priorityClassName, image, labels, annotations, resources,
  // podAffinity, nodeAffinity, container, resourceClaims, containers); a field whose values are
  // all empty is not written; non-empty values for a field without a path are an error
  // ("path is not defined and values are not empty").
  Result<Value> UpdateFragmentedPodSpecs(
      size_t component, const std::map<std::string, FragmentedPodSpec>& values) const;
  // The suspendDefinition's actions, in order (each `(path) = value`).
  Result<Value> ApplySuspendActions(size_t component) const;
  Result<Value> ApplyResumeActions(size_t component) const;

  // Gang size of a component's subtree (upstream's CalculateSubtreeScale): per instance
  // minReplicas if > 0, else replicas if > 0, else 0, summed over the instances (only
  // `instance_id` when given); a component with children multiplies that by the sum of its
  // children's subtree scales (a zero side yields the other). When no component of the
  // definition has a scaleDefinition, the pods the subtree's pod-bearing components make: one
  // per instance of a component with an instanceIdPath (only `instance_id` when given), one for
  // a component without (the components below a pod-bearing one are not counted again).
  Result<int32_t> SubtreeScale(size_t component,
                               const std::optional<std::string>& instance_id = {}) const;

 private:
  Result<int32_t> LeafScale(size_t component, size_t root,
                            const std::optional<std::string>& instance_id) const;
  Definition definition_;
  Value object_;
  EvalOptions options_;
};

// Pod-side queries (reference 1.5 and 2.8): which component, instance, replica and gang group a
// Pod belongs to. Expressions are evaluated against the Pod object. Immutable and thread-safe.
class PodQuerier {
 public:
  explicit PodQuerier(Definition definition, EvalOptions options = {});

  // componentTypeSelector: false without a selector; otherwise the AND of matchLabels (every
  // label present and equal), keyPath existence (any non-null result) or, with value, any
  // `(keyPath) == "<value>"` result true.
  Result<bool> MatchesComponentType(size_t component, const Value& pod) const;
  // componentInstanceSelector.idPath / replicaSelector.keyPath: exactly one non-null, non-empty
  // result, formatted as Go's %v formats it. nullopt when the component has no such selector.
  Result<std::optional<std::string>> InstanceKey(size_t component, const Value& pod) const;
  Result<std::optional<std::string>> ReplicaKey(size_t component, const Value& pod) const;
  // The single leaf when there is one; else the first leaf whose type selector matches;
  // nullopt when none does.
  Result<std::optional<size_t>> InferPodComponent(const Value& pod) const;

  // The deprecated gang form: the member entry that applies to a pod (entries for its
  // component first, then for each ancestor; the first whose filters all yield exactly `true`)
  // and the group keys (groupByKeyPaths on the pod, each one non-empty value).
  struct GangGroup {
    std::string pod_group;    // podGroups[].name
    size_t member_component;  // the effective component
    std::vector<std::string> keys;
  };
  // nullopt when the definition has no podGroups entry for the pod.
  Result<std::optional<GangGroup>> PodGangGroup(const Value& pod) const;

 private:
  // `what` names the key in errors ("instance id", "replica key", "group key").
  Result<std::optional<std::string>> Key(const std::optional<Expression>& path,
                                         std::string_view what, const Value& pod) const;
  Definition definition_;
  EvalOptions options_;
};

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_WORKLOAD_H_
