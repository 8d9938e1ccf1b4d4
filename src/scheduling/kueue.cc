// Kueue: one prebuilt kueue.x-k8s.io/v1beta2 Workload per gang, a podSet per component instance,
// that the gang's pods name (pod-group-name and prebuilt-workload-name annotations). As in
// Kueue's own integrations a pod set has a count only (all its pods or none); minCount comes
// from the gang's partial admission alone (the batch/v1 Job annotation
// kueue.x-k8s.io/job-min-parallelism), never from the gang's minimum.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "scheduling/emit_context.h"
#include "wmap/meta.h"
#include "wmap/resources.h"

namespace wmap::scheduling {
namespace {

struct PodSet {
  std::string name;
  int64_t count = 0;
  Value template_spec;
};

std::string QueueOf(const GangPlan& g, const Value& object) {
  if (!g.queue.empty()) return g.queue;
  return std::string(meta::LabelValue(object, "kueue.x-k8s.io/queue-name"));
}

// Unique DNS labels for the pod sets, "main" for a nameless one.
void NamePodSets(std::vector<PodSet>* sets) {
  std::set<std::string> used;
  for (PodSet& s : *sets) {
    std::string base = DnsLabel(s.name);
    if (base.empty()) base = "main";
    std::string name = base;
    for (int n = 2; used.count(name) != 0; ++n) {
      std::string suffix = "-" + std::to_string(n);
      name = base.substr(0, 63 - suffix.size()) + suffix;
    }
    used.insert(name);
    s.name = name;
  }
}

// Pod sets from the gang's leaves, merged per component instance.
std::vector<PodSet> FromLeaves(const EmitContext& c, const GangPlan& g) {
  std::vector<PodSet> sets;
  std::map<std::pair<size_t, std::string>, size_t> index;
  for (const SubGroupPlan& s : g.sub_groups) {
    if (!IsLeaf(g, s)) continue;
    const size_t component = s.component.value_or(0);
    auto key = std::make_pair(component, s.instance_id);
    auto [it, inserted] = index.emplace(key, sets.size());
    if (inserted) {
      std::string name = s.instance_id;
      if (name.empty() && s.component) name = c.workload.definition().components()[component].name;
      if (name.empty()) name = s.name;
      sets.push_back(PodSet{name, 0, s.pod_template});
    }
    sets[it->second].count += s.pods;
  }
  return sets;
}

// Pod sets from the workload's components, for a gang without subgroups.
Result<std::vector<PodSet>> FromComponents(const EmitContext& c, const GangPlan& g) {
  Result<WorkloadResourceNeeds> needs = ComputeResourceNeeds(c.workload);
  if (!needs.ok()) return needs.error();
  std::vector<PodSet> sets;
  for (const ComponentResourceNeeds& component : needs->components) {
    const ComponentDefinition& def = c.workload.definition().components()[component.component];
    std::vector<Value> templates;
    if (def.spec && def.spec->pod_template_spec) {
      auto r = c.workload.PodTemplateSpecs(component.component);
      if (!r.ok()) return r.error();
      if (*r) templates = **r;
    } else if (def.spec && def.spec->pod_spec) {
      auto r = c.workload.PodSpecs(component.component);
      if (!r.ok()) return r.error();
      if (*r) {
        for (const Value& spec : **r) templates.push_back(Value::Object({{"spec", spec}}));
      }
    }
    for (size_t k = 0; k < component.instances.size(); ++k) {
      const InstanceResourceNeeds& in = component.instances[k];
      if (!g.instance_id.empty() && !in.id.empty() && in.id != g.instance_id) continue;
      sets.push_back(PodSet{in.id.empty() ? component.name : in.id, in.pods,
                            k < templates.size() ? templates[k] : Value()});
    }
  }
  return sets;
}

}  // namespace

Result<SchedulerObjects> EmitKueue(const EmitContext& c) {
  SchedulerObjects out;
  for (const GangPlan& g : c.plans.gangs) {
    std::vector<PodSet> sets;
    if (!g.sub_groups.empty()) {
      sets = FromLeaves(c, g);
    } else {
      Result<std::vector<PodSet>> r = FromComponents(c, g);
      if (!r.ok()) return r.error();
      sets = std::move(*r);
    }
    if (sets.size() > c.options.max_kueue_pod_sets) {
      return Error{"gang " + g.name + " needs " + std::to_string(sets.size()) +
                       " pod sets; a Kueue Workload holds at most " +
                       std::to_string(c.options.max_kueue_pod_sets),
                   "",
                   {},
                   "split the workload, or group its components into fewer subgroups",
                   ErrorCode::kUnsupported};
    }
    if (g.partial_admission && sets.size() > 1) {
      out.warnings.push_back("gang " + g.name + " has " + std::to_string(sets.size()) +
                             " pod sets and its partial admission does not say which one may run "
                             "smaller; no minCount");
    }
    NamePodSets(&sets);
    Value pod_sets = Value::EmptyArray(sets.size());
    for (const PodSet& s : sets) {
      if (!s.template_spec.is_object()) {
        return Error{"gang " + g.name + ": pod set " + s.name + " has no pod template",
                     "",
                     {},
                     "Kueue needs each pod set's template; the definition must give a "
                     "podTemplateSpecPath or podSpecPath for that component",
                     ErrorCode::kUnsupported};
      }
      Value ps = Value::Object({{"name", Value::String(s.name)},
                                {"count", Value::Int(s.count)},
                                {"template", s.template_spec}});
      if (g.partial_admission && sets.size() == 1) {
        // The Workload CRD: 1 <= minCount <= count.
        const int64_t min = *g.partial_admission;
        if (min < 1 || min > s.count) {
          return Error{
              "gang " + g.name + ": partial admission of " + std::to_string(min) + " pods is " +
                  (min < 1 ? std::string("less than 1")
                           : "more than the " + std::to_string(s.count) + " of pod set " + s.name),
              "",
              {},
              "Kueue admits a pod set partially down to a minCount from 1 to its count",
              ErrorCode::kInvalidInput};
        }
        ps.set("minCount", Value::Int(min));
      }
      pod_sets.push_back(std::move(ps));
    }
    Value spec = Value::Object({{"podSets", std::move(pod_sets)}});
    const std::string queue = QueueOf(g, c.workload.object());
    if (queue.empty()) {
      out.warnings.push_back("gang " + g.name +
                             ": no queue; Kueue admits a Workload only through a LocalQueue "
                             "(label the workload kueue.x-k8s.io/queue-name)");
    } else {
      spec.set("queueName", Value::String(queue));
    }
    // A prebuilt Workload: Kueue adopts it for the pod group named by the pods'
    // prebuilt-workload-name, and ignores one with a foreign controller owner (or, named as the
    // group, one it did not create itself), so the reference to the workload is not a
    // controller's.
    Value meta = ObjectMeta(c.identity, LabelSafeGangName(g.name));
    if (Value* owners = meta.find_mutable("ownerReferences")) {
      Value owner = owners->items()[0];
      owner.set("controller", Value::Bool(false));
      owner.set("blockOwnerDeletion", Value::Bool(false));
      *owners = Value::Array({std::move(owner)});
    }
    out.objects.push_back(
        MakeObject("kueue.x-k8s.io/v1beta2", "Workload", std::move(meta), std::move(spec)));
  }
  PodPatches patches(c.identity);
  for (const PodGangAssignment& p : c.plans.pods) {
    const GangPlan* g = FindGang(c.plans, p.gang);
    if (g == nullptr) continue;
    // Kueue reads the group name from the annotation first; the prebuilt Workload must carry it.
    patches.Annotate(p.pod, "kueue.x-k8s.io/pod-group-name", LabelSafeGangName(g->name));
    patches.Annotate(p.pod, "kueue.x-k8s.io/prebuilt-workload-name", LabelSafeGangName(g->name));
    patches.Annotate(p.pod, "kueue.x-k8s.io/pod-group-total-count", std::to_string(g->pods));
    const std::string queue = QueueOf(*g, c.workload.object());
    if (!queue.empty()) patches.Label(p.pod, "kueue.x-k8s.io/queue-name", queue);
  }
  out.pod_patches = patches.Take();
  return out;
}

}  // namespace wmap::scheduling
