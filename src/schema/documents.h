// Turns one schema document (CRD stream, OpenAPI v3, Swagger 2.0) into a compiled Graph and the
// kinds it defines.
#ifndef WMAP_SCHEMA_DOCUMENTS_H_
#define WMAP_SCHEMA_DOCUMENTS_H_

#include <memory>
#include <string_view>
#include <vector>

#include "schema/graph.h"
#include "wmap/schema.h"
#include "wmap/status.h"

namespace wmap::schema {

struct KindEntry {
  GroupVersionKind gvk;
  int32_t root = -1;    // node in the document's graph
  bool custom = false;  // from a CustomResourceDefinition (metadata is checked as ObjectMeta)
  bool served = true;   // CRD versions can be defined but not served
};

// A compiled document: its graph and its kinds. Every KindEntry::root indexes `graph`.
struct CompiledDocument {
  std::unique_ptr<Graph> graph;
  std::vector<KindEntry> kinds;
};

// Parses and compiles one document. `name` appears in error messages. Safe to call from several
// threads at once.
Result<CompiledDocument> CompileDocument(std::string_view text, std::string_view name);

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_DOCUMENTS_H_
