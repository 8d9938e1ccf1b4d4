// What gang planning reads from a workload, once per component: instances with their replica
// counts, pods per replica, pod templates and per-pod resources; pod and resource tallies over
// component subtrees; name templates; and the evaluation of the `gangs` form's expressions.
#ifndef WMAP_RESOLVE_GANG_PLAN_SUPPORT_H_
#define WMAP_RESOLVE_GANG_PLAN_SUPPORT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/resources.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

namespace wmap::resolve {

struct InstanceData {
  std::string id;
  std::optional<Scale> scale;  // as read (Karta semantics need the raw counts)
  int64_t replicas = 1;        // replicas; 1 when not given
  int64_t min_replicas = 1;    // minReplicas when given, else replicas
  int64_t pods_per_replica = 1;
  Value pod_template;  // {metadata?, spec} or null when the component defines no template
  PodResources per_pod;
};

struct ComponentData {
  std::vector<InstanceData> instances;  // in instance order (never empty)
};

// Restricts a component to one instance and/or one replica of it.
struct Selection {
  std::optional<std::string> instance;
  std::optional<int64_t> replica;
};

// Pods and their requests. `max_per_pod` is the per-resource maximum of one pod.
struct Tally {
  int64_t pods = 0;
  ResourceList requests;
  ResourceList max_per_pod;
};

// Reads each component at most once. Not thread-safe (one per PlanGangs call).
class WorkloadReader {
 public:
  explicit WorkloadReader(const Workload& workload) : workload_(workload) {}

  const Workload& workload() const { return workload_; }
  const Definition& definition() const { return workload_.definition(); }
  Result<const ComponentData*> Component(size_t component);

  // The pods (and their requests) of `component`'s subtree restricted by `selection`: per
  // selected instance, replicas (minimum replicas when `minimum`; 1 when a replica is selected)
  // × pods per replica, times the sum over the children when the component has children.
  Result<Tally> Subtree(size_t component, const Selection& selection, bool minimum);
  // The pods of `target`'s subtree inside the scope (`anchor` restricted by `anchor_selection`;
  // no anchor = the whole workload): the units of every ancestor between them multiply.
  // `target` must be `anchor` or a descendant of it.
  Result<Tally> InScope(std::optional<size_t> anchor, const Selection& anchor_selection,
                        size_t target, const Selection& selection, bool minimum);

  // Upstream's subtree scale with replicas in place of the minimum: the pods of a Karta
  // component at full size (leaf count when no component has a scale definition).
  Result<int64_t> KartaPods(size_t component, const std::optional<std::string>& instance = {});
  // The largest requests of one pod in the subtree, and the first pod template found in it.
  Result<ResourceList> MaxPerPod(size_t component);
  Result<Value> FirstTemplate(size_t component);

 private:
  Result<int64_t> Units(size_t component, const Selection& selection, bool minimum);

  const Workload& workload_;
  std::map<size_t, ComponentData> cache_;
};

// The workload's name (meta::NameOrGenerated: metadata.name, else one made from
// metadata.generateName), metadata.namespace and metadata.uid ("" when absent).
struct WorkloadIdentity {
  std::string name;
  std::string ns;
  std::string uid;
};
WorkloadIdentity IdentityOf(const Value& object);

// What {uid} stands for in a gang name template: the uid; without one (a manifest not yet
// created), the workload's name when the template does not name the workload already, so that
// "pg-{uid}-{name}" still gives the workloads of one namespace different gangs.
std::string UidPlaceholder(const WorkloadIdentity& id, std::string_view name_template);

// Expands {placeholder}s. A placeholder whose value is empty also drops one '-' next to it, so
// "pg-{workload}-{uid}" without a uid is "pg-<workload>". Unknown placeholders expand to "".
std::string ExpandTemplate(const std::string& text,
                           const std::map<std::string, std::string>& values);

// The variables of a `gangs` expression.
struct GangVariables {
  std::string instance;
  std::optional<int64_t> replica;
};
// An expression that yields a count: nullopt for no result or null; otherwise one integer from
// 0 to 2147483647 (a number or a decimal string). `what` names the field in errors.
Result<std::optional<int32_t>> EvaluateCount(const Expression& e, const Value& object,
                                             const GangVariables& variables,
                                             const std::string& what);
// An expression that yields a string: "" for no result, null or ""; one string otherwise.
Result<std::string> EvaluateText(const Expression& e, const Value& object,
                                 const GangVariables& variables, const std::string& what);

// Sets plan->queue, priority_class_name, preemptibility and partial_admission from g's
// expressions (each left empty when absent or when its expression gives nothing). `what` names
// the gang in errors.
std::optional<Error> EvaluateSchedulingTexts(const GangDefinition& g, const Value& object,
                                             const GangVariables& variables,
                                             const std::string& what, GangPlan* plan);

// Every result of a `gangs` expression (at most the evaluation options' result limit).
Result<std::vector<Value>> EvaluateAll(const Expression& e, const Value& input,
                                       const GangVariables& variables);

// The workload's minimum-member override: the integer (1 to 2147483647) its annotation
// `annotation` holds, nullopt without the annotation, an error naming `what` for anything else.
Result<std::optional<int32_t>> MinMemberOverride(const Value& object, const std::string& annotation,
                                                 const std::string& what);

// int64 -> int32 for plan fields; larger counts are an error naming `what`.
Result<int32_t> ToCount(int64_t n, const std::string& what);

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_GANG_PLAN_SUPPORT_H_
