// The shape every workload command has, as kubectl's commands do: Options (the flags, held by a
// WorkloadCommand), Validate (checks the flags and derives what follows from them, before any
// input is read) and Run (does the work). Execute parses the command line, prints the help, then
// checks what every command shares (-o against the formats the command takes, -f present or
// absent, the number of positional arguments) before Validate and Run. Every failure is reported
// once, through ReportError, in the format -o asks for.
//
// The two ways a command reads its inputs:
// - ForEachWorkloadObject streams -f one object at a time (status, inspect): memory stays
//   bounded by the largest object; objects of a kind no definition reads are skipped with one
//   warning per kind, and an input with nothing else is an error (exit 4).
// - ReadWorkloads (ReadWorkloadInputs, pod_commands.h) reads everything and groups it into
//   workloads with their children and pods (describe, gang, mutate, suspend, resume).
//
// A command whose spec reads_cluster takes TYPE arguments instead of -f (kubectl's
// `TYPE[,TYPE] [NAME...]` and `TYPE/NAME`, with the flags of LiveFlags). Both readers then read
// the cluster (ReadClusterWorkloads) and hand on only the workloads of the TYPEs asked for, with
// their children and pods, and the same pipeline runs on them: the output is what the command
// prints for the same objects given with -f. Objects the read brings beside them (the workloads
// of other kinds its owner walk reaches, pods of other workloads) neither show nor warn.
#ifndef WMAP_CLI_WORKLOAD_COMMAND_H_
#define WMAP_CLI_WORKLOAD_COMMAND_H_

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cluster_source.h"
#include "cli/command.h"
#include "cli/live_flags.h"
#include "cli/output_buffer.h"
#include "cli/pod_commands.h"
#include "cli/workload_input.h"
#include "wmap/catalog.h"
#include "wmap/inventory.h"
#include "wmap/source.h"

namespace wmap::cli {

struct CommandSpec {
  std::string_view name;  // "get"
  std::string (*help)();
  // The -o values the command takes; the first is the default. Empty: Validate checks -o.
  std::vector<std::string_view> formats;
  // "-f" must be given (true), or must not be (false: the command reads no objects).
  bool reads_objects = true;
  // The usage hint when -f is missing or a positional argument is given instead.
  std::string_view input_hint = "give the objects with -f FILE";
  size_t max_positionals = 0;
  // Positional TYPE [NAME...] arguments read the objects from the cluster instead of -f.
  bool reads_cluster = false;
  // With -f, -n and -l filter the objects of the files (get); else they need a TYPE.
  bool filters_files = false;
};

class WorkloadCommand {
 public:
  explicit WorkloadCommand(CommandSpec spec) : spec_(std::move(spec)) {}
  virtual ~WorkloadCommand() = default;
  WorkloadCommand(const WorkloadCommand&) = delete;
  WorkloadCommand& operator=(const WorkloadCommand&) = delete;

  // The command's own flags, besides -f, -d, --definitions, --lenient, --no-crd-defaults, -o, -h.
  virtual void AddFlags(FlagParser* parser) { (void)parser; }
  // Runs after the shared checks; `output` is already defaulted.
  virtual std::optional<Error> Validate() { return std::nullopt; }
  // True when the command reads the cluster without TYPE arguments (get --all-types).
  virtual bool ReadsEveryType() const { return false; }
  virtual int Run(const CommandIo& io) = 0;

  const CommandSpec& spec() const { return spec_; }

  // Defaults -o to the first of `formats` and checks it against them (a usage error naming
  // them); Execute does this with spec().formats, a command whose formats depend on its other
  // flags from its Validate.
  std::optional<Error> CheckOutput(const std::vector<std::string_view>& formats);
  // Reports `error` for this command and returns its exit code: as a document when -o asked for
  // JSON or YAML, else as text (a default format never turns errors into documents).
  int Fail(const CommandIo& io, const Error& error) const;
  void Warn(const CommandIo& io, std::string_view text) const;

  // The definitions -d and --definitions name, on top of the built-in catalog, and when the
  // command reads the cluster (live.active) the cluster's definitions merged in
  // (cluster_definitions.h; of their warnings only collisions are printed here: `wmap
  // definitions` shows them all); on failure the error is reported and its exit code returned.
  std::optional<int> LoadDefinitions(const CommandIo& io, DefinitionResolver* resolver) const;
  // The connection of `flags`, opened on first use and kept for the rest of the command, so
  // that the definitions and the workloads are read with one client and one discovery.
  Result<ClusterConnection*> Connection(const CommandIo& io, const ClusterFlags& flags,
                                        const std::string& namespace_name) const;
  // The inputs read whole and grouped into workloads (ReadWorkloadInputs); on failure the error
  // is reported and its exit code returned.
  // `all`, when given, receives every object read in input order (ReadWorkloadInputs).
  std::optional<int> ReadWorkloads(const CommandIo& io, WorkloadInputs* inputs,
                                   std::vector<SourceObject>* all = nullptr) const;
  // Reads the objects of the TYPE arguments from the cluster (live.active) into `add`, in
  // ReadClusterWorkloads' order, and reports its warnings; on failure the error is reported and
  // its exit code returned. `workloads_only` leaves out the children and pods.
  std::optional<int> ReadCluster(const CommandIo& io, const DefinitionResolver& resolver,
                                 bool workloads_only, const std::function<void(SourceObject)>& add,
                                 ClusterRead* read) const;
  // When nothing was found: exit 3 for a NAME of a TYPE the cluster lacks, else "No workloads
  // found." on stderr and exit 0.
  int NothingFound(const CommandIo& io, const ClusterRead& read) const;

  // The options every workload command has, filled by Execute.
  InputFlags input;
  std::string output;            // -o, defaulted after the shared checks
  std::string requested_output;  // -o as given ("" when absent or not a known format)
  std::vector<std::string> positional;
  std::vector<std::string> args;  // the command line as given, for flags whose presence counts
  LiveFlags live;                 // registered when spec().reads_cluster

 private:
  CommandSpec spec_;
  mutable std::optional<ClusterConnection> connection_;  // see Connection()
};

int Execute(WorkloadCommand& command, std::span<const std::string> args, const CommandIo& io);

// Streams the objects of command.input: loads the definitions, reads -f one object at a time
// and calls visit(object, entry) for each object a definition reads; objects no definition
// reads are skipped with one warning per kind, and when nothing else was read the first of them
// is the error (exit 4). Stops at the first read error. `out` (what visit
// writes to) is flushed before each report so that output and reports keep their order.
// Returns the exit code: the first failure's, of the reports and of what visit returned.
int ForEachWorkloadObject(
    const WorkloadCommand& command, const CommandIo& io, OutputBuffer* out,
    const std::function<int(const SourceObject& object, const CatalogEntry& entry)>& visit);

}  // namespace wmap::cli

#endif  // WMAP_CLI_WORKLOAD_COMMAND_H_
