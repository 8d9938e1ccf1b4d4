#include "cli/describe_view.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "cli/definition_summary.h"
#include "cli/display_format.h"
#include "cli/source_error.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

Value TopologyValue(const std::optional<Topology>& t) {
  if (!t) return Value();
  auto text = [](const std::string& s) { return s.empty() ? Value() : Value::String(s); };
  return Value::Object({{"name", Value::String(t->topology_name)},
                        {"requiredLevel", text(t->required_topology_level)},
                        {"preferredLevel", text(t->preferred_topology_level)}});
}

// One span per part, so that wrapping keeps every part whole.
void AddTopology(const std::optional<Topology>& t, std::vector<Span>* details) {
  if (!t) return;
  details->push_back({"topology " + t->topology_name});
  if (!t->required_topology_level.empty()) {
    details->push_back({"required " + t->required_topology_level});
  }
  if (!t->preferred_topology_level.empty()) {
    details->push_back({"preferred " + t->preferred_topology_level});
  }
}

void ComputeGang(const WorkloadGroup& group, GangView* gang) {
  const Definition& d = group.entry->definition;
  const auto& gs = d.gang_scheduling();
  if (!gs || (!gs->pod_group && gs->pod_groups.empty() && gs->gangs.empty())) return;
  Workload workload(d, group.workload.value);
  if (!gs->gangs.empty()) {
    gang->form = GangView::Form::kGangs;
    Result<GangPlans> plans = PlanGangs(workload, group.pods);
    if (!plans.ok()) {
      gang->error = plans.error().message;
      return;
    }
    gang->plans = std::move(*plans);
    gang->plans_value = GangPlansToValue(d, gang->plans);
    return;
  }
  PodQuerier querier(d);
  if (gs->pod_group) {
    gang->form = GangView::Form::kPodGroup;
    Result<std::optional<PodGroupPlan>> plan = EvaluatePodGroup(workload, querier, Value());
    if (!plan.ok()) {
      gang->error = plan.error().message;
      return;
    }
    const PodGroupPlan& p = **plan;
    gang->name = p.name;
    gang->min_available = p.min_available;
    gang->min_sub_group = p.min_sub_group;
    gang->topology = p.topology;
    for (const PodGroupPlan::Member& m : p.sub_groups) {
      GangGroupView g;
      g.name = m.name;
      g.component = d.components()[m.component].name;
      g.min_available = m.min_available;
      g.topology = m.topology;
      gang->groups.push_back(std::move(g));
    }
    for (const Value& pod : group.pods) {
      Result<std::optional<PodGroupPlan>> with_pod = EvaluatePodGroup(workload, querier, pod);
      if (!with_pod.ok() || !*with_pod) continue;
      const auto& members = (*with_pod)->sub_groups;
      for (size_t i = 0; i < members.size() && i < gang->groups.size(); ++i) {
        if (members[i].contains_pod) {
          gang->groups[i].pods.emplace_back(MetadataField(pod, "name"));
        }
      }
    }
    for (GangGroupView& g : gang->groups) std::sort(g.pods.begin(), g.pods.end());
    return;
  }
  gang->form = GangView::Form::kPodGroups;
  std::map<std::pair<std::string, std::vector<std::string>>, size_t> index;
  for (const Value& pod : group.pods) {
    Result<std::optional<PodGangMembership>> m = EvaluatePodGangGroup(workload, querier, pod);
    if (!m.ok()) {
      if (gang->error.empty()) {
        gang->error = std::string(MetadataField(pod, "name")) + ": " + m.error().message;
      }
      continue;
    }
    if (!*m) continue;
    auto key = std::make_pair((*m)->pod_group, (*m)->keys);
    auto [it, inserted] = index.emplace(key, gang->groups.size());
    if (inserted) {
      GangGroupView g;
      g.name = (*m)->pod_group;
      g.keys = (*m)->keys;
      g.component = d.components()[(*m)->member_component].name;
      g.instance = (*m)->instance_id;
      g.min_available = (*m)->min_available;
      gang->groups.push_back(std::move(g));
    }
    gang->groups[it->second].pods.emplace_back(MetadataField(pod, "name"));
  }
  for (GangGroupView& g : gang->groups) std::sort(g.pods.begin(), g.pods.end());
}

