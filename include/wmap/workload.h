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
#include <optional>
#include <string>
#include <vector>

#include "wmap/definition.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap {

// Limits of one jq evaluation, as upstream's runner applies them.
struct EvalOptions {
  size_t max_results = 1000;  // reaching this many results is an error
  std::chrono::milliseconds timeout{10000};
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
  Result<std::optional<std::vector<FragmentedPodSpec>>> FragmentedPodSpecs(
      size_t component) const;
  Result<std::optional<std::vector<Scale>>> Scales(size_t component) const;

  // nullopt when the component has no statusDefinition.
  Result<std::optional<WorkloadStatus>> Status(size_t component = 0) const;

 private:
  Definition definition_;
  Value object_;
  EvalOptions options_;
};

}  // namespace wmap

#endif  // WMAP_WORKLOAD_H_
