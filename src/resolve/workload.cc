// Components, instances, pod templates and specs, fragments and scale of one workload object.
#include <algorithm>

#include "resolve/extract.h"
#include "wmap/workload.h"

namespace wmap {

using resolve::DecodeAll;
using resolve::GoType;
using resolve::MakeError;
using resolve::Wrap;

namespace {

constexpr std::string_view kInstanceIdsPrefix = "failed to get instance ids";

template <typename T>
Result<std::optional<std::vector<T>>> Zip(Result<std::vector<std::string>> ids,
                                          std::vector<T> values) {
  if (!ids.ok()) return Wrap(kInstanceIdsPrefix, ids.error());
  if (ids->size() != values.size()) {
    return MakeError("instance ids count (" + std::to_string(ids->size()) +
                     ") does not match results count (" + std::to_string(values.size()) + ")");
  }
  return std::optional<std::vector<T>>(std::move(values));
}

}  // namespace

Value FragmentedPodSpec::ToValue() const {
  Value out = Value::EmptyObject();
  auto put = [&](std::string_view key, const Value& v) {
    if (!v.is_null()) out.set(key, v);
  };
  put("schedulerName", scheduler_name);
  put("labels", labels);
  put("annotations", annotations);
  put("resources", resources);
  put("resourceClaims", resource_claims);
  put("podAffinity", pod_affinity);
  put("nodeAffinity", node_affinity);
  put("containers", containers);
  put("container", container);
  put("priorityClassName", priority_class_name);
  put("image", image);
  return out;
}

Workload::Workload(Definition definition, Value object, EvalOptions options)
    : definition_(std::move(definition)), object_(std::move(object)), options_(options) {}

Result<std::vector<std::string>> Workload::InstanceIds(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.instance_id_path) return std::vector<std::string>{""};
  std::string prefix = "failed to extract instance ids for component " + c.name;
  Result<std::vector<Value>> results =
      resolve::Evaluate(*c.instance_id_path->program, c.instance_id_path->text, object_, options_);
  if (!results.ok()) return Wrap(prefix, results.error());
  if (std::optional<Error> e = DecodeAll(GoType::kString, &results.value()))
    return Wrap(prefix, *e);
  std::vector<std::string> ids;
  ids.reserve(results->size());
  bool has_empty = false;
  for (const Value& v : *results) {
    ids.emplace_back(v.as_string());
    has_empty = has_empty || ids.back().empty();
  }
  if (has_empty) {
    std::string joined;
    for (size_t i = 0; i < ids.size(); ++i) joined += (i ? "," : "") + ids[i];
    return Wrap(prefix,
                MakeError("instance id path contained empty string values [" + joined + "]"));
  }
  return ids;
}

namespace {

// One whole-object path (podTemplateSpecPath, podSpecPath, metadataPath), zipped.
Result<std::optional<std::vector<Value>>> ExtractObjects(const Workload& w, size_t component,
                                                         const std::optional<Expression>& path,
                                                         GoType type, std::string_view what,
                                                         const Value& object,
                                                         const EvalOptions& options) {
  if (!path) return std::optional<std::vector<Value>>();
  std::string prefix = "failed to extract " + std::string(what);
  Result<std::vector<Value>> results =
      resolve::Evaluate(*path->program, path->text, object, options);
  if (!results.ok()) return Wrap(prefix, results.error());
  if (std::optional<Error> e = DecodeAll(type, &results.value())) return Wrap(prefix, *e);
  return Zip(w.InstanceIds(component), std::move(results.value()));
}

}  // namespace

Result<std::optional<std::vector<Value>>> Workload::PodTemplateSpecs(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.spec) return std::optional<std::vector<Value>>();
  return ExtractObjects(*this, component, c.spec->pod_template_spec, GoType::kPodTemplateSpec,
                        "pod template specs", object_, options_);
}

Result<std::optional<std::vector<Value>>> Workload::PodSpecs(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.spec) return std::optional<std::vector<Value>>();
  return ExtractObjects(*this, component, c.spec->pod_spec, GoType::kPodSpec, "pod specs", object_,
                        options_);
}

Result<std::optional<std::vector<Value>>> Workload::PodMetadata(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.spec) return std::optional<std::vector<Value>>();
  return ExtractObjects(*this, component, c.spec->metadata, GoType::kObjectMeta, "pod metadata",
                        object_, options_);
}