Value Resources(const ResourceTotals& t) { return ResourceTotalsToValue(t); }

Value Replicas(std::optional<int32_t> desired, int32_t current, int32_t ready, bool pods_given) {
  return Value::Object({{"desired", desired ? Value::Int(*desired) : Value()},
                        {"current", pods_given ? Value::Int(current) : Value()},
                        {"ready", pods_given ? Value::Int(ready) : Value()}});
}

Value StatusesValue(const std::optional<std::vector<ResourceStatus>>& statuses) {
  if (!statuses) return Value();
  Value v = Value::EmptyArray();
  for (ResourceStatus s : *statuses) v.push_back(Value::String(ResourceStatusName(s)));
  return v;
}

Value ComponentValue(const ComponentNode& c, bool pods_given) {
  Value v = Value::EmptyObject();
  v.set("name", Value::String(c.name));
  v.set("kind", c.kind ? Value::String(KindCell(*c.kind)) : Value());
  v.set("statuses", StatusesValue(c.statuses));
  v.set("replicas", Replicas(c.desired, c.current, c.ready, pods_given));
  v.set("resources", Resources(c.requests));
  Value instances = Value::EmptyArray();
  bool single_unnamed = c.instances.size() == 1 && c.instances[0].id.empty();
  if (c.has_pod_definition || !single_unnamed) {
    for (const InstanceNode& i : c.instances) {
      Value iv = Value::EmptyObject();
      iv.set("id", Value::String(i.id));
      iv.set("replicas", Replicas(i.desired, i.current, i.ready, pods_given));
      iv.set("resources", Resources(i.requests));
      Value pods = Value::EmptyArray();
      for (const PodNode& p : i.pods) {
        Value pv = Value::EmptyObject();
        pv.set("name", Value::String(p.name));
        pv.set("namespace", Value::String(p.namespace_name));
        pv.set("phase", Value::String(p.phase));
        pv.set("ready", Value::Bool(p.ready));
        pv.set("node", Value::String(p.node_name));
        pv.set("replicaKey", p.replica_key ? Value::String(*p.replica_key) : Value());
        pv.set("resources", Resources(p.requests));
        pods.push_back(pv);
      }
      iv.set("pods", pods);
      instances.push_back(iv);
    }
  }
  v.set("instances", instances);
  Value children = Value::EmptyArray();
  for (const ComponentNode& child : c.children)
    children.push_back(ComponentValue(child, pods_given));
  v.set("children", children);
  return v;
}

Value GangValue(const GangView& g) {
  if (g.form == GangView::Form::kNone) return Value();
  Value v = Value::EmptyObject();
  if (g.form == GangView::Form::kGangs) {
    v.set("form", Value::String("gangs"));
    if (!g.error.empty()) {
      v.set("error", Value::String(g.error));
    } else {
      v.set("plan", g.plans_value);
    }
    return v;
  }
  v.set("form", Value::String(g.form == GangView::Form::kPodGroup ? "podGroup" : "podGroups"));
  if (!g.error.empty()) v.set("error", Value::String(g.error));
  auto strings = [](const std::vector<std::string>& list) {
    Value a = Value::EmptyArray();
    for (const std::string& s : list) a.push_back(Value::String(s));
    return a;
  };
  Value groups = Value::EmptyArray();
  for (const GangGroupView& group : g.groups) {
    Value gv = Value::EmptyObject();
    gv.set("name", Value::String(group.name));
    gv.set("component", Value::String(group.component));
    if (g.form == GangView::Form::kPodGroups) {
      gv.set("keys", strings(group.keys));
      gv.set("instance", group.instance ? Value::String(*group.instance) : Value());
    }
    gv.set("minAvailable", Value::Int(group.min_available));
    gv.set("topology", TopologyValue(group.topology));
    gv.set("pods", strings(group.pods));
    groups.push_back(gv);
  }
  if (g.form == GangView::Form::kPodGroup) {
    v.set("name", Value::String(g.name));
    v.set("minAvailable", Value::Int(g.min_available));
    v.set("minSubGroup", Value::Int(g.min_sub_group));
    v.set("topology", TopologyValue(g.topology));
    v.set("subGroups", groups);
  } else {
    v.set("groups", groups);
  }
  return v;
}

