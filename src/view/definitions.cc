// The definition documents: what each definition reads, as data.
#include <string>
#include <utility>

#include "view/expressions.h"
#include "wmap/gang.h"
#include "wmap/view.h"

namespace wmap::view {
namespace {

void SetTopology(const std::optional<Topology>& t, Value* v) {
  if (t) v->set("topology", TopologyToValue(*t));
}

Value GangValue(const Definition& d) {
  std::string_view form = GangFormName(d);
  if (form == "none") return Value();
  const GangScheduling& gang = *d.gang_scheduling();
  Value v = Value::Object({{"form", Value::String(form)}});
  if (form == "podGroup") {
    const PodGroupV2& g = *gang.pod_group;
    Value subs = Value::EmptyArray();
    for (const SubGroup& s : g.sub_groups) {
      Value sv = Value::Object({{"component", Value::String(s.component_name)}});
      SetTopology(s.topology, &sv);
      subs.push_back(std::move(sv));
    }
    Value pg = Value::Object({{"name", Value::String(g.name)}, {"subGroups", std::move(subs)}});
    SetTopology(g.topology, &pg);
    v.set("podGroup", std::move(pg));
  } else if (form == "podGroups") {
    Value groups = Value::EmptyArray();
    for (const PodGroupDefinition& g : gang.pod_groups) {
      Value members = Value::EmptyArray();
      for (const PodGroupMember& m : g.members) {
        members.push_back(Value::Object({{"component", Value::String(m.component_name)},
                                         {"groupBy", ExpressionTexts(m.group_by_key_paths)}}));
      }
      groups.push_back(
          Value::Object({{"name", Value::String(g.name)}, {"members", std::move(members)}}));
    }
    v.set("podGroups", std::move(groups));
  } else {
    Value gangs = Value::EmptyArray();
    for (const GangDefinition& g : gang.gangs) gangs.push_back(Value::String(g.name));
    v.set("gangs", std::move(gangs));
  }
  return v;
}

}  // namespace

std::vector<ResourceStatus> MappedStatuses(const StatusDefinition& status) {
  static constexpr ResourceStatus kLifecycle[] = {
      ResourceStatus::kInitializing, ResourceStatus::kRunning,  ResourceStatus::kCompleted,
      ResourceStatus::kFailed,       ResourceStatus::kDegraded, ResourceStatus::kSuspending,
      ResourceStatus::kSuspended,    ResourceStatus::kResuming, ResourceStatus::kUndefined};
  std::vector<ResourceStatus> out;
  for (ResourceStatus s : kLifecycle) {
    for (const StatusMapping& m : status.mappings) {
      if (m.status == s && !m.matchers.empty()) out.push_back(s);
    }
  }
  return out;
}

Value DefinitionSummary(const CatalogEntry& entry) {
  const Definition& d = entry.definition;
  Value components = Value::EmptyArray();
  bool suspend = false;
  for (size_t i = 0; i < d.components().size(); ++i) {
    const ComponentDefinition& c = d.components()[i];
    Value cv = Value::EmptyObject();
    cv.set("name", Value::String(c.name));
    cv.set("kind", c.kind ? Value::String(KindName(*c.kind)) : Value());
    int parent = d.Parent(i);
    cv.set("parent", parent < 0 ? Value() : Value::String(d.components()[parent].name));
    cv.set("pods", Value::Bool(c.HasPodDefinition()));
    cv.set("instances", Value::Bool(c.instance_id_path.has_value()));
    cv.set("scale", Value::Bool(c.scale.has_value()));
    Value statuses = Value::EmptyArray();
    if (c.status) {
      for (ResourceStatus r : MappedStatuses(*c.status)) {
        statuses.push_back(Value::String(ResourceStatusName(r)));
      }
    }
    cv.set("statuses", std::move(statuses));
    cv.set("suspend", Value::Bool(c.suspend.has_value()));
    suspend = suspend || c.suspend.has_value();
    components.push_back(std::move(cv));
  }
  const GroupVersionKind& k = d.root_kind();
  Value v = Value::EmptyObject();
  v.set("name", Value::String(d.name()));
  v.set("apiVersion", Value::String(k.ApiVersion()));
  v.set("kind", Value::String(k.kind));
  v.set("origin", Value::String(entry.origin));
  Value root_statuses = *components.items()[0].find("statuses");
  v.set("components", std::move(components));
  v.set("statuses", std::move(root_statuses));
  v.set("suspend", Value::Bool(suspend));
  v.set("gang", GangValue(d));
  return v;
}

Value DefinitionListDocument(std::span<const CatalogEntry* const> entries) {
  Value items = Value::EmptyArray();
  for (const CatalogEntry* e : entries) items.push_back(DefinitionSummary(*e));
  Value doc = Document("DefinitionList");
  doc.set("items", std::move(items));
  doc.set("count", Value::Int(static_cast<int64_t>(entries.size())));
  return doc;
}

}  // namespace wmap::view
