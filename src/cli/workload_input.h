// The input and error layer shared by the workload commands (get, describe, status, inspect,
// definitions, gang, mutate, suspend, resume).
//
// Contract:
// - Exit codes (upstream kli's): kExitOk 0, kExitError 1 (bad input, evaluation failure),
//   kExitUsage 2 (flags, command line), kExitNotFound 3 (a file, a definition NAME or a workload
//   that is not there), kExitNoDefinition 4 (an object whose apiVersion/kind no definition reads).
// - A command that fails builds one Error and returns ReportError(...): as text on stderr
//   ("wmap CMD: file:line:col: message" then "hint: ..."), or with `-o json|yaml` as a document
//   {"error": code, "message": ..., "hint": ...} (plus "file", "line", "column" when known) on
//   stdout, so a script reading stdout always gets a document. Warnings go to stderr only.
// - ObjectReader reads `-f PATH...` one object at a time through wmap/source.h's ObjectStream; on
//   a terminal, reading for more than a second shows progress on stderr (cleared when done).
// - Definitions and workloads come from the inventory (wmap/inventory.h): --definitions DIR and
//   --definition FILE name its DefinitionSources; GroupWorkloads groups the objects.
#ifndef WMAP_CLI_WORKLOAD_INPUT_H_
#define WMAP_CLI_WORKLOAD_INPUT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cli/command.h"
#include "wmap/catalog.h"
#include "wmap/definition.h"
#include "wmap/inventory.h"
#include "wmap/meta.h"
#include "wmap/source.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

namespace wmap::cli {

// Exit codes of the workload commands (kExitOk 0 and kExitUsage 2 come from command.h).
inline constexpr int kExitError = 1;
inline constexpr int kExitNotFound = 3;
inline constexpr int kExitNoDefinition = 4;

Error UsageError(std::string message, std::string hint = "");

// The code a command reports for a failed evaluation: kLimitExceeded when a budget ended it
// (docs/limits.md), else kEvaluation.
inline ErrorCode EvaluationErrorCode(const Error& cause) {
  return cause.code == ErrorCode::kLimitExceeded ? ErrorCode::kLimitExceeded
                                                 : ErrorCode::kEvaluation;
}

// "json" or "yaml" when `output` asks for a machine-readable format, else "".
std::string_view MachineFormat(std::string_view output);

// Reports `error` (see the file comment) for `command` ("get", "describe"...) and returns its
// exit code. `output` is the command's -o value.
int ReportError(const CommandIo& io, std::string_view command, std::string_view output,
                const Error& error);
// "wmap CMD: warning: text" on stderr.
void ReportWarning(const CommandIo& io, std::string_view command, std::string_view text);
// Warns that objects of `object`'s kind have no definition and are skipped, once per
// apiVersion and kind (*warned keeps the kinds already reported).
void WarnUndefinedKind(const CommandIo& io, std::string_view command, const SourceObject& object,
                       std::set<std::string>* warned);

// The value of NAME in io.environment, or nullopt.
std::optional<std::string_view> GetEnv(const CommandIo& io, std::string_view name);

// A small command-line parser: "--name value", "--name=value", "-n value", repeatable string
// lists, booleans, positionals; "--" ends the flags; a lone "-" is a positional.
class FlagParser {
 public:
  void String(std::initializer_list<std::string_view> names, std::string* out);
  void Strings(std::initializer_list<std::string_view> names, std::vector<std::string>* out);
  void Bool(std::initializer_list<std::string_view> names, bool* out);
  // A flag whose value is optional: "--name=value" sets value, a bare "--name" sets `bare`
  // (the next argument is never taken as its value).
  void Optional(std::initializer_list<std::string_view> names, std::string* out,
                std::string_view bare);
  // nullopt on success; a usage error naming the flag otherwise.
  std::optional<Error> Parse(std::span<const std::string> args,
                             std::vector<std::string>* positional) const;

 private:
  struct Flag {
    std::vector<std::string> names;
    std::string* string = nullptr;
    std::vector<std::string>* strings = nullptr;
    bool* boolean = nullptr;
    std::string* optional = nullptr;
    std::string bare;
  };
  std::vector<Flag> flags_;
};

// How long a workload command may spend evaluating definitions in all, unless --deadline says
// otherwise.
inline constexpr std::chrono::seconds kDefaultDeadline{60};

// The flags of the definition sources and the object inputs.
struct InputFlags {
  std::vector<std::string> files;             // -f/--filename (repeatable)
  std::vector<std::string> definition_files;  // -d/--definition (repeatable)
  std::vector<std::string> definition_dirs;   // --definitions (repeatable)
  bool lenient = false;                       // --lenient
  bool no_crd_defaults = false;               // --no-crd-defaults
  bool numbers_as_written = false;            // set by commands that write objects back
  // The evaluation limits (docs/limits.md): --eval-timeout, --eval-memory, --deadline.
  std::string eval_timeout;
  std::string eval_memory;
  std::string deadline;
  // --max-document-size: the longest document an input may hold (docs/limits.md).
  std::string max_document_size;
  uint64_t document_limit = kDefaultMaxDocumentSize;  // parsed by ParseDocumentLimit
  void Register(FlagParser* parser);
  // Parses --max-document-size into document_limit; a usage error when it does not parse.
  std::optional<Error> ParseDocumentLimit();
  // The limits every definition evaluation of the command gets, the deadline counted from now;
  // a usage error names a flag whose value does not parse.
  Result<EvalOptions> eval_limits() const;
  LoadOptions load_options() const;
  // The definition sources these flags name; "-" reads io's standard input.
  DefinitionSources definition_sources(const CommandIo& io) const;
};

// Field accessors and the controller owner (wmap/meta.h: controller references only).
using meta::ControllerUid;
using meta::IsPod;
using meta::IsUncontrolledPod;
using meta::MetadataField;
using meta::StringField;

// Progress on stderr for inputs that take long: silent unless stderr is a terminal and a second
// has passed; redraws at most every 100 ms; Finish() clears the line.
class Progress {
 public:
  Progress(const CommandIo& io, std::string_view label);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void Update(uint64_t bytes_done, uint64_t bytes_total, uint64_t objects);
  void Finish();

 private:
  int fd_;
  bool enabled_;
  bool shown_ = false;
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

// The objects of `-f PATH...` (wmap/source.h), with progress on stderr while reading them.
class ObjectReader {
 public:
  ObjectReader(const InputFlags& flags, const CommandIo& io);
  // True with *out set, or true with *error set (reading stops), or false at the end.
  bool Next(SourceObject* out, std::optional<Error>* error);

 private:
  Progress progress_;
  ObjectStream stream_;
};

// Appends every object of the paths to *out; returns the first error.
std::optional<Error> ReadAllObjects(const InputFlags& flags, const CommandIo& io,
                                    std::vector<SourceObject>* out);

}  // namespace wmap::cli

#endif  // WMAP_CLI_WORKLOAD_INPUT_H_
