// GroupWorkloads and the owner index: objects grouped into workloads by controller ownership.
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "wmap/inventory.h"

namespace wmap {

void OwnerIndex::Add(std::string_view uid, std::string_view owner_uid) {
  if (uid.empty()) return;
  owners_.emplace(std::string(uid), std::string(owner_uid));
}

void UncontrolledPods::Add(const SourceObject& pod) {
  if (count_++ == 0) first_ = pod.Where() + " pod/" + std::string(pod.Name());
}

std::string UncontrolledPods::Warning() const {
  if (count_ == 0) return "";
  std::string subject = count_ == 1 ? "1 pod lists" : std::to_string(count_) + " pods list";
  return subject +
         " owner references but none with controller: true, so they belong to no workload "
         "above them (ownership follows the controller reference only; first: " +
         first_ + ")";
}

Inventory GroupWorkloads(std::vector<SourceObject> objects, const DefinitionResolver& resolver) {
  OwnerIndex index;
  for (const SourceObject& o : objects) index.Add(o.Uid(), meta::ControllerUid(o.value));
  // Which objects are workloads.
  std::vector<const CatalogEntry*> entries(objects.size(), nullptr);
  std::vector<bool> is_workload(objects.size(), false);
  std::unordered_map<std::string, size_t> group_of_uid;
  Inventory result;
  for (size_t i = 0; i < objects.size(); ++i) {
    const Value& v = objects[i].value;
    std::string_view owner = meta::ControllerUid(v);
    if (meta::IsUncontrolledPod(v)) result.uncontrolled.Add(objects[i]);
    bool owned_here = !owner.empty() && index.Contains(owner);
    if (owned_here || (meta::IsPod(v) && !owner.empty())) continue;
    entries[i] = resolver.Find(v);
    if (entries[i] == nullptr) {
      if (owner.empty()) result.undefined.push_back(objects[i]);
      continue;
    }
    is_workload[i] = true;
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    if (!is_workload[i]) continue;
    std::string uid(objects[i].Uid());
    if (!uid.empty()) group_of_uid.emplace(uid, result.workloads.size());
    WorkloadGroup g;
    g.workload = objects[i];
    g.entry = entries[i];
    result.workloads.push_back(std::move(g));
  }
  auto is_root = [&](std::string_view uid) { return group_of_uid.count(std::string(uid)) > 0; };
  for (size_t i = 0; i < objects.size(); ++i) {
    if (is_workload[i]) continue;
    const Value& v = objects[i].value;
    std::string_view owner = meta::ControllerUid(v);
    std::string_view root = index.RootOf(owner, is_root);
    if (root.empty()) {
      if (!owner.empty()) result.orphans.push_back(std::move(objects[i]));
      continue;
    }
    WorkloadGroup& g = result.workloads[group_of_uid.at(std::string(root))];
    if (meta::IsPod(v)) {
      g.pods.push_back(v);
    } else {
      g.children.push_back(v);
    }
  }
  return result;
}

}  // namespace wmap
