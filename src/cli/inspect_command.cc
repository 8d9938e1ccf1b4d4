// `wmap inspect`: every component, instance, scale and template of workload objects, as JSON.
#include <string>
#include <vector>

#include "cli/live_flags.h"
#include "cli/output_buffer.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/view.h"
#include "wmap/workload.h"

namespace wmap::cli {

std::string InspectCommandHelp() {
  return "Show the components, instances, scale and pod templates of workload objects.\n"
         "\n"
         "Usage:\n"
         "  wmap inspect TYPE[,TYPE...] [NAME...] [-n NAMESPACE | -A] [-l SELECTOR]\n"
         "  wmap inspect TYPE/NAME... [-n NAMESPACE]\n"
         "  wmap inspect -f FILE... [--definition DEF] [--definitions DIR] [-o json]\n"
         "\n"
         "With TYPE, the workloads are read from the cluster of the kubeconfig, as 'wmap get'\n"
         "reads them (TYPE and NAME as kubectl takes them), but only the workloads: one list\n"
         "per TYPE, or one get per NAME. With -f, the objects of the files are read and the\n"
         "network is never used. The output is the same for the same objects.\n"
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
         "-d/--definition FILE, --definitions DIR, -o json, --lenient, --no-crd-defaults,\n"
         "--eval-timeout D, --eval-memory N, --deadline D, --max-document-size N\n"
         "(docs/limits.md).\n"
         "\n" +
         LiveFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap inspect rayclusters -n ml\n"
         "  wmap inspect jobset/llama-finetune -n ml-training\n"
         "  wmap inspect -f examples/raycluster.yaml\n"
         "  wmap inspect -f my-workload.yaml --definition my-definition.yaml\n"
         "\n"
         "Exit status: 0 success, 1 invalid input, a cluster error (unreachable, 401, 403) or\n"
         "an evaluation failed, 2 usage, 3 a file, a TYPE or a NAME does not exist, 4 no\n"
         "definition for an object's type.\n";
}

namespace {

class InspectCommand : public WorkloadCommand {
 public:
  InspectCommand()
      : WorkloadCommand({"inspect",
                         InspectCommandHelp,
                         {"json"},
                         true,
                         "give a TYPE to read from the cluster, or the objects with -f FILE",
                         0,
                         /*reads_cluster=*/true}) {}

  // JSON is the only output, so errors are JSON documents even without -o.
  std::optional<Error> Validate() override {
    requested_output = output;
    return std::nullopt;
  }

  int Run(const CommandIo& io) override {
    OutputBuffer out(io.out_fd);
    return ForEachWorkloadObject(
        *this, io, &out, [&](const SourceObject& object, const CatalogEntry& entry) {
          std::vector<std::string> errors;
          Value doc = view::InspectDocument(object, entry.definition, &errors);
          for (const std::string& e : errors) {
            WriteAll(io.err_fd, "wmap inspect: " + object.Where() + ": " + e + "\n");
          }
          out.Append(RenderDocuments({doc}, "json"));
          return errors.empty() ? kExitOk : kExitError;
        });
  }
};

}  // namespace

int RunInspectCommand(std::span<const std::string> args, const CommandIo& io) {
  InspectCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
