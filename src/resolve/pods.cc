// Pods: component, instance, replica and gang group of a Pod; subtree scale for gang sizes.
#include "resolve/extract.h"
#include "wmap/json.h"
#include "wmap/workload.h"

namespace wmap {

using resolve::MakeError;
using resolve::Wrap;

namespace {

// Go's %v of a decoded JSON value (strings as-is, numbers as Go prints float64, others as
// compact JSON).
std::string GoFormat(const Value& v) {
  if (v.is_string()) return std::string(v.as_string());
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  std::string out;
  if (v.is_number()) {
    json::FormatNumber(v, &out);
    return out;
  }
  return json::ToCompactString(v);
}

bool HasScaleDefinition(const Definition& d) {
  for (const ComponentDefinition& c : d.components()) {
    if (c.scale) return true;
  }
  return false;
}

size_t CountLeaves(const Definition& d, size_t component) {
  if (d.Children(component).empty()) return 1;
  size_t n = 0;
  for (size_t child : d.Children(component)) n += CountLeaves(d, child);
  return n;
}

int32_t EffectiveMinReplicas(const Scale& s) {
  if (s.min_replicas && *s.min_replicas > 0) return *s.min_replicas;
  if (s.replicas && *s.replicas > 0) return *s.replicas;
  return 0;
}

}  // namespace

Result<int32_t> Workload::SubtreeScale(size_t component,
                                       const std::optional<std::string>& instance_id) const {
  if (instance_id && instance_id->empty()) return MakeError("instance id is empty");
  if (!HasScaleDefinition(definition_)) {
    return static_cast<int32_t>(CountLeaves(definition_, component));
  }
  Result<std::optional<std::vector<Scale>>> scales = Scales(component);
  if (!scales.ok()) return scales.error();
  int32_t own = 0;
  if (*scales) {
    std::vector<std::string> ids;
    if (instance_id) {
      Result<std::vector<std::string>> all = InstanceIds(component);
      if (!all.ok()) return all.error();
      ids = std::move(all.value());
    }
    for (size_t i = 0; i < (*scales)->size(); ++i) {
      if (instance_id && ids[i] != *instance_id) continue;
      own += EffectiveMinReplicas((**scales)[i]);
    }
  }
  if (definition_.Children(component).empty()) return own;
  int32_t children = 0;
  for (size_t child : definition_.Children(component)) {
    Result<int32_t> s = SubtreeScale(child);
    if (!s.ok()) return s.error();
    children += *s;
  }
  if (children == 0) return own;
  if (own == 0) return children;
  return own * children;
}

PodQuerier::PodQuerier(Definition definition, EvalOptions options)
    : definition_(std::move(definition)), options_(options) {}

Result<bool> PodQuerier::MatchesComponentType(size_t component, const Value& pod) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.pod_selector || !c.pod_selector->component_type) return false;
  const ComponentTypeSelector& s = *c.pod_selector->component_type;
  if (s.match_labels) {
    const Value* metadata = pod.find("metadata");
    const Value* labels = metadata ? metadata->find("labels") : nullptr;
    for (const auto& [key, value] : *s.match_labels) {
      const Value* actual = labels ? labels->find(key) : nullptr;
      if (actual == nullptr || !actual->is_string() || actual->as_string() != value) return false;
    }
  }
  if (s.key_path && !s.key_path->text.empty()) {
    if (s.value) {
      if (!s.value_comparison)
        return MakeError("cannot compile the comparison of " + s.key_path->text);
      Result<std::vector<Value>> results =
          resolve::Evaluate(*s.value_comparison, s.key_path->text, pod, options_);
      if (!results.ok()) return results.error();
      bool any = false;
      for (const Value& v : *results) any = any || (v.is_bool() && v.as_bool());
      if (!any) return false;
    } else {
      Result<std::vector<Value>> results =
          resolve::Evaluate(*s.key_path->program, s.key_path->text, pod, options_);
      if (!results.ok()) return results.error();
      bool any = false;
      for (const Value& v : *results) any = any || !v.is_null();
      if (!any) return false;
    }
  }
  return true;
}

Result<std::optional<std::string>> PodQuerier::Key(const std::optional<Expression>& path,
                                                   const Value& pod) const {
  if (!path) return std::optional<std::string>();
  Result<std::vector<Value>> results = resolve::Evaluate(*path->program, path->text, pod, options_);
  if (!results.ok()) return results.error();
  if (results->size() != 1) {
    return MakeError("key path '" + path->text + "' must yield exactly one value, got " +
                     std::to_string(results->size()));
  }
  const Value& v = (*results)[0];
  if (v.is_null() || (v.is_string() && v.as_string().empty())) {
    return MakeError("key path '" + path->text + "' yielded an empty value");
  }
  return std::optional<std::string>(GoFormat(v));
}

Result<std::optional<std::string>> PodQuerier::InstanceKey(size_t component,
                                                           const Value& pod) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.pod_selector) return std::optional<std::string>();
  return Key(c.pod_selector->component_instance_id_path, pod);
}

Result<std::optional<std::string>> PodQuerier::ReplicaKey(size_t component,
                                                          const Value& pod) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.pod_selector) return std::optional<std::string>();
  return Key(c.pod_selector->replica_key_path, pod);
}

Result<std::optional<size_t>> PodQuerier::InferPodComponent(const Value& pod) const {
  std::vector<size_t> leaves;
  for (size_t i = 0; i < definition_.components().size(); ++i) {
    if (definition_.Children(i).empty()) leaves.push_back(i);
  }
  if (leaves.size() == 1) return std::optional<size_t>(leaves[0]);
  for (size_t leaf : leaves) {
    Result<bool> matches = MatchesComponentType(leaf, pod);
    if (!matches.ok()) {
      return Wrap("failed to check if pod matches component " + definition_.components()[leaf].name,
                  matches.error());
    }
    if (*matches) return std::optional<size_t>(leaf);
  }
  return std::optional<size_t>();
}

Result<std::optional<PodQuerier::GangGroup>> PodQuerier::PodGangGroup(const Value& pod) const {
  const std::optional<GangScheduling>& gang = definition_.gang_scheduling();
  if (!gang || gang->pod_groups.empty()) return std::optional<GangGroup>();
  Result<std::optional<size_t>> component = InferPodComponent(pod);
  if (!component.ok()) return component.error();
  if (!*component) return MakeError("no component found for pod");
  // The pod's component, then its ancestors; within one component, podGroups order.
  for (int c = static_cast<int>(**component); c >= 0; c = definition_.Parent(c)) {
    const std::string& name = definition_.components()[c].name;
    for (const PodGroupDefinition& group : gang->pod_groups) {
      for (const PodGroupMember& member : group.members) {
        if (member.component_name != name) continue;
        bool passed = true;
        for (const Expression& filter : member.filters) {
          Result<std::vector<Value>> r =
              resolve::Evaluate(*filter.program, filter.text, pod, options_);
          if (!r.ok()) {
            return Wrap(
                "failed to evaluate filters for component " + name + " in group " + group.name,
                r.error());
          }
          if (r->size() != 1 || !(*r)[0].is_bool() || !(*r)[0].as_bool()) {
            passed = false;
            break;
          }
        }
        if (!passed) continue;
        GangGroup result{group.name, static_cast<size_t>(c), {}};
        for (const Expression& key_path : member.group_by_key_paths) {
          Result<std::optional<std::string>> key = Key(key_path, pod);
          if (!key.ok()) return key.error();
          result.keys.push_back(**key);
        }
        return std::optional<GangGroup>(std::move(result));
      }
    }
  }
  return std::optional<GangGroup>();
}

}  // namespace wmap
