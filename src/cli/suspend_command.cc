// `wmap suspend` and `wmap resume`: the definition's suspend or resume actions applied to
// workload objects, printed whole or as patches.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

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
    "{Verb} a workload offline: apply its definition's {actions} (each sets a path\n"
    "to a value, such as .spec.suspend = {value}) and print the result.\n"
    "\n"
    "Usage:\n"
    "  wmap {verb} -f WORKLOAD [-o yaml|json|patch|json-patch]\n"
    "\n"
    "The whole updated object is printed with its field order and every other field as\n"
    "they were; -o patch prints a JSON merge patch (RFC 7386), -o json-patch a JSON patch\n"
    "(RFC 6902). The actions are those of the root component's suspendDefinition; a workload\n"
    "type whose definition has none cannot be {done} this way.\n"
    "\n"
    "Flags:\n"
    "  -f, --filename PATH    the workload (YAML or JSON; - for standard input); repeatable\n"
    "  -o, --output FORMAT    yaml (default), json, patch or json-patch\n"
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
    "Examples:\n"
    "  wmap {verb} -f examples/jobset-training.yaml\n"
    "  wmap {verb} -f examples/jobset-training.yaml -o patch\n"
    "  kubectl patch jobset llama-finetune --type merge \\\n"
    "      -p \"$(wmap {verb} -f examples/jobset-training.yaml -o patch)\"\n"
    "\n"
    "Exit status: 0 done, 1 the type cannot be {done} or an action fails, 2 usage,\n"
    "3 a file not found, 4 no definition for the workload's type. With -o json or yaml\n"
    "errors are printed as {\"error\", \"message\", \"hint\"} on standard output.\n";

std::string Help(std::string_view verb) {
  bool suspend = verb == "suspend";
  return Fill(std::string(kHelp), {{"Verb", suspend ? "Suspend" : "Resume"},
                                   {"verb", verb},
                                   {"actions", suspend ? "suspendActions" : "resumeActions"},
                                   {"value", suspend ? "true" : "false"},
                                   {"done", suspend ? "suspended" : "resumed"}});
}

// `suspend` or `resume`: the root component's suspend or resume actions.
class SuspendCommand : public WorkloadCommand {
 public:
  SuspendCommand(std::string_view verb, std::string (*help)())
      : WorkloadCommand({verb,
                         help,
                         {"yaml", "json", "patch", "json-patch"},
                         true,
                         "give the workload with -f FILE"}),
        suspend_(verb == "suspend") {}

  int Run(const CommandIo& io) override {
    WorkloadInputs inputs;
    if (std::optional<int> failed = ReadWorkloads(io, &inputs)) return *failed;
    std::vector<Value> documents;
    for (const WorkloadGroup& g : inputs.split.workloads) {
      const Definition& d = g.entry->definition;
      if (!d.root().suspend) return Fail(io, NotSuspendable(g));
      Workload workload(d, g.workload.value);
      Result<Value> r = suspend_ ? workload.ApplySuspendActions(0) : workload.ApplyResumeActions(0);
      if (!r.ok()) {
        return Fail(
            io, WorkloadError(g.workload,
                              r.error().code == ErrorCode::kUnsupported
                                  ? ErrorCode::kUnsupported
                                  : EvaluationErrorCode(r.error()),
                              "definition " + d.name() + ": " + r.error().message, r.error().hint));
      }
      documents.push_back(OutputDocument(output, g.workload.value, *r));
    }
    WriteAll(io.out_fd, RenderDocuments(documents, output == "yaml" ? "yaml" : "json"));
    return kExitOk;
  }

 private:
  Error NotSuspendable(const WorkloadGroup& g) const {
    std::string kind = std::string(g.workload.ApiVersion()) + " " + std::string(g.workload.Kind());
    return WorkloadError(g.workload, ErrorCode::kUnsupported,
                         kind + " cannot be " + (suspend_ ? "suspended" : "resumed") +
                             ": definition " + g.entry->definition.name() +
                             " has no suspendDefinition",
                         "add a suspendDefinition with suspendActions and resumeActions to the "
                         "root component of the definition and pass it with --definition FILE");
  }

  bool suspend_;
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
