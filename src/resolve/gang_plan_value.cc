// GangPlansToValue: the plan as a value (the shape documented in wmap/gang.h).
#include "wmap/gang.h"

namespace wmap {
namespace {

Value SubGroupValue(const Definition& definition, const SubGroupPlan& s) {
  Value out = Value::Object({{"name", Value::String(s.name)}});
  if (!s.parent.empty()) out.set("parent", Value::String(s.parent));
  out.set("minMember", Value::Int(s.min_member));
  out.set("minSubGroup", Value::Int(s.min_sub_group));
  if (s.component && *s.component < definition.components().size()) {
    out.set("component", Value::String(definition.components()[*s.component].name));
  }
  if (!s.instance_id.empty()) out.set("instance", Value::String(s.instance_id));
  if (s.replica) out.set("replica", Value::String(*s.replica));
  out.set("pods", Value::Int(s.pods));
  if (s.topology) out.set("topology", TopologyToValue(*s.topology));
  return out;
}

}  // namespace

Value TopologyToValue(const Topology& t) {
  Value out = Value::Object({{"topologyName", Value::String(t.topology_name)}});
  if (!t.required_topology_level.empty()) {
    out.set("requiredTopologyLevel", Value::String(t.required_topology_level));
  }
  if (!t.preferred_topology_level.empty()) {
    out.set("preferredTopologyLevel", Value::String(t.preferred_topology_level));
  }
  return out;
}

Value GangPlansToValue(const Definition& definition, const GangPlans& plans) {
  Value gangs = Value::EmptyArray(plans.gangs.size());
  for (const GangPlan& g : plans.gangs) {
    Value out = Value::Object(
        {{"name", Value::String(g.name)}, {"definitionGang", Value::String(g.definition_gang)}});
    if (!g.instance_id.empty()) out.set("instance", Value::String(g.instance_id));
    out.set("minMember", Value::Int(g.min_member));
    out.set("minSubGroup", Value::Int(g.min_sub_group));
    out.set("pods", Value::Int(g.pods));
    if (!g.queue.empty()) out.set("queue", Value::String(g.queue));
    if (!g.priority_class_name.empty()) {
      out.set("priorityClassName", Value::String(g.priority_class_name));
    }
    if (!g.preemptibility.empty()) out.set("preemptibility", Value::String(g.preemptibility));
    if (g.partial_admission) out.set("partialAdmission", Value::Int(*g.partial_admission));
    if (g.topology) out.set("topology", TopologyToValue(*g.topology));
    out.set("minResources", ResourceListToValue(g.min_resources));
    out.set("resources", ResourceListToValue(g.resources));
    Value subs = Value::EmptyArray(g.sub_groups.size());
    for (const SubGroupPlan& s : g.sub_groups) subs.push_back(SubGroupValue(definition, s));
    out.set("subGroups", std::move(subs));
    gangs.push_back(std::move(out));
  }
  Value pods = Value::EmptyArray(plans.pods.size());
  for (const PodGangAssignment& p : plans.pods) {
    Value out = Value::Object({{"pod", Value::String(p.pod)}});
    if (!p.uid.empty()) out.set("uid", Value::String(p.uid));
    out.set("gang", Value::String(p.gang));
    if (!p.sub_group.empty()) out.set("subGroup", Value::String(p.sub_group));
    if (!p.reason.empty()) out.set("reason", Value::String(p.reason));
    pods.push_back(std::move(out));
  }
  Value out = Value::Object({{"gangs", std::move(gangs)}, {"pods", std::move(pods)}});
  if (!plans.warnings.empty()) {
    Value warnings = Value::EmptyArray(plans.warnings.size());
    for (const std::string& w : plans.warnings) warnings.push_back(Value::String(w));
    out.set("warnings", std::move(warnings));
  }
  return out;
}

}  // namespace wmap
