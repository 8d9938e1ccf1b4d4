// The `gangs` form (WorkloadDefinition): gangs per workload or per instance (or replica) of a
// component, nested subgroups, minima from expressions, optional leaves, the override
// annotation, and the pods' gangs and leaves.
#include <algorithm>
#include <map>

#include "resolve/extract.h"
#include "resolve/gang_plan_form.h"
#include "resolve/gang_plan_internal.h"
#include "wmap/json.h"

namespace wmap::resolve {
namespace gang_form {
namespace {

std::string ReplicaText(const std::optional<int64_t>& r) {
  return r ? std::to_string(*r) : std::string();
}

// Sum of the `k` smallest minima among `children` (by pods; ties keep order).
void SmallestSet(const std::vector<NodeInfo>& nodes, const std::vector<size_t>& children, int32_t k,
                 int64_t* pods, ResourceList* requests) {
  std::vector<size_t> order = children;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return nodes[a].min_pods < nodes[b].min_pods; });
  *pods = 0;
  requests->clear();
  for (size_t i = 0; i < order.size() && static_cast<int32_t>(i) < k; ++i) {
    *pods += nodes[order[i]].min_pods;
    AddTo(requests, nodes[order[i]].min_requests);
  }
}

}  // namespace

Result<GangPlans> GangFormPlanner::Plan(std::span<const Value> pods) {
  const std::vector<GangDefinition>& gangs = definition_.gang_scheduling()->gangs;
  for (size_t i = 0; i < gangs.size(); ++i) {
    if (std::optional<Error> e = BuildGangs(i, gangs[i])) return *e;
  }
  std::map<std::string, size_t> names;
  for (const GangPlan& g : plans_.gangs) {
    if (!names.emplace(g.name, 0).second) {
      return MakeError("two gangs are named \"" + g.name + "\"");
    }
  }
  for (const Value& pod : pods) {
    auto a = Assign(pod);
    if (!a.ok()) {
      PodGangAssignment failed = AssignmentFor(pod);
      failed.reason = a.error().message;
      plans_.pods.push_back(std::move(failed));
    } else {
      plans_.pods.push_back(std::move(*a));
    }
  }
  return std::move(plans_);
}

std::optional<Error> GangFormPlanner::BuildGangs(size_t index, const GangDefinition& g) {
  if (g.computed) return BuildComputedGangs(index, g);
  if (!g.for_each_instance_of) return BuildGang(index, g, Level{}, "");
  size_t k = static_cast<size_t>(definition_.FindComponent(*g.for_each_instance_of));
  auto data = reader_.Component(k);
  if (!data.ok()) return Wrap("gang " + g.name, data.error());
  for (const InstanceData& in : (*data)->instances) {
    if (g.for_each_replica && in.replicas > static_cast<int64_t>(kMaxPlanned)) return TooMany();
    Level level;
    level.component = k;
    level.selection.instance = in.id;
    level.variables.instance = in.id;
    if (!g.for_each_replica) {
      if (std::optional<Error> e = BuildGang(index, g, level, in.id)) return e;
      continue;
    }
    for (int64_t r = 0; r < in.replicas; ++r) {
      level.selection.replica = r;
      level.variables.replica = r;
      std::string label = in.id.empty() ? std::to_string(r) : in.id + "-" + std::to_string(r);
      if (std::optional<Error> e = BuildGang(index, g, level, label)) return e;
    }
  }
  return std::nullopt;
}

