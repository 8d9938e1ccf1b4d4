// Metadata fields and the controller owner reference.
#include "wmap/meta.h"

#include <cstdint>

#include "wmap/json.h"

namespace wmap::meta {

std::string_view StringField(const Value& object, std::string_view key) {
  const Value* v = object.find(key);
  return v != nullptr && v->is_string() ? v->as_string() : std::string_view();
}

std::string_view MetadataField(const Value& object, std::string_view key) {
  const Value* metadata = object.find("metadata");
  return metadata != nullptr ? StringField(*metadata, key) : std::string_view();
}

std::string_view LabelValue(const Value& object, std::string_view key) {
  const Value* metadata = object.find("metadata");
  const Value* labels = metadata != nullptr ? metadata->find("labels") : nullptr;
  return labels != nullptr ? StringField(*labels, key) : std::string_view();
}

std::string NameOrGenerated(const Value& object) {
  std::string_view name = MetadataField(object, "name");
  if (!name.empty()) return std::string(name);
  std::string_view prefix = MetadataField(object, "generateName");
  if (prefix.empty()) return std::string();
  // apiserver's names.SimpleNameGenerator: at most 58 characters of the prefix, then 5 from
  // k8s.io/apimachinery/pkg/util/rand's alphabet (no vowels, no 0, 1, 3).
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t hash = 14695981039346656037ull;  // FNV-1a over the object's JSON text
  for (char c : json::ToCompactString(object)) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  std::string out(prefix.substr(0, 58));
  for (int i = 0; i < 5; ++i) {
    out += kAlphabet[hash % kAlphabet.size()];
    hash /= kAlphabet.size();
  }
  return out;
}

namespace {

const Value* OwnerReferences(const Value& object) {
  const Value* metadata = object.find("metadata");
  const Value* refs = metadata != nullptr ? metadata->find("ownerReferences") : nullptr;
  return refs != nullptr && refs->is_array() ? refs : nullptr;
}

}  // namespace

const Value* ControllerReference(const Value& object) {
  const Value* refs = OwnerReferences(object);
  if (refs == nullptr) return nullptr;
  for (const Value& ref : refs->items()) {
    const Value* controller = ref.find("controller");
    if (controller != nullptr && controller->is_bool() && controller->as_bool()) return &ref;
  }
  return nullptr;
}

std::string_view ControllerUid(const Value& object) {
  const Value* ref = ControllerReference(object);
  return ref != nullptr ? StringField(*ref, "uid") : std::string_view();
}

bool HasOwnerReferences(const Value& object) {
  const Value* refs = OwnerReferences(object);
  return refs != nullptr && refs->size() > 0;
}

bool IsPod(const Value& object) {
  return StringField(object, "kind") == "Pod" && StringField(object, "apiVersion") == "v1";
}

bool IsUncontrolledPod(const Value& object) {
  return IsPod(object) && HasOwnerReferences(object) && ControllerUid(object).empty();
}

std::string_view ApiGroup(std::string_view api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

bool IsPodReady(const Value& pod) {
  const Value* status = pod.find("status");
  if (status == nullptr) return false;
  const Value* conditions = status->find("conditions");
  if (conditions != nullptr && conditions->is_array() && conditions->size() > 0) {
    for (const Value& c : conditions->items()) {
      const Value* type = c.find("type");
      const Value* s = c.find("status");
      if (type && type->is_string() && type->as_string() == "Ready") {
        return s && s->is_string() && s->as_string() == "True";
      }
    }
    return false;
  }
  const Value* containers = status->find("containerStatuses");
  if (containers == nullptr || !containers->is_array() || containers->size() == 0) return false;
  for (const Value& c : containers->items()) {
    const Value* ready = c.find("ready");
    if (ready == nullptr || !ready->is_bool() || !ready->as_bool()) return false;
  }
  return true;
}

}  // namespace wmap::meta
