// The text `wmap describe` prints for one workload (view::Describe): the attribution tree with
// its matched statuses, counts and requests, then the gangs its definition plans (PlanGangs, any
// form) with the given pods in each, then the pods that could not be attributed.
#ifndef WMAP_CLI_DESCRIBE_VIEW_H_
#define WMAP_CLI_DESCRIBE_VIEW_H_

#include <string>

#include "cli/tree_render.h"
#include "wmap/inventory.h"
#include "wmap/view.h"

namespace wmap::cli {

struct TreeOptions {
  RenderOptions render;
  size_t pod_limit = 0;  // pods shown per instance; 0 = all
};
std::string DescribeText(const WorkloadGroup& group, const view::WorkloadDescription& description,
                         const TreeOptions& options);

}  // namespace wmap::cli

#endif  // WMAP_CLI_DESCRIBE_VIEW_H_
