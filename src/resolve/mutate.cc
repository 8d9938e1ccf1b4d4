// Pod template changes written back through a definition's paths (see wmap/mutate.h).
#include "wmap/mutate.h"

#include <algorithm>
#include <map>
#include <set>

namespace wmap {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Error Fail(ErrorCode code, std::string message, std::string hint = "") {
  return Error::Of(code, std::move(message), std::move(hint));
}

// The cause's message after `prefix`, with the code of the failure (not of the cause).
Error FailWith(ErrorCode code, std::string_view prefix, const Error& cause) {
  Error e = cause;
  e.code = code;
  e.message = std::string(prefix) + ": " + cause.message;
  return e;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

Error FieldTypeError(std::string_view field, const Value& v) {
  Error e;
  e.message = std::string(field) + " is " + std::string(TypeName(v.type())) + ", not an object";
  return e;
}

// `object` (an object, or null for an absent one) with every pair set.
Result<Value> SetMembers(const Value& object, const Pairs& pairs, std::string_view field) {
  if (!object.is_null() && !object.is_object()) return FieldTypeError(field, object);
  Value out = object.is_null() ? Value::EmptyObject() : object;
  for (const auto& [key, value] : pairs) out.set(key, Value::String(value));
  return out;
}

// Sets the image of the containers of `containers` (an array or null) the changes name.
Result<Value> SetImages(const Value& containers, const std::vector<ImageChange>& images,
                        bool named_only, std::string_view field, std::vector<bool>* matched) {
  if (containers.is_null()) return containers;
  if (!containers.is_array()) {
    Error e;
    e.message =
        std::string(field) + " is " + std::string(TypeName(containers.type())) + ", not an array";
    return e;
  }
  Value out = containers;
  std::vector<Value>& items = out.mutable_items();
  for (size_t k = 0; k < images.size(); ++k) {
    const ImageChange& change = images[k];
    if (change.container.empty() && named_only) continue;
    for (Value& c : items) {
      if (!c.is_object()) continue;
      const Value* name = c.find("name");
      bool hit = change.container.empty() ||
                 (name != nullptr && name->is_string() && name->as_string() == change.container);
      if (!hit) continue;
      c.set("image", Value::String(change.image));
      (*matched)[k] = true;
    }
  }
  return out;
}

bool HasSpecChanges(const PodChanges& c) {
  return c.scheduler_name || c.priority_class_name || !c.node_selector.empty() ||
         !c.tolerations.empty() || !c.images.empty() || c.scheduling_group;
}

bool HasMetadataChanges(const PodChanges& c) { return !c.labels.empty() || !c.annotations.empty(); }

Result<Value> MutatePodSpec(const Value& spec, const PodChanges& changes,
                            std::vector<bool>* matched) {
  if (!spec.is_null() && !spec.is_object()) return FieldTypeError("spec", spec);
  Value out = spec.is_null() ? Value::EmptyObject() : spec;
  if (changes.scheduler_name) out.set("schedulerName", Value::String(*changes.scheduler_name));
  if (changes.priority_class_name) {
    out.set("priorityClassName", Value::String(*changes.priority_class_name));
  }
  if (changes.scheduling_group) {
    const Value* current = out.find("schedulingGroup");
    if (current != nullptr && !current->is_null() && !current->is_object()) {
      return FieldTypeError("spec.schedulingGroup", *current);
    }
    Value group = current != nullptr && current->is_object() ? *current : Value::EmptyObject();
    group.set("podGroupName", Value::String(*changes.scheduling_group));
    out.set("schedulingGroup", std::move(group));
  }
  if (!changes.node_selector.empty()) {
    const Value* current = out.find("nodeSelector");
    Result<Value> selector =
        SetMembers(current ? *current : Value(), changes.node_selector, "spec.nodeSelector");
    if (!selector.ok()) return selector;
    out.set("nodeSelector", std::move(selector.value()));
  }
  if (!changes.tolerations.empty()) {
    const Value* current = out.find("tolerations");
    if (current != nullptr && !current->is_null() && !current->is_array()) {
      Error e;
      e.message =
          "spec.tolerations is " + std::string(TypeName(current->type())) + ", not an array";
      return e;
    }
    Value list = current != nullptr && current->is_array() ? *current : Value::EmptyArray();
    for (const Toleration& t : changes.tolerations) {
      Value v = t.ToValue();
      if (std::find(list.items().begin(), list.items().end(), v) == list.items().end()) {
        list.push_back(std::move(v));
      }
    }
    out.set("tolerations", std::move(list));
  }
  if (!changes.images.empty()) {
    for (std::string_view field : {"containers", "initContainers"}) {
      const Value* current = out.find(field);
      if (current == nullptr) continue;
      // The unnamed form changes the application containers only.
      Result<Value> updated = SetImages(*current, changes.images, field == "initContainers",
                                        "spec." + std::string(field), matched);
      if (!updated.ok()) return updated;
      out.set(field, std::move(updated.value()));
    }
  }
  return out;
}

Result<Value> MutateMetadata(const Value& metadata, const PodChanges& changes) {
  if (!metadata.is_null() && !metadata.is_object()) return FieldTypeError("metadata", metadata);
  Value out = metadata.is_null() ? Value::EmptyObject() : metadata;
  struct Field {
    std::string_view name;
    const Pairs* pairs;
  };
  for (const Field& f :
       {Field{"labels", &changes.labels}, Field{"annotations", &changes.annotations}}) {
    if (f.pairs->empty()) continue;
    const Value* current = out.find(f.name);
    Result<Value> updated =
        SetMembers(current ? *current : Value(), *f.pairs, "metadata." + std::string(f.name));
    if (!updated.ok()) return updated;
    out.set(f.name, std::move(updated.value()));
  }
  return out;
}

// Every container name of a pod spec (for hints).
void CollectContainerNames(const Value& containers, std::set<std::string>* names) {
  for (const Value& c : containers.items()) {
    const Value* name = c.find("name");
    if (name != nullptr && name->is_string()) names->insert(std::string(name->as_string()));
  }
}

void CollectTemplateContainerNames(const Value& pod_template, std::set<std::string>* names) {
  const Value* spec = pod_template.find("spec");
  if (spec == nullptr) return;
  for (std::string_view field : {"containers", "initContainers"}) {
    if (const Value* list = spec->find(field)) CollectContainerNames(*list, names);
  }
}

// A member created by the write: its null members (recursively) go away, and so does an object
// left empty by that. Returns false when `*v` itself should go away.
bool CleanNew(Value* v) {
  if (v->is_null()) return false;
  if (!v->is_object() || v->size() == 0) return true;
  Value out = Value::EmptyObject(v->size());
  for (const Member& m : v->members()) {
    Value child = m.value;
    if (CleanNew(&child)) out.set(m.key.as_string(), std::move(child));
  }
  if (out.size() == 0) return false;
  *v = std::move(out);
  return true;
}

// Puts back what a write through jq paths created or nulled only because an untouched instance
// was written with the value read from it: a null in `after` that is not null in `before` takes
// `before`'s value, or goes away when `before` had no such member. Nothing this file writes on
// purpose is null, so every such null is an artefact.
Value RestoreNulls(const Value& before, const Value& after) {
  if (before.identical(after)) return after;
  if (after.is_object() && before.is_object()) {
    Value out = Value::EmptyObject(after.size());
    for (const Member& m : after.members()) {
      std::string_view key = m.key.as_string();
      const Value* b = before.find(key);
      if (b == nullptr) {
        Value v = m.value;
        if (CleanNew(&v)) out.set(key, std::move(v));
      } else if (m.value.is_null()) {
        out.set(key, *b);
      } else {
        out.set(key, RestoreNulls(*b, m.value));
      }
    }
    return out;
  }
  if (after.is_array() && before.is_array() && after.size() == before.size()) {
    Value out = Value::EmptyArray(after.size());
    for (size_t i = 0; i < after.size(); ++i) {
      out.push_back(after[i].is_null() ? before[i] : RestoreNulls(before[i], after[i]));
    }
    return out;
  }
  return after;
}

// Fills *out with the components the scope names, checking that they exist and have a pod
// definition.
std::optional<MutateError> ScopeComponents(const Definition& d, const MutateScope& scope,
                                           std::vector<size_t>* out) {
  std::vector<std::string> with_pods, all;
  for (const ComponentDefinition& c : d.components()) {
    all.push_back(c.name);
    if (c.HasPodDefinition()) with_pods.push_back(c.name);
  }
  if (scope.component) {
    int index = d.FindComponent(*scope.component);
    if (index < 0) {
      return Fail(ErrorCode::kNotFound,
                  "component \"" + *scope.component + "\" not found in definition " + d.name(),
                  "components of " + d.name() + ": " + Join(all) +
                      "; with pod templates: " + Join(with_pods));
    }
    if (!d.components()[index].HasPodDefinition()) {
      return Fail(ErrorCode::kNotWritable,
                  "component \"" + *scope.component + "\" of definition " + d.name() +
                      " has no pod template (no specDefinition)",
                  "pass --component with one of the components that have pod templates: " +
                      Join(with_pods));
    }
    out->push_back(static_cast<size_t>(index));
    return std::nullopt;
  }
  for (size_t i = 0; i < d.components().size(); ++i) {
    if (d.components()[i].HasPodDefinition()) out->push_back(i);
  }
  if (out->empty()) {
    return Fail(ErrorCode::kNotWritable,
                "definition " + d.name() +
                    " describes no pod template (no component has a "
                    "specDefinition)",
                "add a specDefinition (podTemplateSpecPath, podSpecPath or "
                "fragmentedPodSpecDefinition) to the definition");
  }
  return std::nullopt;
}

// Shared state of one MutateWorkload call.
struct Run {
  const Definition& definition;
  const PodChanges& changes;
  Value object;
  std::vector<bool> image_matched;
  std::set<std::string> container_names;
  std::set<std::string> instances_seen;
  bool instance_found = false;
};

std::string ComponentLabel(const ComponentDefinition& c, const std::string& id) {
  return id.empty() ? "component " + c.name : "component " + c.name + " instance " + id;
}

MutateError WriteFailure(const ComponentDefinition& c, const Error& cause) {
  MutateError f = FailWith(ErrorCode::kNotWritable, "component " + c.name, cause);
  if (f.hint.empty()) {
    f.hint = "the definition's path for component " + c.name +
             " cannot be written; change the object by hand or fix the definition";
  }
  return f;
}

// Which instances of a component the object has. A whole pod template or pod spec that reads
// null is one the object leaves out (an optional component such as KServe's explainer, or a
// RayJob's cluster when it selects an existing one): writing it would create a template that
// holds nothing but the change. Every instance of fragments is present: a definition states an
// optional fragmented component by giving it no instance (an instanceIdPath that yields
// nothing), as it does for whole templates with `// empty`.
Result<std::vector<bool>> PresentInstances(const Workload& w, size_t component, size_t count) {
  const ComponentDefinition& c = w.definition().components()[component];
  Result<std::optional<std::vector<Value>>> read = std::optional<std::vector<Value>>();
  if (c.spec->pod_template_spec) {
    read = w.PodTemplateSpecs(component);
  } else if (c.spec->pod_spec) {
    read = w.PodSpecs(component);
  }
  if (!read.ok()) return FailWith(ErrorCode::kEvaluation, "component " + c.name, read.error());
  std::vector<bool> present(count, true);
  if (*read) {
    for (size_t i = 0; i < count && i < (*read)->size(); ++i) present[i] = !(**read)[i].is_null();
  }
  return present;
}

// Whole pod templates (podTemplateSpecPath).
std::optional<MutateError> MutateTemplates(Run& run, size_t component,
                                           const std::vector<std::string>& ids,
                                           const std::vector<bool>& selected) {
  const ComponentDefinition& c = run.definition.components()[component];
  Workload w(run.definition, run.object);
  auto templates = w.PodTemplateSpecs(component);
  if (!templates.ok())
    return FailWith(ErrorCode::kEvaluation, "component " + c.name, templates.error());
  Workload::InstanceValues values;
  bool changed = false;
  for (size_t i = 0; i < ids.size(); ++i) {
    const Value& before = (**templates)[i];
    if (!selected[i]) {
      values[ids[i]] = before;
      continue;
    }
    CollectTemplateContainerNames(before, &run.container_names);
    Result<Value> after = MutatePodTemplate(before, run.changes, &run.image_matched);
    if (!after.ok()) {
      return FailWith(ErrorCode::kEvaluation, ComponentLabel(c, ids[i]) + ": pod template",
                      after.error());
    }
    changed = changed || *after != before;
    values[ids[i]] = std::move(after.value());
  }
  if (!changed) return std::nullopt;
  Result<Value> updated = w.UpdatePodTemplateSpecs(component, values);
  if (!updated.ok()) return WriteFailure(c, updated.error());
  run.object = std::move(updated.value());
  return std::nullopt;
}

// A pod spec with its metadata (podSpecPath + metadataPath).
std::optional<MutateError> MutateSpecs(Run& run, size_t component,
                                       const std::vector<std::string>& ids,
                                       const std::vector<bool>& selected) {
  const ComponentDefinition& c = run.definition.components()[component];
  if (HasMetadataChanges(run.changes) && !c.spec->metadata) {
    return Fail(ErrorCode::kNotWritable,
                "component " + c.name + " of definition " + run.definition.name() +
                    " has a podSpecPath but no metadataPath: labels and annotations cannot be set",
                "add metadataPath to the component's specDefinition, or leave out --label and "
                "--annotation");
  }
  Workload w(run.definition, run.object);
  auto specs = w.PodSpecs(component);
  if (!specs.ok()) return FailWith(ErrorCode::kEvaluation, "component " + c.name, specs.error());
  std::optional<std::vector<Value>> metadata;
  if (c.spec->metadata) {
    auto read = w.PodMetadata(component);
    if (!read.ok()) return FailWith(ErrorCode::kEvaluation, "component " + c.name, read.error());
    metadata = std::move(read.value());
  }
  Workload::InstanceValues spec_values, metadata_values;
  bool spec_changed = false, metadata_changed = false;
  for (size_t i = 0; i < ids.size(); ++i) {
    Value spec = (**specs)[i];
    Value meta = metadata ? (*metadata)[i] : Value();
    if (selected[i]) {
      Value pod_template = Value::Object({{"metadata", meta}, {"spec", spec}});
      CollectTemplateContainerNames(pod_template, &run.container_names);
      Result<Value> after = MutatePodTemplate(pod_template, run.changes, &run.image_matched);
      if (!after.ok()) {
        return FailWith(ErrorCode::kEvaluation, ComponentLabel(c, ids[i]) + ": pod spec",
                        after.error());
      }
      const Value* new_spec = after->find("spec");
      const Value* new_meta = after->find("metadata");
      spec_changed = spec_changed || *new_spec != spec;
      metadata_changed = metadata_changed || *new_meta != meta;
      spec = *new_spec;
      meta = *new_meta;
    }
    spec_values[ids[i]] = std::move(spec);
    metadata_values[ids[i]] = std::move(meta);
  }
  if (spec_changed) {
    Result<Value> updated = w.UpdatePodSpecs(component, spec_values);
    if (!updated.ok()) return WriteFailure(c, updated.error());
    run.object = std::move(updated.value());
  }
  if (metadata_changed) {
    Workload again(run.definition, run.object);
    Result<Value> updated = again.UpdatePodMetadata(component, metadata_values);
    if (!updated.ok()) return WriteFailure(c, updated.error());
    run.object = std::move(updated.value());
  }
  return std::nullopt;
}

// The fragments of a fragmentedPodSpecDefinition.
std::optional<MutateError> MutateFragments(Run& run, size_t component,
                                           const std::vector<std::string>& ids,
                                           const std::vector<bool>& selected) {
  const ComponentDefinition& c = run.definition.components()[component];
  const FragmentedPodSpecDefinition& d = *c.spec->fragmented;
  const PodChanges& ch = run.changes;
  auto missing = [&](std::string_view what, std::string_view flag) {
    return Fail(ErrorCode::kNotWritable,
                "component " + c.name + " of definition " + run.definition.name() +
                    " keeps its pod spec in fragments (fragmentedPodSpecDefinition) with no " +
                    std::string(what),
                "leave out " + std::string(flag) +
                    ", change the other components one by one with --component, or add the "
                    "path to the definition");
  };
  if (!ch.node_selector.empty()) return missing("node selector path", "--node-selector");
  if (!ch.tolerations.empty()) return missing("tolerations path", "--toleration");
  if (ch.scheduling_group) return missing("path for spec.schedulingGroup", "--scheduling-group");
  if (ch.scheduler_name && !d.scheduler_name)
    return missing("schedulerNamePath", "--scheduler-name");
  if (ch.priority_class_name && !d.priority_class_name) {
    return missing("priorityClassNamePath", "--priority-class");
  }
  if (!ch.labels.empty() && !d.labels) return missing("labelsPath", "--label");
  if (!ch.annotations.empty() && !d.annotations) return missing("annotationsPath", "--annotation");
  if (!ch.images.empty() && !d.image && !d.container && !d.containers) {
    return missing("imagePath, containerPath or containersPath", "--image");
  }
  Workload w(run.definition, run.object);
  auto fragments = w.FragmentedPodSpecs(component);
  if (!fragments.ok())
    return FailWith(ErrorCode::kEvaluation, "component " + c.name, fragments.error());
  // Only the fields that change are given; the others stay null and are not written.
  bool set_scheduler = ch.scheduler_name.has_value(),
       set_priority = ch.priority_class_name.has_value();
  bool set_labels = !ch.labels.empty(), set_annotations = !ch.annotations.empty();
  bool set_image = false, set_container = false, set_containers = false;
  std::vector<FragmentedPodSpec> next(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    const FragmentedPodSpec& before = (**fragments)[i];
    FragmentedPodSpec& after = next[i];
    after.scheduler_name = before.scheduler_name;
    after.priority_class_name = before.priority_class_name;
    after.labels = before.labels;
    after.annotations = before.annotations;
    after.image = before.image;
    after.container = before.container;
    after.containers = before.containers;
    if (!selected[i]) continue;
    std::string label = ComponentLabel(c, ids[i]);
    if (ch.scheduler_name) after.scheduler_name = Value::String(*ch.scheduler_name);
    if (ch.priority_class_name) after.priority_class_name = Value::String(*ch.priority_class_name);
    if (set_labels) {
      Result<Value> v = SetMembers(before.labels, ch.labels, "labels");
      if (!v.ok()) return FailWith(ErrorCode::kEvaluation, label, v.error());
      after.labels = std::move(v.value());
    }
    if (set_annotations) {
      Result<Value> v = SetMembers(before.annotations, ch.annotations, "annotations");
      if (!v.ok()) return FailWith(ErrorCode::kEvaluation, label, v.error());
      after.annotations = std::move(v.value());
    }
    if (ch.images.empty()) continue;
    if (d.containers && !before.containers.is_null()) {
      CollectContainerNames(before.containers, &run.container_names);
      Result<Value> v =
          SetImages(before.containers, ch.images, false, "containers", &run.image_matched);
      if (!v.ok()) return FailWith(ErrorCode::kEvaluation, label, v.error());
      set_containers = set_containers || *v != before.containers;
      after.containers = std::move(v.value());
    }
    std::vector<bool> main_matched(ch.images.size(), false);
    if (d.container && before.container.is_object()) {
      Value list = Value::Array({before.container});
      CollectContainerNames(list, &run.container_names);
      Result<Value> v = SetImages(list, ch.images, false, "container", &main_matched);
      if (!v.ok()) return FailWith(ErrorCode::kEvaluation, label, v.error());
      set_container = set_container || (*v)[0] != before.container;
      after.container = (*v)[0];
    }
    if (d.image) {
      // imagePath is the main container's image: the unnamed form, or a name that matched the
      // main container, sets it.
      for (size_t k = 0; k < ch.images.size(); ++k) {
        if (!ch.images[k].container.empty() && !main_matched[k]) continue;
        after.image = Value::String(ch.images[k].image);
        main_matched[k] = true;
        set_image = true;
      }
    }
    for (size_t k = 0; k < ch.images.size(); ++k) {
      if (main_matched[k]) run.image_matched[k] = true;
    }
  }
  std::map<std::string, FragmentedPodSpec> values;
  for (size_t i = 0; i < ids.size(); ++i) {
    FragmentedPodSpec v;
    if (set_scheduler) v.scheduler_name = next[i].scheduler_name;
    if (set_priority) v.priority_class_name = next[i].priority_class_name;
    if (set_labels) v.labels = next[i].labels;
    if (set_annotations) v.annotations = next[i].annotations;
    if (set_image) v.image = next[i].image;
    if (set_container) v.container = next[i].container;
    if (set_containers) v.containers = next[i].containers;
    values[ids[i]] = std::move(v);
  }
  if (!set_scheduler && !set_priority && !set_labels && !set_annotations && !set_image &&
      !set_container && !set_containers) {
    return std::nullopt;
  }
  Result<Value> updated = w.UpdateFragmentedPodSpecs(component, values);
  if (!updated.ok()) return WriteFailure(c, updated.error());
  run.object = std::move(updated.value());
  return std::nullopt;
}

}  // namespace

Value Toleration::ToValue() const {
  Value v = Value::EmptyObject();
  v.set("key", Value::String(key));
  v.set("operator", Value::String(op));
  if (op == "Equal") v.set("value", Value::String(value));
  if (!effect.empty()) v.set("effect", Value::String(effect));
  return v;
}

Result<Toleration> ParseToleration(std::string_view text) {
  Toleration t;
  std::string_view rest = text;
  size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos) {
    t.effect = std::string(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
    if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute") {
      Error e;
      e.message = "toleration \"" + std::string(text) + "\": unknown effect \"" + t.effect + "\"";
      e.hint = "the effect is NoSchedule, PreferNoSchedule or NoExecute";
      return e;
    }
  }
  size_t eq = rest.find('=');
  if (eq == std::string_view::npos) {
    t.key = std::string(rest);
    t.op = "Exists";
  } else {
    t.key = std::string(rest.substr(0, eq));
    t.value = std::string(rest.substr(eq + 1));
    t.op = "Equal";
  }
  if (t.key.empty()) {
    Error e;
    e.message = "toleration \"" + std::string(text) + "\": the key is empty";
    e.hint = "write key=value:effect (operator Equal) or key:effect (operator Exists)";
    return e;
  }
  return t;
}

