// `wmap inspect`: every component, instance, scale and template of workload objects, as JSON.
#include <string>
#include <vector>

#include "cli/output_buffer.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/view.h"
#include "wmap/workload.h"

namespace wmap::cli {

std::string InspectCommandHelp() {
  return "Show the components, instances, scale and pod templates of workload objects.\n"
         "\n"
         "Usage:\n"
         "  wmap inspect -f FILE... [--definition DEF] [--definitions DIR] [-o json]\n"
         "\n"
         "Output (JSON, one WorkloadInspection document per object, docs/output.md):\n"
         "{\"workload\", \"definition\", \"components\": [{\"name\", \"kind\", \"parent\", "
         "\"instances\": [{\"id\", \"replicas\", \"minReplicas\",\n"
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
  if (std::optional<Error> e =
          DefinitionResolver::Create(input.definition_sources(io), &resolver)) {
    return ReportError(io, "inspect", output, *e);
  }
  ObjectReader reader(input.files, io);
  SourceObject object;
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
    std::vector<std::string> errors;
    Value doc = view::InspectDocument(object, entry->definition, &errors);
    for (const std::string& e : errors) {
      WriteAll(io.err_fd, "wmap inspect: " + object.Where() + ": " + e + "\n");
      if (exit_code == kExitOk) exit_code = kExitError;
    }
    out.Append(json::ToString(doc, w) + "\n");
  }
  out.Flush();
  return exit_code;
}

}  // namespace wmap::cli
