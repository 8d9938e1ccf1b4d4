// `wmap gang`: the pod groups a definition's gang-scheduling instructions produce for a workload,
// and the group each given pod joins.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/pod_commands.h"
#include "wmap/gang.h"
#include "wmap/scheduling.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

Value Str(std::string_view s) { return Value::String(s); }

Value TopologyValue(const std::optional<Topology>& t) {
  if (!t) return Value();
  Value v = Value::EmptyObject();
  v.set("topologyName", Str(t->topology_name));
  v.set("preferredTopologyLevel", Str(t->preferred_topology_level));
  v.set("requiredTopologyLevel", Str(t->required_topology_level));
  return v;
}

std::string TopologyText(const Value& t) {
  if (t.is_null()) return "-";
  std::string out(t.find("topologyName")->as_string());
  std::string_view preferred = t.find("preferredTopologyLevel")->as_string();
  std::string_view required = t.find("requiredTopologyLevel")->as_string();
  if (!required.empty()) out += " required=" + std::string(required);
  if (!preferred.empty()) out += " preferred=" + std::string(preferred);
  return out;
}

Value PodRef(const Value& pod) {
  Value v = Value::EmptyObject();
  v.set("name", Str(MetadataField(pod, "name")));
  v.set("namespace", Str(MetadataField(pod, "namespace")));
  return v;
}

// KAI Scheduler's PodGroup name: pg-<top owner uid>-<suffix>; null without a uid.
Value PodGroupName(std::string_view uid, std::string_view suffix) {
  if (uid.empty()) return Value();
  return Str("pg-" + std::string(uid) + "-" + std::string(suffix));
}

// Collects the first evaluation error of the command (the exit status).
struct Failures {
  std::string first;
  void Add(const std::string& message) {
    if (first.empty()) first = message;
  }
};

// The newer form: one group, flat subgroups.
void DescribePodGroup(const Workload& w, const PodQuerier& q, const WorkloadGroup& g, Value* doc,
                      Failures* failures) {
  Result<std::optional<PodGroupPlan>> plan = EvaluatePodGroup(w, q, Value());
  if (!plan.ok()) {
    doc->set("error", Str(plan.error().message));
    failures->Add(plan.error().message);
    return;
  }
  const PodGroupPlan& p = **plan;
  Value group = Value::EmptyObject();
  Value name = PodGroupName(g.workload.Uid(), p.name);
  group.set("name", name);
  group.set("definitionName", Str(p.name));
  group.set("minAvailable", Value::Int(p.min_available));
  group.set("minSubGroup", Value::Int(p.min_sub_group));
  group.set("topology", TopologyValue(p.topology));
  std::vector<Value> member_pods(p.sub_groups.size(), Value::EmptyArray());
  Value pods = Value::EmptyArray();
  for (const Value& pod : g.pods) {
    Value entry = PodRef(pod);
    Result<std::optional<PodGroupPlan>> with_pod = EvaluatePodGroup(w, q, pod);
    if (!with_pod.ok()) {
      entry.set("error", Str(with_pod.error().message));
      failures->Add(with_pod.error().message);
      pods.push_back(std::move(entry));
      continue;
    }
    entry.set("podGroup", name);
    Value subgroups = Value::EmptyArray();
    for (size_t i = 0; i < (*with_pod)->sub_groups.size(); ++i) {
      if (!(*with_pod)->sub_groups[i].contains_pod) continue;
      subgroups.push_back(Str((*with_pod)->sub_groups[i].name));
      member_pods[i].push_back(Str(MetadataField(pod, "name")));
    }
    entry.set("subGroups", std::move(subgroups));
    pods.push_back(std::move(entry));
  }
  Value subs = Value::EmptyArray();
  for (size_t i = 0; i < p.sub_groups.size(); ++i) {
    const PodGroupPlan::Member& m = p.sub_groups[i];
    Value s = Value::EmptyObject();
    s.set("name", Str(m.name));
    s.set("component", Str(w.definition().components()[m.component].name));
    s.set("minAvailable", Value::Int(m.min_available));
    s.set("topology", TopologyValue(m.topology));
    s.set("pods", member_pods[i]);
    subs.push_back(std::move(s));
  }
  group.set("subGroups", std::move(subs));
  if (!g.pods.empty()) group.set("pods", Value::Int(static_cast<int64_t>(g.pods.size())));
  doc->set("podGroup", std::move(group));
  doc->set("pods", std::move(pods));
}

