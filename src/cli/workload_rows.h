// The rows of `get`, shared by its listing and its watch: the table's header and cells, and the
// name form.
#ifndef WMAP_CLI_WORKLOAD_ROWS_H_
#define WMAP_CLI_WORKLOAD_ROWS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "wmap/view.h"

namespace wmap::cli {

// NAME NAMESPACE KIND STATUS PODS GPUS [CPU MEMORY] AGE [DEFINITION SOURCE].
std::vector<std::string> WorkloadTableHeader(bool wide);

// The cells of one row: PODS is ready/desired when pods were read (pods_given), else desired;
// AGE counts to `now` (seconds since the epoch).
std::vector<std::string> WorkloadRowCells(const view::WorkloadSummary& row, bool pods_given,
                                          bool wide, int64_t now);

// "kind.group/name\n", as kubectl's -o name prints it.
std::string WorkloadNameLine(const view::WorkloadSummary& row);

// The statuses as the STATUS column shows them: "Running,Degraded".
std::string JoinedStatuses(const std::vector<ResourceStatus>& statuses);

}  // namespace wmap::cli

#endif  // WMAP_CLI_WORKLOAD_ROWS_H_
