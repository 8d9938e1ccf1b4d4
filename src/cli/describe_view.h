// The view `wmap describe` prints for one workload: the attribution tree (BuildTree) with its
// matched statuses and the gang groups its definition forms (EvaluatePodGroup for `podGroup`,
// EvaluatePodGangGroup per given pod for `podGroups`, PlanGangs for `gangs`), as data (JSON/YAML)
// or as a box-drawing tree. A view is computed once from its inputs and is immutable afterwards.
#ifndef WMAP_CLI_DESCRIBE_VIEW_H_
#define WMAP_CLI_DESCRIBE_VIEW_H_

#include <optional>
#include <string>
#include <vector>

#include "cli/tree_render.h"
#include "cli/workload_input.h"
#include "wmap/gang.h"
#include "wmap/tree.h"
#include "wmap/value.h"

namespace wmap::cli {

struct GangGroupView {
  std::string name;
  std::string component;                // the component the group or subgroup stands for
  std::optional<std::string> instance;  // podGroups: the instance the minimum counts
  std::vector<std::string> keys;        // podGroups: the group-by key values
  int32_t min_available = 0;
  std::optional<Topology> topology;
  std::vector<std::string> pods;  // given pods that join it, sorted
};

struct GangView {
  enum class Form { kNone, kPodGroup, kPodGroups, kGangs };
  Form form = Form::kNone;
  std::string error;  // evaluating the gang instructions failed
  // kPodGroup: the group and its subgroups.
  std::string name;
  int32_t min_available = 0;
  int32_t min_sub_group = 0;
  std::optional<Topology> topology;
  std::vector<GangGroupView> groups;  // subgroups (kPodGroup) or groups (kPodGroups)
  // kGangs: the plan (PlanGangs with the given pods) and its data form.
  GangPlans plans;
  Value plans_value;
};

struct DescribeView {
  SourceObject workload;
  std::string definition;
  std::string origin;
  WorkloadTree tree;
  GangView gang;
  bool pods_given = false;
};

// Builds the view; the error is the tree's (evaluating the definition on the workload).
std::optional<CliError> BuildDescribeView(const WorkloadGroup& group, DescribeView* view);

Value DescribeValue(const DescribeView& view);

struct TreeOptions {
  RenderOptions render;
  size_t pod_limit = 0;  // pods shown per instance; 0 = all
};
std::string DescribeText(const DescribeView& view, const TreeOptions& options);

}  // namespace wmap::cli

#endif  // WMAP_CLI_DESCRIBE_VIEW_H_
