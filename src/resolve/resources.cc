// Effective pod resources and per-component resource needs.
#include "wmap/resources.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "resolve/extract.h"
#include "resolve/saturating.h"
#include "resolve/scale_units.h"

namespace wmap {
namespace {

using resolve::SaturatingAdd;
using resolve::SaturatingMul;

// Converts one resource map ({"cpu": "500m", ...}); names in `skip` are left out.
std::optional<Error> ReadList(const Value& map, const ResourceList* skip, ResourceList* out) {
  if (!map.is_object()) return std::nullopt;
  for (const Member& m : map.members()) {
    const std::string_view name = m.key.as_string();
    if (skip != nullptr && skip->find(name) != skip->end()) continue;
    Result<int64_t> amount = QuantityAmount(name, m.value);
    if (!amount.ok()) return resolve::Wrap("resource " + std::string(name), amount.error());
    if (*amount < 0) {
      Error e;
      e.message =
          "resource " + std::string(name) + ": quantity " +
          (m.value.is_string() ? std::string(m.value.as_string()) : std::to_string(*amount)) +
          " is negative";
      e.hint = "the API server refuses negative requests and limits; fix the object";
      e.code = ErrorCode::kInvalidInput;
      return e;
    }
    (*out)[std::string(name)] = *amount;
  }
  return std::nullopt;
}

// One ResourceRequirements: requests defaulted from limits, and limits.
std::optional<Error> ReadRequirements(const Value* resources, ResourceList* requests,
                                      ResourceList* limits) {
  if (resources == nullptr || !resources->is_object()) return std::nullopt;
  if (const Value* r = resources->find("requests")) {
    if (auto e = ReadList(*r, nullptr, requests)) return e;
  }
  if (const Value* l = resources->find("limits")) {
    if (auto e = ReadList(*l, nullptr, limits)) return e;
    if (auto e = ReadList(*l, requests, requests)) return e;
  }
  return std::nullopt;
}

bool IsSidecar(const Value& init_container) {
  const Value* policy = init_container.find("restartPolicy");
  return policy != nullptr && policy->is_string() && policy->as_string() == "Always";
}

struct Usage {
  ResourceList requests;
  ResourceList limits;
};

// One container's own usage (out must be empty: ReadRequirements assigns, it does not add).
std::optional<Error> ContainerUsage(const Value& container, Usage* out) {
  return ReadRequirements(container.find("resources"), &out->requests, &out->limits);
}

void AddUsage(Usage* a, const Usage& b) {
  AddTo(&a->requests, b.requests);
  AddTo(&a->limits, b.limits);
}

void MaxUsage(Usage* a, const Usage& b) {
  MaxInto(&a->requests, b.requests);
  MaxInto(&a->limits, b.limits);
}

// The resources pod-level `resources` may set (cpu, memory and hugepages).
bool PodLevelResource(std::string_view name) {
  return name == "cpu" || name == "memory" || name.starts_with("hugepages-");
}

}  // namespace

void AddTo(ResourceList* a, const ResourceList& b) {
  for (const auto& [name, amount] : b) {
    int64_t& slot = (*a)[name];
    slot = SaturatingAdd(slot, amount);
  }
}

void MaxInto(ResourceList* a, const ResourceList& b) {
  for (const auto& [name, amount] : b) {
    auto it = a->find(name);
    if (it == a->end()) {
      a->emplace(name, amount);
    } else {
      it->second = std::max(it->second, amount);
    }
  }
}

ResourceList Times(const ResourceList& a, int64_t n) {
  ResourceList out;
  for (const auto& [name, amount] : a) out.emplace(name, SaturatingMul(amount, n));
  return out;
}

bool IsGpuResource(std::string_view name) {
  return name == "nvidia.com/gpu" || name == "amd.com/gpu" || name == "gpu.intel.com/i915" ||
         name == "gpu.intel.com/xe";
}

int64_t GpuCount(const ResourceList& list) {
  int64_t total = 0;
  for (const auto& [name, amount] : list) {
    if (IsGpuResource(name)) total = SaturatingAdd(total, amount);
  }
  return total;
}

int64_t AmountOf(const ResourceList& list, std::string_view name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second;
}

Value ResourceListToValue(const ResourceList& list) {
  Value v = Value::EmptyObject();
  for (const auto& [name, amount] : list) {
    if (amount != 0) v.set(name, Value::String(FormatAmount(name, amount)));
  }
  return v;
}

Result<PodResources> EffectivePodResources(const Value& pod_spec) {
  Usage apps;
  if (const Value* containers = pod_spec.find("containers"); containers && containers->is_array()) {
    for (size_t i = 0; i < containers->items().size(); ++i) {
      Usage own;
      if (auto e = ContainerUsage(containers->items()[i], &own)) {
        return resolve::Wrap("containers[" + std::to_string(i) + "]", *e);
      }
      AddUsage(&apps, own);
    }
  }
  // Init containers run one at a time; sidecars keep running from their start, so they add to
  // every later init container and to the app containers.
  Usage sidecars, init_peak;
  if (const Value* inits = pod_spec.find("initContainers"); inits && inits->is_array()) {
    for (size_t i = 0; i < inits->items().size(); ++i) {
      const Value& container = inits->items()[i];
      Usage own;
      if (auto e = ContainerUsage(container, &own)) {
        return resolve::Wrap("initContainers[" + std::to_string(i) + "]", *e);
      }
      if (IsSidecar(container)) {
        AddUsage(&sidecars, own);
        MaxUsage(&init_peak, sidecars);
      } else {
        AddUsage(&own, sidecars);
        MaxUsage(&init_peak, own);
      }
    }
  }
  AddUsage(&apps, sidecars);
  MaxUsage(&apps, init_peak);

  Usage pod_level;
  if (auto e =
          ReadRequirements(pod_spec.find("resources"), &pod_level.requests, &pod_level.limits)) {
    return *e;
  }
  for (const auto& [name, amount] : pod_level.requests) {
    if (PodLevelResource(name)) apps.requests[name] = amount;
  }
  for (const auto& [name, amount] : pod_level.limits) {
    if (PodLevelResource(name)) apps.limits[name] = amount;
  }

  if (const Value* overhead = pod_spec.find("overhead"); overhead && overhead->is_object()) {
    ResourceList extra;
    if (auto e = ReadList(*overhead, nullptr, &extra)) return *e;
    AddTo(&apps.requests, extra);
    // Overhead is added to a limit only where the pod has one.
    for (const auto& [name, amount] : extra) {
      auto it = apps.limits.find(name);
      if (it != apps.limits.end()) it->second = SaturatingAdd(it->second, amount);
    }
  }

  PodResources out;
  out.requests = std::move(apps.requests);
  out.limits = std::move(apps.limits);
  if (const Value* claims = pod_spec.find("resourceClaims"); claims && claims->is_array()) {
    out.claims.assign(claims->items().begin(), claims->items().end());
  }
  return out;
}

namespace {

// The pod spec of each instance of component i (null where an instance has none).
Result<std::vector<Value>> InstanceSpecs(const Workload& w, size_t i, size_t count) {
  std::vector<Value> specs(count);
  auto templates = w.EffectivePodTemplates(i);
  if (!templates.ok()) return templates.error();
  for (size_t k = 0; *templates && k < (*templates)->size() && k < count; ++k) {
    const Value& t = (**templates)[k];
    if (const Value* spec = t.is_object() ? t.find("spec") : nullptr) specs[k] = *spec;
  }
  return specs;
}

}  // namespace

Result<WorkloadResourceNeeds> ComputeResourceNeeds(const Workload& workload) {
  const Definition& d = workload.definition();
  WorkloadResourceNeeds needs;
  for (size_t i = 0; i < d.components().size(); ++i) {
    const ComponentDefinition& c = d.components()[i];
    if (!c.HasPodDefinition()) continue;
    auto ids = workload.InstanceIds(i);
    if (!ids.ok()) return ids.error();
    auto scales = workload.Scales(i);
    if (!scales.ok()) return scales.error();
    auto specs = InstanceSpecs(workload, i, ids->size());
    if (!specs.ok()) return specs.error();
    auto per_replica = resolve::PodsPerReplicaOf(workload, i, ids->size());
    if (!per_replica.ok()) return per_replica.error();
    auto ancestors = resolve::AncestorUnits(workload, i, /*minimum=*/false);
    if (!ancestors.ok()) return ancestors.error();
    auto min_ancestors = resolve::AncestorUnits(workload, i, /*minimum=*/true);
    if (!min_ancestors.ok()) return min_ancestors.error();
    ComponentResourceNeeds component;
    component.component = i;
    component.name = c.name;
    for (size_t k = 0; k < ids->size(); ++k) {
      InstanceResourceNeeds instance;
      instance.id = (*ids)[k];
      std::optional<Scale> scale;
      if (*scales && k < (*scales)->size()) scale = (**scales)[k];
      if (scale) {
        if (std::optional<Error> e = resolve::NegativeCount(c, *scale)) {
          return resolve::Wrap("component " + c.name + " instance \"" + instance.id + "\"", *e);
        }
      }
      const int64_t replicas = scale && scale->replicas ? *scale->replicas : 1;
      const int64_t min_replicas = scale && scale->min_replicas ? *scale->min_replicas : replicas;
      const int64_t pods_per_replica = (*per_replica)[k];
      instance.pods = SaturatingMul(SaturatingMul(replicas, pods_per_replica), *ancestors);
      instance.min_pods =
          SaturatingMul(SaturatingMul(min_replicas, pods_per_replica), *min_ancestors);
      auto per_pod = EffectivePodResources((*specs)[k]);
      if (!per_pod.ok()) {
        return resolve::Wrap("component " + c.name + " instance \"" + instance.id + "\"",
                             per_pod.error());
      }
      instance.per_pod = std::move(*per_pod);
      instance.requests = Times(instance.per_pod.requests, instance.pods);
      instance.min_requests = Times(instance.per_pod.requests, instance.min_pods);
      component.pods = SaturatingAdd(component.pods, instance.pods);
      component.min_pods = SaturatingAdd(component.min_pods, instance.min_pods);
      AddTo(&component.requests, instance.requests);
      AddTo(&component.min_requests, instance.min_requests);
      component.instances.push_back(std::move(instance));
    }
    needs.pods = SaturatingAdd(needs.pods, component.pods);
    needs.min_pods = SaturatingAdd(needs.min_pods, component.min_pods);
    AddTo(&needs.requests, component.requests);
    AddTo(&needs.min_requests, component.min_requests);
    needs.components.push_back(std::move(component));
  }
  return needs;
}

Value ResourceNeedsToValue(const WorkloadResourceNeeds& needs) {
  Value components = Value::EmptyArray(needs.components.size());
  for (const ComponentResourceNeeds& c : needs.components) {
    Value instances = Value::EmptyArray(c.instances.size());
    for (const InstanceResourceNeeds& in : c.instances) {
      Value per_pod = Value::Object({{"requests", ResourceListToValue(in.per_pod.requests)},
                                     {"limits", ResourceListToValue(in.per_pod.limits)}});
      if (!in.per_pod.claims.empty()) per_pod.set("claims", Value::Array(in.per_pod.claims));
      instances.push_back(Value::Object({{"id", Value::String(in.id)},
                                         {"pods", Value::Int(in.pods)},
                                         {"minPods", Value::Int(in.min_pods)},
                                         {"perPod", std::move(per_pod)},
                                         {"requests", ResourceListToValue(in.requests)},
                                         {"minRequests", ResourceListToValue(in.min_requests)}}));
    }
    components.push_back(Value::Object({{"name", Value::String(c.name)},
                                        {"pods", Value::Int(c.pods)},
                                        {"minPods", Value::Int(c.min_pods)},
                                        {"requests", ResourceListToValue(c.requests)},
                                        {"minRequests", ResourceListToValue(c.min_requests)},
                                        {"instances", std::move(instances)}}));
  }
  return Value::Object({{"pods", Value::Int(needs.pods)},
                        {"minPods", Value::Int(needs.min_pods)},
                        {"requests", ResourceListToValue(needs.requests)},
                        {"minRequests", ResourceListToValue(needs.min_requests)},
                        {"components", std::move(components)}});
}

}  // namespace wmap
