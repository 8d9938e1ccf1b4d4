// The inspect document: every component, instance, scale and template of one workload.
#include <string>
#include <vector>

#include "wmap/view.h"

namespace wmap::view {
namespace {

Value OptionalInt(const std::optional<int32_t>& v) { return v ? Value::Int(*v) : Value(); }

// The component's JSON, or the first evaluation error.
Value InspectComponent(const Workload& w, size_t index, std::string* error) {
  const Definition& d = w.definition();
  const ComponentDefinition& c = d.components()[index];
  Value out = Value::EmptyObject();
  out.set("name", Value::String(c.name));
  if (c.kind) {
    out.set("kind", Value::Object({{"group", Value::String(c.kind->group)},
                                   {"version", Value::String(c.kind->version)},
                                   {"kind", Value::String(c.kind->kind)}}));
  } else {
    out.set("kind", Value());
  }
  int parent = d.Parent(index);
  out.set("parent", parent < 0 ? Value() : Value::String(d.components()[parent].name));

  Result<std::vector<std::string>> ids = w.InstanceIds(index);
  auto pod_templates = w.PodTemplateSpecs(index);
  auto pod_specs = w.PodSpecs(index);
  auto metadata = w.PodMetadata(index);
  auto fragments = w.FragmentedPodSpecs(index);
  auto scales = w.Scales(index);
  for (const Error* e :
       {ids.ok() ? nullptr : &ids.error(), pod_templates.ok() ? nullptr : &pod_templates.error(),
        pod_specs.ok() ? nullptr : &pod_specs.error(), metadata.ok() ? nullptr : &metadata.error(),
        fragments.ok() ? nullptr : &fragments.error(), scales.ok() ? nullptr : &scales.error()}) {
    if (e != nullptr) {
      *error = "component " + c.name + ": " + e->message;
      out.set("error", Value::String(e->message));
      return out;
    }
  }
  Value instances = Value::EmptyArray();
  for (size_t i = 0; i < ids->size(); ++i) {
    Value inst = Value::EmptyObject();
    inst.set("id", Value::String((*ids)[i]));
    if (*scales) {
      const Scale& s = (**scales)[i];
      inst.set("replicas", OptionalInt(s.replicas));
      inst.set("minReplicas", OptionalInt(s.min_replicas));
      inst.set("maxReplicas", OptionalInt(s.max_replicas));
    }
    if (*pod_templates) inst.set("podTemplateSpec", (**pod_templates)[i]);
    if (*pod_specs) inst.set("podSpec", (**pod_specs)[i]);
    if (*metadata) inst.set("metadata", (**metadata)[i]);
    if (*fragments) inst.set("fragmentedPodSpec", (**fragments)[i].ToValue());
    instances.push_back(std::move(inst));
  }
  out.set("instances", std::move(instances));
  return out;
}

}  // namespace

Value InspectDocument(const SourceObject& workload, const Definition& definition,
                      std::vector<std::string>* errors) {
  Workload w(definition, workload.value);
  Value components = Value::EmptyArray();
  for (size_t i = 0; i < definition.components().size(); ++i) {
    std::string component_error;
    components.push_back(InspectComponent(w, i, &component_error));
    if (!component_error.empty()) errors->push_back(std::move(component_error));
  }
  Value v = Document("WorkloadInspection");
  v.set("workload", WorkloadReference(workload));
  v.set("definition", Value::String(definition.name()));
  v.set("components", std::move(components));
  v.set("source", SourceLocation(workload));
  return v;
}

}  // namespace wmap::view
