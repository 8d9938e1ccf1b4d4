// Checks one object against a compiled schema graph.
#ifndef WMAP_SCHEMA_VALIDATOR_H_
#define WMAP_SCHEMA_VALIDATOR_H_

#include <map>
#include <string>
#include <vector>

#include "schema/graph.h"
#include "wmap/schema.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::schema {

// Appends to *out every violation of `object` (of kind `gvk`) against node `root` of `graph`.
// `custom` selects the custom-resource rules for the object's own metadata (checked as
// ObjectMeta whatever the schema declares); built-in kinds get their handwritten rules too.
// `positions` (may be null) maps JSON pointers to source positions, as yaml::Document records them.
// Recursion follows the object's nesting and stops with a violation past a fixed depth, so no input
// overflows the stack.
void ValidateResource(const Graph& graph, int32_t root, const GroupVersionKind& gvk, bool custom,
                      const Value& object, const std::map<std::string, Position>* positions,
                      std::vector<Violation>* out);

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_VALIDATOR_H_
