// The abstract syntax tree of a jq program, as produced by the parser and consumed by the
// compiler. Nodes own their children (unique_ptr); every node records the byte offset where it
// starts in the program text, for error messages and $__loc__.
//
// The tree is purely syntactic: names are not yet resolved (a FuncCall may refer to a local def,
// a parameter closure or a builtin), and syntactic sugar is kept (`.a.b`, `a?`, `reduce`...) so
// the compiler can pick fast paths.
#ifndef WMAP_JQ_AST_H_
#define WMAP_JQ_AST_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/value.h"

namespace wmap::jq::ast {

struct Node;
using NodePtr = std::unique_ptr<Node>;

enum class Kind {
  kIdentity,        // .
  kRecurseDefault,  // ..
  kLiteral,         // null, true, false, numbers, constant strings: `literal`
  kString,          // string with interpolation or a format: `format` (may be empty) + `parts`
  kFormat,          // @base64 used as a filter: `format`
  kIndex,           // `target`[`index`]; `.name` / `."name"` use a kLiteral string index.
                    // `target` is never null: a leading `.` is a kIdentity node.
  kSlice,           // `target`[`from`:`to`] (from/to may be null, not both)
  kIterate,         // `target`[]
  kTry,             // try `body` catch `handler` (handler may be null); `a?` is try without catch
  kPipe,            // `left` | `right`
  kComma,           // `left`, `right`
  kNeg,             // -`body`
  kBinary,          // `left` op `right`: arithmetic, comparison, and, or, //
  kAssign,          // `left` op `right`: = |= += -= *= /= %= //=
  kIf,              // if `cond` then `body` (elif...)* else `else_` end; elifs are nested kIf
                    // in `else_` (offset = the `elif` keyword)
  kReduce,          // reduce `source` as `patterns`[0] (`init`; `update`)
  kForeach,         // foreach `source` as `patterns`[0] (`init`; `update`; `extract`?)
  kFuncDef,         // def `name`(`params`): `body`; `rest`
  kFuncCall,        // `name`(`args`...) — also builtins such as empty, not, error.
                    // Unary plus `+x` is parsed as kPipe(x, kFuncCall "_plus"), as gojq
                    // compiles it (`_plus` fails on non-numbers: "cannot plus: ...").
  kVar,             // $`name`: `name` is stored WITHOUT the '$' ("x", "__loc__", "ENV",
                    // "mod::x" for $mod::x)
  kBind,            // `source` as `patterns`[0] ?// `patterns`[1] ... | `body`
  kLabel,           // label $`name` | `body` (`name` without '$')
  kBreak,           // break $`name` (`name` without '$')
  kArray,           // [`body`] (body may be null for [])
  kObject,          // {`entries`}
};

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
  kAlt,  // //
};

enum class AssignOp {
  kSet,     // =
  kUpdate,  // |=
  kAdd,     // +=
  kSub,     // -=
  kMul,     // *=
  kDiv,     // /=
  kMod,     // %=
  kAlt,     // //=
};

// The operator as written: "=", "|=", "+=", ... (ast_debug.cc).
std::string_view AssignOpText(AssignOp op);

// A destructuring pattern: `$name`, `[p, ...]` or `{key: p, $name, $name: p, "str": p, (e): p}`.
struct Pattern {
  enum class Kind { kVar, kArray, kObject };
  struct ObjectEntry {
    // Exactly one of key_var / key_expr is set. `{$name}` and `{$name: p}` set key_var (the value
    // is bound to $name and, with a pattern, also destructured). Otherwise key_expr is the key
    // (a kLiteral string for `name`/`"name"`, a kString for interpolation, any node for `(e)`).
    std::string key_var;
    NodePtr key_expr;
    std::unique_ptr<Pattern> value;  // may be null only with key_var
  };
  Kind kind = Kind::kVar;
  std::string name;                                // kVar (without '$')
  std::vector<std::unique_ptr<Pattern>> elements;  // kArray
  std::vector<ObjectEntry> entries;                // kObject
  size_t offset = 0;
};

