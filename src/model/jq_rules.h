// The static rules every jq expression of a definition must pass, as upstream's
// ValidateJQExpressions applies them, plus compilation (a loaded definition holds its programs).
//
// Rules, with upstream's messages:
// - the text parses ("failed to parse JQ expression '<e>' at '<GoField>': <gojq message>");
// - no modifying operator: = |= += -= *= /= %= //= ("modifying operator '|=' is not allowed");
// - no del ("del function is not allowed");
// - no range, paths, recurse, walk, repeat, any arity
//   ("function 'range' may produce excessive output and is not allowed");
// - no recursive descent ("recursive descent operator '..' is not allowed");
// each wrapped as "JQ expression '<e>' at '<GoField>' failed validation: <reason>". The walk
// visits the same places as upstream's (definitions, call arguments, if/try/reduce/foreach,
// array and object construction, string interpolation, indexes and slices) and, like it, not
// the bodies of `as` bindings, `label`, or unary minus; the first finding is reported.
// - the text compiles (unknown functions are compile errors here, runtime errors upstream):
//   "failed to compile JQ expression '<e>' at '<GoField>': function not defined: spec/0".
// An empty expression is gojq's identity, as upstream's runtime treats it.
#ifndef WMAP_MODEL_JQ_RULES_H_
#define WMAP_MODEL_JQ_RULES_H_

#include <optional>
#include <string>
#include <string_view>

#include "wmap/jq.h"
#include "wmap/status.h"

namespace wmap::model {

struct JqFinding {
  std::string message;
  size_t offset = 0;  // byte offset inside the expression text
  bool offset_known = false;
  std::string hint;
};

// Upstream's Go field path for a document path:
// "spec.structureDefinition.childComponents[0].instanceIdPath" ->
// "Spec.StructureDefinition.ChildComponents[0].InstanceIdPath".
std::string GoFieldPath(std::string_view document_path);

// Checks and compiles `text`. On success returns the program; otherwise fills *finding.
std::optional<jq::Program> CompileDefinitionExpression(std::string_view text,
                                                       std::string_view document_path,
                                                       JqFinding* finding);

// As CompileDefinitionExpression, for the `gangs` form: the program may use the variables
// $instance and $replica (passed to Run in that order).
std::optional<jq::Program> CompileGangExpression(std::string_view text,
                                                 std::string_view document_path,
                                                 JqFinding* finding);

// Compiles an expression the library builds around a user expression (the text was checked
// already); nullopt when it does not compile.
std::optional<jq::Program> CompileInternal(const std::string& text);

}  // namespace wmap::model

#endif  // WMAP_MODEL_JQ_RULES_H_
