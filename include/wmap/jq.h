// The jq engine: compile a jq program once, run it on many inputs, from many threads.
//
// Semantics follow gojq (sorted object iteration, gojq number formatting and error messages) with
// jq 1.7 assignment semantics. A Program is immutable after Compile and may be run concurrently;
// every run carries its own Budget, so a hostile program or input ends with a clean error.
#ifndef WMAP_JQ_H_
#define WMAP_JQ_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap::jq {

struct CompileOptions {
  // Names (without '$') of variables the caller binds at run time, in the order their values
  // are passed to Run. Referencing any other free variable is a compile error.
  std::vector<std::string> variables;
  // Folders searched by `import`/`include` (gojq's -L); empty disables modules.
  std::vector<std::string> library_paths;
  // Maximum nesting depth of the program text.
  size_t max_depth = 1000;
};

// Limits on one run. Zero means unlimited for every field.
struct Budget {
  size_t max_outputs = 0;  // more outputs than this is an error ("too many results")
  uint64_t max_steps = 0;  // evaluation steps (closure invocations)
  std::optional<std::chrono::steady_clock::time_point> deadline;
  size_t max_depth = 10000;     // function-call recursion depth
  size_t max_memory_bytes = 0;  // approximate bytes of containers built during the run
};

// Why a run ended badly.
enum class ErrorKind {
  kRuntime,  // a jq error (error/1, type errors...); `value` holds the error value
  kBreak,    // internal: never returned to callers
  kBudget,   // a Budget limit was exceeded
  kHalt,     // halt / halt_error: `value` holds the message, `exit_code` the status
};

struct RunError {
  ErrorKind kind = ErrorKind::kRuntime;
  Value value;  // error value: a string message or any value given to error/1
  // What gojq prints after "gojq: ": "error: <value>" for error/1 (strings raw, other values
  // as JSON), the message itself for evaluator errors ("cannot iterate over: null"), the
  // budget message for kBudget, and for kHalt the value (raw string or JSON; empty for halt).
  std::string message;
  int exit_code = 5;  // for kHalt
  // kRuntime raised by error/1 (the program's own error, `value` its argument), not by the
  // evaluator.
  bool user = false;
  // kEvaluation for kRuntime errors, except kInvalidPath when a path expression met a value
  // that is not a path (gojq's "invalid path ..."); kLimitExceeded for kBudget.
  ErrorCode code = ErrorCode::kEvaluation;
};

// Sources the CLI provides to a run; all optional.
struct RunContext {
  Budget budget;
  Value env = Value::EmptyObject();  // $ENV and env; empty unless the caller passes one
  // `input`/`inputs`: returns false at the end of input; may set *error for bad input.
  std::function<bool(Value* out, RunError* error)> next_input;
  // `input_filename`
  std::function<Value()> input_filename;
  // `debug`, `stderr` and `input_line_number` hooks.
  std::function<void(const Value&)> debug;
  std::function<void(const Value&)> stderr_output;
  // `now` (seconds since the epoch); tests may fix it.
  std::function<double()> now;
};

// A construct outside the read-only dialect of definition expressions: its byte offset in the
// program text and why it is refused, in upstream's words ("del function is not allowed").
struct ReadOnlyViolation {
  size_t offset = 0;
  std::string reason;
};

// Parses `text` and finds the first construct (in upstream's visiting order) that writes
// (assignment operators, del), may produce unbounded output (range, paths, recurse, walk,
// repeat) or descends recursively (`..`). nullopt when there is none; a parse error (code
// kParse, position in `text`) when the text does not parse.
Result<std::optional<ReadOnlyViolation>> FindReadOnlyViolation(std::string_view text);

// gojq's full error text for an error of Program::Compile, i.e. everything the gojq command
// prints after "gojq: " (see jq/parse_error.h for the layouts).
std::string FormatQueryError(std::string_view query, const Error& error,
                             std::string_view file_name = "<arg>");
// A string as Go's strconv.Quote (%q) prints ASCII, as gojq quotes command-line values.
std::string GoQuote(std::string_view s);

class Program {
 public:
  // Parses and compiles. Parse errors carry the position in the program text and a hint;
  // Error::message is gojq's text ("unexpected token ..."), Error::hint is a caret line.
  // Errors found after parsing (undefined function, variable or label; missing module) have an
  // unknown position (line 0) and a message that is gojq's complete text, e.g.
  // "function not defined: f/0" (gojq prints it without a "compile error: " prefix); the one
  // exception is parser::kMissingQueryMessage, which gojq prints as "compile error: ...".
  // Codes: kParse for parse errors, kCompile for the others.
  static Result<Program> Compile(std::string_view text, const CompileOptions& options = {});

  // Runs on one input with the variables of CompileOptions::variables, in order. `out` receives
  // every output and returns false to stop early. Returns the error that ended the run, if any
  // (outputs emitted before it have been delivered).
  std::optional<RunError> Run(const Value& input, const std::vector<Value>& variables,
                              const RunContext& context,
                              const std::function<bool(const Value&)>& out) const;

  // Convenience: all outputs, or the first error.
  Result<std::vector<Value>> RunAll(const Value& input, const std::vector<Value>& variables = {},
                                    const RunContext& context = {}) const;

  // True when the whole program is a path expression (usable on the left of `=` or in path()).
  bool IsPathExpression() const;
  // Names ("name/arity") of every builtin the program calls, and every construct it uses
  // ("reduce", "foreach", "label", "try", "def", "assign", "recurse", "format", ...).
  const std::set<std::string>& UsedBuiltins() const;
  const std::set<std::string>& UsedConstructs() const;

  const std::string& text() const;

  Program(const Program&) = default;
  Program& operator=(const Program&) = default;
  Program(Program&&) noexcept = default;
  Program& operator=(Program&&) noexcept = default;
  ~Program();

  struct Impl;

 private:
  explicit Program(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace wmap::jq

WMAP_PUBLIC_END

#endif  // WMAP_JQ_H_
