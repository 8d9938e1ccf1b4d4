// The description document: the workload tree with its statuses, counts and requests, the
// gangs its definition forms, and the pods that could not be attributed.
#include <string>
#include <utility>

#include "wmap/meta.h"
#include "wmap/view.h"

namespace wmap::view {
namespace {

Value Replicas(std::optional<int32_t> desired, int32_t current, int32_t ready, bool pods_given) {
  return Value::Object({{"desired", desired ? Value::Int(*desired) : Value()},
                        {"current", pods_given ? Value::Int(current) : Value()},
                        {"ready", pods_given ? Value::Int(ready) : Value()}});
}

Value Statuses(const std::optional<std::vector<ResourceStatus>>& statuses) {
  if (!statuses) return Value();
  Value v = Value::EmptyArray();
  for (ResourceStatus s : *statuses) v.push_back(Value::String(ResourceStatusName(s)));
  return v;
}

void SetResources(const ResourceList& requests, Value* v) {
  v->set("resources", ResourceListToValue(requests));
  v->set("gpus", Value::Int(GpuCount(requests)));
}

Value PodValue(const PodNode& p) {
  Value v = Value::EmptyObject();
  v.set("name", Value::String(p.name));
  v.set("namespace", Value::String(p.namespace_name));
  v.set("phase", Value::String(p.phase));
  v.set("ready", Value::Bool(p.ready));
  v.set("node", Value::String(p.node_name));
  v.set("replicaKey", p.replica_key ? Value::String(*p.replica_key) : Value());
  SetResources(p.requests, &v);
  return v;
}

// Recursion depth is the depth of the definition's component tree, never the input's.
Value ComponentValue(const ComponentNode& c, bool pods_given) {
  Value v = Value::EmptyObject();
  v.set("name", Value::String(c.name));
  v.set("kind", c.kind ? Value::String(KindName(*c.kind)) : Value());
  v.set("statuses", Statuses(c.statuses));
  v.set("replicas", Replicas(c.desired, c.current, c.ready, pods_given));
  SetResources(c.requests, &v);
  Value instances = Value::EmptyArray();
  // A grouping component with one unnamed instance says nothing its own fields do not.
  const bool single_unnamed = c.instances.size() == 1 && c.instances[0].id.empty();
  if (c.has_pod_definition || !single_unnamed) {
    for (const InstanceNode& i : c.instances) {
      Value iv = Value::EmptyObject();
      iv.set("id", Value::String(i.id));
      iv.set("replicas", Replicas(i.desired, i.current, i.ready, pods_given));
      SetResources(i.requests, &iv);
      Value pods = Value::EmptyArray();
      for (const PodNode& p : i.pods) pods.push_back(PodValue(p));
      iv.set("pods", std::move(pods));
      instances.push_back(std::move(iv));
    }
  }
  v.set("instances", std::move(instances));
  Value children = Value::EmptyArray();
  for (const ComponentNode& child : c.children) {
    children.push_back(ComponentValue(child, pods_given));
  }
  v.set("children", std::move(children));
  return v;
}

}  // namespace

Result<WorkloadDescription> Describe(const WorkloadGroup& group) {
  const Definition& d = group.entry->definition;
  Result<WorkloadTree> tree = BuildTree(d, group.workload.value, group.children, group.pods);
  if (!tree.ok()) {
    Error e = tree.error();
    if (e.code != ErrorCode::kLimitExceeded) e.code = ErrorCode::kEvaluation;
    e.file = group.workload.file;
    e.position = group.workload.position;
    e.hint = "the definition " + d.name() + " cannot read this object";
    return e;
  }
  WorkloadDescription out;
  out.tree = std::move(*tree);
  out.pods_given = !group.pods.empty();
  out.gangs = PlanWorkloadGangs(d, group.workload.value, group.pods);
  return out;
}

Value DescribeDocument(const WorkloadGroup& group, const WorkloadDescription& description) {
  const WorkloadTree& t = description.tree;
  const Definition& d = group.entry->definition;
  const bool pods_given = description.pods_given;
  Value v = Document("WorkloadDescription");
  v.set("workload", WorkloadReference(group.workload));
  std::string_view created = meta::MetadataField(group.workload.value, "creationTimestamp");
  v.set("createdAt", created.empty() ? Value() : Value::String(created));
  v.set("definition", Value::String(d.name()));
  v.set("origin", Value::String(group.entry->origin));
  v.set("statuses", Statuses(t.root.statuses));
  v.set("replicas", Replicas(t.desired, t.current, t.ready, pods_given));
  SetResources(t.requests, &v);
  v.set("resourcesFrom",
        Value::String(t.totals_source == TotalsSource::kPods ? "pods" : "templates"));
  v.set("components", Value::Array({ComponentValue(t.root, pods_given)}));
  v.set("gang", description.gangs.form == "none" ? Value() : GangsValue(d, description.gangs));
  Value unattributed = Value::EmptyArray();
  for (const UnattributedPod& p : t.unattributed) {
    unattributed.push_back(Value::Object({{"name", Value::String(p.name)},
                                          {"namespace", Value::String(p.namespace_name)},
                                          {"reason", Value::String(p.reason)}}));
  }
  v.set("unattributed", std::move(unattributed));
  v.set("source", SourceLocation(group.workload));
  return v;
}

}  // namespace wmap::view
