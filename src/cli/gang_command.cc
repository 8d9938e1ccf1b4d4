// `wmap gang`: the pod groups a definition's gang-scheduling instructions produce for a workload,
// and the group each given pod joins.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/live_flags.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "wmap/gang.h"
#include "wmap/scheduling.h"
#include "wmap/text.h"
#include "wmap/view.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

// ---- text ----

// Columns padded to their widest cell, two spaces apart; the last column is not padded.
std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string Text(const Value& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return std::string(v.as_string());
  if (v.is_integer()) return std::to_string(v.as_int());
  if (v.is_array()) {
    std::string out;
    for (const Value& item : v.items()) out += (out.empty() ? "" : ",") + Text(item);
    return out.empty() ? "-" : out;
  }
  return "?";
}

std::string Field(const Value& v, std::string_view key) {
  const Value* f = v.find(key);
  return f ? Text(*f) : "-";
}

// "name required=rack preferred=node", or "-".
std::string TopologyText(const Value* t) {
  if (t == nullptr || !t->is_object()) return "-";
  std::string out = Field(*t, "topologyName");
  if (const Value* r = t->find("requiredTopologyLevel")) out += " required=" + Text(*r);
  if (const Value* p = t->find("preferredTopologyLevel")) out += " preferred=" + Text(*p);
  return out;
}

std::string Count(const Value& v, std::string_view key, std::string_view one,
                  std::string_view many) {
  const Value* n = v.find(key);
  int64_t count = n != nullptr && n->is_integer() ? n->as_int() : 0;
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

// The Karta podGroups form: each member's minimum per instance, known without pods.
std::string MembersText(const Value& groups) {
  std::vector<std::vector<std::string>> rows = {{"GROUP", "MEMBER", "INSTANCE", "MIN", "GROUP BY"}};
  for (const Value& g : groups.items()) {
    for (const Value& m : g.find("members")->items()) {
      std::string keys = Field(m, "groupByKeyPaths");
      if (const Value* e = m.find("error")) {
        rows.push_back({Field(g, "name"), Field(m, "component"), "-", "error: " + Text(*e), keys});
        continue;
      }
      for (const Value& i : m.find("instances")->items()) {
        std::string min =
            i.find("error") ? "error: " + Field(i, "error") : Field(i, "minAvailable");
        rows.push_back({Field(g, "name"), Field(m, "component"), Field(i, "id"), min, keys});
      }
    }
  }
  return "\n" + Table(rows);
}

// One planned gang: its name, minimum and topology, then its subgroup tree (indented under
// their parents).
std::string PlanText(const Value& g) {
  std::string out = "\nPOD GROUP   " + Field(g, "name") + "\n";
  // A gang defined by its subgroups has no pod minimum of its own.
  const bool by_subgroups = g.find("minSubGroup")->as_int() > 0;
  out += "MIN         ";
  if (g.find("minMember")->as_int() > 0 || !by_subgroups) {
    out += Count(g, "minMember", "pod", "pods") + (by_subgroups ? ", " : "");
  }
  if (by_subgroups) out += Count(g, "minSubGroup", "subgroup", "subgroups");
  out += " (" + Field(g, "pods") + " at full size)\n";
  if (const Value* t = g.find("topology")) out += "TOPOLOGY    " + TopologyText(t) + "\n";
  for (std::string_view key : {"queue", "priorityClassName", "preemptibility"}) {
    if (const Value* v = g.find(key)) out += std::string(key) + ": " + Text(*v) + "\n";
  }
  const Value* subs = g.find("subGroups");
  if (subs == nullptr || subs->size() == 0) return out;
  // Depth of each subgroup: parents always come first.
  std::map<std::string, size_t> depth;
  std::vector<std::vector<std::string>> rows = {
      {"SUBGROUP", "COMPONENT", "MIN", "MIN SUBGROUPS", "PODS", "TOPOLOGY"}};
  for (const Value& sg : subs->items()) {
    const Value* parent = sg.find("parent");
    size_t d = parent && parent->is_string() ? depth[std::string(parent->as_string())] + 1 : 0;
    depth[Field(sg, "name")] = d;
    rows.push_back({std::string(2 * d, ' ') + Field(sg, "name"), Field(sg, "component"),
                    Field(sg, "minMember"), Field(sg, "minSubGroup"), Field(sg, "pods"),
                    TopologyText(sg.find("topology"))});
  }
  return out + "\n" + Table(rows);
}

// The pods and the pod group and subgroup each joins, or why it joins none.
std::string PodsText(const Value& pods) {
  if (pods.size() == 0) return "";
  std::vector<std::vector<std::string>> rows = {{"POD", "POD GROUP", "SUBGROUP"}};
  for (const Value& p : pods.items()) {
    const Value* gang = p.find("gang");
    if (gang == nullptr || !gang->is_string() || gang->as_string().empty()) {
      rows.push_back({Field(p, "pod"), "(none)", Field(p, "reason")});
    } else {
      rows.push_back({Field(p, "pod"), Text(*gang), Field(p, "subGroup")});
    }
  }
  return "\n" + Table(rows);
}

// Why a definition of the gangs form planned nothing (lower case, no final stop).
std::string NoGangPlanned(std::string_view definition) {
  return "the definition's gangs plan no pod group for this object: it does not meet their "
         "conditions, or their subgroups hold none of its pods ('wmap definitions " +
         std::string(definition) + " -o yaml' shows them)";
}

std::string FormLine(std::string_view form, size_t gangs) {
  if (form == "podGroup") return "podGroup: one pod group for the workload";
  if (form == "podGroups") {
    return "podGroups: one pod group per distinct group key of the member pods";
  }
  return "gangs: " + std::to_string(gangs) + " pod group(s) planned from the definition's gangs";
}

std::string TextDocument(const Value& doc) {
  const Value& w = *doc.find("workload");
  std::string ns = Field(w, "namespace");
  const Value* generate_name = w.find("generateName");
  std::string name = view::DisplayName(Field(w, "name"), generate_name && generate_name->is_string()
                                                             ? generate_name->as_string()
                                                             : std::string_view());
  std::string out = "WORKLOAD    " + Field(w, "kind") + " " +
                    (ns == "-" || ns.empty() ? "" : ns + "/") + name + "\n";
  out += "DEFINITION  " + Field(doc, "definition") + "\n";
  std::string form = Field(doc, "form");
  if (form == "none") {
    return out + "GANG        none: the definition has no gangScheduling instructions\n";
  }
  const Value* gangs = doc.find("gangs");
  out += "GANG        " + FormLine(form, gangs ? gangs->size() : 0) + "\n";
  if (const Value* e = doc.find("error")) return out + "ERROR       " + Text(*e) + "\n";
  if (const Value* groups = doc.find("podGroups")) out += MembersText(*groups);
  for (const Value& g : gangs->items()) out += PlanText(g);
  if (form == "podGroups" && gangs->size() == 0) {
    out += "\nGive the workload's pods (-f) to see the pod groups their labels form.\n";
  }
  if (form == "gangs" && gangs->size() == 0) {
    std::string reason = NoGangPlanned(Field(doc, "definition"));
    reason[0] = 'T';
    out += "\n" + reason + ", so its pods are not gang-scheduled.\n";
  }
  return out + PodsText(*doc.find("pods"));
}

}  // namespace

