// Kueue, two ways.
//
// Kinds Kueue integrates itself (its jobframework builds their Workloads from the object, and
// never gates their pods as a plain pod group): the workload gets the queue label, and each
// gang's topology goes to its pod templates as Kueue's podset topology annotations; nothing is
// created and no pod is patched.
//
// Other kinds: one prebuilt kueue.x-k8s.io/v1beta2 Workload per gang, a podSet per component
// instance, that the gang's pods name (pod-group-name and prebuilt-workload-name annotations).
// As in Kueue's own integrations a pod set has a count only (all its pods or none); minCount
// comes from the gang's partial admission alone (the batch/v1 Job annotation
// kueue.x-k8s.io/job-min-parallelism), never from the gang's minimum.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "scheduling/emit_context.h"
#include "scheduling/pod_template_fields.h"
#include "scheduling/template_changes.h"
#include "wmap/meta.h"
#include "wmap/patch.h"
#include "wmap/resources.h"

namespace wmap::scheduling {
namespace {

constexpr std::string_view kQueueLabel = "kueue.x-k8s.io/queue-name";

struct PodSet {
  std::string name;
  int64_t count = 0;
  Value template_spec;
  std::optional<Topology> topology;
};

// The kinds of Kueue's built-in integrations (integrations.frameworks, v0.19): group and kind,
// and the one version where Kueue integrates only that one (MPIJob: mpi-operator's v2beta1,
// not training-operator's v1).
bool IntegratedByKueue(const WorkloadIdentity& id) {
  struct Kind {
    std::string_view group, kind, version;
  };
  static constexpr Kind kKinds[] = {
      {"batch", "Job", ""},
      {"jobset.x-k8s.io", "JobSet", ""},
      {"leaderworkerset.x-k8s.io", "LeaderWorkerSet", ""},
      {"ray.io", "RayJob", ""},
      {"ray.io", "RayCluster", ""},
      {"ray.io", "RayService", ""},
      {"kubeflow.org", "PyTorchJob", ""},
      {"kubeflow.org", "TFJob", ""},
      {"kubeflow.org", "XGBoostJob", ""},
      {"kubeflow.org", "PaddleJob", ""},
      {"kubeflow.org", "JAXJob", ""},
      {"kubeflow.org", "MPIJob", "v2beta1"},
      {"trainer.kubeflow.org", "TrainJob", ""},
      {"workload.codeflare.dev", "AppWrapper", ""},
      {"apps", "Deployment", ""},
      {"apps", "StatefulSet", ""},
      {"", "Pod", ""},
  };
  const std::string group = id.Group();
  const std::string version = id.api_version.substr(id.api_version.find('/') + 1);
  for (const Kind& k : kKinds) {
    if (k.group == group && k.kind == id.kind && (k.version.empty() || k.version == version)) {
      return true;
    }
  }
  return false;
}

// {"required": level} or {"preferred": level}, Kueue's topology request for a pod set; null
// without a level.
Value TopologyRequest(const std::optional<Topology>& t) {
  if (!t) return Value();
  if (!t->required_topology_level.empty()) {
    return Value::Object({{"required", Value::String(t->required_topology_level)}});
  }
  if (!t->preferred_topology_level.empty()) {
    return Value::Object({{"preferred", Value::String(t->preferred_topology_level)}});
  }
  return Value();
}

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
      sets.push_back(PodSet{name, 0, s.pod_template, s.topology ? s.topology : g.topology});
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
    std::vector<Value> templates;
    auto r = c.workload.EffectivePodTemplates(component.component);
    if (!r.ok()) return r.error();
    if (*r) templates = **r;
    for (size_t k = 0; k < component.instances.size(); ++k) {
      const InstanceResourceNeeds& in = component.instances[k];
      if (!g.instance_id.empty() && !in.id.empty() && in.id != g.instance_id) continue;
      Value t = k < templates.size() ? templates[k] : Value();
      if (t.is_null() && in.pods == 0) continue;  // an optional component left out
      sets.push_back(
          PodSet{in.id.empty() ? component.name : in.id, in.pods, std::move(t), g.topology});
    }
  }
  return sets;
}