std::optional<Error> GangFormPlanner::BuildGang(size_t index, const GangDefinition& g,
                                                const Level& level,
                                                const std::string& instance_label) {
  if (++planned_ > kMaxPlanned) return TooMany();
  const Value& object = reader_.workload().object();
  WorkloadIdentity id = IdentityOf(object);
  GangPlan plan;
  plan.definition_gang = g.name;
  plan.instance_id = instance_label;
  std::string name_template = g.name_template.value_or(
      std::string("pg-{workload}-{uid}") + (g.for_each_instance_of ? "-{instance}" : "") +
      (g.for_each_replica ? "-{replica}" : ""));
  plan.name = ExpandTemplate(name_template, {{"workload", id.name},
                                             {"namespace", id.ns},
                                             {"uid", UidPlaceholder(id, name_template)},
                                             {"gang", g.name},
                                             {"instance", level.variables.instance},
                                             {"replica", ReplicaText(level.variables.replica)}});
  std::string what = "gang " + g.name + (instance_label.empty() ? "" : " " + instance_label);
  if (plan.name.empty()) return MakeError(what + ": the PodGroup name is empty");
  if (g.topology) plan.topology = *g.topology;
  if (auto e = EvaluateSchedulingTexts(g, object, level.variables, what, &plan)) return e;

  BuiltGang built;
  built.definition = index;
  built.anchor = level.component;
  built.selection = level.selection;
  std::vector<size_t> top;
  for (const GangSubGroupDefinition& s : g.sub_groups) {
    if (auto e = Expand(g, s, level, -1, &plan, &built.nodes, &top)) return Wrap(what, *e);
  }
  std::map<std::string, size_t> seen;
  for (const SubGroupPlan& s : plan.sub_groups) {
    if (!seen.emplace(s.name, 0).second) {
      return MakeError(what + ": subgroup name \"" + s.name + "\" appears twice");
    }
  }

  size_t target = level.component.value_or(0);
  auto full = reader_.InScope(level.component, level.selection, target, {}, false);
  if (!full.ok()) return Wrap(what, full.error());
  auto minimum = reader_.InScope(level.component, level.selection, target, {}, true);
  if (!minimum.ok()) return Wrap(what, minimum.error());
  auto pods = ToCount(full->pods, what);
  if (!pods.ok()) return pods.error();
  plan.pods = *pods;
  plan.resources = full->requests;
  // A gang whose subgroups hold no pod (a RayJob on an existing cluster, whose head and workers
  // are not its own) has nothing to schedule together: it is not planned.
  if (!top.empty()) {
    int64_t covered = 0;
    for (size_t t : top) covered += plan.sub_groups[t].pods;
    if (covered == 0) return std::nullopt;
  }

  int32_t min_sub_group = static_cast<int32_t>(top.size());
  if (g.min_sub_group) {
    auto r = EvaluateCount(*g.min_sub_group, object, level.variables, what + " minSubGroup");
    if (!r.ok()) return r.error();
    if (*r) min_sub_group = **r;
    if (min_sub_group > static_cast<int32_t>(top.size())) {
      return MakeError(what + ": minSubGroup " + std::to_string(min_sub_group) +
                       " is more than its " + std::to_string(top.size()) + " subgroups");
    }
  }
  plan.min_sub_group = min_sub_group;

  int64_t default_min = minimum->pods;
  ResourceList default_requests = minimum->requests;
  if (!top.empty()) SmallestSet(built.nodes, top, min_sub_group, &default_min, &default_requests);
  std::optional<int32_t> min_member;
  if (g.min_member) {
    auto r = EvaluateCount(*g.min_member, object, level.variables, what + " minMember");
    if (!r.ok()) return r.error();
    min_member = *r;
  }
  auto override_min = MinMemberOverride(object, g.min_member_override_annotation, what);
  if (!override_min.ok()) return override_min.error();
  if (*override_min) min_member = *override_min;
  if (min_member) {
    plan.min_member = *min_member;
    if (*min_member == default_min) {
      plan.min_resources = default_requests;
    } else if (*min_member == full->pods) {
      plan.min_resources = full->requests;
    } else {
      plan.min_resources = Times(full->max_per_pod, *min_member);
    }
  } else {
    auto count = ToCount(default_min, what + " minMember");
    if (!count.ok()) return count.error();
    plan.min_member = *count;
    plan.min_resources = default_requests;
  }
  plans_.gangs.push_back(std::move(plan));
  built_.push_back(std::move(built));
  return std::nullopt;
}

