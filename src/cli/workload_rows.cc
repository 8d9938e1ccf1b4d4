#include "cli/workload_rows.h"

#include <optional>

#include "cli/display_format.h"
#include "wmap/text.h"

namespace wmap::cli {

std::string JoinedStatuses(const std::vector<ResourceStatus>& statuses) {
  std::string out;
  for (size_t i = 0; i < statuses.size(); ++i) {
    out += (i ? "," : "") + std::string(ResourceStatusName(statuses[i]));
  }
  return out;
}

std::vector<std::string> WorkloadTableHeader(bool wide) {
  std::vector<std::string> header = {"NAME", "NAMESPACE", "KIND", "STATUS", "PODS", "GPUS"};
  if (wide) header.insert(header.end(), {"CPU", "MEMORY"});
  header.push_back("AGE");
  if (wide) header.insert(header.end(), {"DEFINITION", "SOURCE"});
  return header;
}

std::vector<std::string> WorkloadRowCells(const view::WorkloadSummary& r, bool pods_given,
                                          bool wide, int64_t now) {
  const ResourceList& t = r.requests();
  std::string desired = r.counted ? std::to_string(r.desired) : "-";
  std::string pods_cell = pods_given ? std::to_string(r.ready) + "/" + desired : desired;
  const bool known = r.resources_known();
  std::optional<int64_t> created = ParseTimestamp(r.created);
  std::vector<std::string> cells = {view::DisplayName(r.name, r.generate_name),
                                    r.namespace_name.empty() ? "-" : r.namespace_name,
                                    r.kind,
                                    JoinedStatuses(r.statuses),
                                    pods_cell,
                                    known ? std::to_string(GpuCount(t)) : "-"};
  if (wide) {
    cells.insert(cells.end(), {known ? FormatCpu(AmountOf(t, "cpu")) : "-",
                               known ? FormatMemory(AmountOf(t, "memory")) : "-"});
  }
  cells.push_back(created ? HumanDuration(now - *created) : "<unknown>");
  if (wide) {
    // Objects read from a cluster have their API path and no line.
    std::string source = r.file;
    if (r.position.known()) source += ":" + std::to_string(r.position.line);
    if (r.list_index >= 0) source += "[" + std::to_string(r.list_index) + "]";
    cells.insert(cells.end(), {r.definition, source});
  }
  return cells;
}

std::string WorkloadNameLine(const view::WorkloadSummary& r) {
  std::string kind = text::AsciiLower(r.kind);
  size_t slash = r.api_version.find('/');
  if (slash != std::string::npos) kind += "." + r.api_version.substr(0, slash);
  return kind + "/" + view::DisplayName(r.name, r.generate_name) + "\n";
}

}  // namespace wmap::cli