std::string GangCommandHelp() {
  return "Show the pod groups a workload's definition asks the scheduler to gang-schedule.\n"
         "\n"
         "Usage:\n"
         "  wmap gang TYPE[,TYPE...] [NAME...] | TYPE/NAME... [-n NAMESPACE | -A]\n"
         "            [-l SELECTOR] [-o text|json|yaml]\n"
         "  wmap gang -f WORKLOAD [-f PODS...] [-o text|json|yaml]\n"
         "\n"
         "  wmap gang --for SCHEDULER TYPE/NAME... [-n NAMESPACE] [-o yaml|json|manifests]\n"
         "  wmap gang --for SCHEDULER -f WORKLOAD [-f PODS...] [-o yaml|json|manifests]\n"
         "\n"
         "With TYPE, the workloads are read from the cluster of the kubeconfig with their\n"
         "children and pods, as 'wmap get' reads them (TYPE and NAME as kubectl takes them).\n"
         "With -f, the objects of the files are read and the network is never used. The output\n"
         "is the same for the same objects.\n"
         "\n"
         "Definitions give gang instructions in one of three forms:\n"
         "  podGroup   one pod group for the whole workload (KAI Scheduler names it\n"
         "             pg-<uid>-<name>) with a flat subgroup per listed component; the\n"
         "             minimum of a subgroup is its component's replicas (minReplicas when\n"
         "             set), and the group needs every subgroup\n"
         "  podGroups  one pod group per distinct key of the pods' labels (pg-<uid>-<keys>),\n"
         "             sized by the member component's replicas for the pod's instance\n"
         "  gangs      (workloadmap.dev/v1alpha1 definitions, docs/gangs.md) gangs per\n"
         "             workload or per instance, nested subgroups, minimums from expressions,\n"
         "             queue, priority class, preemptibility and topology\n"
         "The minimum of every member and instance is shown without pods; with pods (pods in\n"
         "the same files, or in files given with more -f flags, joined to the workload by their\n"
         "ownerReferences) the groups they form and the group each pod joins are shown too.\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH    the workload and its pods (YAML or JSON files or folders;\n"
         "                         - for standard input); repeatable\n"
         "  -o, --output FORMAT    text (default), json or yaml; with --for: yaml (default),\n"
         "                         json, or manifests (the objects only, for kubectl apply)\n"
         "      --for SCHEDULER    the objects a gang scheduler needs, and the labels,\n"
         "                         annotations or fields each given pod needs to join them\n"
         "                         (JSON merge patches): kai, volcano, coscheduling, kueue,\n"
         "                         k8s-workload (see docs/scheduling.md); the workload's own\n"
         "                         change before submission (Kueue's queue label, the\n"
         "                         Workload API's spec.schedulingGroup in pod templates) is\n"
         "                         the document's workloadPatch (RFC 6902)\n"
         "      --api-version V    with --for: the objects' version, where the scheduler has\n"
         "                         two: kueue v1beta2 (default) or v1beta1; k8s-workload\n"
         "                         v1beta1 (default) or v1alpha3 (subgroup trees kept as\n"
         "                         CompositePodGroups)\n"
         "      --kueue-prebuilt   with --for kueue: a prebuilt Workload and pod group also\n"
         "                         for kinds Kueue integrates itself (Job, JobSet,\n"
         "                         LeaderWorkerSet, Ray, Kubeflow...), for a Kueue whose\n"
         "                         integration of the kind is turned off\n"
         "      --volcano-tier LEVEL=TIER\n"
         "                         with --for volcano: the HyperNode tier name (spec.tierName)\n"
         "                         of a topology level; a level without one is left out of\n"
         "                         networkTopology, with a warning (repeatable)\n"
         "      --volcano-min-task-member\n"
         "                         with --for volcano: the legacy per-task minimums instead\n"
         "                         of subGroupPolicy, for Volcano releases without it\n"
         "  -d, --definition FILE  read the workload through this definition\n"
         "      --definitions DIR  add the definitions of a folder to the built-in ones\n"
         "      --lenient          ignore unknown fields in definitions\n"
         "      --no-crd-defaults  do not default the condition field names\n"
         "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
         "                         (docs/limits.md)\n"
         "  --max-document-size N  the longest document (YAML document or JSON value) an input\n"
         "                         may hold: 256Mi (0: no limit)\n"
         "  -h, --help             show this help\n"
         "\n" +
         LiveFlagsHelp() +
         "\n"

         "JSON and YAML output, one WorkloadGangs document per workload (docs/output.md):\n"
         "  workload    {apiVersion, kind, namespace, name, uid}\n"
         "  definition  the definition's name\n"
         "  form        podGroup, podGroups, gangs or none\n"
         "  gangs       every form as a plan: [{name, definitionGang, minMember, minSubGroup,\n"
         "               pods, topology?, minResources, resources, subGroups: [{name,\n"
         "               parent?, minMember, minSubGroup, component?, pods, topology?}]}]\n"
         "  pods        [{pod, uid?, gang, subGroup?, reason?}]: the group each given pod\n"
         "               joins; gang \"\" with a reason when it joins none\n"
         "  podGroups   (podGroups form) [{name, members: [{component, groupByKeyPaths,\n"
         "               filters, instances: [{id?, minAvailable}]}]}]\n"
         "  error       instead of gangs and pods when planning failed\n"
         "\n"
         "Examples:\n"
         "  wmap gang jobset/llama-finetune -n ml-training\n"
         "  wmap gang --for kai rayclusters -n ml -o manifests | kubectl apply -f -\n"
         "  wmap gang -f examples/jobset-training.yaml\n"
         "  wmap gang -f examples/raycluster.yaml -f examples/raycluster.pods.yaml -o json\n"
         "  wmap gang --for kai -f examples/jobset-training.yaml\n"
         "  wmap gang --for kueue -f examples/jobset-training.yaml -o manifests | kubectl apply -f "
         "-\n"
         "\n"
         "Exit status: 0 ok, 1 a group or pod could not be evaluated (the rest is printed) or\n"
         "a cluster error (unreachable, 401, 403), 2 usage, 3 a file, a TYPE or a NAME not\n"
         "found, 4 no definition for the workload's type.\n";
}

