#include "model/gang_validator.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/labels.h"

namespace wmap::model {
namespace {

bool IsDnsLabel(const std::string& s) {
  if (s.empty() || s.size() > 63) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return s.front() != '-' && s.back() != '-';
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

bool Uses(const TemplateParts& parts, std::string_view name) {
  return std::find(parts.placeholders.begin(), parts.placeholders.end(), name) !=
         parts.placeholders.end();
}

// Replaces {name} by value in a template (for comparing templates).
std::string Substitute(std::string text, const std::string& name, const std::string& value) {
  std::string key = "{" + name + "}";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    text.replace(at, key.size(), value);
    at += value.size();
  }
  return text;
}

// Checks the `gangs` of one definition against its components and reports every finding (file
// order within each gang). Reads only; the ownership graph may be malformed (other findings),
// so every walk up the tree is bounded.
class GangChecker {
 public:
  GangChecker(const std::vector<ComponentDefinition>& components, const GangPositions& positions,
              std::string file, std::vector<Error>* errors)
      : components_(components), positions_(positions), file_(std::move(file)), errors_(errors) {
    for (size_t i = 0; i < components.size(); ++i) by_name_.emplace(components[i].name, i);
  }

  void Check(const GangScheduling& gang);

 private:
  struct Context {
    const GangDefinition* gang;
    std::optional<size_t> anchor;  // the component the enclosing level is about
    bool replica_context = false;  // an enclosing level (or the gang) is per replica
  };
  // A subgroup name template with its field, for collision checks.
  struct NameUse {
    std::string resolved;  // the template with {component} and {gang} substituted
    std::string field;
  };

