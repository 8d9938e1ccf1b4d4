// Pod multipliers shared by the workload tree and the resource needs: how many pods a component
// instance stands for. Each replica is podsPerReplica pods, and in the WorkloadDefinition format a
// component's replicas count per replica of its scaled ancestors (units × children's pods).
#ifndef WMAP_RESOLVE_SCALE_UNITS_H_
#define WMAP_RESOLVE_SCALE_UNITS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "wmap/status.h"
#include "wmap/workload.h"

namespace wmap::resolve {

// Per instance of `component` (zipped with InstanceIds): pods per replica, 1 where not given.
Result<std::vector<int64_t>> PodsPerReplicaOf(const Workload& workload, size_t component,
                                              size_t instances);

// WorkloadDefinition format: the product, over the strict ancestors of `component` that have a
// scale definition, of their units: the sum over their instances of replicas (minReplicas when
// `minimum` and given; 1 when no count is given) × pods per replica. 1 for a component without
// scaled ancestors, and always 1 for a Karta, whose replica paths state whole-workload counts.
// Saturates at INT64_MAX.
Result<int64_t> AncestorUnits(const Workload& workload, size_t component, bool minimum);

// An error when one of an instance's counts is negative, which the API server never accepts
// and no total can use: "replicas -5 is negative (read by .spec.parallelism)".
std::optional<Error> NegativeCount(const ComponentDefinition& component, const Scale& scale);

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_SCALE_UNITS_H_
