// `wmap status`: the phase, conditions and matched statuses of workload objects.
#include <string>
#include <vector>

#include "cli/live_flags.h"
#include "cli/output_buffer.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/text.h"
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
         "  wmap status TYPE[,TYPE...] [NAME...] [-n NAMESPACE | -A] [-l SELECTOR]\n"
         "              [-o text|json]\n"
         "  wmap status TYPE/NAME... [-n NAMESPACE] [-o text|json]\n"
         "  wmap status -f FILE... [--definition DEF] [--definitions DIR] [-o text|json]\n"
         "\n"
         "With TYPE, the workloads are read from the cluster of the kubeconfig, as 'wmap get'\n"
         "reads them (TYPE and NAME as kubectl takes them), but only the workloads: one list\n"
         "per TYPE, or one get per NAME. With -f, the objects of the files are read and the\n"
         "network is never used. The output is the same for the same objects.\n"
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
         "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
         "                         (docs/limits.md)\n"
         "  --max-document-size N  the longest document (YAML document or JSON value) an input\n"
         "                         may hold: 256Mi (0: no limit)\n"
         "\n" +
         LiveFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap status jobsets -n ml-training\n"
         "  wmap status raycluster/my-ray -n ml -o json\n"
         "  wmap status -f examples/raycluster.yaml\n"
         "  kubectl get jobset my-job -o yaml | wmap status -f - -o json\n"
         "\n"
         "Exit status: 0 success, 1 invalid input, a cluster error (unreachable, 401, 403) or a\n"
         "status that cannot be evaluated, 2 usage, 3 a file, a TYPE or a NAME does not exist,\n"
         "4 no definition for an object's type.\n";
}

namespace {

class StatusCommand : public WorkloadCommand {
 public:
  StatusCommand()
      : WorkloadCommand({"status",
                         StatusCommandHelp,
                         {"text", "json"},
                         true,
                         "give a TYPE to read from the cluster, or the objects with -f FILE",
                         0,
                         /*reads_cluster=*/true}) {}

  int Run(const CommandIo& io) override {
    OutputBuffer out(io.out_fd);
    return ForEachWorkloadObject(
        *this, io, &out, [&](const SourceObject& object, const CatalogEntry& entry) {
          Workload workload(entry.definition, object.value);
          Result<std::optional<WorkloadStatus>> status = workload.Status(0);
          if (!status.ok()) {
            out.Flush();
            Fail(io,
                 WorkloadError(object, EvaluationErrorCode(status.error()), status.error().message,
                               "the definition " + entry.definition.name() +
                                   " cannot read this object's status"));
            return kExitError;
          }
          const WorkloadStatus& s = **status;  // the root always has a statusDefinition
          if (output == "json") {
            out.Append(RenderDocuments({view::StatusDocument(object, entry.definition.name(), s)},
                                       "json"));
          } else {
            out.Append(text::EscapeForTerminal(StatusText(s), true));
          }
          return kExitOk;
        });
  }
};

}  // namespace

int RunStatusCommand(std::span<const std::string> args, const CommandIo& io) {
  StatusCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
