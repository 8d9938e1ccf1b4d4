// Workload definitions: the Karta format (`apiVersion: run.ai/v1alpha1`, `kind: Karta`) and its
// superset `apiVersion: workloadmap.dev/v1alpha1`, `kind: WorkloadDefinition` (docs/gangs.md),
// which adds `scaleDefinition.podsPerReplicaPath` and `gangScheduling.gangs`.
//
// A Definition is loaded from YAML or JSON text (one or many documents), checked against the
// schema (unknown fields, types, required fields, the CRD's CEL rules) and against every rule of
// the upstream validator, and every jq expression in it is compiled once. A loaded Definition is
// immutable: copies share the same data, and it may be read from any number of threads.
//
// Loading never throws; every problem found is returned as an Error with the file, the position
// of the offending field (when the text was YAML or JSON) and a hint.
#ifndef WMAP_DEFINITION_H_
#define WMAP_DEFINITION_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wmap/export.h"

#include "wmap/jq.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap {
// Builds Definitions (src/model); a friend of Definition, never part of the API.
class __attribute__((visibility("hidden"))) DefinitionLoader;
}  // namespace wmap

WMAP_PUBLIC_BEGIN

namespace wmap {

// A Kubernetes group/version/kind. The core group is the empty string.
struct GroupVersionKind {
  std::string group;
  std::string version;
  std::string kind;

  // "group/version", or "version" for the core group (the object's apiVersion).
  std::string ApiVersion() const;
  // "group/version, Kind=kind" (the core group prints as "v1, Kind=Pod").
  std::string ToString() const;
};

// One jq expression of a definition. In a loaded Definition `program` is always set.
struct Expression {
  std::string text;
  // The field that holds it, in the document's own spelling:
  // "spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath".
  std::string field;
  Position position;  // of the field in the source text (unknown when loaded from a Value)
  std::optional<jq::Program> program;
};

// The eleven fragment paths of a fragmentedPodSpecDefinition.
struct FragmentedPodSpecDefinition {
  std::optional<Expression> scheduler_name;
  std::optional<Expression> labels;
  std::optional<Expression> annotations;
  std::optional<Expression> resources;
  std::optional<Expression> resource_claims;
  std::optional<Expression> pod_affinity;
  std::optional<Expression> node_affinity;
  std::optional<Expression> containers;
  std::optional<Expression> container;
  std::optional<Expression> priority_class_name;
  std::optional<Expression> image;
};

struct SpecDefinition {
  std::optional<Expression> pod_template_spec;
  std::optional<Expression> pod_spec;
  std::optional<Expression> metadata;
  std::optional<FragmentedPodSpecDefinition> fragmented;
};

struct ScaleDefinition {
  std::optional<Expression> replicas;
  std::optional<Expression> min_replicas;
  std::optional<Expression> max_replicas;
  // podsPerReplicaPath (WorkloadDefinition only): pods per replica, zipped per instance.
  std::optional<Expression> pods_per_replica;
};

// The status vocabulary (the CRD enum).
enum class ResourceStatus {
  kInitializing,
  kRunning,
  kCompleted,
  kFailed,
  kDegraded,
  kUndefined,
  kSuspended,
  kSuspending,
  kResuming,
};
// "Initializing", "Running", ...
std::string_view ResourceStatusName(ResourceStatus status);

struct ExpectedCondition {
  std::string type;
  std::optional<std::string> status;
  std::optional<std::string> reason;
};

struct ExpressionMatcher {
  Expression expression;
  std::string expected_result;
  // `(<expression>) | tostring`, the program the matcher runs.
  std::optional<jq::Program> comparison;
};

// The AND of the criteria that are present; no criteria at all matches.
struct StatusMatcher {
  std::string by_phase;
  std::vector<ExpectedCondition> by_conditions;
  std::optional<ExpressionMatcher> by_expression;
};

// The matchers of one status, OR'ed.
struct StatusMapping {
  ResourceStatus status;
  std::vector<StatusMatcher> matchers;
};

struct ConditionsDefinition {
  Expression path;
  std::string type_field_name;
  std::string status_field_name;
  std::optional<std::string> message_field_name;
  std::optional<std::string> reason_field_name;
};

struct StatusDefinition {
  std::optional<Expression> phase;  // phaseDefinition.path
  std::optional<ConditionsDefinition> conditions;
  // Always the eight statuses, in evaluation order: Resuming, Suspending, Suspended, Running,
  // Failed, Completed, Initializing, Degraded (absent mappings have no matchers).
  std::vector<StatusMapping> mappings;
};

struct SuspendAction {
  Expression path;
  std::string value_text;      // the JSON text as written
  std::optional<Value> value;  // value_text decoded; absent when it is not JSON (applying the
                               // action then fails, as upstream's does)
};

struct SuspendDefinition {
  std::vector<SuspendAction> suspend_actions;
  std::vector<SuspendAction> resume_actions;
};

struct ComponentTypeSelector {
  std::optional<Expression> key_path;
  std::optional<std::string> value;
  // Sorted by key; absent when the field is absent.
  std::optional<std::vector<std::pair<std::string, std::string>>> match_labels;
  // `(<keyPath>) == <value as a JSON string>`, when both are set.
  std::optional<jq::Program> value_comparison;
};

struct PodSelector {
  std::optional<ComponentTypeSelector> component_type;
  std::optional<Expression> component_instance_id_path;  // componentInstanceSelector.idPath
  std::optional<Expression> replica_key_path;            // replicaSelector.keyPath
  bool has_component_instance_selector = false;
  bool has_replica_selector = false;
};

struct ComponentDefinition {
  std::string name;
  std::optional<GroupVersionKind> kind;
  std::optional<std::string> owner_ref;
  std::optional<SpecDefinition> spec;
  std::optional<ScaleDefinition> scale;
  std::optional<StatusDefinition> status;
  std::optional<SuspendDefinition> suspend;
  std::optional<Expression> instance_id_path;
  std::optional<PodSelector> pod_selector;
  Position position;  // of the component in the source

