// The cluster as a source of workload objects for the live commands: kubectl's connection
// flags, and the objects of TYPE arguments read with their children and pods.
//
// Contract:
// - Nothing here runs unless a command reads from the cluster: `-f` never creates a client.
// - ReadClusterWorkloads makes O(kinds x namespaces) requests: the workloads of each TYPE (one
//   paged list, or one get per NAME), one paged pod list per namespace holding a workload, then
//   one paged list per kind that the pods' controller-owner chains name (a JobSet's Jobs,
//   Grove's PodCliques and PodCliqueSets), level by level up to meta::kMaxControllerDepth;
//   never one request per object. With -A and workloads in 4 namespaces or more, pods and
//   owners are listed across the cluster instead (O(kinds) requests), per namespace where
//   that is forbidden. With ClusterQuery::workloads_only the walk is left out: the
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
  std::string cache_dir;  // --cache-dir: where discovery is kept (kubectl's ~/.kube/cache)
  bool insecure_skip_tls_verify = false;
  void Register(FlagParser* parser);
  // A usage error for a --request-timeout that is not a duration.
  std::optional<Error> Validate() const;
  // The client for these flags and -n (the kubeconfig read, no request made yet).
  Result<std::unique_ptr<kube::Client>> Connect(const CommandIo& io,
                                                const std::string& namespace_name) const;
  // Where discovery is cached: --cache-dir, else $KUBECACHEDIR, else $HOME/.kube/cache (as
  // kubectl), else nowhere.
  kube::DiscoveryCacheOptions CacheOptions(const CommandIo& io) const;
  // True when a flag naming a kubeconfig, context, cluster, user or server was given.
  bool AnyGiven() const;
};

// The help paragraph of the flags above, as every live command prints it.
std::string ClusterFlagsHelp();

// kubectl's --request-timeout: "0" (none), a number of seconds, or a duration ("1m30s",
// "500ms"); nullopt when it is neither.
std::optional<std::chrono::milliseconds> ParseRequestTimeout(std::string_view text);

// One command's connection: the client and its discovery, cached on disk (CacheOptions).
struct ClusterConnection {
  std::unique_ptr<kube::Client> client;
  std::unique_ptr<kube::CachedDiscovery> discovery;
  static Result<ClusterConnection> Open(const ClusterFlags& flags, const CommandIo& io,
                                        const std::string& namespace_name);
};

struct ClusterQuery {
  std::vector<std::string> type_args;  // TYPE[,TYPE] [NAME...] | TYPE/NAME...
  bool all_namespaces = false;         // -A
  std::string label_selector, field_selector;
  int64_t chunk_size = 500;
  bool workloads_only = false;  // no pods, no owners: the workloads of the TYPEs alone
  // Every type a definition reads and the cluster serves (get --all-types), instead of
  // type_args; types not served are left out without a word.
  bool all_types = false;
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

// The served resources of every definition's root kind at its own version, in definition
// order: the types of `get --all-types`.
std::vector<const kube::ApiResource*> ServedDefinitionTypes(const kube::Discovery& discovery,
                                                            const Catalog& catalog);

// "apiVersion kind", the key of ClusterRead::root_kinds.
std::string KindKey(std::string_view api_version, std::string_view kind);

// An object of `resource` as the readers take it: its SOURCE is its API path.
SourceObject ClusterObject(Value value, const kube::ApiResource& resource);

// A TYPE argument resolved: the served resource a definition reads, and the names asked for.
struct ClusterTarget {
  const kube::ApiResource* resource;  // in ClusterTypes::discovery
  const CatalogEntry* entry;
  std::vector<std::string> names;
};

struct ClusterTypes {
  const kube::Discovery* discovery = nullptr;  // owned by the CachedDiscovery
  std::vector<ClusterTarget> targets;
};

// The TYPE arguments of `query` (or every served type of a definition, for all_types) resolved
// through discovery and the definitions, every one before anything is read: an unknown TYPE or
// one without a definition is an error, a type with a definition that the cluster does not
// serve a warning in *read. The names' rules (no -l, no -A with names) are checked here too. A
// TYPE the cached discovery does not know is looked up again once in the server's own.
Result<ClusterTypes> ResolveClusterTypes(kube::CachedDiscovery* discovery,
                                         const ClusterQuery& query,
                                         const DefinitionResolver& resolver, ClusterRead* read);

// Reads the objects `query` names from the cluster into `add` (see the file comment). A TYPE
// the discovery does not know is looked up again once in the server's own discovery when the
// one held came from the cache (a CRD installed since it was written).
std::optional<Error> ReadClusterWorkloads(kube::Client* client, kube::CachedDiscovery* discovery,
                                          const ClusterQuery& query,
                                          const DefinitionResolver& resolver,
                                          const std::function<void(SourceObject)>& add,
                                          ClusterRead* read);

}  // namespace wmap::cli

#endif  // WMAP_CLI_CLUSTER_SOURCE_H_
