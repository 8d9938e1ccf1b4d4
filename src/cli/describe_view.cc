#include "cli/describe_view.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "cli/display_format.h"
#include "wmap/meta.h"
#include "wmap/resources.h"
#include "wmap/text.h"

namespace wmap::cli {
namespace {

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

std::string Gpus(int64_t n) { return std::to_string(n) + (n == 1 ? " GPU" : " GPUs"); }

void AddResources(const ResourceList& t, std::vector<Span>* details) {
  if (int64_t gpus = GpuCount(t); gpus > 0) details->push_back({Gpus(gpus), Tone::kCyan});
  if (int64_t cpu = AmountOf(t, "cpu"); cpu > 0) details->push_back({"cpu " + FormatCpu(cpu)});
  if (int64_t memory = AmountOf(t, "memory"); memory > 0) {
    details->push_back({"mem " + FormatMemory(memory)});
  }
}

TreeNode PodTreeNode(const PodNode& p) {
  TreeNode n;
  n.label = {{p.name}};
  n.details.push_back({p.phase.empty() ? "Unknown" : p.phase, PhaseTone(p.phase)});
  n.details.push_back(p.ready ? Span{"ready", Tone::kGreen} : Span{"not ready", Tone::kYellow});
  if (int64_t gpus = GpuCount(p.requests); gpus > 0) n.details.push_back({Gpus(gpus), Tone::kCyan});
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
  for (const Span& s : value) total += text::DisplayWidth(s.text);
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
    if (!line.empty() && text::DisplayWidth(line) + 1 + text::DisplayWidth(word) > avail) {
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

std::string ResourcesText(const ResourceList& t) {
  return Gpus(GpuCount(t)) + ", cpu " + FormatCpu(AmountOf(t, "cpu")) + ", mem " +
         FormatMemory(AmountOf(t, "memory"));
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

// One tree per planned gang; one line when there is none or planning failed.
std::vector<TreeNode> GangPlanTrees(const view::WorkloadGangs& g) {
  std::vector<TreeNode> trees;
  if (g.error || g.plans.gangs.empty()) {
    TreeNode n;
    n.label = {{std::string(g.form), Tone::kDim}};
    if (g.error) {
      n.details.push_back({"error: " + g.error->message, Tone::kRed});
    } else {
      n.details.push_back({"give the pods (-f) to see the groups they form", Tone::kDim});
    }
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

}  // namespace

std::string DescribeText(const WorkloadGroup& group, const view::WorkloadDescription& description,
                         const TreeOptions& options) {
  const WorkloadTree& t = description.tree;
  const bool pods_given = description.pods_given;
  const bool color = options.render.color;
  std::string out;
  const std::string name =
      view::DisplayName(t.name, meta::MetadataField(group.workload.value, "generateName"));
  std::string title = t.namespace_name.empty() ? name : t.namespace_name + "/" + name;
  std::vector<Span> head = {{t.kind.kind + " ", Tone::kCyan}, {title, Tone::kBold}};
  if (options.render.width > 0) {
    size_t kind_width = text::DisplayWidth(head[0].text);
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
  out += HeaderLine("Definition",
                    {{group.entry->definition.name() + " (" + group.entry->origin + ")"}}, options);
  std::string replicas = std::to_string(t.desired) + " desired";
  if (pods_given) {
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
  out += RenderTree(ComponentTreeNode(t.root, pods_given, options), options.render);
  if (description.gangs.form != "none") {
    out += "\n" + Paint(Span{"Gang scheduling", Tone::kBold}, color) + "\n";
    for (const TreeNode& tree : GangPlanTrees(description.gangs)) {
      out += RenderTree(tree, options.render);
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
