// `wmap inspect`: every component, instance, scale and template of workload objects, as JSON.
#include <string>
#include <vector>

#include "cli/output_buffer.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
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
         "  wmap inspect -f FILE... [--definition DEF] [--definitions DIR] [-o json]\n"
         "\n"
         "Output (JSON, one document per object): {\"definition\", \"components\": [{\"name\",\n"
         "\"kind\", \"parent\", \"instances\": [{\"id\", \"replicas\", \"minReplicas\",\n"
         "\"maxReplicas\", \"podTemplateSpec\", \"podSpec\", \"metadata\",\n"
         "\"fragmentedPodSpec\"}]}]}: a field is left out when the definition has no path for\n"
         "it; a component whose evaluation fails carries \"error\" instead of \"instances\".\n"
         "\n"
         "Each object is read through the definition of its apiVersion and kind: the built-in\n"
         "catalog, overridden by --definitions DIR and --definition FILE.\n"
         "\n"
         "Flags: -f/--filename PATH (files, folders, - for standard input; repeatable),\n"
         "-d/--definition FILE, --definitions DIR, -o json, --lenient, --no-crd-defaults.\n"
         "\n"
         "Examples:\n"
         "  wmap inspect -f examples/raycluster.yaml\n"
         "  wmap inspect -f my-workload.yaml --definition my-definition.yaml\n"
         "\n"
         "Exit status: 0 success, 1 invalid input or an evaluation failed, 2 usage, 3 a file\n"
         "does not exist, 4 no definition for an object's type.\n";
}

int RunInspectCommand(std::span<const std::string> args, const CommandIo& io) {
  InputFlags input;
  std::string output;
  bool help = false;
  FlagParser parser;
  input.Register(&parser);
  parser.String({"-o", "--output"}, &output);
  parser.Bool({"-h", "--help"}, &help);
  std::vector<std::string> positional;
  if (std::optional<CliError> e = parser.Parse(args, &positional)) {
    e->hint = "run 'wmap inspect --help' for usage";
    return ReportError(io, "inspect", output, *e);
  }
  if (help) {
    WriteAll(io.out_fd, InspectCommandHelp());
    return kExitOk;
  }
  if (!output.empty() && output != "json") {
    return ReportError(io, "inspect", "",
                       UsageError("unknown output format \"" + output + "\" (use json)"));
  }
  output = "json";
  if (!positional.empty()) {
    return ReportError(io, "inspect", output,
                       UsageError("unexpected argument \"" + positional[0] + "\"",
                                  "give the objects with -f FILE"));
  }
  if (input.files.empty()) {
    return ReportError(io, "inspect", output,
                       UsageError("give the objects with -f FILE (- for standard input)",
                                  "run 'wmap inspect --help' for usage"));
  }
  DefinitionResolver resolver;
  if (std::optional<CliError> e = DefinitionResolver::Create(input, io, &resolver)) {
    return ReportError(io, "inspect", output, *e);
  }
  ObjectReader reader(input.files, io);
  InputObject object;
  std::optional<CliError> read_error;
  int exit_code = kExitOk;
  OutputBuffer out(io.out_fd);
  json::WriteOptions w;
  w.sort_keys = false;
  while (reader.Next(&object, &read_error)) {
    if (read_error) {
      out.Flush();
      return ReportError(io, "inspect", output, *read_error);
    }
    const CatalogEntry* entry = resolver.Find(object.value);
    if (entry == nullptr) {
      out.Flush();
      exit_code = ReportError(io, "inspect", output, DefinitionResolver::NoDefinition(object));
      continue;
    }
    const Definition& definition = entry->definition;
    Workload workload(definition, object.value);
    Value components = Value::EmptyArray();
    for (size_t i = 0; i < definition.components().size(); ++i) {
      std::string component_error;
      components.push_back(InspectComponent(workload, i, &component_error));
      if (!component_error.empty()) {
        WriteAll(io.err_fd, "wmap inspect: " + object.Where() + ": " + component_error + "\n");
        if (exit_code == kExitOk) exit_code = kExitError;
      }
    }
    Value doc = Value::Object(
        {{"definition", Value::String(definition.name())}, {"components", components}});
    out.Append(json::ToString(doc, w) + "\n");
  }
  out.Flush();
  return exit_code;
}

}  // namespace wmap::cli
