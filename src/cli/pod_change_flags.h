// The flags that change pod templates through a workload's definition, shared by `wmap mutate`
// and `wmap apply`: --component and --instance choose the templates, the rest say what changes.
#ifndef WMAP_CLI_POD_CHANGE_FLAGS_H_
#define WMAP_CLI_POD_CHANGE_FLAGS_H_

#include <optional>
#include <string>
#include <vector>

#include "cli/workload_input.h"
#include "wmap/mutate.h"

namespace wmap::cli {

struct PodChangeFlags {
  std::string component;
  std::string instance;
  std::string scheduler_name;
  std::string priority_class;
  std::string scheduling_group;
  std::vector<std::string> labels, annotations, node_selectors, tolerations, images;

  // Every flag above.
  void Register(FlagParser* parser);
  // The changes the flags ask for into *changes (a flag counts when it appears in `args`, so an
  // empty value is an error, not an absent flag), or the usage error of the first bad value.
  // No flag at all leaves *changes empty.
  std::optional<Error> Parse(const std::vector<std::string>& args, PodChanges* changes) const;
  // The templates --component and --instance choose.
  MutateScope Scope() const;
};

// The usage error of a command that changes pod templates and was given no change.
Error NothingToChange();

}  // namespace wmap::cli

#endif  // WMAP_CLI_POD_CHANGE_FLAGS_H_
