// The documents front ends print about workloads, built here as values and only rendered (as
// JSON, YAML or text) by the front ends: the workload list, descriptions, gangs, status,
// inspection, definitions and errors. docs/output.md describes every field.
//
// Invariants:
// - Every document starts with `apiVersion: wmap.workloadmap.dev/v1` and its `kind`; a field is
//   renamed or removed only with a new version.
// - A document about one workload names it with the same `workload` reference
//   ({apiVersion, kind, namespace, name, uid}) and says where it was read (`source`).
#ifndef WMAP_VIEW_H_
#define WMAP_VIEW_H_

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/catalog.h"
#include "wmap/definition.h"
#include "wmap/export.h"
#include "wmap/gang.h"
#include "wmap/inventory.h"
#include "wmap/resources.h"
#include "wmap/scheduling.h"
#include "wmap/selector.h"
#include "wmap/source.h"
#include "wmap/status.h"
#include "wmap/tree.h"
#include "wmap/value.h"
#include "wmap/workload.h"

WMAP_PUBLIC_BEGIN

namespace wmap::view {

inline constexpr std::string_view kApiVersion = "wmap.workloadmap.dev/v1";

// {"apiVersion": kApiVersion, "kind": kind}: the start of every document.
Value Document(std::string_view kind);
// {"apiVersion", "kind", "namespace", "name", "uid"} of the object ("" when absent), and
// "generateName" for an object that has no name but metadata.generateName.
Value WorkloadReference(const SourceObject& object);
Value WorkloadReference(std::string_view api_version, std::string_view kind,
                        std::string_view namespace_name, std::string_view name,
                        std::string_view uid, std::string_view generate_name = {});
// The name to show for an object: its name; "<generateName>*" for one that only has
// metadata.generateName (the API server completes it when the object is created); "" else.
std::string DisplayName(std::string_view name, std::string_view generate_name);
// {"file", "line", "column", "item"?}: where the object was read (item: its index in a List).
Value SourceLocation(const SourceObject& object);
Value SourceLocation(std::string_view file, Position position, int list_index);
// "JobSet.v1alpha2.jobset.x-k8s.io" ("Pod.v1" for the core group).
std::string KindName(const GroupVersionKind& kind);
// kubectl's HumanDuration: "45s", "3m20s", "5h", "12d", "2y30d"; "<invalid>" when negative.
std::string HumanDuration(int64_t seconds);
// Seconds since the epoch of an RFC 3339 timestamp ("2025-03-14T09:26:53Z", offsets and
// fractions allowed); nullopt when it is not one.
std::optional<int64_t> ParseTimestamp(std::string_view text);

// ---- an error, for the front ends that print errors as documents ----

// kind Error: {"error": code name, "message", "hint", "file"?, "line"?, "column"?}.
Value ErrorDocument(const Error& error);

// ---- status ----

// kind WorkloadStatus: {"workload", "definition", "phase", "conditions", "matched", "source"}.
Value StatusDocument(const SourceObject& workload, std::string_view definition,
                     const WorkloadStatus& status);

// ---- inspect ----

// kind WorkloadInspection: {"workload", "definition", "components": [{"name", "kind", "parent",
// "instances"|"error"}], "source"}. Appends "component NAME: message" to *errors for each
// component that could not be evaluated.
Value InspectDocument(const SourceObject& workload, const Definition& definition,
                      std::vector<std::string>* errors);

// ---- the workload list ----

struct WorkloadListOptions {
  LabelSelector selector;             // the workload's labels must match (empty: all)
  std::string namespace_name;         // "" = every namespace
  std::set<ResourceStatus> statuses;  // one must be matched; empty = any
};

struct WorkloadSummary {
  std::string api_version, kind, namespace_name, name, uid;
  std::string generate_name;  // metadata.generateName
  std::string owner_uid;      // the controller owner's uid, "" for none
  std::string definition, origin;
  std::vector<ResourceStatus> statuses;
  std::string created;  // metadata.creationTimestamp as written
  std::string file;
  Position position;
  int list_index = -1;
  bool counted = true;  // the definition could read the replicas and pod templates
  int32_t desired = 0;
  ResourceList template_requests;  // pod templates × replicas
  int32_t current = 0;             // pods that reach the workload through controller owners
  int32_t ready = 0;
  ResourceList pod_requests;  // of those pods