// The deprecated form: groups keyed by the pods' labels.
void DescribePodGroups(const Workload& w, const PodQuerier& q, const WorkloadGroup& g, Value* doc,
                       Failures* failures) {
  const Definition& d = w.definition();
  Value definitions = Value::EmptyArray();
  for (const PodGroupDefinition& pg : d.gang_scheduling()->pod_groups) {
    Value group = Value::EmptyObject();
    group.set("name", Str(pg.name));
    Value members = Value::EmptyArray();
    for (const PodGroupMember& member : pg.members) {
      Value m = Value::EmptyObject();
      m.set("component", Str(member.component_name));
      Value keys = Value::EmptyArray();
      for (const Expression& e : member.group_by_key_paths) keys.push_back(Str(e.text));
      m.set("groupByKeyPaths", std::move(keys));
      Value filters = Value::EmptyArray();
      for (const Expression& e : member.filters) filters.push_back(Str(e.text));
      m.set("filters", std::move(filters));
      int c = d.FindComponent(member.component_name);
      Result<std::vector<std::string>> ids =
          c < 0 ? Result<std::vector<std::string>>(Error{"component not found", "", {}, ""})
                : w.InstanceIds(static_cast<size_t>(c));
      if (!ids.ok()) {
        m.set("error", Str(ids.error().message));
        failures->Add(member.component_name + ": " + ids.error().message);
        members.push_back(std::move(m));
        continue;
      }
      bool per_instance = d.components()[c].instance_id_path.has_value();
      Value instances = Value::EmptyArray();
      for (const std::string& id : *ids) {
        std::optional<std::string> instance;
        if (per_instance) instance = id;
        Result<int32_t> scale = w.SubtreeScale(static_cast<size_t>(c), instance);
        Value entry = Value::EmptyObject();
        if (per_instance) entry.set("id", Str(id));
        if (scale.ok()) {
          entry.set("minAvailable", Value::Int(*scale));
        } else {
          entry.set("error", Str(scale.error().message));
          failures->Add(member.component_name + ": " + scale.error().message);
        }
        if (per_instance) {
          instances.push_back(std::move(entry));
        } else {
          for (const Member& field : entry.members()) m.set(field.key.as_string(), field.value);
        }
      }
      if (per_instance) m.set("instances", std::move(instances));
      members.push_back(std::move(m));
    }
    group.set("members", std::move(members));
    definitions.push_back(std::move(group));
  }
  doc->set("podGroups", std::move(definitions));

  // Groups from the pods, in order of first appearance.
  Value groups = Value::EmptyArray();
  std::map<std::string, size_t> group_index;
  Value pods = Value::EmptyArray();
  for (const Value& pod : g.pods) {
    Value entry = PodRef(pod);
    // A pod no component claims joins no group; that is an answer, not a failure.
    Result<std::optional<size_t>> component = q.InferPodComponent(pod);
    if (component.ok() && !*component) {
      entry.set("podGroup", Value());
      entry.set("reason", Str("no component of the definition matches the pod"));
      pods.push_back(std::move(entry));
      continue;
    }
    Result<std::optional<PodGangMembership>> m = EvaluatePodGangGroup(w, q, pod);
    if (!m.ok()) {
      entry.set("error", Str(m.error().message));
      failures->Add(std::string(MetadataField(pod, "name")) + ": " + m.error().message);
      pods.push_back(std::move(entry));
      continue;
    }
    if (!*m) {
      entry.set("podGroup", Value());
      entry.set("reason", Str("no podGroups member applies to the pod's component"));
      pods.push_back(std::move(entry));
      continue;
    }
    const PodGangMembership& gm = **m;
    std::string suffix;
    for (const std::string& k : gm.keys) suffix += (suffix.empty() ? "" : "-") + k;
    std::string identity = gm.pod_group + "\n" + suffix;
    Value name = PodGroupName(g.workload.Uid(), suffix);
    auto [it, inserted] = group_index.emplace(identity, groups.size());
    if (inserted) {
      Value group = Value::EmptyObject();
      group.set("name", name);
      group.set("group", Str(gm.pod_group));
      Value keys = Value::EmptyArray();
      for (const std::string& k : gm.keys) keys.push_back(Str(k));
      group.set("keys", std::move(keys));
      group.set("component", Str(d.components()[gm.member_component].name));
      group.set("instance", gm.instance_id ? Str(*gm.instance_id) : Value());
      group.set("minAvailable", Value::Int(gm.min_available));
      group.set("pods", Value::EmptyArray());
      groups.push_back(std::move(group));
    }
    Value* group_pods = groups.mutable_items()[it->second].find_mutable("pods");
    group_pods->push_back(Str(MetadataField(pod, "name")));
    entry.set("podGroup", name);
    entry.set("group", Str(gm.pod_group));
    Value keys = Value::EmptyArray();
    for (const std::string& k : gm.keys) keys.push_back(Str(k));
    entry.set("keys", std::move(keys));
    entry.set("minAvailable", Value::Int(gm.min_available));
    pods.push_back(std::move(entry));
  }
  doc->set("groups", std::move(groups));
  doc->set("pods", std::move(pods));
}