namespace {

// Pods whose owner chain reaches no workload: one warning per file.
void WarnOrphans(const WorkloadCommand& command, const CommandIo& io, const Inventory& split) {
  std::vector<std::pair<std::string, std::vector<std::string>>> orphans;
  for (const SourceObject& o : split.orphans) {
    if (!IsPod(o.value)) continue;
    if (orphans.empty() || orphans.back().first != o.file) orphans.push_back({o.file, {}});
    orphans.back().second.emplace_back(o.Name());
  }
  for (const auto& [file, names] : orphans) {
    std::string text = file + ": " + std::to_string(names.size()) +
                       (names.size() == 1 ? " pod belongs" : " pods belong") +
                       " to no given workload (their owners are not in the input): " + names[0];
    if (names.size() > 1) text += ", ...";
    command.Warn(io, text);
  }
}

class GangCommand : public WorkloadCommand {
 public:
  GangCommand()
      : WorkloadCommand({"gang",
                         GangCommandHelp,
                         {},
                         true,
                         "give a TYPE to read from the cluster, or the workload with -f FILE",
                         0,
                         /*reads_cluster=*/true}) {}

  void AddFlags(FlagParser* parser) override {
    parser->String({"--for"}, &for_scheduler_);
    parser->String({"--api-version"}, &options_.api_version);
    parser->Bool({"--kueue-prebuilt"}, &options_.kueue_prebuilt);
    parser->Bool({"--volcano-min-task-member"}, &options_.volcano_min_task_member);
    parser->Strings({"--volcano-tier"}, &volcano_tiers_);
  }