Result<std::optional<std::vector<FragmentedPodSpec>>> Workload::FragmentedPodSpecs(
    size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.spec || !c.spec->fragmented) return std::optional<std::vector<FragmentedPodSpec>>();
  const FragmentedPodSpecDefinition& d = *c.spec->fragmented;
  constexpr std::string_view kPrefix = "failed to extract fragmented pod specs";
  struct Field {
    const std::optional<Expression>* path;
    GoType type;
    Value FragmentedPodSpec::*member;
  };
  // Upstream's extraction order (the first failing field is the one reported).
  const Field fields[] = {
      {&d.scheduler_name, GoType::kString, &FragmentedPodSpec::scheduler_name},
      {&d.labels, GoType::kStringMap, &FragmentedPodSpec::labels},
      {&d.annotations, GoType::kStringMap, &FragmentedPodSpec::annotations},
      {&d.resources, GoType::kResources, &FragmentedPodSpec::resources},
      {&d.resource_claims, GoType::kResourceClaims, &FragmentedPodSpec::resource_claims},
      {&d.pod_affinity, GoType::kPodAffinity, &FragmentedPodSpec::pod_affinity},
      {&d.node_affinity, GoType::kNodeAffinity, &FragmentedPodSpec::node_affinity},
      {&d.containers, GoType::kContainers, &FragmentedPodSpec::containers},
      {&d.container, GoType::kContainer, &FragmentedPodSpec::container},
      {&d.priority_class_name, GoType::kString, &FragmentedPodSpec::priority_class_name},
      {&d.image, GoType::kString, &FragmentedPodSpec::image},
  };
  std::vector<FragmentedPodSpec> specs;
  for (const Field& f : fields) {
    Result<std::vector<Value>> results = resolve::EvaluateOptional(*f.path, object_, options_);
    if (!results.ok()) return Wrap(kPrefix, results.error());
    if (std::optional<Error> e = DecodeAll(f.type, &results.value())) return Wrap(kPrefix, *e);
    if (results->size() > specs.size()) specs.resize(results->size());
    for (size_t i = 0; i < results->size(); ++i) {
      Value v = (*results)[i];
      // Go zero values: an empty string field is "", shown as absent.
      if (v.is_string() && v.as_string().empty()) v = Value();
      specs[i].*f.member = std::move(v);
    }
  }
  return Zip(InstanceIds(component), std::move(specs));
}

Result<std::optional<std::vector<Scale>>> Workload::Scales(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.scale) return std::optional<std::vector<Scale>>();
  // A WorkloadDefinition scale with only podsPerReplicaPath has no replica counts.
  if (definition_.format() == DefinitionFormat::kWorkloadDefinition && !c.scale->replicas &&
      !c.scale->min_replicas && !c.scale->max_replicas) {
    return std::optional<std::vector<Scale>>();
  }
  constexpr std::string_view kPrefix = "failed to extract scales";
  const std::optional<Expression>* paths[] = {&c.scale->replicas, &c.scale->min_replicas,
                                              &c.scale->max_replicas};
  std::optional<int32_t> Scale::*members[] = {&Scale::replicas, &Scale::min_replicas,
                                              &Scale::max_replicas};
  std::vector<Scale> scales;
  for (size_t k = 0; k < 3; ++k) {
    Result<std::vector<Value>> results = resolve::EvaluateOptional(*paths[k], object_, options_);
    if (!results.ok()) return Wrap(kPrefix, results.error());
    Result<std::vector<std::optional<int32_t>>> counts = resolve::DecodeReplicas(*results);
    if (!counts.ok()) return Wrap(kPrefix, counts.error());
    if (counts->size() > scales.size()) scales.resize(counts->size());
    for (size_t i = 0; i < counts->size(); ++i) scales[i].*members[k] = (*counts)[i];
  }
  return Zip(InstanceIds(component), std::move(scales));
}

Result<std::optional<std::vector<int32_t>>> Workload::PodsPerReplica(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.scale || !c.scale->pods_per_replica) return std::optional<std::vector<int32_t>>();
  constexpr std::string_view kPrefix = "failed to extract pods per replica";
  const Expression& path = *c.scale->pods_per_replica;
  Result<std::vector<Value>> results =
      resolve::Evaluate(*path.program, path.text, object_, options_);
  if (!results.ok()) return Wrap(kPrefix, results.error());
  Result<std::vector<std::optional<int32_t>>> counts = resolve::DecodeReplicas(*results);
  if (!counts.ok()) return Wrap(kPrefix, counts.error());
  std::vector<int32_t> values;
  values.reserve(counts->size());
  for (size_t i = 0; i < counts->size(); ++i) {
    int32_t n = (*counts)[i].value_or(1);
    if (n < 0) {
      return Wrap(kPrefix, MakeError("value " + std::to_string(n) + " at index " +
                                     std::to_string(i) + " is negative"));
    }
    values.push_back(n);
  }
  return Zip(InstanceIds(component), std::move(values));
}

}  // namespace wmap
