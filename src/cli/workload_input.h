// The input and error layer shared by the workload commands (get, describe, status, inspect,
// definitions, gang, mutate, suspend, resume).
//
// Contract:
// - Exit codes (upstream kli's): kExitOk 0, kExitError 1 (bad input, evaluation failure),
//   kExitUsage 2 (flags, command line), kExitNotFound 3 (a file, a definition NAME or a workload
//   that is not there), kExitNoDefinition 4 (an object whose apiVersion/kind no definition reads).
// - A command that fails builds one CliError and returns ReportError(...): as text on stderr
//   ("wmap CMD: file:line:col: message" then "hint: ..."), or with `-o json|yaml` as a document
//   {"error": code, "message": ..., "hint": ...} (plus "file", "line", "column" when known) on
//   stdout, so a script reading stdout always gets a document. Warnings go to stderr only.
// - ObjectReader reads `-f PATH...` one object at a time: regular files are mapped, not copied;
//   folders are walked recursively (*.yaml, *.yml, *.json, sorted by path); "-" is standard
//   input (read once). A file holds multi-document YAML, or JSON values (one, a stream, or a
//   top-level array whose elements are the objects); a `kind: List` (or any kind ending in
//   "List" with an `items` array) yields its items. Null and empty documents are skipped. Each
//   object keeps its file and the position of its document/value (list items: the list's, with
//   their index). Memory stays near one document plus the mapping; on a terminal, reading for
//   more than a second shows progress on stderr (cleared when done).
// - DefinitionResolver: the built-in catalog, then each `--definitions DIR` (or file), then each
//   `--definition FILE` ("-" = standard input); a later definition replaces an earlier one with
//   the same root GVK. Find() looks an object up by apiVersion and kind; NoDefinition() is the
//   exit-4 error that says how to add one.
// - SplitWorkloads: a workload is an object with a definition that has no controller owner among
//   the inputs and is not a Pod owned by a controller. Every other object is attributed to the
//   workload its controller-ownerReference chain (uids, at most 16 hops, through any given object)
//   reaches; Pods go to `pods`, the rest to `children`. Unreached objects are `orphans`, and
//   unowned objects with no definition are `undefined` (for the once-per-kind warning).
#ifndef WMAP_CLI_WORKLOAD_INPUT_H_
#define WMAP_CLI_WORKLOAD_INPUT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cli/command.h"
#include "wmap/catalog.h"
#include "wmap/definition.h"
#include "wmap/meta.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::cli {

// Exit codes of the workload commands (kExitOk 0 and kExitUsage 2 come from command.h).
inline constexpr int kExitError = 1;
inline constexpr int kExitNotFound = 3;
inline constexpr int kExitNoDefinition = 4;

// A failure a command reports and exits with.
struct CliError {
  // Decides the exit status and the `error` field of error documents (ErrorCodeInfo).
  ErrorCode code = ErrorCode::kUnknown;
  std::string message;  // without the location
  std::string hint;     // what to do next ("" when nothing useful)
  std::string file;     // "" when not about a file
  Position position;    // unknown when not about a place in a file

  int exit_code() const { return ErrorCodeInfo(code).exit_code; }
  // "not_found", "invalid_input"...
  std::string_view name() const { return ErrorCodeInfo(code).name; }
  // "file:line:col: message" (the parts that are known).
  std::string Located() const;
  // A library error as the command reports it: its code, message, hint and place.
  static CliError From(const Error& error);
};

CliError UsageError(std::string message, std::string hint = "");

// "json" or "yaml" when `output` asks for a machine-readable format, else "".
std::string_view MachineFormat(std::string_view output);

// Reports `error` (see the file comment) for `command` ("get", "describe"...) and returns its
// exit code. `output` is the command's -o value.
int ReportError(const CommandIo& io, std::string_view command, std::string_view output,
                const CliError& error);
// "wmap CMD: warning: text" on stderr.
void ReportWarning(const CommandIo& io, std::string_view command, std::string_view text);

// The value of NAME in io.environment, or nullopt.
std::optional<std::string_view> GetEnv(const CommandIo& io, std::string_view name);

// A small command-line parser: "--name value", "--name=value", "-n value", repeatable string
// lists, booleans, positionals; "--" ends the flags; a lone "-" is a positional.
class FlagParser {
 public:
  void String(std::initializer_list<std::string_view> names, std::string* out);
  void Strings(std::initializer_list<std::string_view> names, std::vector<std::string>* out);
  void Bool(std::initializer_list<std::string_view> names, bool* out);
  // nullopt on success; a usage error naming the flag otherwise.
  std::optional<CliError> Parse(std::span<const std::string> args,
                                std::vector<std::string>* positional) const;

 private:
  struct Flag {
    std::vector<std::string> names;
    std::string* string = nullptr;
    std::vector<std::string>* strings = nullptr;
    bool* boolean = nullptr;
  };
  std::vector<Flag> flags_;
};

