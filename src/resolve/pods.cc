// Pods: component, instance, replica and gang group of a Pod; subtree scale for gang sizes.
#include <algorithm>

#include "resolve/extract.h"
#include "wmap/jq.h"
#include "wmap/json.h"
#include "wmap/workload.h"

namespace wmap {

using resolve::MakeError;
using resolve::Wrap;

namespace {

// Go's %v of a decoded JSON value (strings as-is, numbers as Go prints float64, others as
// compact JSON).
std::string GoFormat(const Value& v) {
  if (v.is_null()) return "<nil>";
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

// The one result of a pod query, as upstream's pod querier requires it: exactly one result,
// neither null nor "".
Result<Value> SingleResult(const Expression& e, const Value& pod, const EvalOptions& options) {
  Result<std::vector<Value>> results = resolve::Evaluate(*e.program, e.text, pod, options);
  if (!results.ok()) return results.error();
  if (results->size() != 1) {
    return MakeError("expected single query result, got " + std::to_string(results->size()));
  }
  const Value& v = (*results)[0];
  if (v.is_null() || (v.is_string() && v.as_string().empty())) {
    return MakeError("query result is empty " + GoFormat(v));
  }
  return v;
}

std::string PodName(const Value& pod) {
  const Value* metadata = pod.find("metadata");
  const Value* name = metadata ? metadata->find("name") : nullptr;
  return name != nullptr && name->is_string() ? std::string(name->as_string()) : "";
}

int32_t EffectiveMinReplicas(const Scale& s) {
  if (s.min_replicas && *s.min_replicas > 0) return *s.min_replicas;
  if (s.replicas && *s.replicas > 0) return *s.replicas;
  return 0;
}

}  // namespace

Result<int32_t> Workload::LeafScale(size_t component, size_t root,
                                    const std::optional<std::string>& instance_id) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (c.HasPodDefinition()) {
    if (!c.instance_id_path) return 1;
    Result<std::vector<std::string>> ids = InstanceIds(component);
    if (!ids.ok()) return ids.error();
    if (component == root && instance_id) {
      if (std::find(ids->begin(), ids->end(), *instance_id) == ids->end()) {
        return MakeError("instance id " + *instance_id + " not found");
      }
      return 1;
    }
    return static_cast<int32_t>(ids->size());
  }
  int32_t leaves = 0;
  for (size_t child : definition_.Children(component)) {
    Result<int32_t> n = LeafScale(child, root, instance_id);
    if (!n.ok()) return n.error();
    leaves += *n;
  }
  return leaves;
}

Result<int32_t> Workload::SubtreeScale(size_t component,
                                       const std::optional<std::string>& instance_id) const {
  if (instance_id && instance_id->empty()) return MakeError("instance id is empty");
  if (!HasScaleDefinition(definition_)) return LeafScale(component, component, instance_id);
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
                                                   std::string_view what, const Value& pod) const {
  if (!path) return std::optional<std::string>();
  Result<Value> v = SingleResult(*path, pod, options_);
  if (!v.ok()) {
    return Wrap("failed to extract " + std::string(what) + " from path " + jq::GoQuote(path->text),
                v.error());
  }
  return std::optional<std::string>(GoFormat(*v));
}

Result<std::optional<std::string>> PodQuerier::InstanceKey(size_t component,
                                                           const Value& pod) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.pod_selector) return std::optional<std::string>();
  return Key(c.pod_selector->component_instance_id_path, "instance id", pod);
}

Result<std::optional<std::string>> PodQuerier::ReplicaKey(size_t component,
                                                          const Value& pod) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.pod_selector) return std::optional<std::string>();
  return Key(c.pod_selector->replica_key_path, "replica key", pod);
}

Result<std::optional<size_t>> PodQuerier::InferPodComponent(const Value& pod) const {
  // Upstream's leaves are the components with a pod definition, in definition order.
  std::vector<size_t> leaves;
  for (size_t i = 0; i < definition_.components().size(); ++i) {
    if (definition_.components()[i].HasPodDefinition()) leaves.push_back(i);
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
  if (!*component) return MakeError("no component found for pod " + PodName(pod));
  // The pod's component, then its ancestors; within one component, podGroups order.
  for (int c = static_cast<int>(**component); c >= 0; c = definition_.Parent(c)) {
    const std::string& name = definition_.components()[c].name;
    for (const PodGroupDefinition& group : gang->pod_groups) {
      for (const PodGroupMember& member : group.members) {
        if (member.component_name != name) continue;
        bool passed = true;
        for (const Expression& filter : member.filters) {
          // Upstream: exactly one non-empty result, else an error; anything but `true` fails.
          Result<Value> r = SingleResult(filter, pod, options_);
          if (!r.ok()) {
            return Wrap(
                "failed to evaluate filters for component " + name + " in group " + group.name,
                Wrap("failed to evaluate filter " + jq::GoQuote(filter.text), r.error()));
          }
          if (!r->is_bool() || !r->as_bool()) {
            passed = false;
            break;
          }
        }
        if (!passed) continue;
        GangGroup result{group.name, static_cast<size_t>(c), {}};
        for (const Expression& key_path : member.group_by_key_paths) {
          Result<std::optional<std::string>> key = Key(key_path, "group key", pod);
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