Value GangDocument(const WorkloadGroup& g, Failures* failures) {
  const Definition& d = g.entry->definition;
  Value doc = Value::EmptyObject();
  Value workload = Value::EmptyObject();
  workload.set("apiVersion", Str(g.workload.ApiVersion()));
  workload.set("kind", Str(g.workload.Kind()));
  workload.set("namespace", Str(g.workload.Namespace()));
  workload.set("name", Str(g.workload.Name()));
  workload.set("uid", Str(g.workload.Uid()));
  doc.set("workload", std::move(workload));
  doc.set("definition", Str(d.name()));
  const std::optional<GangScheduling>& gang = d.gang_scheduling();
  Workload w(d, g.workload.value);
  PodQuerier q(d);
  if (gang && gang->pod_group) {
    doc.set("form", Str("podGroup"));
    DescribePodGroup(w, q, g, &doc, failures);
  } else if (gang && !gang->pod_groups.empty()) {
    doc.set("form", Str("podGroups"));
    DescribePodGroups(w, q, g, &doc, failures);
  } else if (gang && !gang->gangs.empty()) {
    doc.set("form", Str("gangs"));
    Result<GangPlans> plans = PlanGangs(w, g.pods);
    if (!plans.ok()) {
      doc.set("error", Str(plans.error().message));
      failures->Add(plans.error().message);
    } else {
      Value plan = GangPlansToValue(d, *plans);
      doc.set("gangs", *plan.find("gangs"));
      doc.set("pods", *plan.find("pods"));
    }
  } else {
    doc.set("form", Str("none"));
  }
  return doc;
}

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

// The pods and what they join: their subgroups (podGroup form; the group is the one above) or
// their group's definition name, keys and minimum (podGroups form).
std::string PodsText(const Value& doc, bool with_subgroups) {
  const Value* pods = doc.find("pods");
  if (pods == nullptr || pods->size() == 0) return "";
  std::vector<std::vector<std::string>> rows;
  if (with_subgroups) {
    rows.push_back({"POD", "SUBGROUPS"});
  } else {
    rows.push_back({"POD", "GROUP", "KEYS", "MIN"});
  }
  for (const Value& p : pods->items()) {
    std::string name = Field(p, "name");
    if (const Value* e = p.find("error")) {
      rows.push_back({name, "error: " + Text(*e)});
    } else if (with_subgroups) {
      rows.push_back({name, Field(p, "subGroups")});
    } else if (p.find("podGroup")->is_null() && p.find("group") == nullptr) {
      rows.push_back({name, "(none)", "-", "-", Field(p, "reason")});
    } else {
      rows.push_back({name, Field(p, "group"), Field(p, "keys"), Field(p, "minAvailable")});
    }
  }
  return "\n" + Table(rows);
}

