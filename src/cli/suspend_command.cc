// `wmap suspend` and `wmap resume`: the definition's suspend or resume actions applied to
// workload objects: offline (-f), printed whole or as patches; live (TYPE/NAME), written back to
// the cluster as a guarded merge patch (live_write.h).
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "cli/live_write.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

// Replaces every "{key}" of `text` with its value.
std::string Fill(std::string text,
                 std::initializer_list<std::pair<std::string_view, std::string_view>> values) {
  for (const auto& [key, value] : values) {
    std::string token = "{" + std::string(key) + "}";
    for (size_t at = text.find(token); at != std::string::npos;
         at = text.find(token, at + value.size())) {
      text.replace(at, token.size(), value);
    }
  }
  return text;
}

constexpr std::string_view kHelp =
    "{Verb} a workload: apply its definition's {actions} (each sets a path to a\n"
    "value, such as .spec.suspend = {value}) to a file offline, or to an object in the cluster.\n"
    "\n"
    "Usage:\n"
    "  wmap {verb} -f WORKLOAD [-o yaml|json|patch|json-patch]\n"
    "  wmap {verb} TYPE/NAME... | TYPE NAME... [-n NAMESPACE] [--dry-run=server]\n"
    "              [--field-manager N] [-o name|yaml|json]\n"
    "\n"
    "With -f the whole updated object is printed with its field order and every other field\n"
    "as they were; -o patch prints a JSON merge patch (RFC 7386), -o json-patch a JSON patch\n"
    "(RFC 6902). The actions are those of the root component's suspendDefinition; a workload\n"
    "type whose definition has none cannot be {done} this way.\n"
    "\n"
    "With TYPE/NAME each object is read from the cluster, the same actions are applied, and\n"
    "the change is sent as a JSON merge patch that carries the resourceVersion read: an object\n"
    "changed by someone else in between is a conflict (run again), never a lost update. Every\n"
    "object is read and changed before the first write. TYPE is resolved as 'wmap get'\n"
    "resolves it.\n"
    "\n"
    "Flags:\n"
    "  -f, --filename PATH    the workload (YAML or JSON; - for standard input); repeatable\n"
    "  -o, --output FORMAT    with -f: yaml (default), json, patch or json-patch; with\n"
    "                         TYPE/NAME: name (default: one line per object), yaml or json\n"
    "                         (the objects as the server returned them)\n"
    "  -n, --namespace NS     with TYPE/NAME: the namespace (default: the context's)\n"
    "      --dry-run=server   with TYPE/NAME: the server checks the change and stores nothing\n"
    "      --field-manager N  with TYPE/NAME: the field manager of the change (default wmap)\n"
    "  -d, --definition FILE  read the workload through this definition\n"
    "      --definitions DIR  add the definitions of a folder to the built-in ones\n"
    "      --lenient          ignore unknown fields in definitions\n"
    "      --no-crd-defaults  do not default the condition field names\n"
    "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
    "                         (docs/limits.md)\n"
    "  --max-document-size N  the longest document (YAML document or JSON value) an input\n"
    "                         may hold: 256Mi (0: no limit)\n"
    "  -h, --help             show this help\n"
    "\n"
    "{cluster}"
    "\n"
    "Examples:\n"
    "  wmap {verb} -f examples/jobset-training.yaml\n"
    "  wmap {verb} -f examples/jobset-training.yaml -o patch\n"
    "  wmap {verb} jobset/llama-finetune -n ml-training\n"
    "  wmap {verb} jobsets llama-finetune llama-eval -n ml-training --dry-run=server -o yaml\n"
    "\n"
    "Exit status: 0 done, 1 the type cannot be {done}, an action fails or a cluster error\n"
    "(unreachable, 401, 403, 409 conflict, an invalid object), 2 usage, 3 a file, object or\n"
    "type not found, 4 no definition for the workload's type. With -o json or yaml errors are\n"
    "printed as {\"error\", \"message\", \"hint\"} on standard output.\n";

std::string Help(std::string_view verb) {
  bool suspend = verb == "suspend";
  return Fill(std::string(kHelp), {{"Verb", suspend ? "Suspend" : "Resume"},
                                   {"verb", verb},
                                   {"actions", suspend ? "suspendActions" : "resumeActions"},
                                   {"value", suspend ? "true" : "false"},
                                   {"done", suspend ? "suspended" : "resumed"},
                                   {"cluster", ClusterFlagsHelp()}});
}

// The error of a type whose definition has no suspend actions, offline and live alike.
Error NotSuspendable(std::string_view api_version, std::string_view kind,
                     const Definition& definition, bool suspend) {
  return Error::Of(ErrorCode::kUnsupported,
                   std::string(api_version) + " " + std::string(kind) + " cannot be " +
                       (suspend ? "suspended" : "resumed") + ": definition " + definition.name() +
                       " has no suspendDefinition",
                   "add a suspendDefinition with suspendActions and resumeActions to the root "
                   "component of the definition and pass it with --definition FILE");
}

