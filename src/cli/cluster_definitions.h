// The definitions a cluster holds (Karta objects, run.ai/v1alpha1, and WorkloadDefinition
// objects, workloadmap.dev/v1alpha1; both cluster-scoped) merged over the built-in catalog, with
// upstream's warnings.
//
// Contract:
// - MergeClusterDefinitions is pure: it loads each object, and adds to the resolver those that
//   load and claim a root GVK alone. A cluster definition replaces a built-in one of the same
//   root GVK (origin kClusterOrigin); a definition of a --definitions/--definition file is never
//   replaced, as the user named it on this command line.
// - Warnings carry upstream's reasons: `invalid` (the object fails to load: skipped),
//   `collision` (several cluster definitions claim one root GVK: none of them is used, the
//   built-in one stays), `no_crd` (the root kind is not served: the definition is kept, as it
//   reads objects given with -f). FetchClusterDefinitions adds `forbidden` (listing a kind of
//   definition is refused: the others are still read) and `unreachable` (the server cannot be
//   reached: the catalog alone).
// - A kind of definition the cluster does not serve (its CRD is not installed) is no warning:
//   the cluster simply has none of them.
#ifndef WMAP_CLI_CLUSTER_DEFINITIONS_H_
#define WMAP_CLI_CLUSTER_DEFINITIONS_H_

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/definition.h"
#include "wmap/inventory.h"
#include "wmap/kube.h"
#include "wmap/value.h"

namespace wmap::cli {

inline constexpr std::string_view kClusterOrigin = "cluster";

struct DefinitionWarning {
  std::string reason;      // collision, no_crd, forbidden, unreachable, invalid
  std::string definition;  // the name of the definition ("" when about no single one)
  std::string message;
};

struct ClusterDefinitions {
  std::vector<DefinitionWarning> warnings;
  // The objects of the cluster definitions in use, by name, as the server returned them.
  std::map<std::string, Value> documents;
};

// True when the cluster serves objects of this root kind at this version.
using ServedKind = std::function<bool(const GroupVersionKind& kind)>;

// Merges the definition objects into *resolver (see the file comment); objects in list order.
ClusterDefinitions MergeClusterDefinitions(std::span<const Value> objects, const ServedKind& served,
                                           DefinitionResolver* resolver);

// Lists the definition objects of the cluster and merges them into *resolver. A discovery that
// came from the cache is fetched again once when a definition's root kind is not in it. Errors
// other than 403 and an unreachable server are returned (the warnings then do not matter).
Result<ClusterDefinitions> FetchClusterDefinitions(kube::Client* client,
                                                   kube::CachedDiscovery* discovery,
                                                   DefinitionResolver* resolver);

// The line a warning prints on stderr: "MESSAGE (REASON)".
std::string WarningLine(const DefinitionWarning& warning);

}  // namespace wmap::cli

#endif  // WMAP_CLI_CLUSTER_DEFINITIONS_H_
