// The jq parser: program text -> ast::Program, accepting exactly the language gojq accepts.
//
// Hand-written recursive descent with precedence climbing for binary operators. Precedence,
// lowest first: `def ...; q` / `label $x | q` / `e as $p | q` (their bodies extend as far right as
// possible), `|` (right), `,` (left), `//` (right), assignment operators (non-associative), `or`,
// `and`, comparisons (non-associative), `+ -`, `* / %`, unary minus and postfix suffixes.
//
// Guarantees: never crashes or overflows the stack on any input (nesting deeper than
// ParseOptions::max_depth is a clean error, and every node's `height` is at most max_depth);
// errors carry gojq's message ("unexpected token \"a\"", "unexpected EOF", ...) and a position
// whose offset is where gojq's caret points (see FormatQueryError in parse_error.h).
#ifndef WMAP_JQ_PARSER_H_
#define WMAP_JQ_PARSER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "jq/ast.h"
#include "wmap/status.h"

namespace wmap::jq {

struct ParseOptions {
  // Maximum nesting: both the parser's recursion and the height of the resulting tree.
  size_t max_depth = 1000;
};

// The message of the error for a program with no main expression (empty text, comments only,
// or only definitions). Its position is unknown (line 0); gojq reports it as a compile error.
inline constexpr std::string_view kMissingQueryMessage = "missing query (try \".\")";

// Parses a main program: optional `module {...};`, imports/includes, then the main expression
// (top-level defs are nested as kFuncDef nodes in `body`). A program without a main expression
// is an error with kMissingQueryMessage.
Result<ast::Program> ParseProgram(std::string_view text, const ParseOptions& options = {});

// Parses a module file: optional `module {...};`, imports/includes, then `def`s, collected in
// Program::defs (each with `rest` == null). As in gojq, a trailing main expression is parsed
// (syntax errors in it are reported) and then ignored; `body` is always null.
Result<ast::Program> ParseModule(std::string_view text, const ParseOptions& options = {});

// A compact S-expression rendering of a tree, for tests and debugging, e.g.
// `(| (index . "a") (call map (+ . 1)))`.
std::string DebugString(const ast::Node& node);
std::string DebugString(const ast::Pattern& pattern);

}  // namespace wmap::jq

#endif  // WMAP_JQ_PARSER_H_
