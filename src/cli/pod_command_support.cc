// Reading workloads and printing documents for gang, mutate, suspend and resume.
#include <set>
#include <string>
#include <utility>

#include "cli/pod_commands.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/yaml.h"

namespace wmap::cli {

std::optional<int> ParseCommandLine(const FlagParser& parser, std::span<const std::string> args,
                                    const CommandIo& io, std::string_view command,
                                    const std::string* output, const bool* help,
                                    std::string (*help_text)()) {
  std::vector<std::string> positional;
  std::optional<CliError> error = parser.Parse(args, &positional);
  if (!error && *help) {
    WriteAll(io.out_fd, help_text());
    return kExitOk;
  }
  if (!error && !positional.empty()) {
    error = UsageError("unexpected argument \"" + positional[0] + "\"",
                       "give the workload with -f FILE");
  }
  if (error) {
    if (error->hint.empty()) error->hint = "run 'wmap " + std::string(command) + " --help'";
    return ReportError(io, command, *output, *error);
  }
  return std::nullopt;
}

CliError WorkloadError(const SourceObject& workload, ErrorCode code, std::string message,
                       std::string hint) {
  CliError e;
  e.code = code;
  e.message = std::move(message);
  e.hint = std::move(hint);
  e.file = workload.file;
  e.position = workload.position;
  return e;
}

std::optional<CliError> ReadWorkloadInputs(const InputFlags& flags, const CommandIo& io,
                                           std::string_view command, WorkloadInputs* out) {
  if (flags.files.empty()) {
    return UsageError("no workload given",
                      "pass the workload object with -f FILE (- for standard input)");
  }
  if (std::optional<Error> e =
          DefinitionResolver::Create(flags.definition_sources(io), &out->resolver)) {
    return CliError::From(*e);
  }
  std::vector<SourceObject> objects;
  if (std::optional<CliError> e = ReadAllObjects(flags.files, io, &objects)) return e;
  bool any = !objects.empty();
  out->split = GroupWorkloads(std::move(objects), out->resolver);
  const Inventory& split = out->split;
  if (split.workloads.empty()) {
    if (!split.undefined.empty()) {
      return CliError::From(DefinitionResolver::NoDefinition(split.undefined[0]));
    }
    CliError e;
    e.code = ErrorCode::kNotFound;
    e.message = any ? "no workload object in the input: only pods or objects owned by another"
                    : "no object in the input";
    e.hint = "pass the workload object itself (a JobSet, LeaderWorkerSet, RayCluster...) with -f";
    return e;
  }
  std::set<std::string> warned;
  for (const SourceObject& o : split.undefined) {
    std::string gvk = std::string(o.ApiVersion()) + " " + std::string(o.Kind());
    if (!warned.insert(gvk).second) continue;
    ReportWarning(io, command,
                  o.Where() + ": no definition for " + gvk + ", objects of this kind are skipped");
  }
  if (std::string w = split.uncontrolled.Warning(); !w.empty()) ReportWarning(io, command, w);
  return std::nullopt;
}

Value OutputDocument(std::string_view format, const Value& before, const Value& after) {
  if (format == "patch") return MergePatch(before, after);
  if (format == "json-patch") return JsonPatch(before, after);
  return after;
}

std::string RenderDocuments(const std::vector<Value>& documents, std::string_view format) {
  std::string out;
  for (size_t i = 0; i < documents.size(); ++i) {
    if (format == "json") {
      json::WriteOptions w;
      w.sort_keys = false;
      json::Write(documents[i], w, &out);
      out += "\n";
    } else {
      if (i > 0) out += "---\n";
      yaml::Write(documents[i], yaml::WriteOptions{}, &out);
    }
  }
  return out;
}

}  // namespace wmap::cli