// The `gangs` form: every gang with its subgroup tree (indented under their parents), then the
// pods and where they go.
std::string GangsText(const Value& doc) {
  std::string out = "GANG        gangs: " + std::to_string(doc.find("gangs")->size()) +
                    " pod group(s) planned from the definition's gangs\n";
  for (const Value& g : doc.find("gangs")->items()) {
    out += "\nPOD GROUP   " + Field(g, "name") + "\n";
    const bool one = g.find("minMember")->as_int() == 1;
    out += "MIN         " + Field(g, "minMember") + (one ? " pod" : " pods");
    if (g.find("minSubGroup")->as_int() > 0) {
      out += ", " + Field(g, "minSubGroup") +
             (g.find("minSubGroup")->as_int() == 1 ? " subgroup" : " subgroups");
    }
    out += " (" + Field(g, "pods") + " at full size)\n";
    for (std::string_view key : {"queue", "priorityClassName", "preemptibility"}) {
      if (const Value* v = g.find(key)) out += std::string(key) + ": " + Text(*v) + "\n";
    }
    const Value* subs = g.find("subGroups");
    if (subs == nullptr || subs->size() == 0) continue;
    // Depth of each subgroup: parents always come first.
    std::map<std::string, size_t> depth;
    std::vector<std::vector<std::string>> rows = {{"SUBGROUP", "MIN", "MIN SUBGROUPS", "PODS"}};
    for (const Value& sg : subs->items()) {
      const Value* parent = sg.find("parent");
      size_t d = parent && parent->is_string() ? depth[std::string(parent->as_string())] + 1 : 0;
      depth[Field(sg, "name")] = d;
      rows.push_back({std::string(2 * d, ' ') + Field(sg, "name"), Field(sg, "minMember"),
                      Field(sg, "minSubGroup"), Field(sg, "pods")});
    }
    out += "\n" + Table(rows);
  }
  const Value* pods = doc.find("pods");
  if (pods != nullptr && pods->size() > 0) {
    std::vector<std::vector<std::string>> rows = {{"POD", "POD GROUP", "SUBGROUP"}};
    for (const Value& p : pods->items()) {
      const Value* gang = p.find("gang");
      if (gang == nullptr || !gang->is_string() || gang->as_string().empty()) {
        rows.push_back({Field(p, "pod"), "(none)", Field(p, "reason")});
      } else {
        rows.push_back({Field(p, "pod"), Text(*gang), Field(p, "subGroup")});
      }
    }
    out += "\n" + Table(rows);
  }
  return out;
}

std::string TextDocument(const Value& doc) {
  const Value& w = *doc.find("workload");
  std::string ns = Field(w, "namespace");
  std::string out = "WORKLOAD    " + Field(w, "kind") + " " +
                    (ns == "-" || ns.empty() ? "" : ns + "/") + Field(w, "name") + "\n";
  out += "DEFINITION  " + Field(doc, "definition") + "\n";
  std::string form = Field(doc, "form");
  if (form == "none") {
    return out + "GANG        none: the definition has no gangScheduling instructions\n";
  }
  if (const Value* e = doc.find("error")) return out + "ERROR       " + Text(*e) + "\n";
  if (form == "gangs") return out + GangsText(doc);
  if (form == "podGroup") {
    const Value& g = *doc.find("podGroup");
    out += "GANG        podGroup: one pod group for the workload";
    out += g.find("subGroups")->size() ? ", one subgroup per listed component\n" : "\n";
    std::string name = Field(g, "name");
    out += "POD GROUP   " + (name == "-" ? "pg-<uid>-" + Field(g, "definitionName") : name) + "\n";
    if (g.find("minSubGroup")->as_int() > 0) {
      out +=
          "MIN         every subgroup (" + Field(g, "minSubGroup") + "), each at its own minimum\n";
    } else {
      out += "MIN         " + Field(g, "minAvailable") + " pods\n";
    }
    out += "TOPOLOGY    " + TopologyText(*g.find("topology")) + "\n";
    if (g.find("subGroups")->size() > 0) {
      std::vector<std::vector<std::string>> rows = {
          {"SUBGROUP", "COMPONENT", "MIN", "PODS", "TOPOLOGY"}};
      for (const Value& s : g.find("subGroups")->items()) {
        rows.push_back({Field(s, "name"), Field(s, "component"), Field(s, "minAvailable"),
                        std::to_string(s.find("pods")->size()), TopologyText(*s.find("topology"))});
      }
      out += "\n" + Table(rows);
    }
    return out + PodsText(doc, true);
  }
  out += "GANG        podGroups: one pod group per distinct group key of the member pods\n";
  std::vector<std::vector<std::string>> rows = {{"GROUP", "MEMBER", "INSTANCE", "MIN", "GROUP BY"}};
  for (const Value& g : doc.find("podGroups")->items()) {
    for (const Value& m : g.find("members")->items()) {
      std::string keys = Field(m, "groupByKeyPaths");
      if (const Value* instances = m.find("instances")) {
        for (const Value& i : instances->items()) {
          std::string min =
              i.find("error") ? "error: " + Field(i, "error") : Field(i, "minAvailable");
          rows.push_back({Field(g, "name"), Field(m, "component"), Field(i, "id"), min, keys});
        }
      } else {
        std::string min =
            m.find("error") ? "error: " + Field(m, "error") : Field(m, "minAvailable");
        rows.push_back({Field(g, "name"), Field(m, "component"), "-", min, keys});
      }
    }
  }
  out += "\n" + Table(rows);
  const Value& groups = *doc.find("groups");
  if (groups.size() > 0) {
    std::vector<std::vector<std::string>> grows = {{"POD GROUP", "KEYS", "MIN", "PODS"}};
    for (const Value& g : groups.items()) {
      std::string name = Field(g, "name");
      if (name == "-") name = Field(g, "group") + " (no uid)";
      grows.push_back({name, Field(g, "keys"), Field(g, "minAvailable"),
                       std::to_string(g.find("pods")->size())});
    }
    out += "\n" + Table(grows);
  }
  return out + PodsText(doc, false);
}

}  // namespace