// ---- text ----

Tone StatusTone(ResourceStatus s) {
  switch (s) {
    case ResourceStatus::kRunning:
    case ResourceStatus::kCompleted:
      return Tone::kGreen;
    case ResourceStatus::kInitializing:
    case ResourceStatus::kResuming:
    case ResourceStatus::kSuspending:
      return Tone::kYellow;
    case ResourceStatus::kFailed:
      return Tone::kRed;
    case ResourceStatus::kDegraded:
      return Tone::kMagenta;
    case ResourceStatus::kSuspended:
    case ResourceStatus::kUndefined:
      return Tone::kDim;
  }
  return Tone::kPlain;
}

Tone PhaseTone(std::string_view phase) {
  if (phase == "Running" || phase == "Succeeded") return Tone::kGreen;
  if (phase == "Pending" || phase.empty()) return Tone::kYellow;
  if (phase == "Failed") return Tone::kRed;
  return Tone::kPlain;
}

std::string ReplicasText(std::optional<int32_t> desired, int32_t current, int32_t ready,
                         bool pods_given) {
  std::string d = desired ? std::to_string(*desired) : "-";
  if (!pods_given) return "replicas " + d;
  return "replicas " + d + "/" + std::to_string(current) + "/" + std::to_string(ready);
}

void AddResources(const ResourceTotals& t, std::vector<Span>* details) {
  if (t.gpus > 0) {
    details->push_back({std::to_string(t.gpus) + (t.gpus == 1 ? " GPU" : " GPUs"), Tone::kCyan});
  }
  if (t.cpu_millicores > 0) details->push_back({"cpu " + FormatCpu(t.cpu_millicores)});
  if (t.memory_bytes > 0) details->push_back({"mem " + FormatMemory(t.memory_bytes)});
}

TreeNode PodTreeNode(const PodNode& p) {
  TreeNode n;
  n.label = {{p.name}};
  n.details.push_back({p.phase.empty() ? "Unknown" : p.phase, PhaseTone(p.phase)});
  n.details.push_back(p.ready ? Span{"ready", Tone::kGreen} : Span{"not ready", Tone::kYellow});
  if (p.requests.gpus > 0) {
    n.details.push_back(
        {std::to_string(p.requests.gpus) + (p.requests.gpus == 1 ? " GPU" : " GPUs"), Tone::kCyan});
  }
  n.details.push_back(p.node_name.empty() ? Span{"unscheduled", Tone::kYellow}
                                          : Span{"node " + p.node_name});
  return n;
}

void AddPods(const InstanceNode& i, const TreeOptions& options, TreeNode* parent) {
  size_t shown =
      options.pod_limit == 0 ? i.pods.size() : std::min(i.pods.size(), options.pod_limit);
  for (size_t k = 0; k < shown; ++k) parent->children.push_back(PodTreeNode(i.pods[k]));
  if (shown < i.pods.size()) {
    TreeNode more;
    more.label = {{"… " + std::to_string(i.pods.size() - shown) + " more pods", Tone::kDim}};
    parent->children.push_back(std::move(more));
  }
}