// `suspend` or `resume`: the root component's suspend or resume actions.
class SuspendCommand : public WorkloadCommand {
 public:
  SuspendCommand(std::string_view verb, std::string (*help)())
      : WorkloadCommand({verb,
                         help,
                         {},  // Validate checks -o: the formats of -f and of TYPE/NAME differ
                         true,
                         "give the workload with -f FILE",
                         0,
                         /*reads_cluster=*/true}),
        suspend_(verb == "suspend") {}

  void AddFlags(FlagParser* parser) override { write_.Register(parser); }

  std::optional<Error> Validate() override {
    const bool offline = !live.active;
    const std::vector<std::string_view> formats =
        offline ? std::vector<std::string_view>{"yaml", "json", "patch", "json-patch"}
                : std::vector<std::string_view>{"name", "yaml", "json"};
    if (std::optional<Error> e = CheckOutput(formats)) return e;
    if (offline) {
      return write_.Validate(
          args, false,
          "name the workload in the cluster: wmap " + std::string(spec().name) + " TYPE/NAME");
    }
    if (std::optional<Error> e = RefuseListFlags(args, spec().name)) return e;
    if (std::optional<Error> e = RequireNames(positional, spec().name)) return e;
    return write_.Validate(args, true, "");
  }

  int Run(const CommandIo& io) override { return live.active ? RunLive(io) : RunOffline(io); }

 private:
  Result<Value> Change(const Definition& d, const SourceObject& object) const {
    Workload workload(d, object.value);
    Result<Value> r = suspend_ ? workload.ApplySuspendActions(0) : workload.ApplyResumeActions(0);
    if (r.ok()) return r;
    return WorkloadError(object,
                         r.error().code == ErrorCode::kUnsupported ? ErrorCode::kUnsupported
                                                                   : EvaluationErrorCode(r.error()),
                         "definition " + d.name() + ": " + r.error().message, r.error().hint);
  }

  int RunOffline(const CommandIo& io) {
    WorkloadInputs inputs;
    if (std::optional<int> failed = ReadWorkloads(io, &inputs)) return *failed;
    std::vector<Value> documents;
    for (const WorkloadGroup& g : inputs.split.workloads) {
      const Definition& d = g.entry->definition;
      if (!d.root().suspend) {
        Error e = NotSuspendable(g.workload.ApiVersion(), g.workload.Kind(), d, suspend_);
        e.file = g.workload.file;
        e.position = g.workload.position;
        return Fail(io, e);
      }
      Result<Value> r = Change(d, g.workload);
      if (!r.ok()) return Fail(io, r.error());
      documents.push_back(OutputDocument(output, g.workload.value, *r));
    }
    WriteAll(io.out_fd, RenderDocuments(documents, output == "yaml" ? "yaml" : "json"));
    return kExitOk;
  }

  // Reads every object, changes each, then writes each back: nothing is written unless every
  // change could be made.
  int RunLive(const CommandIo& io) {
    DefinitionResolver resolver;
    if (std::optional<int> failed = LoadDefinitions(io, &resolver)) return *failed;
    LiveWorkloads read;
    std::optional<Error> e = ReadNamedWorkloads(
        live, io, positional, resolver, spec().name,
        [&](const kube::ApiResource& r, const CatalogEntry& entry) -> std::optional<Error> {
          if (entry.definition.root().suspend) return std::nullopt;
          return NotSuspendable(r.ApiVersion(), r.kind, entry.definition, suspend_);
        },
        &read);
    if (e) return Fail(io, *e);
    std::vector<Value> changed;
    for (const LiveWorkload& w : read.workloads) {
      Result<Value> r = Change(w.entry->definition, w.object);
      if (!r.ok()) return Fail(io, r.error());
      changed.push_back(std::move(*r));
    }
    if (std::optional<Error> failed = WriteBackAll(io, read, changed, write_.write,
                                                   suspend_ ? " suspended" : " resumed", output)) {
      return Fail(io, *failed);
    }
    return kExitOk;
  }

  bool suspend_;
  LiveWriteFlags write_;
};

}  // namespace

std::string SuspendCommandHelp() { return Help("suspend"); }
std::string ResumeCommandHelp() { return Help("resume"); }

int RunSuspendCommand(std::span<const std::string> args, const CommandIo& io) {
  SuspendCommand command("suspend", SuspendCommandHelp);
  return Execute(command, args, io);
}

int RunResumeCommand(std::span<const std::string> args, const CommandIo& io) {
  SuspendCommand command("resume", ResumeCommandHelp);
  return Execute(command, args, io);
}

}  // namespace wmap::cli
