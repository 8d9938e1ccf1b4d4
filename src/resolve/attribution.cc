// The ownership walk and the placement of a pod in the component tree.
#include "resolve/attribution.h"

#include <vector>

#include "wmap/meta.h"

namespace wmap::resolve {

using meta::StringField;

std::string MetadataString(const Value& object, std::string_view field) {
  return std::string(meta::MetadataField(object, field));
}

OwnershipIndex::OwnershipIndex(const Definition& definition, const Value& workload,
                               std::span<const Value> children, std::span<const Value> pods)
    : definition_(definition), workload_uid_(MetadataString(workload, "uid")) {
  for (std::span<const Value> list : {children, pods}) {
    for (const Value& object : list) {
      std::string uid = MetadataString(object, "uid");
      if (!uid.empty()) by_uid_.emplace(std::move(uid), &object);
    }
  }
}

bool OwnershipIndex::FollowsKind(std::string_view api_version, std::string_view kind) const {
  std::string_view group = meta::ApiGroup(api_version);
  if (group.empty() && kind == "Pod") return true;
  auto same = [&](const GroupVersionKind& gvk) { return gvk.group == group && gvk.kind == kind; };
  for (const ComponentDefinition& c : definition_.components()) {
    if (c.kind && same(*c.kind)) return true;
  }
  for (const GroupVersionKind& gvk : definition_.additional_child_kinds()) {
    if (same(gvk)) return true;
  }
  return false;
}

std::optional<std::string> OwnershipIndex::Unreached(const Value& object) {
  if (!workload_uid_.empty() && MetadataString(object, "uid") == workload_uid_) {
    return std::nullopt;
  }
  return Walk(object, 0).reason;
}

OwnershipIndex::WalkResult OwnershipIndex::Walk(const Value& object, int hops) {
  std::string uid = MetadataString(object, "uid");
  auto cached = uid.empty() ? cache_.end() : cache_.find(uid);
  if (cached != cache_.end()) {
    const WalkResult& r = cached->second;
    if (r.reason || hops + r.depth <= meta::kMaxControllerDepth) return r;
    return TooLong();
  }
  WalkResult result;
  const Value* ref = meta::ControllerReference(object);
  if (ref == nullptr) {
    result.reason = "no controller owner reference leads to the workload";
  } else if (hops + 1 > meta::kMaxControllerDepth) {
    return TooLong();
  } else {
    std::string_view owner_uid = StringField(*ref, "uid");
    if (!workload_uid_.empty() && owner_uid == workload_uid_) {
      result.depth = 1;
    } else {
      auto owner = by_uid_.find(owner_uid);
      std::string_view kind = StringField(*ref, "kind");
      std::string label = std::string(kind) + " " + std::string(StringField(*ref, "name"));
      if (owner == by_uid_.end()) {
        result.reason = "owner " + label + " is neither the workload nor one of its objects";
      } else if (!FollowsKind(StringField(*ref, "apiVersion"), kind)) {
        result.reason = "owner " + label + " is of a kind the definition does not list";
      } else {
        result = Walk(*owner->second, hops + 1);
        if (result.too_long) return result;
        if (!result.reason) result.depth += 1;
      }
    }
  }
  if (!uid.empty()) cache_[uid] = result;
  return result;
}

OwnershipIndex::WalkResult OwnershipIndex::TooLong() {
  WalkResult r;
  r.reason = "the controller chain is longer than " + std::to_string(meta::kMaxControllerDepth) +
             " owners";
  r.too_long = true;
  return r;
}

std::variant<PodPlace, std::string> PlacePod(const Definition& definition,
                                             const PodQuerier& querier, const Value& pod) {
  std::optional<size_t> component;
  Result<std::optional<size_t>> inferred = querier.InferPodComponent(pod);
  if (!inferred.ok()) return inferred.error().message;
  if (!*inferred) return std::string("no component's podSelector matches the pod");
  component = **inferred;
  PodPlace place{*component, "", std::nullopt};
  const ComponentDefinition& c = definition.components()[*component];
  if (c.instance_id_path) {
    Result<std::optional<std::string>> key = querier.InstanceKey(*component, pod);
    if (!key.ok()) return "instance of component " + c.name + ": " + key.error().message;
    if (!*key) return "component " + c.name + " has no componentInstanceSelector";
    place.instance_id = **key;
  }
  for (int i = static_cast<int>(*component); i >= 0; i = definition.Parent(i)) {
    const ComponentDefinition& owner = definition.components()[i];
    if (!owner.pod_selector || !owner.pod_selector->replica_key_path) continue;
    // The replica only groups the pods of an instance (as upstream, which never needs it to
    // place a pod): a pod whose key cannot be read stays placed, in no replica.
    Result<std::optional<std::string>> key = querier.ReplicaKey(i, pod);
    if (key.ok()) place.replica_key = *key;
    break;
  }
  return place;
}

}  // namespace wmap::resolve