TreeNode ComponentTreeNode(const ComponentNode& c, bool pods_given, const TreeOptions& options) {
  TreeNode n;
  n.label = {{c.name, Tone::kBold}};
  if (c.kind) n.label.push_back({" " + c.kind->kind, Tone::kCyan});
  if (c.statuses) {
    std::string text;
    Tone tone = Tone::kPlain;
    for (size_t k = 0; k < c.statuses->size(); ++k) {
      text += (k ? "," : "") + std::string(ResourceStatusName((*c.statuses)[k]));
      if (k == 0) tone = StatusTone((*c.statuses)[k]);
    }
    n.details.push_back({text, tone});
  }
  n.details.push_back({ReplicasText(c.desired, c.current, c.ready, pods_given)});
  AddResources(c.requests, &n.details);
  bool single = c.instances.size() == 1 && c.instances[0].id.empty();
  if (single) {
    AddPods(c.instances[0], options, &n);
  } else {
    for (const InstanceNode& i : c.instances) {
      TreeNode in;
      in.label = {{"instance ", Tone::kDim}, {i.id}};
      // A grouping component's instances own no pods: only their own replica count shows.
      if (c.has_pod_definition) {
        in.details.push_back({ReplicasText(i.desired, i.current, i.ready, pods_given)});
      } else if (i.desired) {
        in.details.push_back({"replicas " + std::to_string(*i.desired)});
      }
      AddResources(i.requests, &in.details);
      AddPods(i, options, &in);
      n.children.push_back(std::move(in));
    }
  }
  for (const ComponentNode& child : c.children) {
    n.children.push_back(ComponentTreeNode(child, pods_given, options));
  }
  return n;
}

// "  Key         value", the value wrapped at spaces under itself when it is wider than the
// line; a single word wider than the line is shortened in the middle.
std::string HeaderLine(std::string_view key, const std::vector<Span>& value,
                       const TreeOptions& options) {
  const bool color = options.render.color;
  std::string k = "  " + std::string(key);
  k.append(k.size() < 14 ? 14 - k.size() : 1, ' ');
  size_t total = 0;
  for (const Span& s : value) total += DisplayWidth(s.text);
  size_t width = options.render.width;
  if (width == 0 || value.size() != 1 || k.size() + total <= width) {
    return Paint(Span{k, Tone::kDim}, color) + Paint(value, color) + "\n";
  }
  size_t avail = width > k.size() + 8 ? width - k.size() : 8;
  std::vector<std::string> lines(1);
  size_t start = 0;
  const std::string& text = value[0].text;
  while (start <= text.size()) {
    size_t space = text.find(' ', start);
    std::string word =
        text.substr(start, space == std::string::npos ? std::string::npos : space - start);
    word = ShortenMiddle(word, avail);
    std::string& line = lines.back();
    if (!line.empty() && DisplayWidth(line) + 1 + DisplayWidth(word) > avail) {
      lines.push_back(word);
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
    if (space == std::string::npos) break;
    start = space + 1;
  }
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string lead = i == 0 ? k : std::string(k.size(), ' ');
    out +=
        Paint(Span{lead, Tone::kDim}, color) + Paint(Span{lines[i], value[0].tone}, color) + "\n";
  }
  return out;
}

std::string ResourcesText(const ResourceTotals& t) {
  return std::to_string(t.gpus) + (t.gpus == 1 ? " GPU, " : " GPUs, ") + "cpu " +
         FormatCpu(t.cpu_millicores) + ", mem " + FormatMemory(t.memory_bytes);
}

std::string Pods(int32_t n) { return std::to_string(n) + (n == 1 ? " pod" : " pods"); }

// The subgroups under `parent` ("" = the gang), with the count of given pods in each leaf.
void AddSubGroups(const GangPlan& gang, const std::map<std::string, int>& pods_in,
                  const std::string& parent, TreeNode* node) {
  for (const SubGroupPlan& s : gang.sub_groups) {
    if (s.parent != parent) continue;
    TreeNode n;
    n.label = {{s.name, Tone::kBold}};
    if (s.min_sub_group > 0) {
      n.details.push_back({"min subgroups " + std::to_string(s.min_sub_group)});
    } else {
      n.details.push_back({"min " + std::to_string(s.min_member)});
    }
    n.details.push_back({Pods(s.pods)});
    auto given = pods_in.find(s.name);
    if (given != pods_in.end()) {
      n.details.push_back({std::to_string(given->second) + " given", Tone::kDim});
    }
    if (s.topology) AddTopology(s.topology, &n.details);
    AddSubGroups(gang, pods_in, s.name, &n);
    node->children.push_back(std::move(n));
  }
}