  // -o depends on --for: text, json or yaml for the plans; yaml, json or manifests for the
  // scheduler's objects.
  std::optional<Error> Validate() override {
    if (!for_scheduler_.empty()) {
      scheduler_ = ParseScheduler(for_scheduler_);
      if (!scheduler_) {
        return UsageError("unknown scheduler \"" + for_scheduler_ + "\"",
                          "use --for " + std::string(SchedulerNames()));
      }
    }
    if (std::optional<Error> e = ValidateSchedulerFlags()) return e;
    const std::vector<std::string_view> formats =
        scheduler_ ? std::vector<std::string_view>{"yaml", "json", "manifests"}
                   : std::vector<std::string_view>{"text", "json", "yaml"};
    if (output.empty()) output = std::string(formats.front());
    if (std::find(formats.begin(), formats.end(), output) == formats.end()) {
      std::string given = output;
      requested_output.clear();
      return UsageError(
          "unknown output format \"" + given + "\"" + (scheduler_ ? " for --for" : ""),
          scheduler_ ? "use -o yaml (default), -o json or -o manifests"
                     : "use -o text, -o json or -o yaml");
    }
    return std::nullopt;
  }

  // Flags that shape one scheduler's objects: given only with --for, and that scheduler.
  std::optional<Error> ValidateSchedulerFlags() {
    struct Only {
      bool given;
      std::string_view flag;
      std::optional<Scheduler> scheduler;  // nullopt: any
    };
    for (const Only& only :
         {Only{!options_.api_version.empty(), "--api-version", std::nullopt},
          Only{options_.kueue_prebuilt, "--kueue-prebuilt", Scheduler::kKueue},
          Only{options_.volcano_min_task_member, "--volcano-min-task-member", Scheduler::kVolcano},
          Only{!volcano_tiers_.empty(), "--volcano-tier", Scheduler::kVolcano}}) {
      if (!only.given) continue;
      if (!scheduler_) {
        return UsageError(
            std::string(only.flag) + " needs --for SCHEDULER",
            "for example: wmap gang --for " +
                std::string(SchedulerName(only.scheduler.value_or(Scheduler::kKueue))) + " " +
                std::string(only.flag) + " ... -f WORKLOAD");
      }
      if (only.scheduler && scheduler_ != only.scheduler) {
        return UsageError(std::string(only.flag) + " applies to --for " +
                          std::string(SchedulerName(*only.scheduler)) + " only");
      }
    }
    if (!options_.api_version.empty() &&
        !IsSchedulerApiVersion(*scheduler_, options_.api_version)) {
      return UsageError(
          "--for " + for_scheduler_ + " has no API version \"" + options_.api_version + "\"",
          "use --api-version " + std::string(SchedulerApiVersions(*scheduler_)));
    }
    for (const std::string& tier : volcano_tiers_) {
      const size_t eq = tier.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == tier.size()) {
        return UsageError("--volcano-tier \"" + tier + "\": expected LEVEL=TIER",
                          "for example: --volcano-tier nvidia.com/gpu-clique=nvlink");
      }
      options_.volcano_tier_names[tier.substr(0, eq)] = tier.substr(eq + 1);
    }
    return std::nullopt;
  }

