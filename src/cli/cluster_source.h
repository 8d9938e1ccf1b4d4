// The cluster as a source of workload objects for the live commands: kubectl's connection
// flags, and the objects of TYPE arguments read with their children and pods.
//
// Contract:
// - Nothing here runs unless a command reads from the cluster: `-f` never creates a client.
// - ReadClusterWorkloads makes O(kinds x namespaces) requests: the workloads of each TYPE (one
//   paged list, or one get per NAME), one paged pod list per namespace holding a workload, then
//   one paged list per kind that the pods' controller-owner chains name (a JobSet's Jobs,
//   Grove's PodCliques and PodCliqueSets), level by level up to meta::kMaxControllerDepth;
//   never one request per object. With ClusterQuery::workloads_only the walk is left out: the
//   workloads alone, for commands that read nothing else (status, inspect).
// - -A degrades as kubectl users expect of a namespaced reader: when listing a TYPE across the
//   cluster is forbidden, that TYPE is listed in the context's namespace instead, with a
//   warning naming what was not allowed.
// - Objects reach `add` as the offline commands would read them: the workloads first (TYPE by
//   TYPE, in the server's order), so that the commands that keep input order keep that one;
//   then pods and owners, which only count towards the workloads (the readers accept them in
//   any order).
#ifndef WMAP_CLI_CLUSTER_SOURCE_H_
#define WMAP_CLI_CLUSTER_SOURCE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/workload_input.h"
#include "wmap/inventory.h"
#include "wmap/kube.h"
#include "wmap/source.h"

namespace wmap::cli {

// kubectl's flags for reaching a cluster.
struct ClusterFlags {
  std::string kubeconfig, context, cluster, user, server, token, certificate_authority,
      tls_server_name, request_timeout;
  bool insecure_skip_tls_verify = false;
  void Register(FlagParser* parser);
  // A usage error for a --request-timeout that is not a duration.
  std::optional<Error> Validate() const;
  // The client for these flags and -n (the kubeconfig read, no request made yet).
  Result<std::unique_ptr<kube::Client>> Connect(const CommandIo& io,
                                                const std::string& namespace_name) const;
};

// The help paragraph of the flags above, as every live command prints it.
std::string ClusterFlagsHelp();

// kubectl's --request-timeout: "0" (none), a number of seconds, or a duration ("1m30s",
// "500ms"); nullopt when it is neither.
std::optional<std::chrono::milliseconds> ParseRequestTimeout(std::string_view text);

struct ClusterQuery {
  std::vector<std::string> type_args;  // TYPE[,TYPE] [NAME...] | TYPE/NAME...
  bool all_namespaces = false;         // -A
  std::string label_selector, field_selector;
  int64_t chunk_size = 500;
  bool workloads_only = false;  // no pods, no owners: the workloads of the TYPEs alone
};

struct ClusterRead {
  // "apiVersion kind" of the workload types asked for: rows of other kinds are children.
  std::set<std::string> root_kinds;
  std::vector<std::string> warnings;  // "JobSet is not installed in this cluster"
  bool named_missing = false;         // a NAME was asked for of a type the cluster lacks

  bool IsRootKind(std::string_view api_version, std::string_view kind) const {
    return root_kinds.count(std::string(api_version) + " " + std::string(kind)) > 0;
  }
};

// The served resource of TYPE whose objects a definition reads, as the readers resolve it: the
// resource discovery resolves TYPE to, or another served version of its group and kind that a
// definition has. Errors: a type the server lacks (not_found, also when a definition reads it:
// "JobSet is not installed in this cluster"), a served type no definition reads (no_definition).
Result<const kube::ApiResource*> ResolveWorkloadType(const kube::Discovery& discovery,
                                                     std::string_view type,
                                                     const DefinitionResolver& resolver);

// Reads the objects `query` names from the cluster into `add` (see the file comment).
std::optional<Error> ReadClusterWorkloads(kube::Client* client, const ClusterQuery& query,
                                          const DefinitionResolver& resolver,
                                          const std::function<void(SourceObject)>& add,
                                          ClusterRead* read);

}  // namespace wmap::cli

#endif  // WMAP_CLI_CLUSTER_SOURCE_H_
