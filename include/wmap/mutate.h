// Changing the pods of a workload object through its definition: scheduler name, priority class,
// labels, annotations, node selector, tolerations and container images, written back through the
// paths the definition gives (podTemplateSpecPath, podSpecPath + metadataPath, or the fragment
// paths of fragmentedPodSpecDefinition) with Workload's Update* functions.
//
// Guarantees of MutateWorkload:
// - The result is the whole object; members keep their order, members that are not changed keep
//   their values, new members are appended at the end of their object.
// - Only the pod templates of the selected components and instances change; the other instances
//   are written back with the values read from them, and a member that did not exist before and
//   would only be created to hold null is not created.
// - Only instances the object has change. An optional component the object leaves out (a whole
//   pod template or pod spec that reads null, or a component with no instance) is skipped, never
//   created, and the paths it lacks are no reason to refuse; naming it with --component is
//   kNotFound.
// - Applying the same changes twice gives the same object as applying them once (labels and
//   selectors are set, tolerations are added only when no equal one is present).
// - Nothing is thrown; every failure is a MutateError saying whether something named was not
//   found, the definition cannot write the change, or the object could not be evaluated.
#ifndef WMAP_MUTATE_H_
#define WMAP_MUTATE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wmap/export.h"

#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// A Kubernetes toleration. `op` is "Equal" (with `value`) or "Exists" (value empty); an empty
// effect tolerates every effect.
struct Toleration {
  std::string key;
  std::string op;
  std::string value;
  std::string effect;

  // {"key", "operator", "value" (Equal only), "effect" (when set)}, the API's field order.
  Value ToValue() const;
};

// "key=value:effect" or "key=value" (Equal), "key:effect" or "key" (Exists). The effect is one of
// NoSchedule, PreferNoSchedule, NoExecute.
Result<Toleration> ParseToleration(std::string_view text);

// A new image for the container called `container`, or for every container of `containers`
// when `container` is empty.
struct ImageChange {
  std::string container;
  std::string image;
};

// "NAME=IMAGE" or "IMAGE" (an image reference never contains '=').
Result<ImageChange> ParseImageChange(std::string_view text);

// "KEY=VALUE" with a non-empty key; `what` names the flag in the error ("label").
Result<std::pair<std::string, std::string>> ParseKeyValue(std::string_view text,
                                                          std::string_view what);

// The changes to make to every selected pod template. Lists apply in order.
struct PodChanges {
  std::optional<std::string> scheduler_name;
  std::optional<std::string> priority_class_name;
  std::vector<std::pair<std::string, std::string>> labels;
  std::vector<std::pair<std::string, std::string>> annotations;
  std::vector<std::pair<std::string, std::string>> node_selector;
  std::vector<Toleration> tolerations;
  std::vector<ImageChange> images;
  // spec.schedulingGroup.podGroupName: the Kubernetes Workload API PodGroup the pods join
  // (immutable on a pod, so it is set in the template before the pods exist).
  std::optional<std::string> scheduling_group;

  bool empty() const;
};

// Which pod templates change: every component with a pod definition, or the one named; every
// instance, or the one with this id.
struct MutateScope {
  std::optional<std::string> component;
  std::optional<std::string> instance;
};

// Why MutateWorkload made no object, with a hint that says what to do. Error::code is one of
//   kNotFound     the component, instance or container named does not exist;
//   kNotWritable  the definition has no path for the change, or its path cannot be written;
//   kEvaluation   reading the object through the definition failed.
using MutateError = Error;

// The updated object, or why there is none.
class MutateResult {
 public:
  MutateResult(Value object) : object_(std::move(object)) {}     // NOLINT
  MutateResult(MutateError error) : error_(std::move(error)) {}  // NOLINT
  bool ok() const { return !error_.has_value(); }
  const Value& object() const { return object_; }
  const MutateError& error() const { return *error_; }

 private:
  Value object_;
  std::optional<MutateError> error_;
};

// Applies `changes` to the pod templates `scope` selects (see the file comment). Labels and
// annotations go to the template's metadata; the rest to its pod spec. A fragmented definition
// can take only the fields it has paths for (scheduler name, priority class, labels,
// annotations, images through imagePath, containerPath or containersPath).
MutateResult MutateWorkload(const Workload& workload, const MutateScope& scope,
                            const PodChanges& changes);

// Applies `changes` to one pod template ({"metadata", "spec"}; null reads as an empty one).
// `image_matched` (resized to changes.images.size()) gets `true` for each image change that found
// its container here (for the unnamed form: any container). Errors: a field of the wrong type.
Result<Value> MutatePodTemplate(const Value& pod_template, const PodChanges& changes,
                                std::vector<bool>* image_matched);

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_MUTATE_H_
