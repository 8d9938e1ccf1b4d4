// The rules of the `gangs` form (WorkloadDefinition), checked after upstream's validator:
// - `gangs` cannot be combined with `podGroup` or `podGroups`;
// - gang names are unique DNS labels; `forEachInstanceOf` and every `componentName` name a
//   component; `forEachReplica` needs a replicaSelector on the component or an ancestor;
// - a subgroup's component is its enclosing subgroup's (or per-instance gang's) component or a
//   descendant of it, so its pods belong where it is placed;
// - `minMember` and `optional` apply to leaves, `minSubGroup` to parents; a subgroup without a
//   component groups subGroups and is named explicitly;
// - name templates use only the placeholders of their level, and names that can collide
//   (equal templates, or a per-instance / per-replica level without its placeholder) are
//   reported.
// Subgroups are nested by construction, so the subgroup graph has no cycles to look for.
#ifndef WMAP_MODEL_GANG_VALIDATOR_H_
#define WMAP_MODEL_GANG_VALIDATOR_H_

#include <optional>
#include <string>
#include <vector>

#include "model/definition_data.h"
#include "wmap/definition.h"
#include "wmap/status.h"

namespace wmap::model {

void ValidateGangs(const std::vector<ComponentDefinition>& components,
                   const std::optional<GangScheduling>& gang, const GangPositions& positions,
                   const std::string& file, std::vector<Error>* errors);

// The placeholders a template uses ("workload", "instance", ...), or an error message for a
// malformed template (an unclosed or empty brace).
struct TemplateParts {
  std::vector<std::string> placeholders;
  std::string error;
};
TemplateParts ParseNameTemplate(const std::string& text);

}  // namespace wmap::model

#endif  // WMAP_MODEL_GANG_VALIDATOR_H_
