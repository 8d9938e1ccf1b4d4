// Upstream's KartaValidator rules over decoded components, with its messages and order:
// duplicate names (which stop the run), the root's kind/ownerRef/statusDefinition, per component
// the name, a single pod-spec pattern, the componentTypeSelector rules, instanceIdPath <=>
// componentInstanceSelector; per child the ownerRef; ownership cycles (only when no structural
// error was found); pod-group members naming defined components.
#ifndef WMAP_MODEL_VALIDATOR_H_
#define WMAP_MODEL_VALIDATOR_H_

#include <optional>
#include <string>
#include <vector>

#include "model/definition_data.h"
#include "wmap/definition.h"
#include "wmap/status.h"

namespace wmap::model {

struct StructureInput {
  const std::vector<ComponentDefinition>* components;  // root first
  const std::vector<ComponentPositions>* positions;    // parallel to components
  const std::optional<GangScheduling>* gang;
  const std::vector<Position>* member_positions;  // one per podGroups[].members[], in order
  std::string file;
};

// Appends the findings to *errors. Returns false when duplicate names stopped the validation
// (upstream then skips every later check, including the jq rules).
bool ValidateStructure(const StructureInput& input, std::vector<Error>* errors);

}  // namespace wmap::model

#endif  // WMAP_MODEL_VALIDATOR_H_
