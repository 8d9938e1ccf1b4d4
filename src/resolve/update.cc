// Updates through definition paths: Assign, AssignZip, unzipping per-instance values, fragment
// fields and suspend/resume actions (upstream's accessor semantics and messages).
#include <functional>

#include "resolve/extract.h"
#include "wmap/workload.h"

namespace wmap {

using resolve::MakeError;
using resolve::Wrap;

namespace {

// Runs `update` (compiled with the variable $val) on `object`; the first result is the
// updated object.
Result<Value> RunUpdate(const std::string& update, const Value& object, const Value& val,
                        const EvalOptions& options) {
  jq::CompileOptions compile;
  compile.variables = {"val"};
  Result<jq::Program> program = jq::Program::Compile(update, compile);
  if (!program.ok()) {
    return MakeError("failed to compile JQ expression '" + update + "': " + program.error().message,
                     program.error().code);
  }
  jq::RunContext context;
  context.budget.deadline = options.EvaluationDeadline();
  context.budget.max_memory_bytes = options.max_memory_bytes;
  std::optional<Value> first;
  std::optional<jq::RunError> error = program->Run(object, {val}, context, [&](const Value& v) {
    first = v;
    return false;
  });
  if (error) {
    if (error->user && error->value.is_string()) {
      // The definition refuses the update in its own words (`error("...")` in a path): a valid
      // request this workload cannot serve, told as the definition tells it.
      Error e = MakeError(std::string(error->value.as_string()), ErrorCode::kUnsupported);
      e.detail = "JQ execution error for expression '" + update + "': " + error->message;
      return e;
    }
    return MakeError("JQ execution error for expression '" + update + "': " + error->message,
                     error->code);
  }
  if (!first) return MakeError("update query returned no results for expression: " + update);
  return *first;
}

// A runtime "invalid path" failure means the definition's path cannot be written (arithmetic,
// `// literal` with the left side absent, values instead of paths). The message names the
// definition field; the expression as run and the evaluator's message go to Error::detail.
Result<Value> Writable(const Expression& path, Result<Value> result) {
  if (result.ok() || result.error().code != ErrorCode::kInvalidPath) {
    return result;
  }
  Error e = MakeError("cannot update through " + path.field +
                          ": the expression yields values, not a jq path that can be written",
                      ErrorCode::kInvalidPath);
  e.field = path.field;
  e.detail = "expression '" + path.text + "': " + result.error().message;
  e.hint =
      "only jq paths can be written: .a.b, .a[], .a[0], select(...), getpath(p), and .a // .b "
      "when .a exists";
  return e;
}

Result<Value> Assign(const Expression& path, const Value& object, const Value& value,
                     const EvalOptions& options) {
  return Writable(path, RunUpdate("(" + path.text + ") = $val", object, value, options));
}

Result<Value> AssignZip(const Expression& path, const Value& object, std::vector<Value> values,
                        const EvalOptions& options) {
  std::string update =
      "[path(" + path.text +
      ")] as $paths | if ($paths | length) == ($val | length) then reduce range($paths | "
      "length) as $i (.; setpath($paths[$i]; $val[$i])) else error(\"array length mismatch: "
      "expected \" + ($paths | length | tostring) + \" values but got \" + ($val | length | "
      "tostring)) end";
  return Writable(path, RunUpdate(update, object, Value::Array(std::move(values)), options));
}

// Upstream's assign: zip when the component has instance ids, else the first value.
Result<Value> AssignValues(const ComponentDefinition& c, const Expression& path,
                           const Value& object, std::vector<Value> values,
                           const EvalOptions& options) {
  if (c.instance_id_path) return AssignZip(path, object, std::move(values), options);
  if (values.empty()) return MakeError("no value to assign for component " + c.name);
  return Assign(path, object, values[0], options);
}

template <typename T>
Result<std::vector<T>> Unzip(const Workload& w, size_t component,
                             const std::map<std::string, T>& by_id) {
  Result<std::vector<std::string>> ids = w.InstanceIds(component);
  if (!ids.ok()) return Wrap("failed to get instance ids", ids.error());
  std::vector<T> out;
  out.reserve(ids->size());
  for (const std::string& id : *ids) {
    auto it = by_id.find(id);
    if (it == by_id.end()) return MakeError("value not found for instance id: " + id);
    out.push_back(it->second);
  }
  return out;
}

bool IsEmpty(const Value& v) {
  return v.is_null() || (v.is_string() && v.as_string().empty()) ||
         ((v.is_object() || v.is_array()) && v.size() == 0);
}

}  // namespace

namespace {

Result<Value> UpdateWhole(const Workload& w, size_t component,
                          const Workload::InstanceValues& by_id,
                          const std::optional<Expression> SpecDefinition::*path,
                          std::string_view what, std::string_view definition_name,
                          const EvalOptions& options) {
  const ComponentDefinition& c = w.definition().components()[component];
  Result<std::vector<Value>> values = Unzip(w, component, by_id);
  if (!values.ok()) {
    return Wrap("failed to unzip given " + std::string(what) + " and instance ids", values.error());
  }
  if (!c.spec) return MakeError("component " + c.name + " does not have spec definition");
  const std::optional<Expression>& p = (*c.spec).*path;
  if (!p) {
    return MakeError("component " + c.name + " does not have " + std::string(definition_name) +
                     " definition");
  }
  return AssignValues(c, *p, w.object(), std::move(values.value()), options);
}

}  // namespace

Result<Value> Workload::UpdatePodTemplateSpecs(size_t component,
                                               const InstanceValues& values) const {
  return UpdateWhole(*this, component, values, &SpecDefinition::pod_template_spec,
                     "pod template specs", "pod template spec", options_);
}

Result<Value> Workload::UpdatePodSpecs(size_t component, const InstanceValues& values) const {
  return UpdateWhole(*this, component, values, &SpecDefinition::pod_spec, "pod specs", "pod spec",
                     options_);
}

Result<Value> Workload::UpdatePodMetadata(size_t component, const InstanceValues& values) const {
  return UpdateWhole(*this, component, values, &SpecDefinition::metadata, "pod metadata",
                     "pod metadata", options_);
}

Result<Value> Workload::UpdateReplicas(size_t component,
                                       const std::map<std::string, int32_t>& values) const {
  const ComponentDefinition& c = definition_.components()[component];
  Result<std::vector<int32_t>> counts = Unzip(*this, component, values);
  if (!counts.ok()) return Wrap("failed to unzip given replicas and instance ids", counts.error());
  if (!c.scale || !c.scale->replicas) {
    return MakeError("component " + c.name + " does not have scale definition");
  }
  std::vector<Value> items;
  for (int32_t n : *counts) items.push_back(Value::Int(n));
  return AssignValues(c, *c.scale->replicas, object_, std::move(items), options_);
}

Result<Value> Workload::UpdateFragmentedPodSpecs(
    size_t component, const std::map<std::string, FragmentedPodSpec>& values) const {
  const ComponentDefinition& c = definition_.components()[component];
  Result<std::vector<FragmentedPodSpec>> specs = Unzip(*this, component, values);
  if (!specs.ok()) {
    return Wrap("failed to unzip given fragmented pod specs and instance ids", specs.error());
  }
  if (!c.spec) return MakeError("component " + c.name + " does not have spec definition");
  if (!c.spec->fragmented) {
    return MakeError("component " + c.name + " does not have fragmented pod spec definition");
  }
  const FragmentedPodSpecDefinition& d = *c.spec->fragmented;
  struct Field {
    const std::optional<Expression>* path;
    Value FragmentedPodSpec::*member;
    std::string_view name;
  };
  // Upstream's update order.
  const Field fields[] = {
      {&d.scheduler_name, &FragmentedPodSpec::scheduler_name, "scheduler name"},
      {&d.priority_class_name, &FragmentedPodSpec::priority_class_name, "priority class name"},
      {&d.image, &FragmentedPodSpec::image, "image"},
      {&d.labels, &FragmentedPodSpec::labels, "labels"},
      {&d.annotations, &FragmentedPodSpec::annotations, "annotations"},
      {&d.resources, &FragmentedPodSpec::resources, "resources"},
      {&d.pod_affinity, &FragmentedPodSpec::pod_affinity, "pod affinity"},
      {&d.node_affinity, &FragmentedPodSpec::node_affinity, "node affinity"},
      {&d.container, &FragmentedPodSpec::container, "container"},
      {&d.resource_claims, &FragmentedPodSpec::resource_claims, "resource claims"},
      {&d.containers, &FragmentedPodSpec::containers, "containers"},
  };
  Value object = object_;
  for (const Field& f : fields) {
    std::vector<Value> field_values;
    bool all_empty = true;
    for (const FragmentedPodSpec& s : *specs) {
      field_values.push_back(s.*f.member);
      all_empty = all_empty && IsEmpty(field_values.back());
    }
    std::string prefix = "failed to update " + std::string(f.name);
    if (all_empty) continue;  // nothing written, so no nulls appear
    if (!*f.path) return Wrap(prefix, MakeError("path is not defined and values are not empty"));
    Result<Value> updated = AssignValues(c, **f.path, object, std::move(field_values), options_);
    if (!updated.ok()) return Wrap(prefix, updated.error());
    object = std::move(updated.value());
  }
  return object;
}

namespace {

Result<Value> ApplyActions(const Workload& w, size_t component, bool suspend,
                           const EvalOptions& options) {
  const ComponentDefinition& c = w.definition().components()[component];
  if (!c.suspend) return MakeError("component " + c.name + " does not have suspendDefinition");
  const std::vector<SuspendAction>& actions =
      suspend ? c.suspend->suspend_actions : c.suspend->resume_actions;
  std::string label = suspend ? "suspendActions" : "resumeActions";
  Value object = w.object();
  for (size_t i = 0; i < actions.size(); ++i) {
    std::string prefix = label + "[" + std::to_string(i) + "]";
    if (!actions[i].value) {
      return MakeError(prefix + ": failed to decode value: '" + actions[i].value_text +
                       "' is not JSON");
    }
    Result<Value> updated = Assign(actions[i].path, object, *actions[i].value, options);
    if (!updated.ok()) return Wrap(prefix, updated.error());
    object = std::move(updated.value());
  }
  return object;
}

}  // namespace

Result<Value> Workload::ApplySuspendActions(size_t component) const {
  return ApplyActions(*this, component, true, options_);
}

Result<Value> Workload::ApplyResumeActions(size_t component) const {
  return ApplyActions(*this, component, false, options_);
}

}  // namespace wmap
