// `wmap mutate`: changes the pod templates of workload objects through their definitions: of
// files (-f) or of objects in the cluster (TYPE/NAME), printed whole or as patches, or with
// --apply written back to the cluster as a guarded merge patch (live_write.h).
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cli/live_write.h"
#include "cli/pod_change_flags.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "wmap/mutate.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

// The mutation's own code decides the exit status (not found 3, not writable 1...). The
// error's detail (the jq expression as run and the evaluator's message) follows only with
// --verbose.
Error MutateFailure(const SourceObject& workload, const MutateError& e, bool verbose) {
  std::string message = e.message;
  if (verbose && !e.detail.empty()) message += "\ndetail: " + e.detail;
  return WorkloadError(workload, e.code, std::move(message), e.hint);
}

}  // namespace

std::string MutateCommandHelp() {
  return "Change the pod templates of a workload through its definition: of a file offline, or\n"
         "of an object in the cluster.\n"
         "\n"
         "Usage:\n"
         "  wmap mutate -f WORKLOAD [--component C] [--instance I] CHANGES... "
         "[-o yaml|json|patch|json-patch]\n"
         "  wmap mutate TYPE/NAME... | TYPE NAME... [-n NAMESPACE] CHANGES... "
         "[-o yaml|json|patch|json-patch]\n"
         "  wmap mutate TYPE/NAME... | TYPE NAME... [-n NAMESPACE] CHANGES... --apply\n"
         "              [--dry-run=server] [--field-manager N] [-o name|yaml|json]\n"
         "\n"
         "Every pod template the definition describes is changed (podTemplateSpecPath,\n"
         "podSpecPath with metadataPath, or the fragment paths), or only those of one component\n"
         "or one instance. The whole updated object is printed with its field order and every\n"
         "untouched field as they were. -o patch prints a JSON merge patch (RFC 7386) instead\n"
         "(arrays are replaced whole), -o json-patch a JSON patch (RFC 6902) that adds,\n"
         "removes or replaces only what changed, list items included.\n"
         "\n"
         "With TYPE/NAME each object is read from the cluster and changed the same way; what\n"
         "would change is printed and nothing is written, unless --apply is given: the change\n"
         "is then sent as a JSON merge patch that carries the resourceVersion read, so that an\n"
         "object changed by someone else in between is a conflict (run again), never a lost\n"
         "update. Every object is read and changed before the first write. To submit a file with\n"
         "these changes, use 'wmap apply -f FILE' with the same change flags.\n"
         "\n"
         "Changes (repeatable unless noted):\n"
         "  --scheduler-name NAME      spec.schedulerName (once)\n"
         "  --priority-class NAME      spec.priorityClassName (once)\n"
         "  --label KEY=VALUE          metadata.labels\n"
         "  --annotation KEY=VALUE     metadata.annotations\n"
         "  --node-selector KEY=VALUE  spec.nodeSelector\n"
         "  --toleration TOLERATION    spec.tolerations, added unless present:\n"
         "                             key=value:effect or key=value (operator Equal),\n"
         "                             key:effect or key (operator Exists); effect is\n"
         "                             NoSchedule, PreferNoSchedule or NoExecute\n"
         "  --image [NAME=]IMAGE       the image of container NAME (containers and\n"
         "                             initContainers), or of every container\n"
         "  --scheduling-group NAME    spec.schedulingGroup.podGroupName: the Kubernetes\n"
         "                             Workload API PodGroup the pods join (once; see\n"
         "                             'wmap gang --for k8s-workload')\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH        the workload (YAML or JSON; - for standard input);\n"
         "                             repeatable; every workload found is changed, pods and\n"
         "                             objects owned by a workload are left out\n"
         "      --component NAME       only this component's pod templates\n"
         "      --instance ID          only this instance (for example a replicatedJob name)\n"
         "  -o, --output FORMAT        yaml (default), json, patch or json-patch; with --apply:\n"
         "                             name (default: one line per object), yaml or json (the\n"
         "                             objects as the server returned them)\n"
         "  -n, --namespace NS         with TYPE/NAME: the namespace (default: the context's)\n"
         "      --apply                with TYPE/NAME: write the change to the cluster\n"
         "      --dry-run=server       with --apply: the server checks the change and stores\n"
         "                             nothing\n"
         "      --field-manager N      with --apply: the field manager (default wmap)\n"
         "  -d, --definition FILE      read the workload through this definition\n"
         "      --definitions DIR      add the definitions of a folder to the built-in ones\n"
         "      --lenient              ignore unknown fields in definitions\n"
         "      --no-crd-defaults      do not default the condition field names\n"
         "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
         "                         (docs/limits.md)\n"
         "  --max-document-size N  the longest document (YAML document or JSON value) an input\n"
         "                         may hold: 256Mi (0: no limit)\n"
         "  -v, --verbose              on failure, also print the jq expression as run and the\n"
         "                             evaluator's message\n"
         "  -h, --help                 show this help\n"
         "\n" +
         ClusterFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap mutate -f examples/jobset-training.yaml --scheduler-name kai-scheduler \\\n"
         "      --label kai.scheduler/queue=research\n"
         "  wmap mutate -f examples/raycluster.yaml --instance gpu-inference \\\n"
         "      --toleration spot=true:PreferNoSchedule --image ray-worker=rayproject/ray:2.45.0\n"
         "  kubectl patch jobset llama-finetune --type merge \\\n"
         "      -p \"$(wmap mutate -f examples/jobset-training.yaml --priority-class high \\\n"
         "              -o patch)\"\n"
         "  kubectl patch raycluster ray-batch-inference --type json \\\n"
         "      -p \"$(wmap mutate -f examples/raycluster.yaml --label team=ml -o json-patch)\"\n"
         "  wmap mutate jobset/llama-finetune -n ml-training --scheduler-name kai-scheduler -o "
         "patch\n"
         "  wmap mutate jobset/llama-finetune -n ml-training --scheduler-name kai-scheduler "
         "--apply\n"
         "\n"
         "Exit status: 0 changed, 1 the definition cannot write the change, the workload cannot\n"
         "be read or a cluster error (unreachable, 401, 403, 409 conflict, an invalid object),\n"
         "2 usage, 3 a file, object, type, component, instance or container not found, 4 no\n"
         "definition for the workload's type. With -o json or yaml errors are printed as\n"
         "{\"error\", \"message\", \"hint\"} on standard output.\n";
}