  void Report(std::string message, Position at, std::string hint) {
    errors_->push_back(
        Error{std::move(message), file_, at, std::move(hint), ErrorCode::kInvalidDefinition});
  }
  std::optional<size_t> Find(const std::string& name) const {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<size_t> ParentOf(size_t i) const {
    if (!components_[i].owner_ref) return std::nullopt;
    return Find(*components_[i].owner_ref);
  }
  // `c` is `anchor` or a descendant of it (bounded walk: ownership may be cyclic when other
  // errors were reported).
  bool Within(size_t c, size_t anchor) const {
    std::optional<size_t> at = c;
    for (size_t steps = 0; at && steps <= components_.size(); ++steps) {
      if (*at == anchor) return true;
      at = ParentOf(*at);
    }
    return false;
  }
  bool HasReplicaSelector(size_t c) const {
    std::optional<size_t> at = c;
    for (size_t steps = 0; at && steps <= components_.size(); ++steps) {
      const ComponentDefinition& d = components_[*at];
      if (d.pod_selector && d.pod_selector->has_replica_selector) return true;
      at = ParentOf(*at);
    }
    return false;
  }
  std::string KnownComponents() const {
    std::vector<std::string> names;
    for (const ComponentDefinition& c : components_) names.push_back(c.name);
    return "components: " + Join(names);
  }
  Position At(const std::string& field, Position fallback) const {
    return positions_.Of(field, fallback);
  }

  void CheckGang(const GangDefinition& g);
  void CheckSubGroup(const GangSubGroupDefinition& s, const Context& context,
                     std::vector<NameUse>* names);

  const std::vector<ComponentDefinition>& components_;
  const GangPositions& positions_;
  std::string file_;
  std::vector<Error>* errors_;
  std::map<std::string, size_t> by_name_;
};

void GangChecker::Check(const GangScheduling& gang) {
  if (gang.gangs.empty()) return;
  const std::string list = "spec.optimizationInstructions.gangScheduling.gangs";
  if (gang.pod_group || !gang.pod_groups.empty()) {
    Report("gangScheduling.gangs cannot be combined with " +
               std::string(gang.pod_group ? "podGroup" : "podGroups"),
           At(list, {}), "keep one gang form: gangs (which can say everything the others say)");
  }
  std::map<std::string, std::string> seen;       // gang name -> field
  std::map<std::string, std::string> templates;  // resolved name template -> field
  for (const GangDefinition& g : gang.gangs) {
    if (!g.name.empty()) {
      auto [it, inserted] = seen.emplace(g.name, g.field);
      if (!inserted) {
        Report("gang name '" + g.name + "' is not unique", At(g.field + ".name", g.position),
               "the other is " + it->second);
      }
    }
    CheckGang(g);
    if (g.computed) continue;  // names come from the computed objects, checked when planned
    std::string resolved;
    if (g.name_template) {
      resolved = Substitute(*g.name_template, "gang", g.name);
    } else {
      resolved = "pg-{workload}-{uid}" + std::string(g.for_each_instance_of ? "-{instance}" : "") +
                 (g.for_each_replica ? "-{replica}" : "");
    }
    auto [it, inserted] = templates.emplace(resolved, g.field);
    if (!inserted) {
      Report("gang '" + g.name + "' can have the same PodGroup name as " + it->second + " (\"" +
                 resolved + "\")",
             At(g.field + ".nameTemplate", g.position),
             "give each gang a nameTemplate with a distinct part, e.g. "
             "\"pg-{workload}-{uid}-{gang}\"");
    }
  }
}

void GangChecker::CheckGang(const GangDefinition& g) {
  if (g.name.empty()) {
    // Reported by the schema check when absent; here only when written as "".
    if (positions_.by_field.count(g.field + ".name")) {
      Report("gang name is empty", At(g.field + ".name", g.position), "give the gang a name");
    }
  } else if (!IsDnsLabel(g.name)) {
    Report("gang name '" + g.name + "' is not a DNS label", At(g.field + ".name", g.position),
           "use at most 63 lowercase letters, digits and '-', starting and ending with a letter or "
           "digit");
  }
  if (g.computed) {
    // The computed objects carry their own names, minimums and subgroups.
    const std::pair<bool, const char*> shaped[] = {
        {g.for_each_instance_of.has_value(), "forEachInstanceOf"},
        {g.for_each_replica, "forEachReplica"},
        {g.name_template.has_value(), "nameTemplate"},
        {g.min_member.has_value(), "minMember"},
        {g.min_sub_group.has_value(), "minSubGroup"},
        {g.topology.has_value(), "topology"},
        {!g.sub_groups.empty(), "subGroups"}};
    for (const auto& [present, field] : shaped) {
      if (!present) continue;
      Report("gang '" + g.name + "' has both computed and " + field,
             At(g.field + "." + field, g.position),
             "a computed gang takes its name, minimums, topology and subgroups from the objects "
             "computed.gangs gives; remove " +
                 std::string(field));
    }
    return;
  }
  Context context{&g, std::nullopt, g.for_each_replica};
  std::optional<size_t> anchor;
  if (g.for_each_instance_of) {
    anchor = Find(*g.for_each_instance_of);
    if (!anchor) {
      Report("gang '" + g.name + "' forEachInstanceOf names unknown component '" +
                 *g.for_each_instance_of + "'",
             At(g.field + ".forEachInstanceOf", g.position), KnownComponents());
    }
  }
  context.anchor = anchor;
  if (g.for_each_replica) {
    if (!g.for_each_instance_of) {
      Report("gang '" + g.name + "' has forEachReplica without forEachInstanceOf",
             At(g.field + ".forEachReplica", g.position),
             "name the component whose replicas each get a gang in forEachInstanceOf");
    } else if (anchor && !HasReplicaSelector(*anchor)) {
      Report("gang '" + g.name + "' has forEachReplica but component '" + *g.for_each_instance_of +
                 "' and its ancestors have no replicaSelector",
             At(g.field + ".forEachReplica", g.position),
             "add podSelector.replicaSelector.keyPath (how a pod names its replica) to the "
             "component");
    }
  }
  for (const std::string& detail : QualifiedNameErrors(g.min_member_override_annotation)) {
    Report("gang '" + g.name + "' minMemberOverrideAnnotation " +
               InvalidValueMessage("", g.min_member_override_annotation, detail).substr(2),
           At(g.field + ".minMemberOverrideAnnotation", g.position),
           "annotation keys are [prefix/]name, e.g. kai.scheduler/batch-min-member");
  }
  if (g.name_template) {
    TemplateParts parts = ParseNameTemplate(*g.name_template);
    Position at = At(g.field + ".nameTemplate", g.position);
    if (!parts.error.empty()) {
      Report("gang '" + g.name + "' nameTemplate: " + parts.error, at,
             "placeholders are written {workload}, {namespace}, {uid}, {gang}, {instance}");
    }
    for (const std::string& p : parts.placeholders) {
      bool known = p == "workload" || p == "namespace" || p == "uid" || p == "gang" ||
                   (p == "instance" && g.for_each_instance_of) ||
                   (p == "replica" && g.for_each_replica);
      if (!known) {
        Report("gang '" + g.name + "' nameTemplate has unknown placeholder {" + p + "}", at,
               std::string("placeholders here: {workload} {namespace} {uid} {gang}") +
                   (g.for_each_instance_of ? " {instance}" : "") +
                   (g.for_each_replica ? " {replica}" : ""));
      }
    }
    if (anchor && components_[*anchor].instance_id_path && !Uses(parts, "instance")) {
      Report("gang '" + g.name + "' is made per instance of '" + *g.for_each_instance_of +
                 "' but its nameTemplate has no {instance}: the PodGroup names collide",
             at, "add {instance} to the nameTemplate");
    }
    if (g.for_each_replica && !Uses(parts, "replica")) {
      Report("gang '" + g.name +
                 "' is made per replica but its nameTemplate has no {replica}: the PodGroup "
                 "names collide",
             at, "add {replica} to the nameTemplate");
    }
  }
  std::vector<NameUse> names;
  for (const GangSubGroupDefinition& s : g.sub_groups) CheckSubGroup(s, context, &names);
  std::map<std::string, std::string> seen;
  for (const NameUse& use : names) {
    auto [it, inserted] = seen.emplace(use.resolved, use.field);
    if (!inserted) {
      Report("subgroup names can collide in gang '" + g.name + "': " + it->second + " and " +
                 use.field + " are both named \"" + use.resolved + "\"",
             At(use.field + ".name", {}), "give the subgroups distinct names");
    }
  }
}

void GangChecker::CheckSubGroup(const GangSubGroupDefinition& s, const Context& context,
                                std::vector<NameUse>* names) {
  const std::string& f = s.field;
  std::optional<size_t> component;
  bool parent = !s.sub_groups.empty();
  if (!s.component_name.empty()) {
    component = Find(s.component_name);
    if (!component) {
      Report("subgroup componentName names unknown component '" + s.component_name + "'",
             At(f + ".componentName", s.position), KnownComponents());
    } else if (context.anchor && !Within(*component, *context.anchor)) {
      Report("subgroup component '" + s.component_name + "' is not '" +
                 components_[*context.anchor].name +
                 "' or one of its descendants, so its pods are not in the enclosing group",
             At(f + ".componentName", s.position),
             "nest the subgroup under a level about an ancestor of its component");
    }
  } else if (!parent) {
    Report("subgroup needs componentName (or subGroups to group)", s.position,
           "name the component whose pods form this subgroup");
  }
  if (s.component_name.empty() && (s.for_each_instance || s.for_each_replica)) {
    Report("subgroup forEachInstance and forEachReplica need componentName",
           At(f + (s.for_each_instance ? ".forEachInstance" : ".forEachReplica"), s.position),
           "name the component whose instances or replicas each get a subgroup");
  }
  if (s.for_each_replica && component && !HasReplicaSelector(*component)) {
    Report("subgroup forEachReplica needs a replicaSelector on component '" + s.component_name +
               "' or an ancestor",
           At(f + ".forEachReplica", s.position),
           "add podSelector.replicaSelector.keyPath (how a pod names its replica)");
  }
  if (parent && s.min_member) {
    Report("minMember applies to leaf subgroups; a subgroup with subGroups uses minSubGroup",
           At(f + ".minMember", s.position), "remove minMember or the subGroups");
  }
  if (parent && s.optional) {
    Report("optional applies to leaf subgroups", At(f + ".optional", s.position),
           "mark the optional leaves instead");
  }
  if (!parent && s.min_sub_group) {
    Report("minSubGroup applies to subgroups with subGroups", At(f + ".minSubGroup", s.position),
           "use minMember on a leaf");
  }
  if (s.optional && s.min_member) {
    Report("optional and minMember cannot be combined (optional means minMember 0)",
           At(f + ".optional", s.position), "keep one of them");
  }
  bool replica_context = context.replica_context || s.for_each_replica;
  std::string text;
  if (s.name) {
    text = *s.name;
  } else if (s.component_name.empty()) {
    Report("a subgroup without componentName needs a name", s.position,
           "add name (it is the subgroup's name in the PodGroup)");
  } else {
    bool ids = component && components_[*component].instance_id_path;
    text = s.for_each_replica ? (ids ? "{instance}-{replica}" : "{component}-{replica}")
                              : (s.for_each_instance && ids ? "{instance}" : "{component}");
  }
  TemplateParts parts = ParseNameTemplate(text);
  Position name_at = At(f + ".name", s.position);
  if (!parts.error.empty()) {
    Report("subgroup name: " + parts.error, name_at,
           "placeholders are written {component}, {instance}, {replica}, {gang}");
  }
  for (const std::string& p : parts.placeholders) {
    bool known = p == "gang" || (p == "component" && !s.component_name.empty()) ||
                 (p == "instance" && !s.component_name.empty()) ||
                 (p == "replica" && replica_context);
    if (!known) {
      Report("subgroup name has unknown placeholder {" + p + "}", name_at,
             std::string("placeholders here: {gang}") +
                 (s.component_name.empty() ? "" : " {component} {instance}") +
                 (replica_context ? " {replica}" : ""));
    }
  }
  if (s.for_each_instance && component && components_[*component].instance_id_path &&
      !Uses(parts, "instance")) {
    Report("subgroup is made per instance but its name has no {instance}: the names collide",
           name_at, "add {instance} to the name");
  }
  if (s.for_each_replica && !Uses(parts, "replica")) {
    Report("subgroup is made per replica but its name has no {replica}: the names collide", name_at,
           "add {replica} to the name");
  }
  if (!text.empty() && parts.error.empty()) {
    std::string resolved =
        Substitute(Substitute(text, "component", s.component_name), "gang", context.gang->name);
    names->push_back({resolved, f});
  }
  Context inner = context;
  if (component) inner.anchor = component;
  inner.replica_context = replica_context;
  for (const GangSubGroupDefinition& child : s.sub_groups) CheckSubGroup(child, inner, names);
}

}  // namespace

TemplateParts ParseNameTemplate(const std::string& text) {
  TemplateParts parts;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '}') {
      parts.error = "'}' without '{' at offset " + std::to_string(i);
      return parts;
    }
    if (text[i] != '{') continue;
    size_t close = text.find('}', i);
    if (close == std::string::npos) {
      parts.error = "unclosed '{' at offset " + std::to_string(i);
      return parts;
    }
    std::string name = text.substr(i + 1, close - i - 1);
    if (name.empty() || name.find('{') != std::string::npos) {
      parts.error = "bad placeholder at offset " + std::to_string(i);
      return parts;
    }
    parts.placeholders.push_back(std::move(name));
    i = close;
  }
  return parts;
}

void ValidateGangs(const std::vector<ComponentDefinition>& components,
                   const std::optional<GangScheduling>& gang, const GangPositions& positions,
                   const std::string& file, std::vector<Error>* errors) {
  if (!gang) return;
  GangChecker(components, positions, file, errors).Check(*gang);
}

}  // namespace wmap::model