Result<ImageChange> ParseImageChange(std::string_view text) {
  ImageChange change;
  size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    change.image = std::string(text);
  } else {
    change.container = std::string(text.substr(0, eq));
    change.image = std::string(text.substr(eq + 1));
  }
  if (change.image.empty() || (eq != std::string_view::npos && change.container.empty())) {
    Error e;
    e.message = "image \"" + std::string(text) + "\": expected NAME=IMAGE or IMAGE";
    e.hint =
        "--image trainer=registry/app:1.2 changes the container trainer; --image "
        "registry/app:1.2 changes every container";
    return e;
  }
  return change;
}

Result<std::pair<std::string, std::string>> ParseKeyValue(std::string_view text,
                                                          std::string_view what) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    Error e;
    e.message = std::string(what) + " \"" + std::string(text) + "\": expected KEY=VALUE";
    e.hint = "for example --" + std::string(what) + " team=research";
    return e;
  }
  return std::make_pair(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
}

bool PodChanges::empty() const { return !HasSpecChanges(*this) && !HasMetadataChanges(*this); }

Result<Value> MutatePodTemplate(const Value& pod_template, const PodChanges& changes,
                                std::vector<bool>* image_matched) {
  if (image_matched->size() < changes.images.size()) image_matched->resize(changes.images.size());
  if (!pod_template.is_null() && !pod_template.is_object()) {
    return FieldTypeError("the pod template", pod_template);
  }
  Value out = pod_template.is_null() ? Value::EmptyObject() : pod_template;
  if (HasMetadataChanges(changes)) {
    const Value* metadata = out.find("metadata");
    Result<Value> updated = MutateMetadata(metadata ? *metadata : Value(), changes);
    if (!updated.ok()) return updated;
    out.set("metadata", std::move(updated.value()));
  }
  if (HasSpecChanges(changes)) {
    const Value* spec = out.find("spec");
    Result<Value> updated = MutatePodSpec(spec ? *spec : Value(), changes, image_matched);
    if (!updated.ok()) return updated;
    out.set("spec", std::move(updated.value()));
  }
  return out;
}

