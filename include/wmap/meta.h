// Kubernetes object metadata as every layer reads it: string fields, the controller owner
// reference and API groups. One rule for ownership everywhere: an object belongs to the object
// named by its ownerReference with `controller: true`, and to nothing else (the garbage
// collector's and upstream's rule); other owner references never attribute an object.
#ifndef WMAP_META_H_
#define WMAP_META_H_

#include <string>
#include <string_view>

#include "wmap/export.h"

#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap::meta {

// The longest controller chain followed from an object up to its workload, as upstream's walker:
// a pod is at most this many controller hops below the workload it belongs to.
inline constexpr int kMaxControllerDepth = 6;

// object.<key> when it is a string, else "".
std::string_view StringField(const Value& object, std::string_view key);
// object.metadata.<key> when it is a string, else "".
std::string_view MetadataField(const Value& object, std::string_view key);
// object.metadata.labels.<key> when it is a string, else "".
std::string_view LabelValue(const Value& object, std::string_view key);

// A name for the object that is the same on every read: metadata.name; for an object that has
// only metadata.generateName (a manifest for `kubectl create`), that prefix, cut to 58
// characters as the API server cuts it, followed by 5 characters of the API server's alphabet
// derived from the whole object where the API server would put 5 random ones. The same object
// always gets the same name and objects that differ almost surely get different ones. "" when
// the object has neither.
std::string NameOrGenerated(const Value& object);

// The first metadata.ownerReferences[] entry with `controller: true`, or nullptr.
const Value* ControllerReference(const Value& object);
// The uid of ControllerReference(object), or "" when there is none.
std::string_view ControllerUid(const Value& object);
// True when metadata.ownerReferences lists at least one owner (controller or not).
bool HasOwnerReferences(const Value& object);

// apiVersion v1, kind Pod.
bool IsPod(const Value& object);
// A pod that lists owners but none with `controller: true`: it belongs to no workload above it.
bool IsUncontrolledPod(const Value& object);
// The pod's Ready condition is "True"; without conditions, every status.containerStatuses[] is
// ready and there is at least one.
bool IsPodReady(const Value& pod);

// The group of an apiVersion: "apps/v1" -> "apps", "v1" -> "".
std::string_view ApiGroup(std::string_view api_version);

}  // namespace wmap::meta

WMAP_PUBLIC_END

#endif  // WMAP_META_H_
