// The Kubernetes Workload API (KEP-4671, scheduling.k8s.io/v1beta1 as Kubernetes 1.37 serves
// it): one Workload per workload with a pod group template per gang of the definition, and one
// PodGroup per planned gang (the scheduler reads only PodGroups).
//
// Invariants: template names are DNS labels unique in the Workload; every PodGroup names a
// template of its Workload; every template and PodGroup carries exactly one of the basic and
// gang policies (gang when the gang needs more than one pod). What the API cannot hold is
// dropped with a warning: subgroup trees (v1beta1 PodGroups have none) and topology (its
// constraint is forbidden unless the TopologyAwareWorkloadScheduling gate is on).
#include <algorithm>
#include <map>
#include <set>

#include "scheduling/workload_api.h"

#include "scheduling/template_changes.h"
#include "wmap/patch.h"

namespace wmap::scheduling {

Value Policy(int64_t min_pods) {
  return min_pods > 1
             ? Value::Object({{"gang", Value::Object({{"minCount", Value::Int(min_pods)}})}})
             : Value::Object({{"basic", Value::EmptyObject()}});
}

std::string TemplateName(const GangPlan& g) {
  return DnsLabel(g.definition_gang.empty() ? g.name : g.definition_gang);
}

std::string PodGroupName(const GangPlan& g) {
  std::string name = DnsLabel(g.name);
  return name.empty() ? std::string("pod-group") : name;
}

std::string PriorityClassOf(const GangPlans& plans, std::vector<std::string>* warnings) {
  if (plans.gangs.empty()) return "";
  const std::string& first = plans.gangs.front().priority_class_name;
  std::set<std::string> warned;
  for (const GangPlan& g : plans.gangs) {
    if (g.priority_class_name != first && warned.insert(g.priority_class_name).second) {
      warnings->push_back("gang " + g.name + ": priority class \"" + g.priority_class_name +
                          "\" differs from \"" + first +
                          "\"; a Workload's templates must agree, the first is used");
    }
  }
  return first;
}

Value ControllerRef(const WorkloadIdentity& identity) {
  return Value::Object({{"apiGroup", Value::String(identity.Group())},
                        {"kind", Value::String(identity.kind)},
                        {"name", Value::String(identity.name)}});
}

std::optional<Error> SetSchedulingGroups(
    const EmitContext& c, const std::vector<std::pair<TemplateRef, std::string>>& owners,
    SchedulerObjects* out) {
  std::vector<std::string>* warnings = &out->warnings;
  std::map<TemplateRef, std::string> owner;
  std::set<TemplateRef> shared;
  std::vector<TemplateRef> order;
  for (const auto& [ref, group] : owners) {
    auto [it, inserted] = owner.emplace(ref, group);
    if (inserted) {
      order.push_back(ref);
    } else if (it->second != group) {
      shared.insert(ref);
    }
  }
  std::vector<TemplateChange> changes;
  for (const TemplateRef& ref : order) {
    const std::string& component = c.workload.definition().components()[ref.component].name;
    if (shared.count(ref) != 0) {
      warnings->push_back("the pod template of component " + component +
                          (ref.instance.empty() ? std::string() : " instance " + ref.instance) +
                          " makes pods of several PodGroups, so it cannot name one in "
                          "spec.schedulingGroup; its pods must be given their group as they are "
                          "created");
      continue;
    }
    TemplateChange change;
    change.ref = ref;
    change.changes.scheduling_group = owner[ref];
    change.why = "PodGroup " + owner[ref];
    changes.push_back(std::move(change));
  }
  Result<Value> updated = ApplyTemplateChanges(c, changes, warnings);
  if (!updated.ok()) return updated.error();
  out->workload_patch = JsonPatch(c.workload.object(), *updated);
  if (!c.plans.pods.empty()) {
    warnings->push_back(
        "existing pods cannot join a PodGroup (spec.schedulingGroup is immutable); the workload "
        "patch sets it in the pod templates, for pods created after it");
  }
  return std::nullopt;
}

namespace {

struct Template {
  std::string name;
  int64_t min_pods = 0;
  std::string priority_class_name;
};

// One template per definition gang; gangs made per instance share it (the largest minimum).
std::vector<Template> Templates(const GangPlans& plans, std::vector<std::string>* warnings) {
  std::vector<Template> templates;
  std::map<std::string, size_t> index;
  for (const GangPlan& g : plans.gangs) {
    const std::string name = TemplateName(g);
    const int64_t min = EffectiveMinPods(g);
    auto [it, inserted] = index.emplace(name, templates.size());
    if (inserted) {
      templates.push_back({name, min, g.priority_class_name});
      continue;
    }
    Template& t = templates[it->second];
    if (t.min_pods != min) {
      warnings->push_back("pod group template " + name +
                          ": its gangs need different minimums; the template keeps the largest, "
                          "each PodGroup its own");
    }
    t.min_pods = std::max(t.min_pods, min);
  }
  // All templates of a Workload must carry the same priority class.
  for (Template& t : templates) {
    if (t.priority_class_name != templates.front().priority_class_name) {
      warnings->push_back("pod group template " + t.name + ": priority class \"" +
                          t.priority_class_name + "\" differs from \"" +
                          templates.front().priority_class_name +
                          "\"; a Workload's templates must agree, the first is used");
      t.priority_class_name = templates.front().priority_class_name;
    }
  }
  return templates;
}

void WarnLosses(const GangPlan& g, std::vector<std::string>* warnings) {
  if (!g.sub_groups.empty()) {
    warnings->push_back("gang " + g.name +
                        ": its subgroups are flattened into one PodGroup (v1beta1 PodGroups have "
                        "none), so their own minimums are not enforced");
  }
  bool topology = g.topology.has_value();
  for (const SubGroupPlan& s : g.sub_groups) topology = topology || s.topology.has_value();
  if (topology) {
    warnings->push_back("gang " + g.name +
                        ": topology left out (schedulingConstraints needs the "
                        "TopologyAwareWorkloadScheduling feature gate and cannot be added later)");
  }
}

// spec.schedulingGroup.podGroupName in the pod templates of each gang.
std::optional<Error> SetGangSchedulingGroups(const EmitContext& c, SchedulerObjects* out) {
  std::vector<std::pair<TemplateRef, std::string>> owners;
  for (const GangPlan& g : c.plans.gangs) {
    Result<std::vector<TemplateRef>> refs = GangTemplates(c, g);
    if (!refs.ok()) return refs.error();
    for (const TemplateRef& ref : *refs) owners.emplace_back(ref, PodGroupName(g));
  }
  return SetSchedulingGroups(c, owners, out);
}

}  // namespace

Result<SchedulerObjects> EmitWorkloadApi(const EmitContext& c) {
  SchedulerObjects out;
  if (c.plans.gangs.empty()) return out;
  if (c.api_version == "v1alpha3" &&
      std::any_of(c.plans.gangs.begin(), c.plans.gangs.end(),
                  [](const GangPlan& g) { return !g.sub_groups.empty(); })) {
    return EmitWorkloadApiComposite(c);
  }
  const std::string api_version = "scheduling.k8s.io/" + c.api_version;
  std::vector<Template> templates = Templates(c.plans, &out.warnings);
  if (templates.size() > c.options.max_pod_sets) {
    return Error{"the workload needs " + std::to_string(templates.size()) +
                     " pod group templates; a Workload holds at most " +
                     std::to_string(c.options.max_pod_sets),
                 "",
                 {},
                 "define fewer gangs (gangs made per instance share one template)",
                 ErrorCode::kUnsupported};
  }
  Value template_values = Value::EmptyArray(templates.size());
  for (const Template& t : templates) {
    Value v =
        Value::Object({{"name", Value::String(t.name)}, {"schedulingPolicy", Policy(t.min_pods)}});
    if (!t.priority_class_name.empty()) {
      v.set("priorityClassName", Value::String(t.priority_class_name));
    }
    template_values.push_back(std::move(v));
  }
  Value spec = Value::EmptyObject();
  spec.set("controllerRef", ControllerRef(c.identity));
  spec.set("podGroupTemplates", std::move(template_values));
  out.objects.push_back(MakeObject(api_version, "Workload", ObjectMeta(c.identity, c.identity.name),
                                   std::move(spec)));

  std::set<std::string> names;
  for (const GangPlan& g : c.plans.gangs) {
    const std::string name = PodGroupName(g);
    if (!names.insert(name).second) {
      return Error{"gangs " + g.name + " and another one both make PodGroup " + name,
                   "",
                   {},
                   "give the definition's gangs distinct name templates",
                   ErrorCode::kInvalidDefinition};
    }
    WarnLosses(g, &out.warnings);
    Value pg = Value::EmptyObject();
    pg.set("workloadRef", Value::Object({{"workloadName", Value::String(c.identity.name)},
                                         {"templateName", Value::String(TemplateName(g))}}));
    pg.set("schedulingPolicy", Policy(EffectiveMinPods(g)));
    if (!templates.front().priority_class_name.empty()) {
      pg.set("priorityClassName", Value::String(templates.front().priority_class_name));
    }
    out.objects.push_back(
        MakeObject(api_version, "PodGroup", ObjectMeta(c.identity, name), std::move(pg)));
  }
  // A pod names its group in spec.schedulingGroup.podGroupName, which is immutable: it belongs
  // in the pod template before the pods exist, so no pod patch is given.
  if (std::optional<Error> e = SetGangSchedulingGroups(c, &out)) return *e;
  return out;
}

}  // namespace wmap::scheduling