// The workload as Kueue's own integration wants it: the queue label, and the podset topology
// annotations on the pod templates of each gang (or subgroup) with a topology.
Result<SchedulerObjects> EmitIntegrated(const EmitContext& c) {
  SchedulerObjects out;
  const std::string& kind = c.identity.kind;
  std::string queue;
  for (const GangPlan& g : c.plans.gangs) {
    if (queue.empty()) queue = g.queue;
    if (EffectiveMinPods(g) < g.pods && !g.partial_admission) {
      out.warnings.push_back("gang " + g.name + " needs " + std::to_string(EffectiveMinPods(g)) +
                             " of its " + std::to_string(g.pods) + " pods, but Kueue admits a " +
                             kind + " with all its pods or none");
    }
  }
  // One topology request per pod template: a required level wins over a preferred one.
  struct Request {
    bool required = false;
    std::string level;
    std::string why;
  };
  std::map<TemplateRef, Request> requests;
  std::vector<TemplateRef> order;
  auto request = [&](const std::vector<TemplateRef>& refs, const Topology& t,
                     const std::string& why) {
    Request r{
        !t.required_topology_level.empty(),
        t.required_topology_level.empty() ? t.preferred_topology_level : t.required_topology_level,
        why};
    if (r.level.empty()) return;
    for (const TemplateRef& ref : refs) {
      auto [it, inserted] = requests.emplace(ref, r);
      if (inserted) {
        order.push_back(ref);
        continue;
      }
      Request& have = it->second;
      if (have.required == r.required && have.level == r.level) continue;
      const bool replace = r.required && !have.required;
      out.warnings.push_back(
          (replace ? have.why : r.why) + ": its pods share a pod template with " +
          (replace ? r.why : have.why) +
          ", and Kueue takes one topology per pod set: " + (replace ? r.level : have.level) +
          (replace || have.required ? " (required)" : "") + " is kept");
      if (replace) have = r;
    }
  };
  for (const GangPlan& g : c.plans.gangs) {
    for (const SubGroupPlan& s : g.sub_groups) {
      if (!IsLeaf(g, s) || !s.component || !(s.topology || g.topology)) continue;
      GangPlan one = g;
      one.sub_groups = {s};
      Result<std::vector<TemplateRef>> refs = GangTemplates(c, one);
      if (!refs.ok()) return refs.error();
      request(*refs, s.topology ? *s.topology : *g.topology, "subgroup " + s.name);
    }
    if (g.sub_groups.empty() && g.topology) {
      Result<std::vector<TemplateRef>> refs = GangTemplates(c, g);
      if (!refs.ok()) return refs.error();
      request(*refs, *g.topology, "gang " + g.name);
    }
  }
  std::vector<TemplateChange> changes;
  for (const TemplateRef& ref : order) {
    const Request& r = requests[ref];
    TemplateChange change;
    change.ref = ref;
    change.changes.annotations.emplace_back(r.required ? "kueue.x-k8s.io/podset-required-topology"
                                                       : "kueue.x-k8s.io/podset-preferred-topology",
                                            r.level);
    change.why = r.why + " topology";
    changes.push_back(std::move(change));
  }
  Result<Value> updated = ApplyTemplateChanges(c, changes, &out.warnings);
  if (!updated.ok()) return updated.error();
  Value object = std::move(*updated);
  const std::string current(meta::LabelValue(c.workload.object(), kQueueLabel));
  if (queue.empty()) queue = current;
  if (queue.empty()) {
    out.warnings.push_back("no queue: Kueue admits a " + kind +
                           " only through a LocalQueue (label the workload " +
                           std::string(kQueueLabel) + "=QUEUE)");
  } else if (queue != current) {
    Value* meta = object.find_mutable("metadata");
    if (meta == nullptr || !meta->is_object()) {
      object.set("metadata", Value::EmptyObject());
      meta = object.find_mutable("metadata");
    }
    Value labels = meta->find("labels") != nullptr && meta->find("labels")->is_object()
                       ? *meta->find("labels")
                       : Value::EmptyObject();
    labels.set(kQueueLabel, Value::String(queue));
    meta->set("labels", std::move(labels));
  }
  out.workload_patch = JsonPatch(c.workload.object(), object);
  out.warnings.push_back("Kueue builds the Workload of a " + kind +
                         " itself from the object; nothing is created and no pod is patched");
  return out;
}

}  // namespace

Result<SchedulerObjects> EmitKueue(const EmitContext& c) {
  if (!c.options.kueue_prebuilt && IntegratedByKueue(c.identity)) return EmitIntegrated(c);
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
      // A pod set the object gives no template for (the framework makes its pods from its own
      // defaults, as KServe does for an empty router scheduler) still needs one in the
      // Workload: a container with no requests, which Kueue counts as nothing.
      Value template_spec = s.template_spec;
      if (!template_spec.is_object()) {
        out.warnings.push_back(
            "gang " + g.name + ": pod set " + s.name +
            " has no pod template in the object (its framework makes one from its defaults); "
            "Kueue counts its " +
            std::to_string(s.count) + " pod(s) with no requests");
        template_spec = Value::Object(
            {{"spec", Value::Object({{"containers", Value::Array({Value::Object(
                                                        {{"name", Value::String("main")}})})}})}});
      }
      Value ps = Value::Object({{"name", Value::String(s.name)},
                                {"count", Value::Int(s.count)},
                                {"template", PodTemplateSpecOf(template_spec)}});
      if (Value topology = TopologyRequest(s.topology); !topology.is_null()) {
        ps.set("topologyRequest", std::move(topology));
      }
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
    if (!g.priority_class_name.empty()) {
      out.warnings.push_back("gang " + g.name + ": priority class " + g.priority_class_name +
                             " left out (a Workload's priorityClassRef needs the class's value "
                             "in spec.priority, which only the cluster knows)");
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
    out.objects.push_back(MakeObject("kueue.x-k8s.io/" + c.api_version, "Workload", std::move(meta),
                                     std::move(spec)));
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
