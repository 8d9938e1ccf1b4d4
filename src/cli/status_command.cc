// `wmap status`: the phase, conditions and matched statuses of workload objects.
#include <string>
#include <vector>

#include "cli/output_buffer.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/view.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

std::string MatchedText(const WorkloadStatus& s) {
  std::string out;
  for (size_t i = 0; i < s.matched.size(); ++i) {
    if (i) out += ",";
    out += ResourceStatusName(s.matched[i]);
  }
  return out;
}

std::string StatusText(const WorkloadStatus& s) {
  std::string out = "STATUS:     " + MatchedText(s) + "\n";
  out += "PHASE:      " + (s.phase ? *s.phase : std::string("<none>")) + "\n";
  out += "CONDITIONS:";
  if (s.conditions.empty()) out += " <none>";
  out += "\n";
  for (const Condition& c : s.conditions) {
    out += "  " + c.type + "=" + c.status.value_or("");
    if (c.reason && !c.reason->empty()) out += " (" + *c.reason + ")";
    if (!c.message.empty()) out += ": " + c.message;
    out += "\n";
  }
  return out;
}

}  // namespace

std::string StatusCommandHelp() {
  return "Show the status of workload objects as their definition reads it.\n"
         "\n"
         "Usage:\n"
         "  wmap status -f FILE... [--definition DEF] [--definitions DIR] [-o text|json]\n"
         "\n"
         "Each object is read through the definition of its apiVersion and kind: the built-in\n"
         "catalog ('wmap definitions'), overridden by --definitions DIR and --definition FILE.\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH    objects (YAML or JSON; files, folders, - for standard input);\n"
         "                         repeatable\n"
         "  -d, --definition FILE  a definition file to use (repeatable)\n"
         "  --definitions DIR      a folder of definitions to use (repeatable)\n"
         "  -o, --output FORMAT    text (default) or json, one WorkloadStatus document per\n"
         "                         object: {\"workload\", \"phase\", \"conditions\",\n"
         "                         \"matched\", ...} (docs/output.md)\n"
         "  --lenient              ignore unknown fields in the definitions\n"
         "  --no-crd-defaults      do not default the condition field names\n"
         "\n"
         "Examples:\n"
         "  wmap status -f examples/raycluster.yaml\n"
         "  kubectl get jobset my-job -o yaml | wmap status -f - -o json\n"
         "\n"
         "Exit status: 0 success, 1 invalid input or a status that cannot be evaluated, 2 usage,\n"
         "3 a file does not exist, 4 no definition for an object's type.\n";
}

int RunStatusCommand(std::span<const std::string> args, const CommandIo& io) {
  InputFlags input;
  std::string output;
  bool help = false;
  FlagParser parser;
  input.Register(&parser);
  parser.String({"-o", "--output"}, &output);
  parser.Bool({"-h", "--help"}, &help);
  std::vector<std::string> positional;
  if (std::optional<CliError> e = parser.Parse(args, &positional)) {
    e->hint = "run 'wmap status --help' for usage";
    return ReportError(io, "status", output, *e);
  }
  if (help) {
    WriteAll(io.out_fd, StatusCommandHelp());
    return kExitOk;
  }
  if (output.empty()) output = "text";
  if (output != "text" && output != "json") {
    return ReportError(io, "status", "",
                       UsageError("unknown output format \"" + output + "\" (use text or json)"));
  }
  if (!positional.empty()) {
    return ReportError(io, "status", output,
                       UsageError("unexpected argument \"" + positional[0] + "\"",
                                  "give the objects with -f FILE"));
  }
  if (input.files.empty()) {
    return ReportError(io, "status", output,
                       UsageError("give the objects with -f FILE (- for standard input)",
                                  "run 'wmap status --help' for usage"));
  }
  DefinitionResolver resolver;
  if (std::optional<Error> e =
          DefinitionResolver::Create(input.definition_sources(io), &resolver)) {
    return ReportError(io, "status", output, *e);
  }
  ObjectReader reader(input.files, io);
  SourceObject object;
  std::optional<CliError> read_error;
  int exit_code = kExitOk;
  OutputBuffer out(io.out_fd);
  while (reader.Next(&object, &read_error)) {
    if (read_error) {
      out.Flush();
      return ReportError(io, "status", output, *read_error);
    }
    const CatalogEntry* entry = resolver.Find(object.value);
    if (entry == nullptr) {
      out.Flush();
      exit_code = ReportError(io, "status", output, DefinitionResolver::NoDefinition(object));
      continue;
    }
    Workload workload(entry->definition, object.value);
    Result<std::optional<WorkloadStatus>> status = workload.Status(0);
    if (!status.ok()) {
      CliError e;
      e.code = ErrorCode::kEvaluation;
      e.file = object.file;
      e.position = object.position;
      e.message = status.error().message;
      e.hint = "the definition " + entry->definition.name() + " cannot read this object's status";
      if (exit_code == kExitOk) exit_code = kExitError;
      out.Flush();
      ReportError(io, "status", output, e);
      continue;
    }
    const WorkloadStatus& s = **status;  // the root always has a statusDefinition
    if (output == "json") {
      json::WriteOptions w;
      w.sort_keys = false;
      out.Append(json::ToString(view::StatusDocument(object, entry->definition.name(), s), w) +
                 "\n");
    } else {
      out.Append(StatusText(s));
    }
  }
  out.Flush();
  return exit_code;
}

}  // namespace wmap::cli
