// The `computed` gangs of the `gangs` form: gangs a framework computes from its own spec (Grove
// makes a PodGang per PodCliqueSet replica and per scaled scaling-group replica), stated as an
// expression over the workload giving one object per gang:
//
//   {name, minMember?, minSubGroup?, pods?, topology?: {topologyName, requiredTopologyLevel?,
//    preferredTopologyLevel?},
//    subGroups?: [{name, parent?, minMember?, minSubGroup?, pods?, component?, instance?,
//                  topology?}]}
//
// Leaves (subgroups no other subgroup names as parent) need minMember pods (default: pods) of
// the `pods` they hold (default: minMember; 0 when neither is given); `component` and
// `instance` name the pod template they are made from, for resource totals. Parents need
// minSubGroup children (default: all). A gang needs minMember pods (default: the sum of its
// leaves' minimums) and minSubGroup top-level subgroups (default: 0, unset, as the framework's
// gang objects leave it); one without subgroups states its `pods`. Pods join the gang their podGang
// expression names and the leaf their podSubGroup expression names.
#include <map>
#include <set>

#include "resolve/extract.h"
#include "resolve/gang_plan_form.h"
#include "resolve/gang_plan_internal.h"
#include "wmap/json.h"

namespace wmap::resolve::gang_form {
namespace {

Error Bad(const std::string& what, const std::string& message) {
  return MakeError(what + ": " + message);
}

// A string member ("" when absent or null); an error for any other type.
Result<std::string> Text(const Value& object, std::string_view key, const std::string& what) {
  const Value* v = object.find(key);
  if (v == nullptr || v->is_null()) return std::string();
  if (!v->is_string()) {
    return Bad(what, std::string(key) + " is " + json::ToCompactString(*v) + ", want a string");
  }
  return std::string(v->as_string());
}

// A count member (0 to 2147483647); nullopt when absent or null.
Result<std::optional<int32_t>> Count(const Value& object, std::string_view key,
                                     const std::string& what) {
  const Value* v = object.find(key);
  if (v == nullptr || v->is_null()) return std::optional<int32_t>();
  if (!v->is_integer() || v->as_int() < 0 || v->as_int() > 2147483647) {
    return Bad(what, std::string(key) + " is " + json::ToCompactString(*v) +
                         ", want an integer from 0 to 2147483647");
  }
  return std::optional<int32_t>(static_cast<int32_t>(v->as_int()));
}

Result<std::optional<Topology>> TopologyOf(const Value& object, const std::string& what) {
  const Value* t = object.find("topology");
  if (t == nullptr || t->is_null()) return std::optional<Topology>();
  if (!t->is_object()) return Bad(what, "topology is not an object");
  Topology out;
  auto name = Text(*t, "topologyName", what + " topology");
  auto required = Text(*t, "requiredTopologyLevel", what + " topology");
  auto preferred = Text(*t, "preferredTopologyLevel", what + " topology");
  if (!name.ok()) return name.error();
  if (!required.ok()) return required.error();
  if (!preferred.ok()) return preferred.error();
  if (name->empty() || (required->empty() && preferred->empty())) {
    return Bad(what, "topology needs topologyName and a required or preferred level");
  }
  out.topology_name = *name;
  out.required_topology_level = *required;
  out.preferred_topology_level = *preferred;
  return std::optional<Topology>(out);
}

}  // namespace

std::optional<Error> GangFormPlanner::BuildComputedGangs(size_t index, const GangDefinition& g) {
  const ComputedGangs& c = *g.computed;
  const Value& object = reader_.workload().object();
  auto outputs = EvaluateAll(c.gangs, object, GangVariables{});
  if (!outputs.ok()) return Wrap("gang " + g.name + " computed.gangs", outputs.error());
  for (const Value& out : *outputs) {
    if (++planned_ > kMaxPlanned) return TooMany();
    std::string what =
        "gang " + g.name + " (computed.gangs result " + std::to_string(plans_.gangs.size()) + ")";
    if (!out.is_object())
      return Bad(what, "gave " + json::ToCompactString(out) + ", want an object");
    GangPlan plan;
    plan.definition_gang = g.name;
    auto name = Text(out, "name", what);
    if (!name.ok()) return name.error();
    if (name->empty()) return Bad(what, "has no name");
    plan.name = *name;
    plan.instance_id = *name;
    what = "gang " + g.name + " " + plan.name;
    auto topology = TopologyOf(out, what);
    if (!topology.ok()) return topology.error();
    plan.topology = *topology;

    BuiltGang built;
    built.definition = index;
    built.computed = true;
    const Value* subs = out.find("subGroups");
    if (subs != nullptr && !subs->is_null() && !subs->is_array()) {
      return Bad(what, "subGroups is not an array");
    }
    std::map<std::string, size_t> position;  // subgroup name -> index
    if (subs != nullptr && subs->is_array()) {
      for (const Value& s : subs->items()) {
        if (++planned_ > kMaxPlanned) return TooMany();
        if (!s.is_object()) return Bad(what, "a subgroup is not an object");
        SubGroupPlan sub;
        auto sub_name = Text(s, "name", what + " subgroup");
        if (!sub_name.ok()) return sub_name.error();
        if (sub_name->empty()) return Bad(what, "a subgroup has no name");
        sub.name = *sub_name;
        const std::string sub_what = what + " subgroup " + sub.name;
        auto parent = Text(s, "parent", sub_what);
        if (!parent.ok()) return parent.error();
        sub.parent = *parent;
        NodeInfo node;
        if (!sub.parent.empty()) {
          auto at = position.find(sub.parent);
          if (at == position.end()) {
            return Bad(sub_what, "parent \"" + sub.parent + "\" is not an earlier subgroup");
          }
          node.parent = static_cast<int>(at->second);
          built.nodes[at->second].leaf = false;
        }
        auto component = Text(s, "component", sub_what);
        auto instance = Text(s, "instance", sub_what);
        if (!component.ok()) return component.error();
        if (!instance.ok()) return instance.error();
        if (!component->empty()) {
          int k = definition_.FindComponent(*component);
          if (k < 0) return Bad(sub_what, "names unknown component \"" + *component + "\"");
          sub.component = static_cast<size_t>(k);
          sub.instance_id = *instance;
        }
        auto sub_topology = TopologyOf(s, sub_what);
        if (!sub_topology.ok()) return sub_topology.error();
        sub.topology = *sub_topology;
        auto min_member = Count(s, "minMember", sub_what);
        auto min_sub_group = Count(s, "minSubGroup", sub_what);
        auto pods = Count(s, "pods", sub_what);
        if (!min_member.ok()) return min_member.error();
        if (!min_sub_group.ok()) return min_sub_group.error();
        if (!pods.ok()) return pods.error();
        sub.min_member = min_member->value_or(pods->value_or(0));
        sub.pods = pods->value_or(sub.min_member);
        sub.min_sub_group = min_sub_group->value_or(-1);  // resolved once children are known
        if (!position.emplace(sub.name, plan.sub_groups.size()).second) {
          return Bad(what, "subgroup name \"" + sub.name + "\" appears twice");
        }
        plan.sub_groups.push_back(std::move(sub));
        built.nodes.push_back(node);
      }
    }
    // Leaves: pods and resources. Parents: children's pods; default minSubGroup = all.
    int64_t leaf_min = 0;
    int64_t leaf_pods = 0;
    for (size_t i = plan.sub_groups.size(); i-- > 0;) {
      SubGroupPlan& sub = plan.sub_groups[i];
      if (built.nodes[i].leaf) {
        if (sub.min_sub_group > 0) {
          return Bad(what + " subgroup " + sub.name, "minSubGroup is for subgroups with children");
        }
        sub.min_sub_group = 0;
        if (sub.min_member > sub.pods) {
          return Bad(what + " subgroup " + sub.name, "minMember " + std::to_string(sub.min_member) +
                                                         " is more than its " +
                                                         std::to_string(sub.pods) + " pods");
        }
        if (sub.component) {
          auto data = reader_.Component(*sub.component);
          if (!data.ok()) return Wrap(what, data.error());
          for (const InstanceData& in : (*data)->instances) {
            if (in.id != sub.instance_id) continue;
            sub.pod_template = in.pod_template;
            sub.per_pod_requests = in.per_pod.requests;
            break;
          }
        }
        AddTo(&plan.resources, Times(sub.per_pod_requests, sub.pods));
        AddTo(&plan.min_resources, Times(sub.per_pod_requests, sub.min_member));
        leaf_min += sub.min_member;
        leaf_pods += sub.pods;
      } else {
        sub.min_member = 0;
        int32_t children = 0;
        int64_t pods = 0;
        for (size_t k = i + 1; k < plan.sub_groups.size(); ++k) {
          if (plan.sub_groups[k].parent != sub.name) continue;
          ++children;
          pods += plan.sub_groups[k].pods;
        }
        if (sub.min_sub_group < 0) sub.min_sub_group = children;
        if (sub.min_sub_group > children) {
          return Bad(what + " subgroup " + sub.name,
                     "minSubGroup " + std::to_string(sub.min_sub_group) + " is more than its " +
                         std::to_string(children) + " children");
        }
        auto count = ToCount(pods, what);
        if (!count.ok()) return count.error();
        sub.pods = *count;
      }
    }
    auto pods = ToCount(leaf_pods, what);
    if (!pods.ok()) return pods.error();
    plan.pods = *pods;
    // A gang without subgroups states its pods itself.
    auto gang_pods = Count(out, "pods", what);
    if (!gang_pods.ok()) return gang_pods.error();
    if (*gang_pods) {
      if (!plan.sub_groups.empty()) return Bad(what, "pods is for gangs without subgroups");
      plan.pods = **gang_pods;
    }
    auto min_member = Count(out, "minMember", what);
    auto min_sub_group = Count(out, "minSubGroup", what);
    if (!min_member.ok()) return min_member.error();
    if (!min_sub_group.ok()) return min_sub_group.error();
    auto default_min = ToCount(leaf_min, what + " minMember");
    if (!default_min.ok()) return default_min.error();
    plan.min_member = min_member->value_or(*default_min);
    plan.min_sub_group = min_sub_group->value_or(0);
    auto override_min = MinMemberOverride(object, g.min_member_override_annotation, what);
    if (!override_min.ok()) return override_min.error();
    if (*override_min) plan.min_member = **override_min;
    if (auto e = EvaluateSchedulingTexts(g, object, GangVariables{plan.name, std::nullopt}, what,
                                         &plan)) {
      return e;
    }
    plans_.gangs.push_back(std::move(plan));
    built_.push_back(std::move(built));
  }
  return std::nullopt;
}

Result<bool> GangFormPlanner::AssignComputed(const Value& pod, PodGangAssignment* a) const {
  const std::vector<GangDefinition>& gangs = definition_.gang_scheduling()->gangs;
  bool only_computed = true;
  for (size_t d = 0; d < gangs.size(); ++d) {
    const GangDefinition& g = gangs[d];
    if (!g.computed) {
      only_computed = false;
      continue;
    }
    auto name = EvaluateText(g.computed->pod_gang, pod, GangVariables{},
                             "gang " + g.name + " computed.podGang");
    if (!name.ok()) return name.error();
    if (name->empty()) {
      a->reason = "computed.podGang of gang " + g.name + " gives no gang for the pod";
      continue;
    }
    for (size_t i = 0; i < built_.size(); ++i) {
      if (!built_[i].computed || built_[i].definition != d || plans_.gangs[i].name != *name) {
        continue;
      }
      a->gang = *name;
      a->reason.clear();
      if (g.computed->pod_sub_group) {
        auto leaf = EvaluateText(*g.computed->pod_sub_group, pod, GangVariables{},
                                 "gang " + g.name + " computed.podSubGroup");
        if (!leaf.ok()) return leaf.error();
        const GangPlan& plan = plans_.gangs[i];
        for (size_t n = 0; n < plan.sub_groups.size(); ++n) {
          if (built_[i].nodes[n].leaf && plan.sub_groups[n].name == *leaf) {
            a->sub_group = *leaf;
            break;
          }
        }
      }
      return true;
    }
    a->reason = "the pod's gang \"" + *name + "\" (computed.podGang of gang " + g.name +
                ") is not among the planned gangs";
  }
  return only_computed && !gangs.empty();
}

}  // namespace wmap::resolve::gang_form
