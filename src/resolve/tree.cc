// The workload tree: components, instances and attributed pods with counts and totals.
#include "wmap/tree.h"

#include <algorithm>
#include <set>
#include <variant>

#include "resolve/attribution.h"
#include "resolve/extract.h"
#include "resolve/fragment_spec.h"
#include "resolve/scale_units.h"
#include "wmap/jq.h"
#include "wmap/meta.h"

namespace wmap {

using resolve::Wrap;

namespace {

// The pod spec of each instance of a component with a pod definition (null when the instance
// has none); nullopt when the component has no pod definition.
Result<std::optional<std::vector<Value>>> InstancePodSpecs(const Workload& w, size_t component) {
  const ComponentDefinition& c = w.definition().components()[component];
  if (!c.spec) return std::optional<std::vector<Value>>();
  if (c.spec->pod_template_spec) {
    Result<std::optional<std::vector<Value>>> templates = w.PodTemplateSpecs(component);
    if (!templates.ok() || !*templates) return templates;
    std::vector<Value> specs;
    for (const Value& t : **templates) {
      const Value* spec = t.find("spec");
      specs.push_back(spec ? *spec : Value());
    }
    return std::optional<std::vector<Value>>(std::move(specs));
  }
  if (c.spec->pod_spec) return w.PodSpecs(component);
  if (c.spec->fragmented) {
    Result<std::optional<std::vector<FragmentedPodSpec>>> fragments =
        w.FragmentedPodSpecs(component);
    if (!fragments.ok()) return fragments.error();
    if (!*fragments) return std::optional<std::vector<Value>>();
    std::vector<Value> specs;
    for (const FragmentedPodSpec& f : **fragments) {
      specs.push_back(resolve::PodSpecFromFragments(f));
    }
    return std::optional<std::vector<Value>>(std::move(specs));
  }
  return std::optional<std::vector<Value>>();
}

std::string StringAt(const Value& object, std::string_view a, std::string_view b) {
  const Value* outer = object.find(a);
  const Value* v = outer ? outer->find(b) : nullptr;
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// Moves component `i` out of `flat`, nests its children and fills the subtree figures.
ComponentNode Assemble(const Definition& d, std::vector<ComponentNode>& flat, size_t i) {
  ComponentNode node = std::move(flat[i]);
  for (const InstanceNode& instance : node.instances) {
    if (node.has_pod_definition) node.desired += instance.desired.value_or(1);
    node.current += instance.current;
    node.ready += instance.ready;
    AddTo(&node.requests, instance.requests);
  }
  for (size_t child : d.Children(i)) {
    ComponentNode c = Assemble(d, flat, child);
    node.desired += c.desired;
    node.current += c.current;
    node.ready += c.ready;
    AddTo(&node.requests, c.requests);
    node.children.push_back(std::move(c));
  }
  return node;
}

UnattributedPod Unattributed(const Value& pod, std::string reason) {
  return {resolve::MetadataString(pod, "name"), resolve::MetadataString(pod, "namespace"),
          resolve::MetadataString(pod, "uid"), std::move(reason)};
}

}  // namespace

Result<WorkloadTree> BuildTree(const Definition& definition, const Value& object,
                               std::span<const Value> children, std::span<const Value> pods,
                               const EvalOptions& options) {
  Workload w(definition, object, options);
  PodQuerier querier(definition, options);
  const bool from_pods = !pods.empty();
  std::vector<ComponentNode> flat(definition.components().size());
  for (size_t i = 0; i < flat.size(); ++i) {
    const ComponentDefinition& c = definition.components()[i];
    ComponentNode& node = flat[i];
    node.component = i;
    node.name = c.name;
    node.kind = c.kind;
    node.has_pod_definition = c.HasPodDefinition();
    Result<std::vector<std::string>> ids = w.InstanceIds(i);
    if (!ids.ok()) return Wrap("component " + c.name, ids.error());
    Result<std::optional<std::vector<Scale>>> scales = w.Scales(i);
    if (!scales.ok()) return Wrap("component " + c.name, scales.error());
    // Scales() and the pod spec getters zip with the instance ids: same length as `ids`.
    std::optional<std::vector<Value>> specs;
    if (!from_pods) {
      Result<std::optional<std::vector<Value>>> s = InstancePodSpecs(w, i);
      if (!s.ok()) return Wrap("component " + c.name, s.error());
      specs = std::move(*s);
    }
    Result<std::vector<int64_t>> per_replica = resolve::PodsPerReplicaOf(w, i, ids->size());
    if (!per_replica.ok()) return Wrap("component " + c.name, per_replica.error());
    Result<int64_t> ancestors = resolve::AncestorUnits(w, i, /*minimum=*/false);
    if (!ancestors.ok()) return Wrap("component " + c.name, ancestors.error());
    for (size_t k = 0; k < ids->size(); ++k) {
      InstanceNode instance;
      instance.id = (*ids)[k];
      // Pods: replicas × pods per replica × the units of scaled ancestors.
      if (*scales) {
        if (std::optional<Error> e = resolve::NegativeCount(c, (**scales)[k])) {
          return Wrap("component " + c.name + " instance \"" + instance.id + "\"", *e);
        }
      }
      std::optional<int32_t> replicas = *scales ? (**scales)[k].replicas : std::nullopt;
      if (replicas || (*per_replica)[k] != 1 || *ancestors != 1) {
        int64_t pods = 0;
        if (__builtin_mul_overflow(int64_t{replicas.value_or(1)}, (*per_replica)[k], &pods) ||
            __builtin_mul_overflow(pods, *ancestors, &pods) || pods > INT32_MAX) {
          pods = INT32_MAX;
        }
        instance.desired = static_cast<int32_t>(pods);
      }
      if (specs && k < specs->size()) {
        Result<PodResources> per_pod = EffectivePodResources((*specs)[k]);
        if (!per_pod.ok()) {
          return Wrap("component " + c.name + " instance \"" + instance.id + "\"", per_pod.error());
        }
        instance.requests = Times(per_pod->requests, instance.desired.value_or(1));
      }
      node.instances.push_back(std::move(instance));
    }
    if (c.status) {
      Result<std::optional<WorkloadStatus>> status = w.Status(i);
      if (!status.ok()) return Wrap("component " + c.name, status.error());
      if (*status) node.statuses = (*status)->matched;
    }
  }

  WorkloadTree tree;
  tree.kind = definition.root_kind();
  tree.name = resolve::MetadataString(object, "name");
  tree.namespace_name = resolve::MetadataString(object, "namespace");
  tree.uid = resolve::MetadataString(object, "uid");
  tree.totals_source = from_pods ? TotalsSource::kPods : TotalsSource::kTemplates;

  resolve::OwnershipIndex ownership(definition, object, children, pods);
  std::set<std::string, std::less<>> seen;  // UIDs of the pods already placed
  for (const Value& pod : pods) {
    std::string uid = resolve::MetadataString(pod, "uid");
    if (!uid.empty() && !seen.insert(uid).second) {
      tree.unattributed.push_back(Unattributed(pod, "the pod is listed more than once"));
      continue;
    }
    if (std::optional<std::string> reason = ownership.Unreached(pod)) {
      tree.unattributed.push_back(Unattributed(pod, std::move(*reason)));
      continue;
    }
    std::variant<resolve::PodPlace, std::string> place =
        resolve::PlacePod(definition, querier, pod);
    if (auto* reason = std::get_if<std::string>(&place)) {
      tree.unattributed.push_back(Unattributed(pod, std::move(*reason)));
      continue;
    }
    resolve::PodPlace& p = std::get<resolve::PodPlace>(place);
    ComponentNode& node = flat[p.component];
    auto instance = std::find_if(node.instances.begin(), node.instances.end(),
                                 [&](const InstanceNode& n) { return n.id == p.instance_id; });
    if (instance == node.instances.end()) {
      // Upstream's text, then which component.
      std::string ids;
      for (const InstanceNode& n : node.instances) ids += (ids.empty() ? "" : " ") + n.id;
      tree.unattributed.push_back(Unattributed(
          pod, "could not match instance id " + jq::GoQuote(p.instance_id) +
                   ". existing instance ids [" + ids + "] (component " + node.name + ")"));
      continue;
    }
    const Value* spec = pod.find("spec");
    Result<PodResources> requests = EffectivePodResources(spec ? *spec : Value());
    if (!requests.ok()) {
      tree.unattributed.push_back(Unattributed(pod, requests.error().message));
      continue;
    }
    PodNode pod_node;
    pod_node.name = resolve::MetadataString(pod, "name");
    pod_node.namespace_name = resolve::MetadataString(pod, "namespace");
    pod_node.uid = resolve::MetadataString(pod, "uid");
    pod_node.node_name = StringAt(pod, "spec", "nodeName");
    pod_node.phase = StringAt(pod, "status", "phase");
    pod_node.ready = meta::IsPodReady(pod);
    pod_node.replica_key = std::move(p.replica_key);
    pod_node.requests = std::move(requests->requests);
    instance->current += 1;
    instance->ready += pod_node.ready ? 1 : 0;
    // A terminated pod holds no resources on its node any more (the scheduler skips it too).
    if (pod_node.phase != "Succeeded" && pod_node.phase != "Failed") {
      AddTo(&instance->requests, pod_node.requests);
    }
    instance->pods.push_back(std::move(pod_node));
  }

  for (ComponentNode& node : flat) {
    std::stable_sort(node.instances.begin(), node.instances.end(),
                     [](const InstanceNode& a, const InstanceNode& b) { return a.id < b.id; });
    for (InstanceNode& instance : node.instances) {
      std::stable_sort(instance.pods.begin(), instance.pods.end(),
                       [](const PodNode& a, const PodNode& b) { return a.name < b.name; });
    }
  }
  tree.root = Assemble(definition, flat, 0);
  tree.desired = tree.root.desired;
  tree.current = tree.root.current;
  tree.ready = tree.root.ready;
  tree.requests = tree.root.requests;
  return tree;
}

}  // namespace wmap
