// Compiles the JSON schemas of one document into a Graph.
//
// Contract: schemas are compiled breadth-first from a work queue, never by recursion, so the
// depth of a schema costs no stack. Each named definition is compiled at most once (a `$ref`
// becomes the index of its target), so recursive definitions become cycles in the graph. The
// Values passed in must outlive the Compiler.
#ifndef WMAP_SCHEMA_COMPILER_H_
#define WMAP_SCHEMA_COMPILER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "schema/graph.h"
#include "wmap/value.h"

namespace wmap::schema {

// Where a schema comes from, which decides the rules that differ between custom resources and
// built-in types.
enum class Dialect {
  // A CustomResourceDefinition's structural schema: null only where nullable; an object schema
  // without properties keeps no fields unless it preserves unknown fields.
  kStructural,
  // An OpenAPI or Swagger document of built-in types: null is the zero value and always
  // accepted; an object schema without properties is free-form (RawExtension, FieldsV1).
  kBuiltin,
};

class Compiler {
 public:
  // `definitions` is the object of named schemas that `$ref`s name (null when the document has
  // none); `ref_prefix` is the prefix of those references ("#/components/schemas/").
  Compiler(Graph* graph, Dialect dialect, const Value* definitions, std::string ref_prefix);

  // Compiles `schema` and everything it reaches; returns its node.
  int32_t Compile(const Value& schema);
  // Compiles the named definition; -1 when the document has no such definition.
  int32_t CompileDefinition(std::string_view name);

 private:
  // The node for a schema appearing inside another: a `$ref` (or an allOf holding only a
  // `$ref`) resolves to the target's node; anything else gets a new node, filled later.
  int32_t Reference(const Value& schema);
  int32_t Named(std::string_view name);
  int32_t Enqueue(const Value* schema);
  int32_t AddNode(Node node);
  void Drain();
  Node Fill(const Value& schema);
  void FillChecks(const Value& schema, Node* node);
  std::shared_ptr<const RE2> Pattern(std::string_view text);

  Graph* graph_;
  Dialect dialect_;
  const Value* definitions_;
  std::string ref_prefix_;
  std::unordered_map<std::string, int32_t> named_;
  std::unordered_map<std::string, std::shared_ptr<const RE2>> patterns_;
  std::vector<std::pair<int32_t, const Value*>> queue_;
  int32_t any_node_ = -1;
};

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_COMPILER_H_
