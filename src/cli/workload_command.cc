#include "cli/workload_command.h"

#include "cli/cluster_definitions.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wmap::cli {
namespace {

std::string FormatList(const std::vector<std::string_view>& formats) {
  std::string out;
  for (size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) out += i + 1 == formats.size() ? " or " : ", ";
    out += "-o " + std::string(formats[i]);
  }
  return out;
}

// True for "-" and for an existing file or folder whose name has a '/' or ends in .yaml, .yml
// or .json: a TYPE never looks like that, and a NAME that happens to match a path is rare
// enough that the hint is worth it.
bool LooksLikeFile(const std::string& arg) {
  if (arg == "-") return true;
  bool path_like = arg.find('/') != std::string::npos;
  for (std::string_view suffix : {".yaml", ".yml", ".json"}) {
    path_like = path_like || (arg.size() > suffix.size() && arg.ends_with(suffix));
  }
  std::error_code ec;
  return path_like && std::filesystem::exists(arg, ec);
}

// The checks every command shares, after the flags are parsed.
std::optional<Error> ValidateShared(WorkloadCommand& c) {
  const CommandSpec& spec = c.spec();
  if (!spec.formats.empty()) {
    if (std::optional<Error> e = c.CheckOutput(spec.formats)) return e;
  }
  if (spec.reads_cluster) {
    c.live.active = !c.positional.empty() || (c.ReadsEveryType() && c.input.files.empty());
    if (c.live.active && !c.input.files.empty()) {
      return UsageError("-f reads files and TYPE arguments read the cluster; give one or the other",
                        "run 'wmap " + std::string(spec.name) + " --help' for usage");
    }
    if (std::optional<Error> e = c.live.Validate(c.args, spec.filters_files)) return e;
    for (const std::string& arg : c.positional) {
      // A file named where a TYPE goes is a forgotten -f, not a type to ask a cluster for.
      if (LooksLikeFile(arg)) {
        return UsageError("\"" + arg + "\" is a file, not a TYPE",
                          "read it offline with -f " + arg);
      }
    }
    if (c.live.active) return std::nullopt;
  }
  if (c.positional.size() > spec.max_positionals) {
    if (spec.max_positionals == 0) {
      return UsageError("unexpected argument \"" + c.positional[0] + "\"",
                        std::string(spec.input_hint));
    }
    return UsageError("too many arguments: " + std::to_string(c.positional.size()),
                      "run 'wmap " + std::string(spec.name) + " --help' for usage");
  }
  if (spec.reads_objects && c.input.files.empty()) {
    return UsageError(std::string(spec.input_hint) + " (- for standard input)",
                      "run 'wmap " + std::string(spec.name) + " --help' for usage");
  }
  if (!spec.reads_objects && !c.input.files.empty()) {
    return UsageError("-f is not a flag of 'wmap " + std::string(spec.name) + "'",
                      "use --definitions DIR or --definition FILE to add definitions");
  }
  return std::nullopt;
}

}  // namespace

std::optional<Error> WorkloadCommand::CheckOutput(const std::vector<std::string_view>& formats) {
  if (output.empty()) output = std::string(formats.front());
  if (std::find(formats.begin(), formats.end(), output) != formats.end()) return std::nullopt;
  std::string given = output;
  requested_output.clear();  // reported as text: the format asked for is not one
  return UsageError("unknown output format \"" + given + "\"", "use " + FormatList(formats));
}

int WorkloadCommand::Fail(const CommandIo& io, const Error& error) const {
  return ReportError(io, spec_.name, requested_output, error);
}

void WorkloadCommand::Warn(const CommandIo& io, std::string_view text) const {
  ReportWarning(io, spec_.name, text);
}