std::string GangCommandHelp() {
  return "Show the pod groups a workload's definition asks the scheduler to gang-schedule.\n"
         "\n"
         "Usage:\n"
         "  wmap gang -f WORKLOAD [-f PODS...] [-o text|json|yaml]\n"
         "\n"
         "  wmap gang --for SCHEDULER -f WORKLOAD [-f PODS...] [-o yaml|json|manifests]\n"
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
         "                         k8s-workload (see docs/scheduling.md)\n"
         "  -d, --definition FILE  read the workload through this definition\n"
         "      --definitions DIR  add the definitions of a folder to the built-in ones\n"
         "      --lenient          ignore unknown fields in definitions\n"
         "      --no-crd-defaults  do not default the condition field names\n"
         "  -h, --help             show this help\n"
         "\n"
         "JSON and YAML output, one document per workload:\n"
         "  workload    {apiVersion, kind, namespace, name, uid}\n"
         "  definition  the definition's name\n"
         "  form        podGroup, podGroups or none\n"
         "  podGroup    {name, definitionName, minAvailable, minSubGroup, topology,\n"
         "               subGroups: [{name, component, minAvailable, topology, pods}]}\n"
         "  podGroups   [{name, members: [{component, groupByKeyPaths, filters,\n"
         "               instances: [{id, minAvailable}]}]}]\n"
         "  groups      (podGroups form) [{name, group, keys, component, instance,\n"
         "               minAvailable, pods}]\n"
         "  pods        [{name, namespace, podGroup, subGroups | group, keys, minAvailable;\n"
         "               podGroup null with a reason when the pod joins no group}]\n"
         "A pod or member that cannot be evaluated carries an error field instead.\n"
         "\n"
         "Examples:\n"
         "  wmap gang -f examples/jobset-training.yaml\n"
         "  wmap gang -f examples/raycluster.yaml -f examples/raycluster.pods.yaml -o json\n"
         "  wmap gang --for kai -f examples/jobset-training.yaml\n"
         "  wmap gang --for kueue -f examples/jobset-training.yaml -o manifests | kubectl apply -f "
         "-\n"
         "\n"
         "Exit status: 0 ok, 1 a group or pod could not be evaluated (the rest is printed),\n"
         "2 usage, 3 a file not found, 4 no definition for the workload's type.\n";
}

namespace {

// `--for SCHEDULER`: the objects the scheduler needs and the patch of each given pod, per
// workload; -o manifests prints only the objects, as a stream `kubectl apply -f -` takes.
int RunSchedulerObjects(const CommandIo& io, Scheduler scheduler, const std::string& output,
                        const WorkloadInputs& inputs) {
  const std::string format = output.empty() ? "yaml" : output;
  std::vector<Value> documents;
  std::vector<Value> manifests;
  for (const WorkloadGroup& g : inputs.split.workloads) {
    Workload w(g.entry->definition, g.workload.value);
    Result<GangPlans> plans = PlanGangs(w, g.pods);
    Result<SchedulerObjects> objects =
        plans.ok() ? BuildSchedulerObjects(scheduler, w, *plans) : plans.error();
    if (!objects.ok()) {
      std::string hint = objects.error().hint;
      if (hint.empty()) hint = "check the definition's gang instructions with 'wmap gang -f ...'";
      return ReportError(
          io, "gang", format == "manifests" ? "" : output,
          WorkloadError(g.workload, ErrorCode::kEvaluation, objects.error().message, hint));
    }
    if (plans->gangs.empty()) {
      const std::optional<GangScheduling>& gang = g.entry->definition.gang_scheduling();
      const bool by_pods = gang && !gang->pod_groups.empty();
      ReportWarning(io, "gang",
                    std::string(g.workload.Kind()) + " " + std::string(g.workload.Name()) +
                        (by_pods ? ": the definition's podGroups form makes groups from the "
                                   "pods' labels, and no pod of the workload was given (add its "
                                   "pods with -f)"
                                 : ": the definition has no gang instructions, so nothing is "
                                   "emitted"));
    }
    for (const std::string& warning : objects->warnings) {
      ReportWarning(io, "gang", std::string(g.workload.Name()) + ": " + warning);
    }
    Value doc = Value::EmptyObject();
    doc.set("workload", Value::Object({{"apiVersion", Str(g.workload.ApiVersion())},
                                       {"kind", Str(g.workload.Kind())},
                                       {"namespace", Str(g.workload.Namespace())},
                                       {"name", Str(g.workload.Name())}}));
    doc.set("scheduler", Str(SchedulerName(scheduler)));
    doc.set("objects", Value::Array(objects->objects));
    doc.set("podPatches", Value::Array(objects->pod_patches));
    Value warnings = Value::EmptyArray();
    for (const std::string& warning : objects->warnings) warnings.push_back(Str(warning));
    doc.set("warnings", std::move(warnings));
    documents.push_back(std::move(doc));
    manifests.insert(manifests.end(), objects->objects.begin(), objects->objects.end());
  }
  WriteAll(io.out_fd, format == "manifests" ? RenderDocuments(manifests, "yaml")
                                            : RenderDocuments(documents, format));
  return kExitOk;
}

}  // namespace

