// Structural-schema validation of Kubernetes objects, as the API server checks them.
//
// A SchemaSet indexes object schemas by group, version and kind. It reads three kinds of
// documents:
// - CustomResourceDefinitions (YAML or JSON, apiextensions.k8s.io/v1 and v1beta1; a stream may
//   hold several): one schema per spec.versions[] entry (spec.versions[].schema.openAPIV3Schema,
//   or the v1beta1 spec.validation.openAPIV3Schema shared by every version).
// - OpenAPI v3 documents as Kubernetes publishes them: components.schemas, `$ref` to
//   "#/components/schemas/...", kinds from `x-kubernetes-group-version-kind`.
// - Swagger 2.0 documents (definitions, `$ref` to "#/definitions/..."): kinds from
//   `x-kubernetes-group-version-kind` where present, otherwise from the body of the create
//   operations of the "/apis/<group>/<version>/..." and "/api/v1/..." collection paths.
// Every `$ref` is resolved once, when a document is added; recursive schemas are graphs, never
// expanded, so self references neither loop nor grow. A kind defined by two documents keeps the
// first one added.
//
// Validate() checks an object against the schema of its apiVersion and kind and returns every
// violation, worded as the API server words them ("spec.replicas: Invalid value: \"string\":
// spec.replicas in body must be of type integer: \"string\""). Checked: types, nullable,
// required, enum, properties and unknown fields (pruning rules of structural schemas; unknown
// fields are reported unless x-kubernetes-preserve-unknown-fields or additionalProperties allow
// them), additionalProperties, items, x-kubernetes-int-or-string, x-kubernetes-embedded-resource,
// formats int32, int64, date-time, byte and int-or-string, Quantity syntax, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, minLength, maxLength,
// minProperties, maxProperties, pattern (RE2 syntax, as Go's regexp), x-kubernetes-list-type
// set and map uniqueness (custom resources only: for built-in types the API server merely warns
// about duplicates), allOf, anyOf, oneOf and not. The metadata of the object (and of embedded
// resources) is checked as ObjectMeta whatever the custom resource's schema says; the object's
// own metadata also follows the API server's rules for metadata.name (DNS subdomain), label keys
// and values, annotation keys and size, and at most one controller owner reference. In custom
// resources a field with a `default` satisfies `required` and a null in it is dropped, as the API
// server defaults before validating. Built-in workloads (Pod, Deployment, ReplicaSet,
// StatefulSet, DaemonSet, Job, CronJob) also get the handwritten rules a manifest most often
// breaks: containers present, container names (DNS labels, unique), images, imagePullPolicy,
// restartPolicy (as the owner admits it), dnsPolicy, port numbers and protocols, resource
// requests against limits (extended resources need equal limits), and a selector
// that matches the template's labels. Not checked: x-kubernetes-validations (CEL rules),
// immutability, and the rest of the handwritten validation of built-in types.
//
// Nulls follow the API server: in custom resources a null is accepted only where the schema says
// nullable (or allows any value); in built-in types (OpenAPI and Swagger documents) a null is the
// zero value and is always accepted.
//
// A SchemaSet is immutable once loaded; Validate() is const and safe to call from many threads.
// No function throws.
#ifndef WMAP_SCHEMA_H_
#define WMAP_SCHEMA_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/yaml.h"

WMAP_PUBLIC_BEGIN

namespace wmap::schema {

struct GroupVersionKind {
  std::string group;  // "" for the core group
  std::string version;
  std::string kind;
  // "v1" for the core group, "apps/v1" otherwise.
  std::string ApiVersion() const;
  friend bool operator==(const GroupVersionKind&, const GroupVersionKind&) = default;
};

// One rule an object breaks.
struct Violation {
  // The field as the API server names it: "spec.replicatedJobs[0].template.spec.parallelism";
  // map entries as "metadata.labels[app]"; "" for the object itself.
  std::string field;
  // The whole message, starting with the field: "spec.foo: Required value",
  // ".spec.bar: field not declared in schema".
  std::string message;
  // Where the field (or, when the field is missing, its nearest written ancestor) is in the
  // source text; unknown unless the object was validated as a yaml::Document with positions.
  Position position;
};

// Schemas of Kubernetes kinds, indexed by group/version/kind. Movable, not copyable.
class SchemaSet {
 public:
  SchemaSet();
  ~SchemaSet();
  SchemaSet(SchemaSet&&) noexcept;
  SchemaSet& operator=(SchemaSet&&) noexcept;
  SchemaSet(const SchemaSet&) = delete;
  SchemaSet& operator=(const SchemaSet&) = delete;

  // Adds the kinds of one document (text of a CRD stream, an OpenAPI v3 or a Swagger 2.0
  // document; `name` is used in error messages). Returns the number of kinds added. On an error
  // nothing of the document is added.
  Result<size_t> AddDocument(std::string_view text, std::string_view name);
  // Reads and adds one file.
  Result<size_t> AddFile(const std::string& path);
  // Adds every *.yaml, *.yml and *.json file below `dir` (recursively, in path order; files are
  // read and compiled in parallel). A file that fails is skipped and the first failure is
  // returned after the others are added.
  Result<size_t> AddDirectory(const std::string& dir);

  // Whether the set has a schema for apiVersion ("group/version" or "v1") and kind.
  bool Contains(std::string_view api_version, std::string_view kind) const;
  // Every indexed kind, sorted by group, version and kind.
  std::vector<GroupVersionKind> Kinds() const;

  // Violations of `object` against the schema of its apiVersion and kind: an object's members in
  // document order, then its missing required fields, then (for the object itself) the metadata
  // syntax rules.
  // An object without apiVersion or kind, or of a kind the set has no schema for, gives one
  // violation naming it.
  std::vector<Violation> Validate(const Value& object) const;
  // The same, filling Violation::position from the document's positions (when it has them).
  std::vector<Violation> Validate(const yaml::Document& document) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wmap::schema

WMAP_PUBLIC_END

#endif  // WMAP_SCHEMA_H_
