#include "scheduling/template_changes.h"

#include <set>

namespace wmap::scheduling {

Result<std::vector<TemplateRef>> GangTemplates(const EmitContext& c, const GangPlan& gang) {
  const Workload& w = c.workload;
  std::vector<TemplateRef> refs;
  std::set<TemplateRef> seen;
  auto add = [&](size_t component, const std::string& only) -> std::optional<Error> {
    Result<std::vector<std::string>> ids = w.InstanceIds(component);
    if (!ids.ok()) return ids.error();
    for (const std::string& id : *ids) {
      if (!only.empty() && id != only) continue;
      TemplateRef ref{component, id};
      if (seen.insert(ref).second) refs.push_back(ref);
    }
    return std::nullopt;
  };
  if (gang.sub_groups.empty()) {
    const auto& components = w.definition().components();
    for (size_t i = 0; i < components.size(); ++i) {
      if (!components[i].HasPodDefinition()) continue;
      if (std::optional<Error> e = add(i, gang.instance_id)) return *e;
    }
    return refs;
  }
  for (const SubGroupPlan& s : gang.sub_groups) {
    if (!IsLeaf(gang, s) || !s.component) continue;
    if (std::optional<Error> e = add(*s.component, s.instance_id)) return *e;
  }
  return refs;
}

Result<Value> ApplyTemplateChanges(const EmitContext& c, const std::vector<TemplateChange>& changes,
                                   std::vector<std::string>* warnings) {
  const Definition& d = c.workload.definition();
  Value object = c.workload.object();
  for (const TemplateChange& change : changes) {
    Workload current(d, object);
    MutateScope scope;
    scope.component = d.components()[change.ref.component].name;
    if (!change.ref.instance.empty()) scope.instance = change.ref.instance;
    MutateResult r = MutateWorkload(current, scope, change.changes);
    if (!r.ok()) {
      if (r.error().code == ErrorCode::kEvaluation) return r.error();
      warnings->push_back(change.why + ": the pod template of component " + *scope.component +
                          (scope.instance ? " instance " + *scope.instance : std::string()) +
                          " cannot take the change (" + r.error().message + ")");
      continue;
    }
    object = r.object();
  }
  return object;
}

}  // namespace wmap::scheduling