  bool from_pods() const { return current > 0; }
  bool resources_known() const { return counted || from_pods(); }
  const ResourceList& requests() const { return from_pods() ? pod_requests : template_requests; }
};

struct WorkloadList {
  std::vector<WorkloadSummary> items;  // input order, until SortNewestFirst
  bool pods_given = false;             // some pod with a controller owner was read
};

// Builds the list from objects read one at a time: a workload is summarised as soon as it is
// read and only its summary is kept, a pod is reduced to its owner, readiness and requests, so
// memory grows with the number of objects, not with their size. Objects owned by another given
// object, and pods, are never items; they count towards the workload their controller-owner
// chain reaches (pods read before their owners too). One builder, one Finish.
class WorkloadListBuilder {
 public:
  WorkloadListBuilder(const DefinitionResolver& resolver, WorkloadListOptions options);
  // Appends what the caller should be told to *notices: a kind with no definition (once per
  // kind; its objects are skipped), a workload whose status or pods could not be read.
  void Add(const SourceObject& object, std::vector<std::string>* notices);
  // The workloads with their pods counted; notices as for Add (uncontrolled pods).
  WorkloadList Finish(std::vector<std::string>* notices);

 private:
  struct PodLink {
    std::string owner_uid;
    bool ready = false;
    ResourceList requests;
  };
  const DefinitionResolver& resolver_;
  WorkloadListOptions options_;
  std::vector<WorkloadSummary> rows_;
  std::vector<PodLink> pods_;
  OwnerIndex owners_;
  std::set<std::string> undefined_kinds_;  // "apiVersion kind" already reported
  UncontrolledPods uncontrolled_;
  bool pods_given_ = false;
};

// kind WorkloadList: {"items": [{"workload", "definition", "origin", "statuses",
// "pods": {"desired", "current", "ready"}, "resources", "gpus", "resourcesFrom", "createdAt",
// "age", "source"}], "count"}. Ages count from `now` (seconds since the epoch).
Value WorkloadListDocument(const WorkloadList& list, int64_t now);

// Puts the items in the order of upstream's `get` rows: by creation time, newest first, then
// by name; items without a creation time last (Go's zero time is the oldest). Items equal in
// both keep their order.
void SortNewestFirst(WorkloadList* list);

// ---- gangs ----

// The gang form of a definition: "podGroup", "podGroups", "gangs" or "none".
std::string_view GangFormName(const Definition& definition);

// The gangs of one workload with its given pods (PlanGangs), or the error that stopped the plan.
struct WorkloadGangs {
  std::string_view form = "none";  // GangFormName
  GangPlans plans;                 // empty when planning failed
  std::optional<Error> error;
};
WorkloadGangs PlanWorkloadGangs(const Definition& definition, const Value& workload,
                                std::span<const Value> pods);

// {"form", "gangs", "pods"} (GangPlansToValue's fields), or {"form", "error"}.
Value GangsValue(const Definition& definition, const WorkloadGangs& gangs);

// kind WorkloadGangs: {"workload", "definition", GangsValue's fields, "podGroups"?, "source"}.
// For the Karta podGroups form, "podGroups" lists each group's members with their minimum per
// instance ([{"name", "members": [{"component", "groupByKeyPaths", "filters",
// "instances": [{"id"?, "minAvailable"|"error"}] | "error"}]}]), known before any pod exists.
// Appends each evaluation error to *errors.
Value GangDocument(const SourceObject& workload, const Definition& definition,
                   const WorkloadGangs& gangs, std::vector<std::string>* errors);

// kind SchedulerObjects: {"workload", "scheduler", "objects", "podPatches", "warnings",
// "source"}: what one gang scheduler needs for the workload (BuildSchedulerObjects).
Value SchedulerObjectsDocument(const SourceObject& workload, Scheduler scheduler,
                               const SchedulerObjects& objects);

// ---- describe ----

struct WorkloadDescription {
  WorkloadTree tree;
  WorkloadGangs gangs;
  bool pods_given = false;
};
// The tree (BuildTree) and gangs of the group; an error when the definition cannot read the
// workload (kEvaluation, located at the workload).
Result<WorkloadDescription> Describe(const WorkloadGroup& group);

// kind WorkloadDescription: {"workload", "createdAt", "definition", "origin", "statuses",
// "replicas": {"desired", "current", "ready"}, "resources", "gpus", "resourcesFrom",
// "components": [COMPONENT], "gang": GangsValue | null, "unattributed", "source"}.
Value DescribeDocument(const WorkloadGroup& group, const WorkloadDescription& description);

// ---- definitions ----

// The statuses that have at least one matcher, in lifecycle order (Initializing, Running,
// Completed, Failed, Degraded, Suspending, Suspended, Resuming).
std::vector<ResourceStatus> MappedStatuses(const StatusDefinition& status);
// {"name", "apiVersion", "kind", "origin", "components": [{"name", "kind", "parent", "pods",
// "instances", "scale", "statuses", "suspend"}], "statuses", "suspend", "gang": {"form",
// "podGroup"? | "podGroups"? | "gangs"?} | null}: what a definition reads.
Value DefinitionSummary(const CatalogEntry& entry);
// kind DefinitionList: {"items": [DefinitionSummary...], "count"}.
Value DefinitionListDocument(std::span<const CatalogEntry* const> entries);

}  // namespace wmap::view

WMAP_PUBLIC_END

#endif  // WMAP_VIEW_H_
