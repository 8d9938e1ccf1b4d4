// The shared, immutable state behind a Definition, and where each validated field was written.
#ifndef WMAP_MODEL_DEFINITION_DATA_H_
#define WMAP_MODEL_DEFINITION_DATA_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "wmap/definition.h"

namespace wmap {

// Invariants once built by the loader: components is non-empty (root first); parents[i] is the
// index of component i's ownerRef (-1 for the root); children[i] lists, in definition order,
// every j with parents[j] == i; the ownership graph is a tree rooted at 0.
struct Definition::Data {
  std::string name;
  Value metadata;
  std::string file;
  GroupVersionKind root_kind;
  std::vector<ComponentDefinition> components;
  std::vector<int> parents;
  std::vector<std::vector<size_t>> children;
  std::vector<GroupVersionKind> additional_child_kinds;
  std::optional<GangScheduling> gang;
  DefinitionFormat format = DefinitionFormat::kKarta;
};

namespace model {

// Source positions of the fields the structural validator reports on.
struct ComponentPositions {
  Position node;
  Position name;
  Position kind;
  Position owner_ref;
  Position spec;
  Position status;
  Position instance_id_path;
  Position pod_selector;
  Position type_selector;
  Position instance_selector;
  Position match_labels;
};

// Source positions of the `gangs` form's members, by document path
// ("spec.optimizationInstructions.gangScheduling.gangs[0].subGroups[1].componentName"), and of
// the combined gang forms.
struct GangPositions {
  std::map<std::string, Position> by_field;
  Position Of(const std::string& field, Position fallback) const {
    auto it = by_field.find(field);
    return it != by_field.end() && it->second.known() ? it->second : fallback;
  }
};

}  // namespace model
}  // namespace wmap

#endif  // WMAP_MODEL_DEFINITION_DATA_H_