std::optional<int> WorkloadCommand::LoadDefinitions(const CommandIo& io,
                                                    DefinitionResolver* resolver) const {
  if (std::optional<Error> e = DefinitionResolver::Create(input.definition_sources(io), resolver)) {
    return Fail(io, *e);
  }
  if (!live.active) return std::nullopt;
  Result<ClusterConnection*> connection = Connection(io, live.cluster, live.namespace_name);
  if (!connection.ok()) return Fail(io, connection.error());
  // A server that cannot be reached fails here, as the workloads could not be read either.
  Result<const kube::Discovery*> discovery = (*connection)->discovery->Get();
  if (!discovery.ok()) return Fail(io, discovery.error());
  Result<ClusterDefinitions> merged = FetchClusterDefinitions(
      (*connection)->client.get(), (*connection)->discovery.get(), resolver);
  if (!merged.ok()) return Fail(io, merged.error());
  for (const DefinitionWarning& w : merged->warnings) {
    if (w.reason == "collision") Warn(io, WarningLine(w));
  }
  return std::nullopt;
}

Result<ClusterConnection*> WorkloadCommand::Connection(const CommandIo& io,
                                                       const ClusterFlags& flags,
                                                       const std::string& namespace_name) const {
  if (!connection_) {
    Result<ClusterConnection> opened = ClusterConnection::Open(flags, io, namespace_name);
    if (!opened.ok()) return opened.error();
    connection_ = std::move(*opened);
  }
  return &*connection_;
}

std::optional<int> WorkloadCommand::ReadWorkloads(const CommandIo& io, WorkloadInputs* inputs,
                                                  std::vector<SourceObject>* all) const {
  if (!live.active) {
    if (std::optional<Error> e = ReadWorkloadInputs(input, io, spec_.name, inputs, all)) {
      return Fail(io, *e);
    }
    return std::nullopt;
  }
  if (std::optional<int> failed = LoadDefinitions(io, &inputs->resolver)) return *failed;
  std::vector<SourceObject> objects;
  ClusterRead read;
  std::optional<int> failed = ReadCluster(
      io, inputs->resolver, /*workloads_only=*/false,
      [&](SourceObject object) { objects.push_back(std::move(object)); }, &read);
  if (failed) return *failed;
  if (all != nullptr) *all = objects;  // values are shared, not copied
  inputs->split = GroupWorkloads(std::move(objects), inputs->resolver);
  // Only the workloads asked for; what else the walk reached is not the user's question.
  std::erase_if(inputs->split.workloads, [&](const WorkloadGroup& g) {
    return !read.IsRootKind(g.workload.ApiVersion(), g.workload.Kind());
  });
  inputs->split.orphans.clear();
  inputs->split.undefined.clear();
  if (inputs->split.workloads.empty()) return NothingFound(io, read);
  return std::nullopt;
}

std::optional<int> WorkloadCommand::ReadCluster(const CommandIo& io,
                                                const DefinitionResolver& resolver,
                                                bool workloads_only,
                                                const std::function<void(SourceObject)>& add,
                                                ClusterRead* read) const {
  // -n is the namespace the server lists (the context's when not given).
  Result<ClusterConnection*> connection = Connection(io, live.cluster, live.namespace_name);
  if (!connection.ok()) return Fail(io, connection.error());
  ClusterQuery query = live.Query(positional, workloads_only);
  query.all_types = ReadsEveryType();
  std::optional<Error> error = ReadClusterWorkloads(
      (*connection)->client.get(), (*connection)->discovery.get(), query, resolver, add, read);
  for (const std::string& w : read->warnings) Warn(io, w);
  if (error) return Fail(io, *error);
  return std::nullopt;
}

int WorkloadCommand::NothingFound(const CommandIo& io, const ClusterRead& read) const {
  if (read.named_missing) {
    return Fail(io, Error::Of(ErrorCode::kNotFound,
                              "the type asked for is not installed in this cluster, so the named "
                              "object is not there"));
  }
  WriteAll(io.err_fd, "No workloads found.\n");
  return kExitOk;
}

