// WorkloadTree -> Value, for JSON/YAML output and golden files.
#include <string>

#include "wmap/tree.h"

namespace wmap {
namespace {

Value Str(std::string_view s) { return Value::String(s); }

Value PodToValue(const PodNode& pod) {
  Value v = Value::EmptyObject();
  v.set("name", Str(pod.name));
  v.set("namespace", Str(pod.namespace_name));
  v.set("uid", Str(pod.uid));
  v.set("node", Str(pod.node_name));
  v.set("phase", Str(pod.phase));
  v.set("ready", Value::Bool(pod.ready));
  if (pod.replica_key) v.set("replicaKey", Str(*pod.replica_key));
  v.set("requests", ResourceListToValue(pod.requests));
  return v;
}

Value InstanceToValue(const InstanceNode& instance) {
  Value v = Value::EmptyObject();
  v.set("id", Str(instance.id));
  if (instance.desired) v.set("desired", Value::Int(*instance.desired));
  v.set("current", Value::Int(instance.current));
  v.set("ready", Value::Int(instance.ready));
  v.set("requests", ResourceListToValue(instance.requests));
  Value pods = Value::EmptyArray(instance.pods.size());
  for (const PodNode& pod : instance.pods) pods.push_back(PodToValue(pod));
  v.set("pods", std::move(pods));
  return v;
}

// Recursion depth is the depth of the definition's component tree, never the input's.
Value ComponentToValue(const ComponentNode& node) {
  Value v = Value::EmptyObject();
  v.set("name", Str(node.name));
  if (node.kind) v.set("kind", Str(node.kind->ToString()));
  v.set("hasPodDefinition", Value::Bool(node.has_pod_definition));
  if (node.statuses) {
    Value statuses = Value::EmptyArray(node.statuses->size());
    for (ResourceStatus s : *node.statuses) statuses.push_back(Str(ResourceStatusName(s)));
    v.set("statuses", std::move(statuses));
  }
  v.set("desired", Value::Int(node.desired));
  v.set("current", Value::Int(node.current));
  v.set("ready", Value::Int(node.ready));
  v.set("requests", ResourceListToValue(node.requests));
  Value instances = Value::EmptyArray(node.instances.size());
  for (const InstanceNode& instance : node.instances) {
    instances.push_back(InstanceToValue(instance));
  }
  v.set("instances", std::move(instances));
  Value children = Value::EmptyArray(node.children.size());
  for (const ComponentNode& child : node.children) children.push_back(ComponentToValue(child));
  v.set("children", std::move(children));
  return v;
}

}  // namespace

Value TreeToValue(const WorkloadTree& tree) {
  Value v = Value::EmptyObject();
  v.set("kind", Str(tree.kind.ToString()));
  v.set("name", Str(tree.name));
  v.set("namespace", Str(tree.namespace_name));
  v.set("uid", Str(tree.uid));
  v.set("totalsSource", Str(tree.totals_source == TotalsSource::kPods ? "pods" : "templates"));
  v.set("desired", Value::Int(tree.desired));
  v.set("current", Value::Int(tree.current));
  v.set("ready", Value::Int(tree.ready));
  v.set("requests", ResourceListToValue(tree.requests));
  v.set("root", ComponentToValue(tree.root));
  Value unattributed = Value::EmptyArray(tree.unattributed.size());
  for (const UnattributedPod& pod : tree.unattributed) {
    unattributed.push_back(Value::Object({{"name", Str(pod.name)},
                                          {"namespace", Str(pod.namespace_name)},
                                          {"uid", Str(pod.uid)},
                                          {"reason", Str(pod.reason)}}));
  }
  v.set("unattributed", std::move(unattributed));
  return v;
}

}  // namespace wmap