int RunGangCommand(std::span<const std::string> args, const CommandIo& io) {
  InputFlags input;
  std::string output;
  std::string for_scheduler;
  bool help = false;
  FlagParser parser;
  input.Register(&parser);
  parser.String({"-o", "--output"}, &output);
  parser.String({"--for"}, &for_scheduler);
  parser.Bool({"-h", "--help"}, &help);
  if (std::optional<int> done =
          ParseCommandLine(parser, args, io, "gang", &output, &help, GangCommandHelp)) {
    return *done;
  }
  std::optional<Scheduler> scheduler;
  if (!for_scheduler.empty()) {
    scheduler = ParseScheduler(for_scheduler);
    if (!scheduler) {
      return ReportError(io, "gang", output,
                         UsageError("unknown scheduler \"" + for_scheduler + "\"",
                                    "use --for " + std::string(SchedulerNames())));
    }
    if (!output.empty() && output != "json" && output != "yaml" && output != "manifests") {
      return ReportError(io, "gang", "",
                         UsageError("unknown output format \"" + output + "\" for --for",
                                    "use -o yaml (default), -o json or -o manifests"));
    }
  }
  std::string format = output.empty() ? "text" : output;
  if (!scheduler && format != "text" && format != "json" && format != "yaml") {
    return ReportError(
        io, "gang", "",
        UsageError("unknown output format \"" + output + "\"", "use -o text, -o json or -o yaml"));
  }
  WorkloadInputs inputs;
  if (std::optional<CliError> e = ReadWorkloadInputs(input, io, "gang", &inputs)) {
    return ReportError(io, "gang", output, *e);
  }
  // Pods whose owner chain reaches no workload, one warning per file.
  std::vector<std::pair<std::string, std::vector<std::string>>> orphans;
  for (const SourceObject& o : inputs.split.orphans) {
    if (!IsPod(o.value)) continue;
    if (orphans.empty() || orphans.back().first != o.file) orphans.push_back({o.file, {}});
    orphans.back().second.emplace_back(o.Name());
  }
  for (const auto& [file, names] : orphans) {
    std::string text = file + ": " + std::to_string(names.size()) +
                       (names.size() == 1 ? " pod belongs" : " pods belong") +
                       " to no given workload (their owners are not in the input): " + names[0];
    if (names.size() > 1) text += ", ...";
    ReportWarning(io, "gang", text);
  }
  if (scheduler) return RunSchedulerObjects(io, *scheduler, output, inputs);
  Failures failures;
  std::vector<Value> documents;
  for (const WorkloadGroup& g : inputs.split.workloads) {
    documents.push_back(GangDocument(g, &failures));
  }
  std::string out;
  if (format == "text") {
    for (size_t i = 0; i < documents.size(); ++i) {
      if (i > 0) out += "\n";
      out += TextDocument(documents[i]);
    }
  } else {
    out = RenderDocuments(documents, format);
  }
  WriteAll(io.out_fd, out);
  if (!failures.first.empty()) {
    ReportWarning(io, "gang", "evaluation failed: " + failures.first);
    return kExitError;
  }
  return kExitOk;
}

}  // namespace wmap::cli