// One tree per planned gang.
std::vector<TreeNode> GangPlanTrees(const GangView& g) {
  std::vector<TreeNode> trees;
  if (!g.error.empty()) {
    TreeNode n;
    n.label = {{"gangs", Tone::kDim}};
    n.details.push_back({"error: " + g.error, Tone::kRed});
    trees.push_back(std::move(n));
    return trees;
  }
  for (const GangPlan& gang : g.plans.gangs) {
    std::map<std::string, int> pods_in;
    int given = 0;
    for (const PodGangAssignment& a : g.plans.pods) {
      if (a.gang != gang.name) continue;
      ++given;
      if (!a.sub_group.empty()) ++pods_in[a.sub_group];
    }
    TreeNode root;
    root.label = {{"gang ", Tone::kDim}, {gang.name, Tone::kBold}};
    root.details.push_back({"min " + std::to_string(gang.min_member)});
    if (!gang.sub_groups.empty()) {
      root.details.push_back({"min subgroups " + std::to_string(gang.min_sub_group)});
    }
    root.details.push_back({Pods(gang.pods)});
    if (!g.plans.pods.empty())
      root.details.push_back({std::to_string(given) + " given", Tone::kDim});
    AddTopology(gang.topology, &root.details);
    AddSubGroups(gang, pods_in, "", &root);
    trees.push_back(std::move(root));
  }
  return trees;
}

TreeNode GangTree(const GangView& g) {
  TreeNode root;
  if (g.form == GangView::Form::kPodGroup) {
    root.label = {{"podGroup ", Tone::kDim}, {g.name, Tone::kBold}};
    root.details.push_back({"min " + std::to_string(g.min_available)});
    if (!g.groups.empty()) {
      root.details.push_back({"min subgroups " + std::to_string(g.min_sub_group)});
    }
    AddTopology(g.topology, &root.details);
  } else {
    root.label = {{"podGroups", Tone::kDim}};
    if (g.groups.empty() && g.error.empty()) {
      root.details.push_back({"give the pods (-f) to see the groups they form", Tone::kDim});
    }
  }
  if (!g.error.empty()) root.details.push_back({"error: " + g.error, Tone::kRed});
  for (const GangGroupView& group : g.groups) {
    TreeNode n;
    n.label = {{group.name, Tone::kBold}};
    for (const std::string& k : group.keys) n.label.push_back({" " + k});
    if (g.form == GangView::Form::kPodGroups) {
      n.details.push_back({"component " + group.component +
                           (group.instance ? " instance " + *group.instance : "")});
    }
    n.details.push_back({"min " + std::to_string(group.min_available)});
    n.details.push_back({std::to_string(group.pods.size()) + " pods given"});
    AddTopology(group.topology, &n.details);
    root.children.push_back(std::move(n));
  }
  return root;
}

}  // namespace

std::optional<CliError> BuildDescribeView(const WorkloadGroup& group, DescribeView* view) {
  view->workload = group.workload;
  view->definition = group.entry->definition.name();
  view->origin = group.entry->origin;
  view->pods_given = !group.pods.empty();
  Result<WorkloadTree> tree =
      BuildTree(group.entry->definition, group.workload.value, group.children, group.pods);
  if (!tree.ok()) {
    CliError e;
    e.code = ErrorCode::kEvaluation;
    e.file = group.workload.file;
    e.position = group.workload.position;
    e.message = tree.error().message;
    e.hint = "the definition " + view->definition + " cannot read this object";
    return e;
  }
  view->tree = std::move(*tree);
  ComputeGang(group, &view->gang);
  return std::nullopt;
}