// An object-construction entry. Forms (gojq grammar):
//   `{a: v}`, `{if: v}`, `{"a": v}`   key = kLiteral string, value = v
//   `{a}`, `{"a"}`                    key = kLiteral string, value = null (shorthand: .a)
//   `{"\(e)": v}` / `{"\(e)"}`        key = kString node; shorthand value is .[key]
//   `{(e): v}`                        key = e (any node), value = v
//   `{$x}`                            key_var = "x", value = null: {"x": $x}
//   `{$x: v}`                         key_var = "x", value = v: the KEY is the value of $x
//   `{$__loc__}`                      key_var = "__loc__": {"__loc__": {file, line}}
// Values are parsed as gojq's objectval: binary-operator expressions joined by `|`.
struct ObjectEntry {
  std::string key_var;  // without '$'; non-empty exactly when the key is a variable
  NodePtr key;          // null exactly when key_var is set
  NodePtr value;        // null for shorthand forms
};

// A piece of a kString: literal text or an interpolated query. The parser never produces empty
// literal parts, so `"\(x)"` has exactly one (expression) part and `@json ""` has none.
struct StringPart {
  std::string literal;  // used when expr is null
  NodePtr expr;         // \( expr )
};

struct FuncParam {
  std::string name;     // without '$'
  bool is_var = false;  // `$name` parameter (value), else a closure parameter
};

struct Node {
  Kind kind;
  size_t offset = 0;  // byte offset of the node's first token in the program text

  // Shared child slots; which ones are used depends on kind (see Kind).
  NodePtr left, right;    // kPipe, kComma, kBinary, kAssign
  NodePtr target, index;  // kIndex, kSlice (index unused), kIterate
  NodePtr from, to;       // kSlice
  NodePtr body;           // kTry, kNeg, kIf(then), kFuncDef, kBind, kLabel, kArray
  NodePtr handler;        // kTry
  NodePtr cond, else_;    // kIf (else_ null when absent: `if c then a end` yields . )
  NodePtr source, init, update, extract;  // kReduce, kForeach
  NodePtr rest;                           // kFuncDef: the expression the def scopes over

  BinaryOp binary_op = BinaryOp::kAdd;
  AssignOp assign_op = AssignOp::kSet;

  Value literal;                  // kLiteral
  std::string format;             // kString (may be empty), kFormat: "@base64" (with '@')
  std::vector<StringPart> parts;  // kString
  std::string name;               // kFuncDef, kFuncCall, kVar, kLabel, kBreak
  std::vector<FuncParam> params;  // kFuncDef
  std::vector<NodePtr> args;      // kFuncCall
  std::vector<std::unique_ptr<Pattern>> patterns;  // kBind (more than one: `?//` alternatives)
  std::vector<ObjectEntry> entries;                // kObject

  // Height of the subtree rooted here (1 for a leaf), as computed by the parser; the parser
  // guarantees height <= ParseOptions::max_depth, so recursive walks over a parsed tree are
  // bounded. Nodes built elsewhere may leave it at 1.
  int height = 1;

  explicit Node(Kind k, size_t off = 0) : kind(k), offset(off) {}
};

// `import "path" as name;` / `import "path" as $name;` / `include "path";` with optional metadata.
struct Import {
  std::string path;
  std::string alias;     // without '$'; empty for include
  bool is_data = false;  // `as $name`: a JSON data file
  bool is_include = false;
  Value metadata;  // the optional {...} after the path, or null
  size_t offset = 0;
};

// A whole program (or module): `module {...};` metadata, imports, then top-level defs and the
// main expression. A module file has no main expression (body == nullptr) and its defs in `defs`.
struct Program {
  Value module_metadata;  // null when absent
  std::vector<Import> imports;
  // Top-level definitions of a module (`def f: ...;` with no trailing expression). In a main
  // program the defs are nested as kFuncDef nodes inside `body` instead.
  std::vector<NodePtr> defs;
  NodePtr body;  // null for a module
};

}  // namespace wmap::jq::ast

#endif  // WMAP_JQ_AST_H_