  bool HasPodDefinition() const;
};

// Deprecated ("alpha") gang form.
struct PodGroupMember {
  std::string component_name;
  std::vector<Expression> group_by_key_paths;
  std::vector<Expression> filters;
};
struct PodGroupDefinition {
  std::string name;
  std::vector<PodGroupMember> members;
};

// Newer ("v2") gang form.
struct Topology {
  std::string topology_name;
  std::string preferred_topology_level;
  std::string required_topology_level;
};
struct SubGroup {
  std::string component_name;
  std::optional<Topology> topology;
};
struct PodGroupV2 {
  std::string name;
  std::vector<SubGroup> sub_groups;
  std::optional<Topology> topology;
};

// The `gangs` form (WorkloadDefinition only; docs/gangs.md). Expressions are evaluated on the
// workload object with `$instance` (an instance id, "" for a component without instanceIdPath)
// and `$replica` (a replica index as a number, or null) bound.
struct GangSubGroupDefinition {
  std::string component_name;       // "" when the subgroup only groups its subGroups
  std::optional<std::string> name;  // the template as written; absent = the default
  bool for_each_instance = false;
  bool for_each_replica = false;
  bool optional = false;
  std::optional<Expression> min_member;     // minMember.expression
  std::optional<Expression> min_sub_group;  // minSubGroup.expression
  std::optional<Topology> topology;         // levels may be "" (at least one is set)
  std::vector<GangSubGroupDefinition> sub_groups;
  std::string field;  // "spec.optimizationInstructions.gangScheduling.gangs[0].subGroups[1]"
  Position position;
};
// Gangs a framework computes itself (Grove's PodGangs): `gangs` is an expression over the
// workload giving one object per gang, and each pod names its gang and leaf subgroup (as the
// framework labels its pods). See docs/gangs.md for the objects' fields.
struct ComputedGangs {
  Expression gangs;
  Expression pod_gang;                      // over a pod: the name of its gang
  std::optional<Expression> pod_sub_group;  // over a pod: its leaf subgroup
};
struct GangDefinition {
  std::string name;
  // Set: the gangs come from `computed`; forEachInstanceOf, forEachReplica, nameTemplate,
  // minMember, minSubGroup, topology and subGroups are then absent.
  std::optional<ComputedGangs> computed;
  std::optional<std::string> for_each_instance_of;  // a component name
  bool for_each_replica = false;  // one gang per replica of each instance of that component
  std::optional<std::string> name_template;  // absent = the default
  std::optional<Expression> min_member;
  std::optional<Expression> min_sub_group;
  // Always set in a loaded definition ("workloadmap.dev/min-member" unless written).
  std::string min_member_override_annotation;
  std::optional<Expression> queue;
  std::optional<Expression> priority_class_name;
  std::optional<Expression> preemptibility;
  // The fewest pods the workload may be admitted with, running smaller (Kueue's partial
  // admission: the minCount of its pod set); absent, no result or null: all its pods or none.
  std::optional<Expression> partial_admission;
  std::optional<Topology> topology;
  std::vector<GangSubGroupDefinition> sub_groups;
  std::string field;
  Position position;
};

struct GangScheduling {
  std::vector<PodGroupDefinition> pod_groups;
  std::optional<PodGroupV2> pod_group;
  // Exclusive with pod_groups and pod_group.
  std::vector<GangDefinition> gangs;
};

// Which apiVersion/kind a definition was written as.
enum class DefinitionFormat {
  kKarta,               // run.ai/v1alpha1 Karta
  kWorkloadDefinition,  // workloadmap.dev/v1alpha1 WorkloadDefinition
};

struct LoadOptions {
  // Unknown fields are ignored instead of reported.
  bool lenient = false;
  // Fill typeFieldName/statusFieldName/messageFieldName/reasonFieldName with "type", "status",
  // "message" and "reason" when absent, as the API server does for a Karta it stores. Off: the
  // fields stay as written, as upstream's library sees a Karta read from a file.
  bool apply_crd_defaults = true;
};

// A loaded, validated definition. Cheap to copy; immutable; safe to share between threads.
class Definition {
 public:
  // metadata.name ("" when absent).
  const std::string& name() const;
  const Value& metadata() const;
  // The file it was loaded from (for messages).
  const std::string& file() const;

