// What every scheduler's emitter shares: the workload's identity, object metadata with the
// controller reference, pod patches, names made valid for the API server.
#ifndef WMAP_SCHEDULING_EMIT_CONTEXT_H_
#define WMAP_SCHEDULING_EMIT_CONTEXT_H_

#include <map>
#include <string>
#include <string_view>

#include "wmap/gang.h"
#include "wmap/scheduling.h"
#include "wmap/value.h"
#include "wmap/workload.h"

namespace wmap::scheduling {

// The workload's identity, read from its object.
struct WorkloadIdentity {
  std::string api_version;
  std::string kind;
  std::string name;            // meta::NameOrGenerated
  std::string namespace_name;  // "" when the object has none
  std::string uid;             // "" when the object has none (a manifest not yet created)

  static WorkloadIdentity Of(const Value& object);
  // "group" of api_version ("" for the core group).
  std::string Group() const;
};

struct EmitContext {
  Scheduler scheduler;
  const Workload& workload;
  const GangPlans& plans;
  const SchedulingOptions& options;
  WorkloadIdentity identity;
  std::string api_version;  // of the scheduler's objects, checked ("v1beta2")
};

// {"name", "namespace"?, "ownerReferences"?: [controller reference to the workload]}.
Value ObjectMeta(const WorkloadIdentity& identity, std::string_view name);
// The full object: apiVersion, kind, metadata, spec.
Value MakeObject(std::string_view api_version, std::string_view kind, Value metadata, Value spec);

// Collects per-pod changes, in the order pods are first touched.
class PodPatches {
 public:
  explicit PodPatches(const WorkloadIdentity& identity) : identity_(identity) {}
  void Label(const std::string& pod, std::string_view key, std::string_view value);
  void Annotate(const std::string& pod, std::string_view key, std::string_view value);
  void SetSpec(const std::string& pod, std::string_view key, Value value);
  std::vector<Value> Take();

 private:
  struct Patch {
    Value labels = Value::EmptyObject();
    Value annotations = Value::EmptyObject();
    Value spec = Value::EmptyObject();
  };
  Patch& For(const std::string& pod);
  const WorkloadIdentity& identity_;
  std::vector<std::string> order_;
  std::map<std::string, Patch> patches_;
};

// The pods a gang needs at least: its minMember, or, when its subgroups define it, the sum of
// the leaves' minima.
int64_t EffectiveMinPods(const GangPlan& gang);
bool IsLeaf(const GangPlan& gang, const SubGroupPlan& sub_group);

// A DNS-1123 label from any text: lower case, [a-z0-9-], at most 63 characters (a longer one
// keeps its start and ends in a hash of the whole), starting and ending alphanumeric ("" stays
// "").
std::string DnsLabel(std::string_view text);
// The same cleaning for an object name (a DNS subdomain made of one label): at most 253
// characters.
std::string DnsObjectName(std::string_view text);
// `name` when it has at most `limit` characters, else its first characters and "-" with eight
// hex digits of a hash of the whole: stable, and distinct for distinct names in practice.
std::string ShortenName(std::string_view name, size_t limit);
// The name of a gang's object where pods name it in an annotation: the gang's name when it is a
// DNS subdomain (the object name rule), else cleaned and, past 253 characters, shortened with a
// hash (a group key of any length cannot make an object the API server refuses).
std::string ObjectNameOf(std::string_view gang);
// The name of a gang's object where pods carry it in a label value (63 characters at most):
// the object and the label always agree.
inline std::string LabelSafeGangName(std::string_view gang) { return ShortenName(gang, 63); }

// The plan of the gang called `name`; nullptr when there is none.
const GangPlan* FindGang(const GangPlans& plans, std::string_view name);

Result<SchedulerObjects> EmitKai(const EmitContext& context);
Result<SchedulerObjects> EmitVolcano(const EmitContext& context);
Result<SchedulerObjects> EmitCoscheduling(const EmitContext& context);
Result<SchedulerObjects> EmitKueue(const EmitContext& context);
Result<SchedulerObjects> EmitWorkloadApi(const EmitContext& context);

}  // namespace wmap::scheduling

#endif  // WMAP_SCHEDULING_EMIT_CONTEXT_H_
