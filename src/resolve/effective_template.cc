// Workload::EffectivePodTemplates: one pod template per instance from whichever pod definition
// the component has.
#include "resolve/fragment_spec.h"
#include "wmap/workload.h"

namespace wmap {
namespace {

// The fragments as a template: PodSpecFromFragments' spec, with the fields the fragments give
// for the rest of the pod.
Value TemplateFromFragments(const FragmentedPodSpec& f) {
  Value spec = resolve::PodSpecFromFragments(f);
  if (Value* containers = spec.find_mutable("containers")) {
    Value named = Value::EmptyArray(containers->items().size());
    for (const Value& c : containers->items()) {
      Value container = c.is_object() ? c : Value::EmptyObject();
      const Value* name = container.find("name");
      if (name == nullptr || !name->is_string() || name->as_string().empty()) {
        container.set("name", Value::String("main"));
      }
      if (named.items().empty() && f.image.is_string()) {
        const Value* image = container.find("image");
        if (image == nullptr || image->is_null()) container.set("image", f.image);
      }
      named.push_back(std::move(container));
    }
    if (named.items().empty()) {
      Value main = Value::Object({{"name", Value::String("main")}});
      if (f.image.is_string()) main.set("image", f.image);
      if (f.resources.is_object()) main.set("resources", f.resources);
      named.push_back(std::move(main));
    }
    *containers = std::move(named);
  }
  if (f.scheduler_name.is_string()) spec.set("schedulerName", f.scheduler_name);
  if (f.priority_class_name.is_string()) spec.set("priorityClassName", f.priority_class_name);
  if (f.node_affinity.is_object() || f.pod_affinity.is_object()) {
    Value affinity = Value::EmptyObject();
    if (f.node_affinity.is_object()) affinity.set("nodeAffinity", f.node_affinity);
    if (f.pod_affinity.is_object()) affinity.set("podAffinity", f.pod_affinity);
    spec.set("affinity", std::move(affinity));
  }
  Value out = Value::EmptyObject();
  if (f.labels.is_object() || f.annotations.is_object()) {
    Value metadata = Value::EmptyObject();
    if (f.labels.is_object()) metadata.set("labels", f.labels);
    if (f.annotations.is_object()) metadata.set("annotations", f.annotations);
    out.set("metadata", std::move(metadata));
  }
  out.set("spec", std::move(spec));
  return out;
}

}  // namespace

Result<std::optional<std::vector<Value>>> Workload::EffectivePodTemplates(size_t component) const {
  using Templates = std::optional<std::vector<Value>>;
  const ComponentDefinition& c = definition().components()[component];
  if (!c.spec) return Templates();
  if (c.spec->pod_template_spec) return PodTemplateSpecs(component);
  if (c.spec->pod_spec) {
    auto specs = PodSpecs(component);
    if (!specs.ok() || !*specs) return specs;
    auto metadata = PodMetadata(component);
    if (!metadata.ok()) return metadata.error();
    std::vector<Value> out;
    out.reserve((*specs)->size());
    for (size_t k = 0; k < (*specs)->size(); ++k) {
      const Value& spec = (**specs)[k];
      if (spec.is_null()) {
        out.emplace_back();
        continue;
      }
      Value t = Value::EmptyObject();
      if (*metadata && k < (*metadata)->size() && !(**metadata)[k].is_null()) {
        t.set("metadata", (**metadata)[k]);
      }
      t.set("spec", spec);
      out.push_back(std::move(t));
    }
    return Templates(std::move(out));
  }
  if (c.spec->fragmented) {
    auto fragments = FragmentedPodSpecs(component);
    if (!fragments.ok()) return fragments.error();
    if (!*fragments) return Templates();
    std::vector<Value> out;
    out.reserve((*fragments)->size());
    for (const FragmentedPodSpec& f : **fragments) {
      // An instance none of whose fragments is there (an optional component left out) has none.
      const bool absent = f.ToValue().size() == 0;
      out.push_back(absent ? Value() : TemplateFromFragments(f));
    }
    return Templates(std::move(out));
  }
  return Templates();
}

}  // namespace wmap
