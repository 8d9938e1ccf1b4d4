// Compilation of a parsed jq program (src/jq/ast.h) into an Op tree (src/jq/eval/op.h).
//
// Names are resolved here: variables become frame slots, calls become calls of jq-defined
// functions, closure parameters, evaluator builtins or natives. User definitions shadow
// builtins. The builtin library (CorePrelude + LibraryPrelude) is compiled once per process and
// shared, read-only, by every compiled program.
#ifndef WMAP_JQ_EVAL_COMPILER_H_
#define WMAP_JQ_EVAL_COMPILER_H_

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jq/ast.h"
#include "jq/eval/op.h"
#include "jq/native.h"
#include "wmap/jq.h"
#include "wmap/status.h"

namespace wmap::jq::eval {

// The compiled builtin library.
struct Library {
  std::vector<std::unique_ptr<FuncDef>> funcs;
  std::unordered_map<std::string, const FuncDef*> defs;        // "name/arity"
  std::unordered_map<std::string, const NativeSpec*> natives;  // "name/arity"
  Value builtin_names;              // sorted array of "name/arity" strings for builtins/0
  std::vector<std::string> errors;  // library definitions that failed to compile (none expected)
};

// The process-wide library, built on first use (thread-safe).
const Library& GetLibrary();

struct CompiledProgram {
  std::vector<std::unique_ptr<FuncDef>> funcs;  // user definitions (owned)
  OpPtr main;
  int root_slots = 0;
  int num_variables = 0;  // slots [0, num_variables) hold CompileOptions::variables
  std::set<std::string> used_builtins;
  std::set<std::string> used_constructs;
};

// Compiles a parsed main program. `text` is the program text ($__loc__ line numbers).
Result<std::unique_ptr<CompiledProgram>> CompileProgram(const ast::Program& program,
                                                        std::string_view text,
                                                        const CompileOptions& options);

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_COMPILER_H_