int Execute(WorkloadCommand& command, std::span<const std::string> args, const CommandIo& io) {
  bool help = false;
  FlagParser parser;
  command.input.Register(&parser);
  if (command.spec().reads_cluster) command.live.Register(&parser);
  parser.String({"-o", "--output"}, &command.output);
  parser.Bool({"-h", "--help"}, &help);
  command.AddFlags(&parser);
  command.args.assign(args.begin(), args.end());
  std::optional<Error> parse_error = parser.Parse(args, &command.positional);
  command.requested_output = command.output;
  if (std::optional<Error> e = parse_error) {
    if (e->hint.empty()) {
      e->hint = "run 'wmap " + std::string(command.spec().name) + " --help' for usage";
    }
    return command.Fail(io, *e);
  }
  if (help) {
    WriteAll(io.out_fd, ForProgram(io, command.spec().help()));
    return kExitOk;
  }
  if (std::optional<Error> e = ValidateShared(command)) return command.Fail(io, *e);
  if (std::optional<Error> e = command.input.ParseDocumentLimit()) return command.Fail(io, *e);
  if (std::optional<Error> e = command.Validate()) return command.Fail(io, *e);
  Result<EvalOptions> limits = command.input.eval_limits();
  if (!limits.ok()) return command.Fail(io, limits.error());
  EvalLimitsScope scope(*limits);
  return command.Run(io);
}

int ForEachWorkloadObject(
    const WorkloadCommand& command, const CommandIo& io, OutputBuffer* out,
    const std::function<int(const SourceObject& object, const CatalogEntry& entry)>& visit) {
  DefinitionResolver resolver;
  if (std::optional<int> failed = command.LoadDefinitions(io, &resolver)) return *failed;
  int exit_code = kExitOk;
  auto keep_first = [&](int code) {
    if (exit_code == kExitOk) exit_code = code;
  };
  if (command.live.active) {
    // Every object read is a workload of a TYPE asked for, which a definition reads.
    std::vector<SourceObject> objects;
    ClusterRead read;
    std::optional<int> failed = command.ReadCluster(
        io, resolver, /*workloads_only=*/true,
        [&](SourceObject object) { objects.push_back(std::move(object)); }, &read);
    if (failed) return *failed;
    std::erase_if(objects, [&](const SourceObject& o) {
      return !read.IsRootKind(o.ApiVersion(), o.Kind()) || resolver.Find(o.value) == nullptr;
    });
    if (objects.empty()) return command.NothingFound(io, read);
    for (const SourceObject& o : objects) keep_first(visit(o, *resolver.Find(o.value)));
    out->Flush();
    return exit_code;
  }
  ObjectReader reader(command.input, io);
  SourceObject object;
  std::optional<Error> read_error;
  // Objects bundled with a workload (Services, ConfigMaps...) are skipped with a warning per
  // kind; an input with nothing readable at all is an error at its first object instead (the
  // warnings wait for the first readable object, so that case prints the error alone).
  std::vector<SourceObject> unread;
  std::set<std::string> unread_kinds;
  std::set<std::string> warned;
  bool visited = false;
  while (reader.Next(&object, &read_error)) {
    if (read_error) {
      out->Flush();
      return command.Fail(io, *read_error);
    }
    const CatalogEntry* entry = resolver.Find(object.value);
    if (entry == nullptr) {
      if (visited) {
        out->Flush();
        WarnUndefinedKind(io, command.spec().name, object, &warned);
      } else if (unread_kinds
                     .insert(std::string(object.ApiVersion()) + " " + std::string(object.Kind()))
                     .second) {
        unread.push_back(std::move(object));  // one per kind: what the warnings need
      }
      continue;
    }
    if (!visited) {
      for (const SourceObject& o : unread) WarnUndefinedKind(io, command.spec().name, o, &warned);
      visited = true;
    }
    keep_first(visit(object, *entry));
  }
  out->Flush();
  if (!visited && !unread.empty()) {
    return command.Fail(io, DefinitionResolver::NoDefinition(unread.front()));
  }
  return exit_code;
}

}  // namespace wmap::cli