namespace {

class MutateCommand : public WorkloadCommand {
 public:
  MutateCommand()
      : WorkloadCommand({"mutate",
                         MutateCommandHelp,
                         {},  // Validate checks -o: --apply prints other formats
                         true,
                         "give the workload with -f FILE",
                         0,
                         /*reads_cluster=*/true}) {}

  void AddFlags(FlagParser* parser) override {
    f_.Register(parser);
    parser->Bool({"-v", "--verbose"}, &verbose_);
    parser->Bool({"--apply"}, &apply_);
    write_.Register(parser);
  }

  std::optional<Error> Validate() override {
    if (apply_ && !live.active) {
      return UsageError("--apply changes objects in the cluster named by TYPE/NAME",
                        "to submit the file with these changes: wmap apply -f FILE and the same "
                        "change flags (--scheduler-name, --label...)");
    }
    if (std::optional<Error> e = CheckOutput(
            apply_ ? std::vector<std::string_view>{"name", "yaml", "json"}
                   : std::vector<std::string_view>{"yaml", "json", "patch", "json-patch"})) {
      return e;
    }
    if (std::optional<Error> e = f_.Parse(args, &changes_)) return e;
    if (changes_.empty()) return NothingToChange();
    input.numbers_as_written = true;  // what passes through must come out as it was written
    scope_ = f_.Scope();
    if (live.active) {
      if (std::optional<Error> e = RefuseListFlags(args, spec().name)) return e;
      if (std::optional<Error> e = RequireNames(positional, spec().name)) return e;
    }
    return write_.Validate(args, apply_, "give --apply to write the change to the cluster");
  }