std::optional<Error> GangFormPlanner::Expand(const GangDefinition& g,
                                             const GangSubGroupDefinition& s, const Level& scope,
                                             int parent, GangPlan* plan,
                                             std::vector<NodeInfo>* nodes,
                                             std::vector<size_t>* emitted) {
  std::map<std::string, std::string> values = {{"gang", g.name}};
  if (s.component_name.empty()) {
    std::string name = ExpandTemplate(s.name.value_or(""), values);
    return Finish(g, s, scope, scope, parent, name, plan, nodes, emitted);
  }
  size_t c = static_cast<size_t>(definition_.FindComponent(s.component_name));
  auto data = reader_.Component(c);
  if (!data.ok()) return data.error();
  Selection base = scope.component == c ? scope.selection : Selection{};
  // Without instanceIdPath the only instance id is "", so the component names the subgroup.
  bool ids = HasInstances(c);
  // A component whose instanceIdPath gives no instance (a PyTorchJob without a Master) is
  // absent from this workload: it has no subgroup.
  if (ids && (*data)->instances.empty()) return std::nullopt;
  std::string default_name = s.for_each_replica
                                 ? (ids ? "{instance}-{replica}" : "{component}-{replica}")
                             : s.for_each_instance && ids ? "{instance}"
                                                          : "{component}";
  values["component"] = s.component_name;
  auto emit = [&](const Selection& sel, std::optional<size_t> owner,
                  const Selection& owner_selection) -> std::optional<Error> {
    Level self;
    self.component = c;
    self.selection = sel;
    self.replica_owner = owner;
    self.owner_selection = owner_selection;
    if (sel.instance) {
      self.variables.instance = *sel.instance;
    } else if ((*data)->instances.size() == 1) {
      self.variables.instance = (*data)->instances[0].id;
    } else {
      self.variables.instance = scope.variables.instance;
    }
    self.variables.replica = sel.replica ? sel.replica : scope.variables.replica;
    values["instance"] = self.variables.instance;
    values["replica"] = ReplicaText(self.variables.replica);
    std::string name = ExpandTemplate(s.name.value_or(default_name), values);
    return Finish(g, s, scope, self, parent, name, plan, nodes, emitted);
  };
  if (!s.for_each_instance && !s.for_each_replica) return emit(base, std::nullopt, {});
  // Per instance of the component (or the one of the enclosing level), or the level itself.
  auto each_instance = [&](const Selection& from, std::optional<size_t> owner,
                           const Selection& owner_selection) -> std::optional<Error> {
    if (!s.for_each_instance) return emit(from, owner, owner_selection);
    for (const InstanceData& in : (*data)->instances) {
      if (from.instance && in.id != *from.instance) continue;
      Selection sel = from;
      sel.instance = in.id;
      if (auto e = emit(sel, owner, owner_selection)) return e;
    }
    return std::nullopt;
  };
  if (s.for_each_replica && !OwnsReplicaSelector(c)) {
    size_t a = ReplicaOwner(c);
    Selection outer = scope.component == a ? scope.selection : Selection{};
    auto owner = reader_.Component(a);
    if (!owner.ok()) return owner.error();
    for (const InstanceData& in : (*owner)->instances) {
      if (outer.instance && in.id != *outer.instance) continue;
      if (!outer.replica && in.replicas > static_cast<int64_t>(kMaxPlanned)) return TooMany();
      for (int64_t r = 0; r < in.replicas; ++r) {
        if (outer.replica && r != *outer.replica) continue;
        Selection sel = base;
        sel.replica = r;
        if (auto e = each_instance(sel, a, Selection{in.id, r})) return e;
      }
    }
    return std::nullopt;
  }
  for (const InstanceData& in : (*data)->instances) {
    if (base.instance && in.id != *base.instance) continue;
    Selection sel = base;
    sel.instance = in.id;
    if (!s.for_each_replica) {
      if (auto e = emit(sel, std::nullopt, {})) return e;
      continue;
    }
    if (!base.replica && in.replicas > static_cast<int64_t>(kMaxPlanned)) return TooMany();
    for (int64_t r = 0; r < in.replicas; ++r) {
      if (base.replica && r != *base.replica) continue;
      sel.replica = r;
      if (auto e = emit(sel, std::nullopt, {})) return e;
    }
  }
  return std::nullopt;
}

