// The Karta gang forms as gang plans, with upstream's sizes (Workload::SubtreeScale) and KAI
// Scheduler's names: "pg-<uid>-<podGroup.name>" (v2) and "pg-<uid>-<key1>-<key2>..." (alpha),
// the workload's name in place of a uid it does not have yet.
// Queue, priority class and preemptibility are not part of a Karta and stay empty.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "resolve/extract.h"
#include "resolve/gang_karta.h"
#include "resolve/gang_plan_internal.h"

namespace wmap::resolve {
namespace {

// Which gang gets which pods needs only counts and selectors (as upstream computes it);
// requests and templates come from the pod definitions, whose failure leaves them out with a
// warning instead of failing the plan.
void CannotRead(const std::string& what, const Error& e, std::vector<std::string>* warnings) {
  std::string text = what + ": requests and template not read (" + e.message + ")";
  if (std::find(warnings->begin(), warnings->end(), text) == warnings->end()) {
    warnings->push_back(std::move(text));
  }
}

// Requests of `pods` pods of the subtree, each counted at the subtree's largest pod (exact when
// the subtree has one pod template); empty, with a warning, when they cannot be read.
ResourceList Estimate(WorkloadReader& reader, size_t component, int64_t pods,
                      const std::string& what, std::vector<std::string>* warnings) {
  auto per_pod = reader.MaxPerPod(component);
  if (!per_pod.ok()) {
    CannotRead(what, per_pod.error(), warnings);
    return {};
  }
  return Times(*per_pod, pods);
}

}  // namespace

Result<GangPlans> PlanKartaPodGroup(WorkloadReader& reader, std::span<const Value> pods) {
  const Workload& w = reader.workload();
  const Definition& d = reader.definition();
  const PodGroupV2& spec = *d.gang_scheduling()->pod_group;
  PodQuerier querier(d);
  auto group = EvaluatePodGroup(w, querier, Value());
  if (!group.ok()) return group.error();
  WorkloadIdentity id = IdentityOf(w.object());
  std::vector<std::string> warnings;
  GangPlan plan;
  const std::string name_template = "pg-{uid}-{name}";
  plan.name = ExpandTemplate(name_template,
                             {{"uid", UidPlaceholder(id, name_template)}, {"name", spec.name}});
  plan.definition_gang = spec.name;
  plan.min_member = (*group)->min_available;
  plan.min_sub_group = (*group)->min_sub_group;
  if (spec.topology) plan.topology = *spec.topology;
  for (const PodGroupPlan::Member& m : (*group)->sub_groups) {
    SubGroupPlan sub;
    sub.name = m.name;
    sub.min_member = m.min_available;
    sub.component = m.component;
    if (m.topology) sub.topology = *m.topology;
    auto n = reader.KartaPods(m.component);
    if (!n.ok()) return n.error();
    auto count = ToCount(*n, "subgroup " + m.name);
    if (!count.ok()) return count.error();
    sub.pods = *count;
    auto per_pod = reader.MaxPerPod(m.component);
    auto first = reader.FirstTemplate(m.component);
    if (per_pod.ok() && first.ok()) {
      sub.per_pod_requests = *per_pod;
      sub.pod_template = std::move(*first);
    } else {
      CannotRead("subgroup " + m.name, per_pod.ok() ? first.error() : per_pod.error(), &warnings);
    }
    plan.pods += sub.pods;
    AddTo(&plan.resources, Times(sub.per_pod_requests, sub.pods));
    AddTo(&plan.min_resources, Times(sub.per_pod_requests, sub.min_member));
    plan.sub_groups.push_back(std::move(sub));
  }
  if (plan.sub_groups.empty()) {
    auto n = reader.KartaPods(0);
    if (!n.ok()) return n.error();
    auto count = ToCount(*n, "gang " + plan.name);
    if (!count.ok()) return count.error();
    plan.pods = *count;
    plan.resources = Estimate(reader, 0, plan.pods, "gang " + plan.name, &warnings);
    plan.min_resources = Estimate(reader, 0, plan.min_member, "gang " + plan.name, &warnings);
  }
  GangPlans plans;
  plans.warnings = std::move(warnings);
  for (const Value& pod : pods) {
    PodGangAssignment a = AssignmentFor(pod);
    a.gang = plan.name;
    auto with_pod = EvaluatePodGroup(w, querier, pod);
    if (!with_pod.ok()) {
      a.gang.clear();
      a.reason = with_pod.error().message;
    } else {
      for (const PodGroupPlan::Member& m : (*with_pod)->sub_groups) {
        if (m.contains_pod) {
          a.sub_group = m.name;
          break;
        }
      }
    }
    plans.pods.push_back(std::move(a));
  }
  plans.gangs.push_back(std::move(plan));
  return plans;
}

Result<GangPlans> PlanKartaPodGroups(WorkloadReader& reader, std::span<const Value> pods) {
  const Workload& w = reader.workload();
  const Definition& d = reader.definition();
  PodQuerier querier(d);
  WorkloadIdentity id = IdentityOf(w.object());
  GangPlans plans;
  std::map<std::string, size_t> by_name;
  for (const Value& pod : pods) {
    PodGangAssignment a = AssignmentFor(pod);
    auto membership = EvaluatePodGangGroup(w, querier, pod);
    if (!membership.ok()) {
      a.reason = membership.error().message;
      plans.pods.push_back(std::move(a));
      continue;
    }
    if (!*membership) {
      a.reason = "the definition has no podGroups entry for the pod's component";
      plans.pods.push_back(std::move(a));
      continue;
    }
    const PodGangMembership& m = **membership;
    std::string name = ExpandTemplate("pg-{uid}", {{"uid", UidPlaceholder(id, "pg-{uid}")}});
    for (const std::string& key : m.keys) name += "-" + key;
    a.gang = name;
    if (!by_name.count(name)) {
      GangPlan plan;
      plan.name = name;
      plan.definition_gang = m.pod_group;
      plan.instance_id = m.instance_id.value_or("");
      plan.min_member = m.min_available;
      auto n = reader.KartaPods(m.member_component, m.instance_id);
      if (!n.ok()) return n.error();
      auto count = ToCount(*n, "gang " + name);
      if (!count.ok()) return count.error();
      plan.pods = *count;
      plan.resources =
          Estimate(reader, m.member_component, plan.pods, "gang " + name, &plans.warnings);
      plan.min_resources =
          Estimate(reader, m.member_component, plan.min_member, "gang " + name, &plans.warnings);
      by_name.emplace(name, plans.gangs.size());
      plans.gangs.push_back(std::move(plan));
    }
    plans.pods.push_back(std::move(a));
  }
  return plans;
}

}  // namespace wmap::resolve
