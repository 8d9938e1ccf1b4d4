// The documents front ends print about workloads, built here as values and only rendered (as
// JSON, YAML or text) by the front ends: status, inspection and errors so far. docs/output.md
// describes every field.
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
#include <string>
#include <string_view>
#include <vector>

#include "wmap/definition.h"
#include "wmap/export.h"
#include "wmap/source.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

WMAP_PUBLIC_BEGIN

namespace wmap::view {

inline constexpr std::string_view kApiVersion = "wmap.workloadmap.dev/v1";

// {"apiVersion": kApiVersion, "kind": kind}: the start of every document.
Value Document(std::string_view kind);
// {"apiVersion", "kind", "namespace", "name", "uid"} of the object ("" when absent).
Value WorkloadReference(const SourceObject& object);
// {"file", "line", "column", "item"?}: where the object was read.
Value SourceLocation(const SourceObject& object);
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

}  // namespace wmap::view

WMAP_PUBLIC_END

#endif  // WMAP_VIEW_H_
