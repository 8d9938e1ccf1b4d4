// The gang documents: the plan of every gang form (PlanGangs), and for the Karta `podGroups`
// form the minimum of each member, which is known before any pod exists.
#include <string>
#include <utility>

#include "view/expressions.h"
#include "wmap/gang.h"
#include "wmap/view.h"

namespace wmap::view {
namespace {

// One podGroups member: its minimum, per instance when the component has instances.
Value MemberValue(const Workload& w, const PodGroupMember& member,
                  std::vector<std::string>* errors) {
  const Definition& d = w.definition();
  Value m = Value::EmptyObject();
  m.set("component", Value::String(member.component_name));
  m.set("groupByKeyPaths", ExpressionTexts(member.group_by_key_paths));
  m.set("filters", ExpressionTexts(member.filters));
  auto fail = [&](const std::string& message) {
    errors->push_back(member.component_name + ": " + message);
    return Value::String(message);
  };
  int c = d.FindComponent(member.component_name);
  if (c < 0) {
    m.set("error", fail("the definition has no component named " + member.component_name));
    return m;
  }
  auto component = static_cast<size_t>(c);
  Result<std::vector<std::string>> ids = w.InstanceIds(component);
  if (!ids.ok()) {
    m.set("error", fail(ids.error().message));
    return m;
  }
  const bool per_instance = d.components()[component].instance_id_path.has_value();
  Value instances = Value::EmptyArray();
  for (const std::string& id : *ids) {
    Value entry = Value::EmptyObject();
    if (per_instance) entry.set("id", Value::String(id));
    Result<int32_t> scale =
        w.SubtreeScale(component, per_instance ? std::optional<std::string>(id) : std::nullopt);
    if (scale.ok()) {
      entry.set("minAvailable", Value::Int(*scale));
    } else {
      entry.set("error", fail(scale.error().message));
    }
    instances.push_back(std::move(entry));
  }
  m.set("instances", std::move(instances));
  return m;
}

}  // namespace

std::string_view GangFormName(const Definition& definition) {
  const std::optional<GangScheduling>& gang = definition.gang_scheduling();
  if (!gang) return "none";
  if (!gang->gangs.empty()) return "gangs";
  if (gang->pod_group) return "podGroup";
  if (!gang->pod_groups.empty()) return "podGroups";
  return "none";
}

WorkloadGangs PlanWorkloadGangs(const Definition& definition, const Value& workload,
                                std::span<const Value> pods) {
  WorkloadGangs out;
  out.form = GangFormName(definition);
  Result<GangPlans> plans = PlanGangs(Workload(definition, workload), pods);
  if (plans.ok()) {
    out.plans = std::move(*plans);
  } else {
    out.error = plans.error();
  }
  return out;
}

Value GangsValue(const Definition& definition, const WorkloadGangs& gangs) {
  Value v = Value::EmptyObject();
  v.set("form", Value::String(gangs.form));
  if (gangs.error) {
    v.set("error", Value::String(gangs.error->message));
    return v;
  }
  Value plan = GangPlansToValue(definition, gangs.plans);
  v.set("gangs", *plan.find("gangs"));
  v.set("pods", *plan.find("pods"));
  if (const Value* warnings = plan.find("warnings")) v.set("warnings", *warnings);
  return v;
}

Value GangDocument(const SourceObject& workload, const Definition& definition,
                   const WorkloadGangs& gangs, std::vector<std::string>* errors) {
  Value v = Document("WorkloadGangs");
  v.set("workload", WorkloadReference(workload));
  v.set("definition", Value::String(definition.name()));
  const Value section = GangsValue(definition, gangs);
  for (const Member& m : section.members()) v.set(m.key.as_string(), m.value);
  if (gangs.error) errors->push_back(gangs.error->message);
  if (gangs.form == "podGroups") {
    Workload w(definition, workload.value);
    Value groups = Value::EmptyArray();
    for (const PodGroupDefinition& pg : definition.gang_scheduling()->pod_groups) {
      Value members = Value::EmptyArray();
      for (const PodGroupMember& member : pg.members) {
        members.push_back(MemberValue(w, member, errors));
      }
      groups.push_back(
          Value::Object({{"name", Value::String(pg.name)}, {"members", std::move(members)}}));
    }
    v.set("podGroups", std::move(groups));
  }
  v.set("source", SourceLocation(workload));
  return v;
}

Value SchedulerObjectsDocument(const SourceObject& workload, Scheduler scheduler,
                               const SchedulerObjects& objects) {
  Value v = Document("SchedulerObjects");
  v.set("workload", WorkloadReference(workload));
  v.set("scheduler", Value::String(SchedulerName(scheduler)));
  v.set("objects", Value::Array(objects.objects));
  v.set("podPatches", Value::Array(objects.pod_patches));
  v.set("workloadPatch", objects.workload_patch);
  Value warnings = Value::EmptyArray();
  for (const std::string& warning : objects.warnings) warnings.push_back(Value::String(warning));
  v.set("warnings", std::move(warnings));
  v.set("source", SourceLocation(workload));
  return v;
}

}  // namespace wmap::view
