// `wmap inspect`: every component, instance, scale and template of workload objects, as JSON.
#include <string>
#include <vector>

#include "cli/workload_commands.h"
#include "wmap/json.h"
#include "wmap/workload.h"

namespace wmap::cli {
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

std::string InspectCommandHelp() {
  return "Show the components, instances, scale and pod templates of workload objects.\n"
         "\n"
         "Usage:\n"
         "  wmap inspect --definition DEF -f OBJ [-o json]\n"
         "\n"
         "Output (JSON): {\"components\": [{\"name\", \"kind\", \"parent\", \"instances\": "
         "[{\"id\",\n"
         "\"replicas\", \"minReplicas\", \"maxReplicas\", \"podTemplateSpec\", \"podSpec\",\n"
         "\"metadata\", \"fragmentedPodSpec\"}]}]} — a field is left out when the definition has\n"
         "no path for it; a component whose evaluation fails carries \"error\" instead of\n"
         "\"instances\".\n"
         "\n"
         "Flags: -d/--definition FILE, -f/--filename FILE (- for standard input), -o json,\n"
         "--lenient, --no-crd-defaults.\n"
         "\n"
         "Exit status: 0 success, 1 an evaluation failed, 2 usage or input error.\n";
}

int RunInspectCommand(std::span<const std::string> args, const CommandIo& io) {
  std::string error;
  std::optional<WorkloadFlags> flags = ParseWorkloadFlags(args, &error);
  if (!flags) {
    WriteAll(io.err_fd, "wmap inspect: " + error + "\nRun 'wmap inspect --help' for usage.\n");
    return kExitUsage;
  }
  if (flags->help) {
    WriteAll(io.out_fd, InspectCommandHelp());
    return kExitOk;
  }
  if (!flags->output.empty() && flags->output != "json") {
    WriteAll(io.err_fd,
             "wmap inspect: unknown output format \"" + flags->output + "\" (use json)\n");
    return kExitUsage;
  }
  if (flags->definition.empty() || flags->object.empty()) {
    WriteAll(io.err_fd,
             "wmap inspect: give --definition DEF and -f OBJ (a built-in catalog is not "
             "available in this build)\nRun 'wmap inspect --help' for usage.\n");
    return kExitUsage;
  }
  std::string def_text, obj_text;
  if (!ReadInput(flags->definition, io, &def_text, &error) ||
      !ReadInput(flags->object, io, &obj_text, &error)) {
    WriteAll(io.err_fd, "wmap inspect: " + error + "\n");
    return kExitUsage;
  }
  LoadOptions options;
  options.lenient = flags->lenient;
  options.apply_crd_defaults = flags->crd_defaults;
  LoadResult loaded = LoadDefinitions(def_text, flags->definition, options);
  if (!loaded.ok()) {
    std::string text = "wmap inspect: invalid definition " + flags->definition + "\n";
    for (const Error& e : loaded.errors) text += e.ToString() + "\n";
    WriteAll(io.err_fd, text);
    return kExitUsage;
  }
  std::vector<Value> objects;
  std::string object_name = flags->object == "-" ? "<stdin>" : flags->object;
  if (!ReadObjects(obj_text, object_name, &objects, &error)) {
    WriteAll(io.err_fd, "wmap inspect: " + error + "\n");
    return kExitUsage;
  }
  int exit_code = kExitOk;
  std::string out;
  json::WriteOptions w;
  w.sort_keys = false;
  for (const Value& object : objects) {
    const Definition* definition = ChooseDefinition(loaded.definitions, object);
    if (definition == nullptr) {
      WriteAll(io.err_fd, "wmap inspect: no definition in " + flags->definition +
                              " describes this object's apiVersion and kind\n");
      exit_code = kExitFalsy;
      continue;
    }
    Workload workload(*definition, object);
    Value components = Value::EmptyArray();
    for (size_t i = 0; i < definition->components().size(); ++i) {
      std::string component_error;
      components.push_back(InspectComponent(workload, i, &component_error));
      if (!component_error.empty()) {
        WriteAll(io.err_fd, "wmap inspect: " + component_error + "\n");
        exit_code = kExitFalsy;
      }
    }
    out += json::ToString(Value::Object({{"components", components}}), w) + "\n";
  }
  WriteAll(io.out_fd, out);
  return exit_code;
}

}  // namespace wmap::cli
