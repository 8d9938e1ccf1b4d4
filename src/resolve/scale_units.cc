#include "resolve/scale_units.h"

#include <string>
#include "resolve/saturating.h"

#include "wmap/definition.h"

namespace wmap::resolve {
Result<std::vector<int64_t>> PodsPerReplicaOf(const Workload& workload, size_t component,
                                              size_t instances) {
  std::vector<int64_t> out(instances, 1);
  auto per_replica = workload.PodsPerReplica(component);
  if (!per_replica.ok()) return per_replica.error();
  if (*per_replica) {
    for (size_t k = 0; k < instances && k < (*per_replica)->size(); ++k) {
      out[k] = (**per_replica)[k];
    }
  }
  return out;
}

Result<int64_t> AncestorUnits(const Workload& workload, size_t component, bool minimum) {
  const Definition& d = workload.definition();
  int64_t product = 1;
  // Karta replica paths count pods over the whole workload in practice (upstream's catalog
  // states a LeaderWorkerSet's workers as replicas × (size - 1) under a scaled group), so only
  // the WorkloadDefinition format, whose counts are per parent replica, multiplies.
  if (d.format() != DefinitionFormat::kWorkloadDefinition) return product;
  for (int a = d.Parent(component); a >= 0; a = d.Parent(a)) {
    const ComponentDefinition& c = d.components()[static_cast<size_t>(a)];
    if (!c.scale) continue;
    auto scales = workload.Scales(static_cast<size_t>(a));
    if (!scales.ok()) return scales.error();
    if (!*scales) continue;
    auto per_replica = PodsPerReplicaOf(workload, static_cast<size_t>(a), (*scales)->size());
    if (!per_replica.ok()) return per_replica.error();
    int64_t units = 0;
    for (size_t k = 0; k < (*scales)->size(); ++k) {
      const Scale& s = (**scales)[k];
      int64_t replicas = s.replicas ? *s.replicas : 1;
      if (minimum && s.min_replicas) replicas = *s.min_replicas;
      units = SaturatingAdd(units, SaturatingMul(replicas, (*per_replica)[k]));
    }
    product = SaturatingMul(product, units);
  }
  return product;
}

std::optional<Error> NegativeCount(const ComponentDefinition& component, const Scale& scale) {
  if (!component.scale) return std::nullopt;
  struct Count {
    std::string_view name;
    const std::optional<int32_t>& value;
    const std::optional<Expression>& path;
  };
  for (const Count& c : {Count{"replicas", scale.replicas, component.scale->replicas},
                         Count{"minReplicas", scale.min_replicas, component.scale->min_replicas},
                         Count{"maxReplicas", scale.max_replicas, component.scale->max_replicas}}) {
    if (!c.value || *c.value >= 0) continue;
    Error e;
    e.message = std::string(c.name) + " " + std::to_string(*c.value) + " is negative";
    if (c.path) {
      e.field = c.path->field;
      e.detail = "read by " + c.path->text;
    }
    e.hint = "the API server refuses negative counts; fix the object";
    e.code = ErrorCode::kInvalidInput;
    return e;
  }
  return std::nullopt;
}

}  // namespace wmap::resolve