MutateResult MutateWorkload(const Workload& workload, const MutateScope& scope,
                            const PodChanges& changes) {
  const Definition& d = workload.definition();
  std::vector<size_t> components;
  if (std::optional<MutateError> failure = ScopeComponents(d, scope, &components)) {
    return *failure;
  }
  Run run{d,  changes, workload.object(), std::vector<bool>(changes.images.size(), false), {},
          {}, false};
  for (size_t component : components) {
    const ComponentDefinition& c = d.components()[component];
    Workload current(d, run.object);
    Result<std::vector<std::string>> ids = current.InstanceIds(component);
    if (!ids.ok()) return FailWith(ErrorCode::kEvaluation, "component " + c.name, ids.error());
    Result<std::vector<bool>> present = PresentInstances(current, component, ids->size());
    if (!present.ok()) return present.error();
    // Only instances the object has are changed; an absent one is skipped, never created.
    std::vector<bool> selected = *present;
    bool any = false;
    for (size_t i = 0; i < ids->size(); ++i) {
      if (!(*present)[i]) continue;
      if (!(*ids)[i].empty()) run.instances_seen.insert(c.name + "/" + (*ids)[i]);
      if (scope.instance) selected[i] = (*ids)[i] == *scope.instance;
      any = any || selected[i];
    }
    if (!any) continue;
    run.instance_found = true;
    std::optional<MutateError> error;
    if (c.spec->pod_template_spec) {
      error = MutateTemplates(run, component, *ids, selected);
    } else if (c.spec->pod_spec) {
      error = MutateSpecs(run, component, *ids, selected);
    } else {
      error = MutateFragments(run, component, *ids, selected);
    }
    if (error) return *error;
  }
  if (scope.component && !scope.instance && !run.instance_found) {
    return Fail(ErrorCode::kNotFound,
                "component " + *scope.component + " of definition " + d.name() +
                    " is not in the object: it has no pod template there",
                "the component is optional and the object leaves it out; leave out --component "
                "to change every component the object has");
  }
  if (scope.instance && !run.instance_found) {
    std::vector<std::string> seen(run.instances_seen.begin(), run.instances_seen.end());
    return Fail(ErrorCode::kNotFound,
                "instance \"" + *scope.instance + "\" not found" +
                    (scope.component ? " in component " + *scope.component : std::string()),
                "instances (component/instance): " + Join(seen));
  }
  for (size_t k = 0; k < changes.images.size(); ++k) {
    if (run.image_matched[k]) continue;
    std::vector<std::string> names(run.container_names.begin(), run.container_names.end());
    if (changes.images[k].container.empty()) {
      return Fail(ErrorCode::kNotFound,
                  "no container to set image " + changes.images[k].image + " on",
                  "the selected pod templates have no containers");
    }
    return Fail(
        ErrorCode::kNotFound,
        "container \"" + changes.images[k].container + "\" not found in the selected pod templates",
        "containers: " + Join(names));
  }
  return RestoreNulls(workload.object(), run.object);
}

}  // namespace wmap