  // The root component's kind (always complete in a loaded Definition).
  const GroupVersionKind& root_kind() const;

  // Root first, then the child components in definition order.
  std::span<const ComponentDefinition> components() const;
  const ComponentDefinition& root() const { return components()[0]; }
  // Index of the component called `name`, or -1.
  int FindComponent(std::string_view name) const;
  // Index of the parent (ownerRef) of component i; -1 for the root.
  int Parent(size_t i) const;
  // Indexes of the direct children of component i, in definition order.
  std::span<const size_t> Children(size_t i) const;

  const std::vector<GroupVersionKind>& additional_child_kinds() const;
  const std::optional<GangScheduling>& gang_scheduling() const;
  DefinitionFormat format() const;

  struct Data;

 private:
  explicit Definition(std::shared_ptr<const Data> data) : data_(std::move(data)) {}
  std::shared_ptr<const Data> data_;
  friend class DefinitionLoader;
};

// Every definition of a stream, or every problem found in it (file order).
struct LoadResult {
  std::vector<Definition> definitions;
  std::vector<Error> errors;
  size_t documents = 0;  // documents the text held (LoadDefinitions)
  bool ok() const { return errors.empty(); }
};

// Loads every document of `text` (YAML or JSON). `file` names the source in errors. A document
// with any error contributes no Definition; the others still load.
LoadResult LoadDefinitions(std::string_view text, std::string_view file,
                           const LoadOptions& options = {});

// Loads one definition from an already parsed value (positions are unknown).
LoadResult LoadDefinitionValue(const Value& document, std::string_view file,
                               const LoadOptions& options = {});

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_DEFINITION_H_
