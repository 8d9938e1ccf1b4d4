// The compiled form of a document's schemas: a graph of nodes addressed by index.
//
// Invariants: every index stored in a node (properties, items, additional, combinators, not) is
// a valid index into the same Graph's nodes; `$ref`s are already resolved, so a recursive schema
// is a cycle of indices. Properties are sorted by name (unique). A Graph is immutable after
// compilation and may be read from many threads.
#ifndef WMAP_SCHEMA_GRAPH_H_
#define WMAP_SCHEMA_GRAPH_H_

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/value.h"

namespace wmap::schema {

// Type bits; kNumber also admits integers. A node with no bits admits every type.
enum TypeBit : uint8_t {
  kObjectBit = 1,
  kArrayBit = 2,
  kStringBit = 4,
  kIntegerBit = 8,
  kNumberBit = 16,
  kBooleanBit = 32,
};

enum class Format : uint8_t {
  kNone,
  kInt32,
  kInt64,
  kDateTime,        // as the OpenAPI format checker of custom resources reads it (loosely)
  kDateTimeStrict,  // as metav1.Time decodes it in built-in types (RFC 3339)
  kByte,
  kQuantity,
};

// What an object member not named in `properties` gets.
enum class Extra : uint8_t {
  kReject,  // "field not declared in schema"
  kAllow,   // kept as is
  kSchema,  // validated against Node::additional
};

enum class ListType : uint8_t { kAtomic, kSet, kMap };

struct Property {
  std::string name;
  int32_t node;
  // The schema's `default` for the field, when it has one. In custom resources the API server
  // fills a missing field (or, outside nullable fields, a null one) with it before validating,
  // so such a field satisfies `required`; in every dialect it fills missing list-map keys.
  std::optional<Value> default_value;
};

// Rarely used constraints, kept out of Node to keep nodes small.
struct Checks {
  std::vector<Value> enum_values;  // empty: no enum
  std::optional<double> minimum;
  std::optional<double> maximum;
  bool exclusive_minimum = false;
  bool exclusive_maximum = false;
  std::optional<double> multiple_of;
  int64_t min_items = -1;  // -1: unset
  int64_t max_items = -1;
  int64_t min_length = -1;
  int64_t max_length = -1;
  int64_t min_properties = -1;
  int64_t max_properties = -1;
  std::shared_ptr<const RE2> pattern;  // null when absent or not a valid RE2 expression
  ListType list_type = ListType::kAtomic;
  std::vector<std::string> list_map_keys;
  std::vector<int32_t> all_of;
  std::vector<int32_t> any_of;
  std::vector<int32_t> one_of;
  int32_t not_schema = -1;
};

struct Node {
  uint8_t types = 0;  // TypeBit set; 0 admits any type
  bool nullable = false;
  bool embedded_resource = false;
  bool applies_defaults = false;  // property defaults satisfy `required` (custom resources)
  Format format = Format::kNone;
  Extra extra = Extra::kAllow;
  int32_t items = -1;       // schema of array items; -1: any
  int32_t additional = -1;  // schema of extra members when extra == kSchema
  std::vector<Property> properties;
  std::vector<std::string> required;
  std::unique_ptr<Checks> checks;  // null when the node has none of them

  // Property `name`, or null.
  const Property* FindProperty(std::string_view name) const;
};

struct Graph {
  std::vector<Node> nodes;
};

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_GRAPH_H_