Value DescribeValue(const DescribeView& view) {
  const WorkloadTree& t = view.tree;
  Value v = Value::EmptyObject();
  v.set("name", Value::String(t.name));
  v.set("namespace", Value::String(t.namespace_name));
  v.set("apiVersion", Value::String(t.kind.ApiVersion()));
  v.set("kind", Value::String(t.kind.kind));
  v.set("uid", Value::String(t.uid));
  std::string_view created = MetadataField(view.workload.value, "creationTimestamp");
  v.set("createdAt", created.empty() ? Value() : Value::String(created));
  v.set("definition", Value::String(view.definition));
  v.set("origin", Value::String(view.origin));
  v.set("statuses", StatusesValue(t.root.statuses));
  v.set("resourcesFrom",
        Value::String(t.totals_source == TotalsSource::kPods ? "pods" : "templates"));
  v.set("replicas", Replicas(t.desired, t.current, t.ready, view.pods_given));
  v.set("resources", Resources(t.requests));
  v.set("components", Value::Array({ComponentValue(t.root, view.pods_given)}));
  v.set("gang", GangValue(view.gang));
  Value unattributed = Value::EmptyArray();
  for (const UnattributedPod& p : t.unattributed) {
    unattributed.push_back(Value::Object({{"name", Value::String(p.name)},
                                          {"namespace", Value::String(p.namespace_name)},
                                          {"reason", Value::String(p.reason)}}));
  }
  v.set("unattributed", unattributed);
  return v;
}

std::string DescribeText(const DescribeView& view, const TreeOptions& options) {
  const WorkloadTree& t = view.tree;
  const bool color = options.render.color;
  std::string out;
  std::string title = t.namespace_name.empty() ? t.name : t.namespace_name + "/" + t.name;
  std::vector<Span> head = {{t.kind.kind + " ", Tone::kCyan}, {title, Tone::kBold}};
  if (options.render.width > 0) {
    size_t kind_width = DisplayWidth(head[0].text);
    if (kind_width + 8 < options.render.width) {
      head[1].text = ShortenMiddle(head[1].text, options.render.width - kind_width);
    }
  }
  out += Paint(head, color) + "\n";
  if (t.root.statuses) {
    std::vector<Span> statuses;
    for (size_t k = 0; k < t.root.statuses->size(); ++k) {
      ResourceStatus s = (*t.root.statuses)[k];
      if (k) statuses.push_back({", "});
      statuses.push_back({std::string(ResourceStatusName(s)), StatusTone(s)});
    }
    out += HeaderLine("Status", statuses, options);
  }
  out += HeaderLine("Definition", {{view.definition + " (" + view.origin + ")"}}, options);
  std::string replicas = std::to_string(t.desired) + " desired";
  if (view.pods_given) {
    replicas +=
        ", " + std::to_string(t.current) + " current, " + std::to_string(t.ready) + " ready";
  } else {
    replicas += " (no pods given)";
  }
  out += HeaderLine("Pods", {{replicas}}, options);
  out += HeaderLine(
      "Requests",
      {{ResourcesText(t.requests) +
        (t.totals_source == TotalsSource::kPods ? " (from the pods)" : " (templates x replicas)")}},
      options);
  out += "\n";
  out += RenderTree(ComponentTreeNode(t.root, view.pods_given, options), options.render);
  if (view.gang.form != GangView::Form::kNone) {
    out += "\n" + Paint(Span{"Gang scheduling", Tone::kBold}, color) + "\n";
    if (view.gang.form == GangView::Form::kGangs) {
      for (const TreeNode& tree : GangPlanTrees(view.gang)) out += RenderTree(tree, options.render);
    } else {
      out += RenderTree(GangTree(view.gang), options.render);
    }
  }
  if (!t.unattributed.empty()) {
    out += "\n" +
           Paint(Span{"Pods not attributed (" + std::to_string(t.unattributed.size()) + ")",
                      Tone::kBold},
                 color) +
           "\n";
    for (const UnattributedPod& p : t.unattributed) {
      TreeNode n;
      n.label = {{"  " + p.name, Tone::kYellow}};
      n.details.push_back({p.reason, Tone::kDim});
      out += RenderTree(n, options.render);
    }
  }
  return out;
}

}  // namespace wmap::cli
