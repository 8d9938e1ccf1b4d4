// Changes to workloads in the cluster, for the commands that change workload objects (suspend,
// resume, mutate): the objects TYPE/NAME arguments name, read from the cluster, changed through
// their definitions exactly as the same commands change files, and written back as patches.
//
// Contract:
// - ReadNamedWorkloads reads every object and resolves every definition before anything is
//   written; a command computes every change before its first write too, so that a bad TYPE, a
//   missing NAME or a change a definition cannot make leaves the cluster as it was.
// - WriteBack sends a JSON merge patch (RFC 7386) from the object as read to the object as
//   changed, with the resourceVersion that was read in its metadata. The server applies a patch
//   that names a resourceVersion only to that version of the object (optimistic concurrency, as
//   'kubectl replace' and 'kubectl edit' rely on), so a change made by someone else between the
//   read and the write is a 409 conflict, never a lost update. That guard is what makes a merge
//   patch sound here: it replaces lists whole (a JobSet's replicatedJobs, a container list),
//   and the lists it sends are exactly those read, with the definition's changes. A JSON patch
//   with `test` ops would guard only the paths it tests.
#ifndef WMAP_CLI_LIVE_WRITE_H_
#define WMAP_CLI_LIVE_WRITE_H_

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/live_flags.h"
#include "cli/workload_input.h"
#include "wmap/catalog.h"
#include "wmap/kube.h"
#include "wmap/source.h"

namespace wmap::cli {

// --dry-run and --field-manager of a command that writes a workload it read from the cluster.
struct LiveWriteFlags {
  std::string dry_run;  // as given: "server", "none" or "" (a bare --dry-run is "server")
  kube::WriteOptions write;

  void Register(FlagParser* parser);
  // Usage errors: a --dry-run other than server or none, an empty --field-manager, and either
  // flag given (`args`, the command line as given) when `writes` is false, with `hint` saying
  // how to write.
  std::optional<Error> Validate(std::span<const std::string> args, bool writes,
                                std::string_view hint);
};

// The help paragraph of the flags above.
std::string LiveWriteFlagsHelp();

// A usage error for each flag of LiveFlags that selects objects by listing (-A, -l,
// --field-selector, --chunk-size): a command that writes names its objects.
std::optional<Error> RefuseListFlags(std::span<const std::string> args, std::string_view command);

// A usage error when the TYPE arguments are malformed or a TYPE has no NAME: checked before
// anything connects.
std::optional<Error> RequireNames(std::span<const std::string> type_args, std::string_view command);

// A workload named by TYPE/NAME, as read from the cluster.
struct LiveWorkload {
  const kube::ApiResource* resource = nullptr;  // served, at the version its definition reads
  const CatalogEntry* entry = nullptr;          // the definition that reads it
  std::string namespace_name;
  SourceObject object;  // without metadata.managedFields; `file` is the object's API path

  // "jobset.jobset.x-k8s.io/llama-finetune", as kubectl names what it changed.
  std::string Name() const;
};

struct LiveWorkloads {
  std::unique_ptr<kube::Client> client;
  std::vector<LiveWorkload> workloads;  // in the order of the arguments
};

// Connects with `live`'s flags and reads every object that `type_args` names (TYPE/NAME... or
// TYPE[,TYPE] NAME...; a TYPE without a NAME is a usage error) in -n's namespace, else the
// context's. `check`, when given, runs on each resolved type's definition before any object of
// it is read (a type the command cannot change fails without a read).
std::optional<Error> ReadNamedWorkloads(
    const LiveFlags& live, const CommandIo& io, std::span<const std::string> type_args,
    const DefinitionResolver& resolver, std::string_view command,
    const std::function<std::optional<Error>(const kube::ApiResource&, const CatalogEntry&)>& check,
    LiveWorkloads* out);

// The patch WriteBack sends: MergePatch(before, after) with before's metadata.resourceVersion.
Value GuardedMergePatch(const Value& before, const Value& after);

// Writes `after` over `w` (see the file comment): the object as the server stored it (or, with
// dry_run, would have). A 409 says to run the command again, which reads the object anew.
Result<Value> WriteBack(kube::Client* client, const LiveWorkload& w, const Value& after,
                        const kube::WriteOptions& options);

// Writes each of `read.workloads` back as changed[i], in order, and prints what was done: with
// output "name" one line per object as it is written ("jobset.jobset.x-k8s.io/x suspended",
// `done` being " suspended", with " (no change)" when changed[i] is the object as read and
// " (server dry run)"), else the objects the server returned, rendered as `output` (yaml, json)
// once all are written. Stops at the first failure, which it returns.
std::optional<Error> WriteBackAll(const CommandIo& io, const LiveWorkloads& read,
                                  const std::vector<Value>& changed,
                                  const kube::WriteOptions& options, std::string_view done,
                                  std::string_view output);

}  // namespace wmap::cli

#endif  // WMAP_CLI_LIVE_WRITE_H_