std::optional<Error> GangFormPlanner::Finish(const GangDefinition& g,
                                             const GangSubGroupDefinition& s, const Level& scope,
                                             const Level& self, int parent, const std::string& name,
                                             GangPlan* plan, std::vector<NodeInfo>* nodes,
                                             std::vector<size_t>* emitted) {
  const Value& object = reader_.workload().object();
  std::string what = "subgroup " + (name.empty() ? s.field : name);
  if (name.empty()) return MakeError(what + ": the name is empty");
  if (++planned_ > kMaxPlanned) return TooMany();
  size_t index = plan->sub_groups.size();
  emitted->push_back(index);
  {
    SubGroupPlan sub;
    sub.name = name;
    sub.parent = parent >= 0 ? plan->sub_groups[parent].name : "";
    if (s.topology) sub.topology = *s.topology;
    if (!s.component_name.empty()) {
      sub.component = self.component;
      if (self.selection.instance && HasInstances(*self.component)) {
        sub.instance_id = *self.selection.instance;
      }
      if (self.selection.replica) sub.replica = std::to_string(*self.selection.replica);
    }
    plan->sub_groups.push_back(std::move(sub));
    NodeInfo info;
    info.parent = parent;
    if (!s.component_name.empty()) {
      info.component = self.component;
      if (self.selection.instance && HasInstances(*self.component)) {
        info.instance = self.selection.instance;
      }
      info.replica = self.selection.replica;
    }
    nodes->push_back(std::move(info));
  }
  if (!s.sub_groups.empty()) {
    (*nodes)[index].leaf = false;
    Level inner = s.component_name.empty() ? scope : self;
    if (self.replica_owner) {
      inner = Level{self.replica_owner, self.owner_selection, {}, std::nullopt, {}};
    }
    inner.variables = self.variables;
    std::vector<size_t> children;
    for (const GangSubGroupDefinition& child : s.sub_groups) {
      if (auto e = Expand(g, child, inner, static_cast<int>(index), plan, nodes, &children)) {
        return e;
      }
    }
    int32_t min_sub_group = static_cast<int32_t>(children.size());
    if (s.min_sub_group) {
      auto r = EvaluateCount(*s.min_sub_group, object, self.variables, what + " minSubGroup");
      if (!r.ok()) return r.error();
      if (*r) min_sub_group = **r;
      if (min_sub_group > static_cast<int32_t>(children.size())) {
        return MakeError(what + ": minSubGroup " + std::to_string(min_sub_group) +
                         " is more than its " + std::to_string(children.size()) + " subgroups");
      }
    }
    NodeInfo& info = (*nodes)[index];
    SmallestSet(*nodes, children, min_sub_group, &info.min_pods, &info.min_requests);
    int64_t pods = 0;
    for (size_t child : children) {
      pods += plan->sub_groups[child].pods;
      MaxInto(&info.max_per_pod, (*nodes)[child].max_per_pod);
    }
    auto count = ToCount(pods, what);
    if (!count.ok()) return count.error();
    SubGroupPlan& sub = plan->sub_groups[index];
    sub.min_sub_group = min_sub_group;
    sub.pods = *count;
    sub.per_pod_requests = info.max_per_pod;
    return std::nullopt;
  }
  size_t c = *self.component;
  // Where the leaf's pods are counted: inside the enclosing level, or inside one replica of the
  // ancestor whose replicas the leaf is made per.
  std::optional<size_t> count_anchor = scope.component;
  Selection count_selection = scope.selection;
  Selection own = self.selection;
  if (self.replica_owner) {
    count_anchor = self.replica_owner;
    count_selection = self.owner_selection;
    own.replica.reset();
  }
  auto full = reader_.InScope(count_anchor, count_selection, c, own, false);
  if (!full.ok()) return Wrap(what, full.error());
  auto count = ToCount(full->pods, what);
  if (!count.ok()) return count.error();
  int64_t min_pods = 0;
  ResourceList min_requests;
  if (!s.optional) {
    std::optional<int32_t> written;
    if (s.min_member) {
      auto r = EvaluateCount(*s.min_member, object, self.variables, what + " minMember");
      if (!r.ok()) return r.error();
      written = *r;
    }
    if (written) {
      min_pods = *written;
      min_requests = min_pods == full->pods ? full->requests : Times(full->max_per_pod, min_pods);
    } else {
      auto minimum = reader_.InScope(count_anchor, count_selection, c, own, true);
      if (!minimum.ok()) return Wrap(what, minimum.error());
      min_pods = minimum->pods;
      min_requests = minimum->requests;
    }
  }
  auto min_count = ToCount(min_pods, what + " minMember");
  if (!min_count.ok()) return min_count.error();
  NodeInfo& info = (*nodes)[index];
  info.min_pods = min_pods;
  info.min_requests = std::move(min_requests);
  info.max_per_pod = full->max_per_pod;
  SubGroupPlan& sub = plan->sub_groups[index];
  sub.min_member = *min_count;
  sub.pods = *count;
  sub.per_pod_requests = full->max_per_pod;
  auto data = reader_.Component(c);
  if (!data.ok()) return data.error();
  for (const InstanceData& in : (*data)->instances) {
    if (self.selection.instance && in.id != *self.selection.instance) continue;
    sub.pod_template = in.pod_template;
    break;
  }
  return std::nullopt;
}

}  // namespace gang_form

Result<GangPlans> PlanGangForm(WorkloadReader& reader, std::span<const Value> pods) {
  return gang_form::GangFormPlanner(reader).Plan(pods);
}

}  // namespace wmap::resolve