  int Run(const CommandIo& io) override { return live.active ? RunLive(io) : RunOffline(io); }

 private:
  int RunOffline(const CommandIo& io) {
    WorkloadInputs inputs;
    std::vector<SourceObject> all;
    if (std::optional<int> failed = ReadWorkloads(io, &inputs, &all)) return *failed;
    // The changed workloads by where they were read.
    std::map<std::tuple<std::string, size_t, int>, Value> changed;
    auto where = [](const SourceObject& o) {
      return std::make_tuple(o.file, o.position.offset, o.list_index);
    };
    std::vector<Value> documents;
    for (const WorkloadGroup& g : inputs.split.workloads) {
      Result<Value> r = Change(io, g.entry->definition, g.workload);
      if (!r.ok()) return Fail(io, r.error());
      if (output == "yaml" || output == "json") {
        changed[where(g.workload)] = *r;
      } else {
        documents.push_back(OutputDocument(output, g.workload.value, *r));
      }
    }
    // Whole objects: everything read comes out, in input order; what is not a changed workload
    // (pods, ConfigMaps, kinds without a definition, scalars) passes through unchanged.
    if (output == "yaml" || output == "json") {
      for (const SourceObject& o : all) {
        auto it = changed.find(where(o));
        documents.push_back(it != changed.end() ? it->second : o.value);
      }
    }
    WriteAll(io.out_fd, RenderDocuments(documents, output == "yaml" ? "yaml" : "json"));
    return kExitOk;
  }

  // Reads every object and changes each; then prints the changes, or with --apply writes each
  // back: nothing is written unless every change could be made.
  int RunLive(const CommandIo& io) {
    DefinitionResolver resolver;
    if (std::optional<int> failed = LoadDefinitions(io, &resolver)) return *failed;
    LiveWorkloads read;
    if (std::optional<Error> e =
            ReadNamedWorkloads(live, io, positional, resolver, spec().name, nullptr, &read)) {
      return Fail(io, *e);
    }
    std::vector<Value> changed;
    for (const LiveWorkload& w : read.workloads) {
      Result<Value> r = Change(io, w.entry->definition, w.object);
      if (!r.ok()) return Fail(io, r.error());
      changed.push_back(std::move(*r));
    }
    if (!apply_) {
      std::vector<Value> documents;
      for (size_t i = 0; i < changed.size(); ++i) {
        documents.push_back(OutputDocument(output, read.workloads[i].object.value, changed[i]));
      }
      WriteAll(io.out_fd, RenderDocuments(documents, output == "yaml" ? "yaml" : "json"));
      return kExitOk;
    }
    if (std::optional<Error> failed =
            WriteBackAll(io, read, changed, write_.write, " patched", output)) {
      return Fail(io, *failed);
    }
    return kExitOk;
  }

  // The workload with the changes made, warning when nothing changed.
  Result<Value> Change(const CommandIo& io, const Definition& definition,
                       const SourceObject& object) const {
    Workload workload(definition, object.value);
    MutateResult r = MutateWorkload(workload, scope_, changes_);
    if (!r.ok()) return MutateFailure(object, r.error(), verbose_);
    if (r.object() == object.value) {
      Warn(io, object.Where() + ": " + std::string(object.Kind()) + " " +
                   std::string(object.Name()) +
                   " is unchanged: it already has what was asked, or no pod template the "
                   "definition reaches (an empty list of them)");
    }
    return r.object();
  }

  PodChangeFlags f_;
  PodChanges changes_;
  MutateScope scope_;
  bool verbose_ = false;
  bool apply_ = false;
  LiveWriteFlags write_;
};

}  // namespace

int RunMutateCommand(std::span<const std::string> args, const CommandIo& io) {
  MutateCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