  int Run(const CommandIo& io) override {
    WorkloadInputs inputs;
    if (std::optional<int> failed = ReadWorkloads(io, &inputs)) return *failed;
    WarnOrphans(*this, io, inputs.split);
    return scheduler_ ? RunSchedulerObjects(io, inputs) : RunPlans(io, inputs);
  }

 private:
  int RunPlans(const CommandIo& io, const WorkloadInputs& inputs) const {
    std::vector<std::string> failures;
    std::vector<Value> documents;
    for (const WorkloadGroup& g : inputs.split.workloads) {
      const Definition& d = g.entry->definition;
      view::WorkloadGangs gangs = view::PlanWorkloadGangs(d, g.workload.value, g.pods);
      for (const std::string& warning : gangs.plans.warnings) {
        Warn(io, std::string(g.workload.Name()) + ": " + warning);
      }
      documents.push_back(view::GangDocument(g.workload, d, gangs, &failures));
    }
    std::string out;
    if (output == "text") {
      for (size_t i = 0; i < documents.size(); ++i) {
        if (i > 0) out += "\n";
        out += text::EscapeForTerminal(TextDocument(documents[i]), /*keep_newlines=*/true);
      }
    } else {
      out = RenderDocuments(documents, output);
    }
    WriteAll(io.out_fd, out);
    if (failures.empty()) return kExitOk;
    Warn(io, "evaluation failed: " + failures.front());
    return kExitError;
  }

  // The objects the scheduler needs and the patch of each given pod, per workload;
  // -o manifests prints only the objects, as a stream `kubectl apply -f -` takes.
  int RunSchedulerObjects(const CommandIo& io, const WorkloadInputs& inputs) {
    std::vector<Value> documents;
    std::vector<Value> manifests;
    for (const WorkloadGroup& g : inputs.split.workloads) {
      Workload w(g.entry->definition, g.workload.value);
      Result<GangPlans> plans = PlanGangs(w, g.pods);
      Result<SchedulerObjects> objects =
          plans.ok() ? BuildSchedulerObjects(*scheduler_, w, *plans, options_) : plans.error();
      if (!objects.ok()) {
        std::string hint = objects.error().hint;
        if (hint.empty()) hint = "check the definition's gang instructions with 'wmap gang -f ...'";
        // With -o manifests the error goes to stderr, not into the stream of objects.
        if (output == "manifests") requested_output.clear();
        return Fail(io, WorkloadError(g.workload, EvaluationErrorCode(objects.error()),
                                      objects.error().message, hint));
      }
      if (plans->gangs.empty())
        objects->warnings.insert(objects->warnings.begin(), NothingPlanned(g));
      // Every warning goes to stderr and into the document's warnings.
      for (const std::string& warning : objects->warnings) {
        Warn(io, std::string(g.workload.Name()) + ": " + warning);
      }
      // The objects alone cannot carry a change of the workload itself: say where it is.
      if (output == "manifests" && objects->workload_patch.size() > 0) {
        Warn(io, std::string(g.workload.Name()) +
                     ": the workload itself needs a change before it is submitted (workloadPatch "
                     "in -o yaml, for kubectl patch --type json), which -o manifests leaves out");
      }
      documents.push_back(view::SchedulerObjectsDocument(g.workload, *scheduler_, *objects));
      manifests.insert(manifests.end(), objects->objects.begin(), objects->objects.end());
    }
    WriteAll(io.out_fd, output == "manifests" ? RenderDocuments(manifests, "yaml")
                                              : RenderDocuments(documents, output));
    return kExitOk;
  }

  static std::string NothingPlanned(const WorkloadGroup& g) {
    std::string_view form = view::GangFormName(g.entry->definition);
    if (form == "podGroups") {
      return "the definition's podGroups form makes groups from the pods' labels, and no pod of "
             "the workload was given (add its pods with -f)";
    }
    if (form == "gangs")
      return NoGangPlanned(g.entry->definition.name()) + ", so nothing is emitted";
    return "the definition has no gang instructions, so nothing is emitted";
  }

  std::string for_scheduler_;
  std::optional<Scheduler> scheduler_;
  SchedulingOptions options_;
  std::vector<std::string> volcano_tiers_;
};

}  // namespace

int RunGangCommand(std::span<const std::string> args, const CommandIo& io) {
  GangCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
