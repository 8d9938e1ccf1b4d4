// `wmap get -w`: the workloads of the TYPE arguments kept up to date from the cluster, a row
// printed each time one's statuses, pod counts or requests change, as `kubectl get -w` prints
// its rows.
#ifndef WMAP_CLI_GET_WATCH_H_
#define WMAP_CLI_GET_WATCH_H_

#include <chrono>
#include <string>

#include "cli/cluster_source.h"
#include "cli/workload_command.h"
#include "wmap/view.h"

namespace wmap::cli {

struct GetWatchOptions {
  std::string output;        // table, wide, json, yaml or name
  bool watch_only = false;   // --watch-only: no rows for the state at the start
  bool show_events = false;  // --output-watch-events: ADDED, MODIFIED, DELETED with each row
  // How long to watch (--request-timeout, as kubectl's watches end); 0: until interrupted or
  // until standard output is closed.
  std::chrono::milliseconds duration{0};
};

// Watches the workloads, their pods and the kinds between them (added as the pods' owner
// chains name them), and prints: the rows of the state once every collection is listed
// (unless watch_only), then a row for each workload whose statuses, ready/desired pods or
// requests changed, or that appeared or went away. Connection losses are retried and reported
// on stderr; a collection listed again after 410 Gone changes only the rows that differ.
// Returns the exit code.
int WatchWorkloads(const WorkloadCommand& command, const CommandIo& io,
                   ClusterConnection& connection, const ClusterQuery& query,
                   const DefinitionResolver& resolver,
                   const view::WorkloadListOptions& list_options, const GetWatchOptions& options);

}  // namespace wmap::cli

#endif  // WMAP_CLI_GET_WATCH_H_