// The flags of the definition sources and the object inputs.
struct InputFlags {
  std::vector<std::string> files;             // -f/--filename (repeatable)
  std::vector<std::string> definition_files;  // -d/--definition (repeatable)
  std::vector<std::string> definition_dirs;   // --definitions (repeatable)
  bool lenient = false;                       // --lenient
  bool no_crd_defaults = false;               // --no-crd-defaults
  void Register(FlagParser* parser);
  LoadOptions load_options() const;
};

// One object read from the inputs.
struct InputObject {
  Value value;
  std::string file;   // the path as given, "<stdin>" for standard input
  Position position;  // of the document or JSON value (of the List for list items)
  int list_index = -1;

  // "file:line:col" (or "file:line:col items[N]").
  std::string Where() const;
  // The object's apiVersion, kind, metadata.name, metadata.namespace, metadata.uid ("" when
  // absent or not a string).
  std::string_view ApiVersion() const;
  std::string_view Kind() const;
  std::string_view Name() const;
  std::string_view Namespace() const;
  std::string_view Uid() const;
};

// Field accessors and the controller owner (wmap/meta.h: controller references only).
using meta::ControllerUid;
using meta::MetadataField;
using meta::StringField;
bool IsPod(const Value& object);
// A pod that lists owners but none with `controller: true`: it belongs to no workload above it.
bool IsUncontrolledPod(const Value& object);

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

// Streams the objects of `-f PATH...` (see the file comment).
class ObjectReader {
 public:
  ObjectReader(std::vector<std::string> paths, const CommandIo& io, bool show_progress = true);
  ~ObjectReader();
  ObjectReader(const ObjectReader&) = delete;
  ObjectReader& operator=(const ObjectReader&) = delete;

  // Checks the paths and lists folders: a missing path is kExitNotFound, an unreadable one
  // kExitError. Called by the first Next() when not called before.
  std::optional<CliError> Open();
  // True with *out set, or true with *error set (reading stops), or false at the end.
  bool Next(InputObject* out, std::optional<CliError>* error);
  // The files read so far and to be read (after Open).
  const std::vector<std::string>& files() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Appends every object of the paths to *out; returns the first error.
std::optional<CliError> ReadAllObjects(const std::vector<std::string>& paths, const CommandIo& io,
                                       std::vector<InputObject>* out);

// The definitions available to a command (see the file comment).
class DefinitionResolver {
 public:
  // Loads the sources; a missing path is kExitNotFound, an invalid definition kExitError with
  // every problem in the message.
  static std::optional<CliError> Create(const InputFlags& flags, const CommandIo& io,
                                        DefinitionResolver* out);

  const Catalog& catalog() const { return catalog_; }
  // The entry whose root GVK is the object's apiVersion and kind, or nullptr.
  const CatalogEntry* Find(const Value& object) const;
  const CatalogEntry* Find(std::string_view api_version, std::string_view kind) const;
  // "no definition for example.com/v1 Foo: pass --definition FILE or add one with
  // --definitions DIR", exit 4, located at the object.
  static CliError NoDefinition(const InputObject& object);

 private:
  Catalog catalog_;
};

// One workload with the objects attributed to it.
struct WorkloadGroup {
  InputObject workload;
  const CatalogEntry* entry = nullptr;
  std::vector<Value> children;  // input order
  std::vector<Value> pods;      // input order
};

// Pods that list owners but none with `controller: true` (IsUncontrolledPod), counted as they
// are read: they belong to no workload above them, so every command warns about them once.
class UncontrolledPods {
 public:
  void Add(const InputObject& pod);
  // One warning line for all of them, or "" when there were none.
  std::string Warning() const;

 private:
  size_t count_ = 0;
  std::string first_;  // "file:line:col pod/name" of the first one
};

struct SplitResult {
  std::vector<WorkloadGroup> workloads;  // input order
  std::vector<InputObject> orphans;      // owned objects whose chain reaches no workload
  std::vector<InputObject> undefined;    // unowned, non-Pod-child objects with no definition
  UncontrolledPods uncontrolled;
};

SplitResult SplitWorkloads(std::vector<InputObject> objects, const DefinitionResolver& resolver);

// Follows controller-owner uids (see SplitWorkloads) for callers that stream: record every
// object's uid and controller owner uid, then ask for the workload uid an object belongs to.
class OwnerIndex {
 public:
  void Add(std::string_view uid, std::string_view owner_uid);
  // The first uid on the chain from `owner_uid` (inclusive) for which is_root(uid) holds, or ""
  // when none does within meta::kMaxControllerDepth hops (owner_uid is the first hop).
  template <typename IsRoot>
  std::string_view RootOf(std::string_view owner_uid, const IsRoot& is_root) const {
    std::string_view uid = owner_uid;
    for (int hop = 0; hop < meta::kMaxControllerDepth && !uid.empty(); ++hop) {
      if (is_root(uid)) return uid;
      auto it = owners_.find(std::string(uid));
      if (it == owners_.end()) return {};
      uid = it->second;
    }
    return {};
  }
  bool Contains(std::string_view uid) const { return owners_.count(std::string(uid)) > 0; }

 private:
  std::unordered_map<std::string, std::string> owners_;
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_WORKLOAD_INPUT_H_
