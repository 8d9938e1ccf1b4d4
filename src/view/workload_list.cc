// The workload list: one summary per workload found in a stream of objects, with the pods that
// reach it through controller owners counted as they are read.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "wmap/meta.h"
#include "wmap/tree.h"
#include "wmap/view.h"

namespace wmap::view {

WorkloadListBuilder::WorkloadListBuilder(const DefinitionResolver& resolver,
                                         WorkloadListOptions options)
    : resolver_(resolver), options_(std::move(options)) {}

void WorkloadListBuilder::Add(const SourceObject& object, std::vector<std::string>* notices) {
  const Value& v = object.value;
  std::string_view owner = meta::ControllerUid(v);
  owners_.Add(object.Uid(), owner);
  if (meta::IsUncontrolledPod(v)) uncontrolled_.Add(object);
  if (meta::IsPod(v)) {
    PodLink link;
    link.owner_uid = std::string(owner.empty() ? object.Uid() : owner);
    link.ready = meta::IsPodReady(v);
    if (const Value* spec = v.find("spec")) {
      Result<PodResources> resources = EffectivePodResources(*spec);
      if (resources.ok()) link.requests = std::move(resources->requests);
    }
    if (!owner.empty()) pods_given_ = true;
    pods_.push_back(std::move(link));
    if (!owner.empty()) return;
  }
  // An object whose owner was already read is a child, never a workload.
  if (!owner.empty() && owners_.Contains(owner)) return;
  const CatalogEntry* entry = resolver_.Find(v);
  if (entry == nullptr) {
    if (!owner.empty()) return;
    std::string key = std::string(object.ApiVersion()) + " " + std::string(object.Kind());
    if (undefined_kinds_.insert(key).second) {
      notices->push_back(DefinitionResolver::NoDefinition(object).ToString() +
                         " (objects of this kind are skipped)");
    }
    return;
  }
  // A workload the filters leave out is still an owner for the objects below it.
  const Value* metadata = v.find("metadata");
  const Value* labels = metadata != nullptr ? metadata->find("labels") : nullptr;
  if (!options_.selector.Matches(labels != nullptr ? *labels : Value())) return;
  if (!options_.namespace_name.empty() && object.Namespace() != options_.namespace_name) return;
  WorkloadSummary s;
  s.api_version = std::string(object.ApiVersion());
  s.kind = std::string(object.Kind());
  s.namespace_name = std::string(object.Namespace());
  s.name = std::string(object.Name());
  s.uid = std::string(object.Uid());
  s.generate_name = std::string(meta::MetadataField(v, "generateName"));
  s.owner_uid = std::string(owner);
  s.definition = entry->definition.name();
  s.origin = entry->origin;
  s.created = std::string(meta::MetadataField(v, "creationTimestamp"));
  s.file = object.file;
  s.position = object.position;
  s.list_index = object.list_index;
  Workload workload(entry->definition, v);
  Result<std::optional<WorkloadStatus>> status = workload.Status(0);
  if (!status.ok()) {
    notices->push_back("could not resolve " + s.kind + "/" + s.name + " (" + object.Where() +
                       "): " + status.error().message);
    return;
  }
  if (*status) s.statuses = (*status)->matched;
  Result<WorkloadTree> tree = BuildTree(entry->definition, v, {}, {});
  if (tree.ok()) {
    s.desired = tree->desired;
    s.template_requests = std::move(tree->requests);
  } else {
    s.counted = false;
    notices->push_back("could not count the pods of " + s.kind + "/" + s.name + " (" +
                       object.Where() + "): " + tree.error().message);
  }
  if (!options_.statuses.empty() &&
      std::none_of(s.statuses.begin(), s.statuses.end(),
                   [&](ResourceStatus r) { return options_.statuses.count(r) > 0; })) {
    return;
  }
  rows_.push_back(std::move(s));
}

WorkloadList WorkloadListBuilder::Finish(std::vector<std::string>* notices) {
  if (std::string w = uncontrolled_.Warning(); !w.empty()) notices->push_back(std::move(w));
  WorkloadList list;
  list.pods_given = pods_given_;
  // Rows owned by another given object are children, not workloads.
  std::unordered_map<std::string, size_t> row_of_uid;
  for (WorkloadSummary& r : rows_) {
    if (!r.owner_uid.empty() && owners_.Contains(r.owner_uid)) continue;
    if (!r.uid.empty()) row_of_uid.emplace(r.uid, list.items.size());
    list.items.push_back(std::move(r));
  }
  rows_.clear();
  auto is_root = [&](std::string_view uid) { return row_of_uid.count(std::string(uid)) > 0; };
  for (const PodLink& p : pods_) {
    std::string_view root = owners_.RootOf(p.owner_uid, is_root);
    if (root.empty()) continue;
    WorkloadSummary& r = list.items[row_of_uid.at(std::string(root))];
    ++r.current;
    if (p.ready) ++r.ready;
    AddTo(&r.pod_requests, p.requests);
  }
  pods_.clear();
  return list;
}

void SortNewestFirst(WorkloadList* list) {
  std::vector<WorkloadSummary>& items = list->items;
  std::vector<int64_t> created(items.size());
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    created[i] = ParseTimestamp(items[i].created).value_or(std::numeric_limits<int64_t>::min());
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (created[a] != created[b]) return created[a] > created[b];
    return items[a].name < items[b].name;
  });
  std::vector<WorkloadSummary> sorted;
  sorted.reserve(items.size());
  for (size_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

Value WorkloadListDocument(const WorkloadList& list, int64_t now) {
  Value items = Value::EmptyArray();
  for (const WorkloadSummary& r : list.items) {
    Value statuses = Value::EmptyArray();
    for (ResourceStatus s : r.statuses) statuses.push_back(Value::String(ResourceStatusName(s)));
    Value v = Value::EmptyObject();
    v.set("workload", WorkloadReference(r.api_version, r.kind, r.namespace_name, r.name, r.uid,
                                        r.generate_name));
    v.set("definition", Value::String(r.definition));
    v.set("origin", Value::String(r.origin));
    v.set("statuses", std::move(statuses));
    v.set("pods", Value::Object({{"desired", r.counted ? Value::Int(r.desired) : Value()},
                                 {"current", list.pods_given ? Value::Int(r.current) : Value()},
                                 {"ready", list.pods_given ? Value::Int(r.ready) : Value()}}));
    if (r.resources_known()) {
      v.set("resources", ResourceListToValue(r.requests()));
      v.set("gpus", Value::Int(GpuCount(r.requests())));
    } else {
      v.set("resources", Value());
      v.set("gpus", Value());
    }
    v.set("resourcesFrom", Value::String(r.from_pods() ? "pods" : "templates"));
    v.set("createdAt", r.created.empty() ? Value() : Value::String(r.created));
    std::optional<int64_t> created = ParseTimestamp(r.created);
    v.set("age", created ? Value::String(HumanDuration(now - *created)) : Value());
    v.set("source", SourceLocation(r.file, r.position, r.list_index));
    items.push_back(std::move(v));
  }
  Value doc = Document("WorkloadList");
  doc.set("items", std::move(items));
  doc.set("count", Value::Int(static_cast<int64_t>(list.items.size())));
  return doc;
}

}  // namespace wmap::view
