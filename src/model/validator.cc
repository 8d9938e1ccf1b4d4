#include "model/validator.h"

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/labels.h"

namespace wmap::model {
namespace {

class Reporter {
 public:
  Reporter(std::string file, std::vector<Error>* errors)
      : file_(std::move(file)), errors_(errors) {}
  void operator()(std::string message, Position position, std::string hint) {
    errors_->push_back(
        Error{std::move(message), file_, position, std::move(hint), ErrorCode::kInvalidDefinition});
    ++count_;
  }
  size_t count() const { return count_; }

 private:
  std::string file_;
  std::vector<Error>* errors_;
  size_t count_ = 0;
};

Position First(Position a, Position b) { return a.known() ? a : b; }

void ValidateTypeSelector(const ComponentDefinition& c, const ComponentPositions& p,
                          Reporter& report) {
  if (!c.pod_selector || !c.pod_selector->component_type) return;
  const ComponentTypeSelector& s = *c.pod_selector->component_type;
  Position at = First(p.type_selector, p.node);
  std::string prefix = "component '" + c.name + "' componentTypeSelector: ";
  bool has_key_path = s.key_path.has_value() && !s.key_path->text.empty();
  // Upstream reports the first of these three only.
  std::string has = "component '" + c.name + "' has component type selector ";
  if (s.match_labels && s.match_labels->empty()) {
    report(has + "with empty matchLabels", First(p.match_labels, at),
           "remove matchLabels or give it at least one label");
  } else if (!has_key_path && !s.match_labels) {
    report(has + "with neither keyPath nor matchLabels", at,
           "add keyPath (a jq path on the pod) or matchLabels");
  } else if (s.value && !has_key_path) {
    report(has + "value without keyPath", at,
           "add the keyPath whose result value is compared with");
  }
  if (s.match_labels) {
    for (const auto& [key, value] : *s.match_labels) {  // sorted by key
      for (const std::string& detail : QualifiedNameErrors(key)) {
        report(prefix + InvalidValueMessage("matchLabels", key, detail), First(p.match_labels, at),
               "label keys are [prefix/]name, e.g. app.kubernetes.io/name");
      }
      for (const std::string& detail : LabelValueErrors(value)) {
        report(prefix + InvalidValueMessage("matchLabels", value, detail),
               First(p.match_labels, at),
               "label values are at most 63 characters of [-A-Za-z0-9_.]");
      }
    }
  }
}

void ValidateComponent(const ComponentDefinition& c, const ComponentPositions& p,
                       Reporter& report) {
  if (c.name.empty()) {
    report("component name is empty", First(p.name, p.node), "give the component a name");
  }
  if (c.spec) {
    int patterns = (c.spec->pod_template_spec ? 1 : 0) + (c.spec->pod_spec ? 1 : 0) +
                   (c.spec->fragmented ? 1 : 0);
    if (patterns > 1) {
      report("component '" + c.name + "' has multiple pod spec definitions", First(p.spec, p.node),
             "keep one of podTemplateSpecPath, podSpecPath (with metadataPath) or "
             "fragmentedPodSpecDefinition");
    }
  }
  ValidateTypeSelector(c, p, report);
  bool has_instance_selector = c.pod_selector && c.pod_selector->has_component_instance_selector;
  if (c.instance_id_path && !has_instance_selector) {
    report("component '" + c.name + "' has instance id path but no pod component instance selector",
           First(p.instance_id_path, p.node),
           "add podSelector.componentInstanceSelector.idPath (how a pod names its instance)");
  } else if (has_instance_selector && !c.instance_id_path) {
    report("component '" + c.name + "' has pod component instance selector but no instance id path",
           First(p.instance_selector, p.node),
           "add instanceIdPath (the jq path of the instance ids in the object)");
  }
}

// Follows ownerRefs from each child; upstream's walk and message. A walk that meets a component
// whose own walk reached the root stops there as having reached it (the rest of its path has no
// cycle), which keeps upstream's answer and makes a long chain linear instead of quadratic.
std::optional<std::string> FindCycle(const std::vector<ComponentDefinition>& components,
                                     const std::unordered_map<std::string, size_t>& by_name) {
  std::set<std::string> validated;
  std::unordered_set<std::string> reaches_root;
  for (size_t i = 1; i < components.size(); ++i) {
    std::unordered_set<std::string> visited;
    std::vector<std::string> path;
    std::string current = components[i].name;
    bool already_validated = false;
    bool reached_root = false;
    while (!current.empty() && !already_validated) {
      if (reaches_root.count(current)) {
        reached_root = true;
        break;
      }
      if (visited.count(current)) return current;
      visited.insert(current);
      path.push_back(current);
      auto it = by_name.find(current);
      if (it == by_name.end()) {  // an unknown name reads as an ownerless component
        reached_root = true;
        break;
      }
      const ComponentDefinition& c = components[it->second];
      if (!c.owner_ref) {
        reached_root = true;
        break;
      }
      current = *c.owner_ref;
      already_validated = validated.count(current) > 0;
    }
    if (reached_root) {
      reaches_root.insert(path.begin(), path.end());
    } else {
      validated.insert(components[i].name);
    }
  }
  return std::nullopt;
}

}  // namespace

bool ValidateStructure(const StructureInput& input, std::vector<Error>* errors) {
  Reporter report(input.file, errors);
  const auto& components = *input.components;
  const auto& positions = *input.positions;

  // Duplicate names: children first, then the root, as upstream builds its index.
  std::unordered_map<std::string, size_t> by_name;
  std::vector<size_t> order;
  for (size_t i = 1; i < components.size(); ++i) order.push_back(i);
  order.push_back(0);
  for (size_t i : order) {
    if (by_name.count(components[i].name)) {
      report("component name " + components[i].name + " is not unique",
             First(positions[i].name, positions[i].node), "component names must be unique");
    }
    by_name[components[i].name] = i;
  }
  if (report.count() > 0) return false;

  // Root.
  const ComponentDefinition& root = components[0];
  const ComponentPositions& rp = positions[0];
  size_t structural_before = report.count();
  if (!root.kind || root.kind->version.empty() || root.kind->kind.empty() ||
      (root.kind->group.empty() && root.kind->kind != "Pod")) {
    report("root component must have full kind (group, version, kind)", First(rp.kind, rp.node),
           "set kind.group, kind.version and kind.kind of the workload's resource (group may be "
           "empty only for Pod)");
  }
  if (root.owner_ref) {
    report("root component cannot have owner ref", First(rp.owner_ref, rp.node),
           "remove ownerRef from the root component");
  }
  if (!root.status) {
    report("root component must have status definition", rp.node,
           "add statusDefinition with statusMappings to the root component");
  }
  ValidateComponent(root, rp, report);

  // Children.
  for (size_t i = 1; i < components.size(); ++i) {
    const ComponentDefinition& c = components[i];
    const ComponentPositions& p = positions[i];
    if (!c.owner_ref || c.owner_ref->empty()) {
      report("child component '" + c.name + "' has no owner ref", First(p.owner_ref, p.node),
             "set ownerRef to the name of the parent component");
    } else if (!by_name.count(*c.owner_ref)) {
      report("child component '" + c.name + "' has owner ref to non-existing component '" +
                 *c.owner_ref + "'",
             First(p.owner_ref, p.node), "ownerRef must name the root or another child component");
    }
    ValidateComponent(c, p, report);
  }

  if (report.count() == structural_before) {
    if (std::optional<std::string> cycle = FindCycle(components, by_name)) {
      size_t at = by_name.count(*cycle) ? by_name.at(*cycle) : 0;
      report("ownership cycle detected involving component " + *cycle,
             First(positions[at].owner_ref, positions[at].node),
             "ownerRefs must lead every child to the root component");
    }
  }

  // Gang scheduling members.
  if (input.gang->has_value()) {
    size_t k = 0;
    for (const PodGroupDefinition& group : (*input.gang)->pod_groups) {
      for (const PodGroupMember& member : group.members) {
        Position at =
            k < input.member_positions->size() ? (*input.member_positions)[k] : Position{};
        ++k;
        if (!by_name.count(member.component_name)) {
          report("pod-group member component '" + member.component_name +
                     "' is not defined (should be a root or child component)",
                 at, "use the name of the root or of a child component");
        }
      }
    }
  }
  return true;
}

}  // namespace wmap::model
