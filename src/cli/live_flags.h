// The flags of a workload command that reads from a cluster (CommandSpec::reads_cluster): the
// connection flags of kubectl and the flags that select the objects, registered and checked once
// for get, describe, status, inspect and gang.
//
// Contract:
// - `active` is true exactly when the command was given TYPE arguments: it then reads the
//   cluster and nothing else (Execute has refused -f with them).
// - Without TYPE arguments the selection flags the cluster alone can answer (-A,
//   --field-selector, --chunk-size, and -n and -l unless the command filters files with them) are
//   usage errors, so that no flag is silently ignored.
// - Validate is pure: it reads no environment and makes no request.
#ifndef WMAP_CLI_LIVE_FLAGS_H_
#define WMAP_CLI_LIVE_FLAGS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/cluster_source.h"
#include "cli/workload_input.h"

namespace wmap::cli {

struct LiveFlags {
  ClusterFlags cluster;
  std::string namespace_name;   // -n: the namespace read (default: the context's)
  bool all_namespaces = false;  // -A
  std::string label_selector;   // -l, sent to the server
  std::string field_selector;   // --field-selector, sent to the server
  std::string chunk_size_text;  // --chunk-size as given
  int64_t chunk_size = 500;     // parsed by Validate
  bool active = false;          // TYPE arguments were given

  void Register(FlagParser* parser);
  // Parses --chunk-size and checks the flags against each other. `args` is the command line as
  // given (a flag counts when present, whatever its value); `filters_files` says whether -n and
  // -l also filter the objects of -f files (get).
  std::optional<Error> Validate(std::span<const std::string> args, bool filters_files);
  // The query of these flags for the TYPE arguments `type_args`.
  ClusterQuery Query(std::vector<std::string> type_args, bool workloads_only) const;
};

// The help paragraph of these flags ("Cluster flags (with TYPE; as kubectl's): ..."), as the
// commands that read a cluster by TYPE print it.
std::string LiveFlagsHelp();

}  // namespace wmap::cli

#endif  // WMAP_CLI_LIVE_FLAGS_H_
