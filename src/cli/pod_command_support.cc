// Reading workloads and printing documents for gang, mutate, suspend and resume.
#include <set>
#include <string>
#include <utility>

#include "cli/pod_commands.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/yaml.h"

namespace wmap::cli {

Error WorkloadError(const SourceObject& workload, ErrorCode code, std::string message,
                    std::string hint) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.hint = std::move(hint);
  e.file = workload.file;
  e.position = workload.position;
  return e;
}

std::optional<Error> ReadWorkloadInputs(const InputFlags& flags, const CommandIo& io,
                                        std::string_view command, WorkloadInputs* out,
                                        std::vector<SourceObject>* all) {
  if (std::optional<Error> e =
          DefinitionResolver::Create(flags.definition_sources(io), &out->resolver)) {
    return *e;
  }
  std::vector<SourceObject> objects;
  if (std::optional<Error> e = ReadAllObjects(flags, io, &objects)) return e;
  bool any = !objects.empty();
  if (all != nullptr) *all = objects;  // values are shared, not copied
  out->split = GroupWorkloads(std::move(objects), out->resolver);
  const Inventory& split = out->split;
  if (split.workloads.empty()) {
    if (!split.undefined.empty()) {
      return DefinitionResolver::NoDefinition(split.undefined[0]);
    }
    Error e;
    e.code = ErrorCode::kNotFound;
    e.message = any ? "no workload object in the input: only pods or objects owned by another"
                    : "no object in the input";
    e.hint = split.orphans.empty()
                 ? "pass the workload object itself (a JobSet, LeaderWorkerSet, RayCluster...) "
                   "with -f"
                 : "the pods and child objects given belong to a workload that was not given: "
                   "add it with -f FILE";
    return e;
  }
  std::set<std::string> warned;
  for (const SourceObject& o : split.undefined) WarnUndefinedKind(io, command, o, &warned);
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
