// Volcano: scheduling.volcano.sh/v1beta1 PodGroup.
//
// Volcano has no subgroup tree. Its current form, subGroupPolicy, selects pods by label and
// splits them into subgroups by the value of a label key: each subgroup needs subGroupSize pods
// placed together (under the policy's network topology), and the job needs minSubGroups ready
// subgroups per policy. A gang's leaves become subgroups of one policy per parent and leaf size
// (leaves of different sizes cannot share a policy); minSubGroups counts the leaves the gang
// cannot start without: those whose every ancestor, and the gang, needs all its children.
//
// The legacy form, minTaskMember, is a minimum per task (the pod's volcano.sh/task-spec), which
// Volcano ignores altogether when minMember is below their sum; it gets the required leaves only,
// and minMember is raised to their sum.
//
// networkTopology.highestTierName names a HyperNode tier (spec.tierName), not a node label: a
// topology level is emitted only through the tier name the options give for it.
#include <algorithm>
#include <map>
#include <set>

#include "scheduling/emit_context.h"
#include "wmap/resources.h"

namespace wmap::scheduling {
namespace {

constexpr std::string_view kPolicyLabel = "workloadmap.dev/subgroup-policy";
constexpr std::string_view kSubGroupLabel = "workloadmap.dev/subgroup";

// Children of each subgroup ("" for the gang itself), in plan order.
std::map<std::string, std::vector<const SubGroupPlan*>> Children(const GangPlan& g) {
  std::map<std::string, std::vector<const SubGroupPlan*>> children;
  for (const SubGroupPlan& s : g.sub_groups) children[s.parent].push_back(&s);
  return children;
}

// Whether the gang cannot start without every child of `name` ("" for the gang): the node
// and each of its ancestors need all their children.
bool NeedsAllChildren(const GangPlan& g,
                      const std::map<std::string, std::vector<const SubGroupPlan*>>& children,
                      const std::string& name) {
  auto count = [&](const std::string& n) {
    auto it = children.find(n);
    return it == children.end() ? size_t{0} : it->second.size();
  };
  std::string node = name;
  for (size_t depth = 0; depth <= g.sub_groups.size(); ++depth) {
    if (node.empty()) {
      return g.min_sub_group == 0 || static_cast<size_t>(g.min_sub_group) >= count("");
    }
    auto it = std::find_if(g.sub_groups.begin(), g.sub_groups.end(),
                           [&](const SubGroupPlan& s) { return s.name == node; });
    if (it == g.sub_groups.end()) return false;
    if (static_cast<size_t>(it->min_sub_group) < count(node)) return false;
    node = it->parent;
  }
  return false;  // a cycle: plans have none
}

// {"mode", "highestTierName"} for a topology, or null (with a warning) when the options give
// no tier name for its level.
Value NetworkTopology(const EmitContext& c, const std::optional<Topology>& t,
                      const std::string& what, std::vector<std::string>* warnings) {
  if (!t) return Value();
  const bool hard = !t->required_topology_level.empty();
  const std::string& level = hard ? t->required_topology_level : t->preferred_topology_level;
  if (level.empty()) return Value();
  auto tier = c.options.volcano_tier_names.find(level);
  if (tier == c.options.volcano_tier_names.end()) {
    warnings->push_back(what + ": topology level " + level +
                        " left out: Volcano's networkTopology names a HyperNode tier, not a node "
                        "label (give its tier name with --volcano-tier " +
                        level + "=TIER)");
    return Value();
  }
  return Value::Object({{"mode", Value::String(hard ? "hard" : "soft")},
                        {"highestTierName", Value::String(tier->second)}});
}

struct Policy {
  std::string name;  // a DNS label, unique in the PodGroup
  std::string parent;
  int32_t size = 0;
  std::vector<const SubGroupPlan*> leaves;
};

// The leaves grouped by parent and size, in plan order; leaves with no pod minimum (optional
// components) join no policy.
std::vector<Policy> Policies(const GangPlan& g) {
  std::vector<Policy> policies;
  for (const SubGroupPlan& s : g.sub_groups) {
    if (!IsLeaf(g, s) || s.min_member <= 0) continue;
    auto it = std::find_if(policies.begin(), policies.end(), [&](const Policy& p) {
      return p.parent == s.parent && p.size == s.min_member;
    });
    if (it == policies.end()) {
      policies.push_back(Policy{"", s.parent, s.min_member, {}});
      it = std::prev(policies.end());
    }
    it->leaves.push_back(&s);
  }
  // Named after the parent (the gang's definition name for leaves directly under it), and the
  // leaf size where a parent has several.
  std::map<std::string, int> per_parent;
  for (const Policy& p : policies) ++per_parent[p.parent];
  std::set<std::string> used;
  for (Policy& p : policies) {
    std::string base = DnsLabel(p.parent.empty() ? g.definition_gang : p.parent);
    if (base.empty()) base = "subgroups";
    if (per_parent[p.parent] > 1) base = ShortenName(base, 50) + "-size-" + std::to_string(p.size);
    std::string name = base;
    for (int n = 2; !used.insert(name).second; ++n) {
      name = ShortenName(base, 60) + "-" + std::to_string(n);
    }
    p.name = name;
  }
  return policies;
}

}  // namespace

Result<SchedulerObjects> EmitVolcano(const EmitContext& c) {
  SchedulerObjects out;
  // Volcano's own kinds (Job, and the Jobs of a CronJob) get their PodGroup from Volcano's job
  // controller, which writes minTaskMember from the tasks and minMember from minAvailable as
  // they are: the object shown is that one.
  const bool own_kind = c.identity.Group() == "batch.volcano.sh";
  if (own_kind) {
    out.warnings.push_back("Volcano's job controller makes the PodGroup of a " + c.identity.kind +
                           " itself; the one shown is what it makes");
  }
  const bool legacy = c.options.volcano_min_task_member || own_kind;
  // Per gang: the policy and leaf label values of each leaf, for the pod patches.
  std::map<std::string, std::map<std::string, std::string>> policy_of;
  for (const GangPlan& g : c.plans.gangs) {
    const auto children = Children(g);
    int64_t min_member = EffectiveMinPods(g);
    Value spec = Value::Object({{"minMember", Value::Int(min_member)}});
    bool partial = false;  // some leaves are not required: Volcano cannot say which will do
    if (legacy) {
      Value tasks = Value::EmptyObject();
      int64_t sum = 0;
      for (const SubGroupPlan& s : g.sub_groups) {
        if (!IsLeaf(g, s) || (s.min_member <= 0 && !own_kind)) continue;
        if (!own_kind && !NeedsAllChildren(g, children, s.parent)) {
          partial = true;
          continue;
        }
        tasks.set(s.name, Value::Int(s.min_member));
        sum += s.min_member;
        if (s.topology && !own_kind) {
          out.warnings.push_back("gang " + g.name + " subgroup " + s.name +
                                 ": topology left out (minTaskMember has none; subGroupPolicy, "
                                 "the default, has)");
        }
      }
      if (!own_kind) min_member = std::max(min_member, sum);
      if (tasks.size() > 0) spec.set("minTaskMember", std::move(tasks));
    } else {
      Value policies = Value::EmptyArray();
      int64_t sum = 0;
      for (const Policy& p : Policies(g)) {
        const bool required = NeedsAllChildren(g, children, p.parent);
        partial = partial || !required;
        const int64_t needed = required ? static_cast<int64_t>(p.leaves.size()) : 0;
        sum += needed * p.size;
        Value policy = Value::Object(
            {{"name", Value::String(p.name)},
             {"labelSelector",
              Value::Object({{"matchLabels", Value::Object({{std::string(kPolicyLabel),
                                                             Value::String(p.name)}})}})},
             {"matchLabelKeys", Value::Array({Value::String(kSubGroupLabel)})},
             {"subGroupSize", Value::Int(p.size)},
             {"minSubGroups", Value::Int(needed)}});
        std::optional<Topology> topology;
        for (const SubGroupPlan* leaf : p.leaves) {
          policy_of[g.name][leaf->name] = p.name;
          if (!topology && leaf->topology) topology = leaf->topology;
        }
        Value network =
            NetworkTopology(c, topology, "gang " + g.name + " policy " + p.name, &out.warnings);
        if (!network.is_null()) policy.set("networkTopology", std::move(network));
        policies.push_back(std::move(policy));
      }
      min_member = std::max(min_member, sum);
      if (policies.size() > 0) spec.set("subGroupPolicy", std::move(policies));
    }
    if (partial) {
      out.warnings.push_back(
          "gang " + g.name +
          ": it can start without some of its subgroups, and Volcano cannot say which; only "
          "minMember and the size of each subgroup bind");
    }
    spec.set("minMember", Value::Int(min_member));  // keeps its place, first
    if (!g.queue.empty()) spec.set("queue", Value::String(g.queue));
    if (!g.priority_class_name.empty()) {
      spec.set("priorityClassName", Value::String(g.priority_class_name));
    }
    Value resources = ResourceListToValue(g.min_resources);
    if (resources.size() > 0) spec.set("minResources", std::move(resources));
    Value network = NetworkTopology(c, g.topology, "gang " + g.name, &out.warnings);
    if (!network.is_null()) spec.set("networkTopology", std::move(network));
    out.objects.push_back(MakeObject("scheduling.volcano.sh/v1beta1", "PodGroup",
                                     ObjectMeta(c.identity, ObjectNameOf(g.name)),
                                     std::move(spec)));
  }
  PodPatches patches(c.identity);
  for (const PodGangAssignment& p : c.plans.pods) {
    if (p.gang.empty()) continue;
    patches.Annotate(p.pod, "scheduling.k8s.io/group-name", ObjectNameOf(p.gang));
    if (p.sub_group.empty()) continue;
    patches.Annotate(p.pod, "volcano.sh/task-spec", p.sub_group);
    auto gang = policy_of.find(p.gang);
    if (gang == policy_of.end()) continue;
    auto policy = gang->second.find(p.sub_group);
    if (policy == gang->second.end()) continue;
    patches.Label(p.pod, kPolicyLabel, policy->second);
    patches.Label(p.pod, kSubGroupLabel, LabelSafeGangName(p.sub_group));
  }
  out.pod_patches = patches.Take();
  return out;
}

}  // namespace wmap::scheduling
