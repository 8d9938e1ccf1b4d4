// The Kubernetes API client: kubeconfig as kubectl reads it, HTTPS through libcurl, discovery
// and TYPE resolution, reads (get, list with paging, watch) and writes.
//
// Contract:
// - LoadClientConfig merges kubeconfig files by kubectl's rules (see LoadClientConfig) and
//   applies the command-line overrides; it reads files but never the network.
// - A Client owns one libcurl handle: requests made through it reuse connections. It is not
//   safe for concurrent use; make one per thread.
// - Every failure is an Error whose message names the server and what failed, and whose hint
//   says what to do next: an API Status (401, 403, 404...) through StatusError, a transport
//   failure (DNS, connect, TLS verification) through the client.
// - Nothing here knows definitions or workloads.
#ifndef WMAP_KUBE_H_
#define WMAP_KUBE_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"
#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap::kube {

// ---- configuration ----

// The kubeconfig flags of kubectl; unset ones leave the kubeconfig's values.
struct ConfigOverrides {
  std::string kubeconfig;                        // --kubeconfig: this file only (it must exist)
  std::string context;                           // --context
  std::string cluster;                           // --cluster
  std::string user;                              // --user
  std::string namespace_name;                    // -n/--namespace
  std::string server;                            // --server
  std::string token;                             // --token
  std::string certificate_authority;             // --certificate-authority
  std::optional<bool> insecure_skip_tls_verify;  // --insecure-skip-tls-verify
  std::string tls_server_name;                   // --tls-server-name
};

// An exec credential plugin (users[].user.exec).
struct ExecConfig {
  std::string api_version;  // client.authentication.k8s.io/v1 or v1beta1
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string install_hint;
  bool provide_cluster_info = false;
  std::string interactive_mode;  // Never, IfAvailable, Always
};

// Where the process reads its environment and files: the real ones by default, others in tests.
struct ConfigEnvironment {
  // The value of an environment variable, or nullopt.
  std::function<std::optional<std::string>(std::string_view name)> getenv;
  // The folder of the in-cluster service-account files (token, ca.crt, namespace).
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";
};

// How to reach one API server as one user: what a kubeconfig context resolves to.
struct ClientConfig {
  std::string server;  // https://host:port[/path]
  std::string context_name;
  std::string cluster_name;
  std::string user_name;
  std::string namespace_name = "default";
  bool namespace_from_flag = false;  // -n was given
  // TLS: PEM data, or files (a file is read when the request is made).
  std::string ca_data, ca_file;
  std::string client_cert_data, client_cert_file;
  std::string client_key_data, client_key_file;
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
  // Bearer token, or a file holding it (re-read for every request, as it rotates).
  std::string token, token_file;
  std::string username, password;  // basic authentication
  std::optional<ExecConfig> exec;
  bool in_cluster = false;  // from the service account, not a kubeconfig
};

// kubectl's rules:
// - `--kubeconfig` names the only file, which must exist; else the files of KUBECONFIG (split on
//   ':', empty and repeated entries ignored, missing files ignored); else ~/.kube/config when it
//   exists; else the in-cluster configuration when KUBERNETES_SERVICE_HOST and _PORT are set and
//   the service-account token exists.
// - Merging: the first file that defines a cluster, user or context name wins; the first
//   non-empty current-context wins. Relative file paths are relative to the file naming them.
// - The context is --context or current-context; its cluster and user can be replaced by
//   --cluster and --user; the namespace is -n, else the context's, else "default".
// - An `auth-provider` user is an error naming the exec plugin that replaces it.
Result<ClientConfig> LoadClientConfig(const ConfigOverrides& overrides,
                                      const ConfigEnvironment& environment = {});

// The kubeconfig files merged as above, as one kubeconfig value (for tests and `config view`).
// Relative paths are made absolute.
Result<Value> MergedKubeconfig(const ConfigOverrides& overrides,
                               const ConfigEnvironment& environment = {});

// ---- HTTP ----

struct ClientOptions {
  std::chrono::milliseconds request_timeout{0};  // 0: none (--request-timeout)
  int max_attempts = 5;                          // 1 + retries of 429, 5xx and resets
  size_t max_response_bytes = size_t{1} << 30;   // a larger response is an error
  std::string user_agent;                        // "wmap/0.1.0"
  // Sleeps between attempts (tests replace it).
  std::function<void(std::chrono::milliseconds)> sleep;
};

struct Response {
  long status = 0;  // HTTP status
  std::string body;
  std::string content_type;
  std::string retry_after;  // the Retry-After header, "" when absent
};

// How long to wait before attempt `attempt` (1 = the first retry): exponential from 250 ms,
// capped at 8 s, with full jitter in [half, whole]; a Retry-After of the response replaces it
// (capped at 60 s).
std::chrono::milliseconds RetryDelay(int attempt, std::optional<std::chrono::seconds> retry_after,
                                     std::mt19937_64* random);
// Retry-After: delta-seconds or an HTTP date (RFC 9110); nullopt when it is neither. `now` is
// seconds since the epoch, for dates.
std::optional<std::chrono::seconds> ParseRetryAfter(std::string_view text, int64_t now);
// 429 and 500, 502, 503, 504 are worth another attempt.
bool RetryableStatus(long status);

// What a request was about, for messages.
struct RequestContext {
  std::string verb;  // get, list
  std::string group, resource, kind, namespace_name, name;
};

struct ApiResource;
// The context of `verb` on `resource` (the namespace dropped for cluster-scoped resources).
RequestContext ContextOf(std::string_view verb, const ApiResource& resource,
                         std::string_view namespace_name, std::string_view name);

// An API error (a Status object, or a bare HTTP status) as an Error that says what to do:
// 401 credentials rejected, 403 the verb, resource and namespace not allowed with the RBAC rule
// that is missing, 404 the object that is not there, 410 expired continue token, 429/5xx the
// server's message.
Error StatusError(long http_status, std::string_view body, const RequestContext& context,
                  std::string_view server, std::string_view user);

// One HTTP request: GET by default; other methods send `body` as `content_type`.
struct Request {
  std::string method = "GET";  // GET, POST, PUT, PATCH, DELETE
  std::string path;            // /apis/G/V/...
  std::string query;           // without "?"; "" for none
  std::string accept = "application/json";
  std::string body;
  std::string content_type = "application/json";
};

class Client {
 public:
  static Result<std::unique_ptr<Client>> Create(ClientConfig config, ClientOptions options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // GET server + path (+ "?" + query when not empty) with Accept: accept. Retries as
  // ClientOptions says. A transport failure is an Error; any HTTP status is a Response.
  Result<Response> Get(std::string_view path, std::string_view query,
                       std::string_view accept = "application/json");
  // Any request. Retries as ClientOptions says, except that a POST (which may have been carried
  // out before the connection dropped) is repeated only after a 429.
  Result<Response> Send(const Request& request);
  // A request whose 200 answer is a stream of lines (a watch): each line goes to on_line as it
  // arrives, empty lines left out. Sent once: the caller resumes a stream that ends. The
  // transfer ends early, with the status so far and no error, when on_line returns false or
  // *stop becomes true (looked at about once a second while the stream is idle). Any other
  // status is a Response with its body.
  Result<Response> Stream(const Request& request,
                          const std::function<bool(std::string_view line)>& on_line,
                          const std::atomic<bool>* stop = nullptr);
  // A new client with the same configuration and options and its own connection, for another
  // thread.
  Result<std::unique_ptr<Client>> Clone() const;

  const ClientConfig& config() const { return config_; }
  // The number of HTTP requests sent (attempts included), for tests and benchmarks.
  int64_t requests() const { return requests_; }

 private:
  Client(ClientConfig config, ClientOptions options);
  // Sets the URL, method and body of `request`; returns the URL.
  std::string Prepare(const Request& request);
  // The credentials and headers of one attempt (token files and exec credentials are read
  // again each time).
  std::optional<Error> Authorize(const Request& request);
  class Handle;
  ClientConfig config_;
  ClientOptions options_;
  std::unique_ptr<Handle> handle_;
  int64_t requests_ = 0;
};

// ---- discovery and type resolution ----

struct ApiResource {
  std::string group, version;  // "" for the core group
  std::string kind;
  std::string resource;  // the plural name in URLs: jobsets
  std::string singular;
  std::vector<std::string> short_names;
  std::vector<std::string> verbs;
  std::vector<std::string> categories;
  bool namespaced = true;

  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  // "jobsets.jobset.x-k8s.io" ("pods" for the core group).
  std::string GroupResource() const;
  // The collection path: /apis/G/V[/namespaces/NS]/R (/api/v1 for the core group).
  std::string CollectionPath(std::string_view namespace_name) const;
};

// The resources an API server serves: every group in its preferred order, every version of a
// group with the preferred one first. Subresources are left out.
class Discovery {
 public:
  // From aggregated discovery documents (kind APIGroupDiscoveryList) of /api and /apis.
  static Result<Discovery> FromAggregated(const Value& api, const Value& apis);
  // From the legacy documents: /api/v1 and every /apis/G/V (kind APIResourceList), and the
  // preferred version of each group (group -> version) from /apis.
  static Discovery FromResourceLists(std::span<const Value> lists,
                                     const std::map<std::string, std::string>& preferred);
  // Aggregated discovery, else the per-group documents.
  static Result<Discovery> Fetch(Client* client);

  const std::vector<ApiResource>& resources() const { return resources_; }
  // True when `resource` is served in the preferred version of its group.
  bool Preferred(const ApiResource& resource) const;

  // The resource a TYPE names, as kubectl resolves it: case-insensitive plural, singular, short
  // name or kind, optionally `.group`, `.version.group` or for kinds `Kind.version.group`; the
  // preferred version of the first group (in discovery order) that has it. nullptr when none.
  const ApiResource* Resolve(std::string_view type) const;
  // The resource of a group and kind (any served version, `version` first when served).
  const ApiResource* FindKind(std::string_view group, std::string_view version,
                              std::string_view kind) const;
  // The preferred version of each group ("" for the core group).
  const std::map<std::string, std::string>& preferred_versions() const { return preferred_; }

 private:
  std::vector<ApiResource> resources_;
  std::map<std::string, std::string> preferred_;  // group -> version
};

// ---- discovery cache ----

// Discovery kept on disk between commands, as kubectl keeps it: one folder per API server,
// DIR/discovery/HOST_PORT (kubectl's name for it: the server URL without its scheme, every
// character but letters, digits, '_', '.', '/', '(' and ')' replaced by '_'), holding
// wmap-discovery.json. The file is trusted for `ttl` after it was written (its modification
// time), only when it parses, names the same server and holds resources; anything else is read
// from the server again. Writes are atomic (a temporary file renamed over the old one), and a
// cache that cannot be written is no error: the command goes on with what the server said.
struct DiscoveryCacheOptions {
  std::string dir;  // kubectl's --cache-dir (~/.kube/cache); "" keeps nothing on disk
  std::chrono::seconds ttl = std::chrono::hours(6);
};

// The folder of `server`'s discovery under `dir` (see above).
std::string DiscoveryCacheFolder(std::string_view dir, std::string_view server);

// The cache file's document for `discovery` of `server`, and back; nullopt when `document` is
// not one (wrong format or server, no resources).
Value DiscoveryCacheDocument(const Discovery& discovery, std::string_view server);
std::optional<Discovery> DiscoveryFromCacheDocument(const Value& document, std::string_view server);

// The discovery of one client's server, from the cache when it is fresh, else fetched (and
// written to the cache). Refresh() is for a TYPE the cached discovery does not know (a CRD
// installed since): it fetches from the server at most once per CachedDiscovery.
class CachedDiscovery {
 public:
  CachedDiscovery(Client* client, DiscoveryCacheOptions options);

  // The discovery: the cached one when fresh and valid, else the server's.
  Result<const Discovery*> Get();
  // The server's discovery: fetched now unless this object already fetched it.
  Result<const Discovery*> Refresh();
  // True when the discovery held now came from the server during this command.
  bool fetched() const { return fetched_; }

 private:
  Result<const Discovery*> Fetch();
  Client* client_;
  DiscoveryCacheOptions options_;
  std::optional<Discovery> discovery_;
  bool fetched_ = false;
};

// "jobsets,pods/x" split on commas; a TYPE/NAME form gives its name. kubectl's forms: every
// argument TYPE/NAME, or TYPE[,TYPE] followed by names.
struct TypeRequest {
  std::string type;
  std::vector<std::string> names;
};
// Parses `get` arguments. Mixing TYPE/NAME with other forms is a usage error.
Result<std::vector<TypeRequest>> ParseTypeArguments(std::span<const std::string> args);

// ---- reads ----

struct ListOptions {
  std::string namespace_name;  // "" = all namespaces (or a cluster-scoped resource)
  std::string label_selector;
  std::string field_selector;
  int64_t chunk_size = 500;  // limit per page; 0 = one request
};

// Lists `resource`, page by page (limit/continue), calling visit for each item with its kind
// and apiVersion filled in (lists leave them out). Stops at the first error or when visit
// returns false. *pages, when given, counts the requests; *resource_version, when given, is
// set to the list's resourceVersion (every page is of that one snapshot).
std::optional<Error> List(Client* client, const ApiResource& resource, const ListOptions& options,
                          const std::function<bool(Value item)>& visit, int* pages = nullptr,
                          std::string* resource_version = nullptr);

// One object.
Result<Value> GetObject(Client* client, const ApiResource& resource,
                        std::string_view namespace_name, std::string_view name);

// ---- watch ----

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark };
// "ADDED", "MODIFIED", "DELETED", "BOOKMARK".
std::string_view WatchEventName(WatchEventType type);

struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  Value object;  // with kind and apiVersion; a bookmark holds only its resourceVersion
};

struct WatchOptions {
  std::string namespace_name;  // "" = all namespaces (or a cluster-scoped resource)
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;   // events after this one; "" = from the current state
  int64_t timeout_seconds = 300;  // the server ends the watch after this long
};

// How one watch request ended.
struct WatchEnd {
  enum How {
    kEnded,    // the server closed the stream (its timeout): resume from the last version
    kStopped,  // on_event returned false or *stop was set
    kExpired,  // 410 Gone: the version is too old to resume from; list again
    kFailed,   // `error` says why
  } how = kEnded;
  std::optional<Error> error;
};

// One watch request with bookmarks (allowWatchBookmarks): on_event gets every event in order;
// *resource_version starts the watch and is kept at the last version seen (bookmarks
// included), so that the caller can resume where the stream ended.
WatchEnd WatchOnce(Client* client, const ApiResource& resource, const WatchOptions& options,
                   const std::function<bool(WatchEvent event)>& on_event,
                   const std::atomic<bool>* stop, std::string* resource_version);

// What ListAndWatch tells its caller, on its own thread.
struct ReflectorHandlers {
  // The whole collection as of a list: the first one, and again after 410 Gone.
  std::function<void(std::vector<Value> items)> replace;
  // Each change after the last list, in order (bookmarks left out).
  std::function<void(WatchEvent event)> event;
  // The connection was lost or the server failed; ListAndWatch retries with backoff. Called
  // once per interruption, not per attempt.
  std::function<void(const Error& error)> interrupted;
  // Reading again after an interruption.
  std::function<void()> resumed;
};

// Keeps a caller up to date with a collection as client-go's reflector does: a list, then
// watches, each resumed from the last resourceVersion seen when the server ends it or the
// connection drops (retried with backoff, as long as it takes), a fresh list when the version
// has expired (410 Gone). Returns nullopt once *stop is set, or the error that no retry can get
// past (401, 403, 404: the resource is gone). Starts from `resume_from` without a list when it
// is given.
std::optional<Error> ListAndWatch(Client* client, const ApiResource& resource,
                                  const ListOptions& options, const ReflectorHandlers& handlers,
                                  const std::atomic<bool>& stop, std::string resume_from = "");

// ---- writes ----

struct WriteOptions {
  std::string field_manager = "wmap";  // fieldManager of apply, create and patch
  bool force_conflicts = false;        // apply: take over fields another manager owns
  bool dry_run = false;                // dryRun=All: the server checks and answers, stores nothing
  // delete: Foreground, Background or Orphan; "" leaves the server's default for the kind.
  std::string propagation_policy;
};

enum class PatchType {
  kMerge,           // application/merge-patch+json (RFC 7386)
  kJson,            // application/json-patch+json (RFC 6902)
  kStrategicMerge,  // application/strategic-merge-patch+json (built-in kinds only)
  kApply,           // application/apply-patch+yaml (server-side apply; JSON is YAML)
};

// Server-side apply of `object` as the field manager: creates it or updates the fields the
// manager owns, in the object's namespace (namespace_name when it names none; ignored for
// cluster-scoped resources). A 409 names each conflicting field and its manager.
Result<Value> Apply(Client* client, const ApiResource& resource, std::string_view namespace_name,
                    const Value& object, const WriteOptions& options = {});
// POST: creates `object`; 409 when it exists.
Result<Value> Create(Client* client, const ApiResource& resource, std::string_view namespace_name,
                     const Value& object, const WriteOptions& options = {});
// PATCH of the object or of its subresource ("status", "scale"; "" for the object).
Result<Value> Patch(Client* client, const ApiResource& resource, std::string_view namespace_name,
                    std::string_view name, PatchType type, std::string_view body,
                    const WriteOptions& options = {}, std::string_view subresource = "");
// DELETE with the options' propagation policy. The answer: the object as it is while its
// finalizers run, or the server's Status once it is gone.
Result<Value> Delete(Client* client, const ApiResource& resource, std::string_view namespace_name,
                     std::string_view name, const WriteOptions& options = {});

// Percent-encodes a query parameter value.
std::string QueryEscape(std::string_view text);

}  // namespace wmap::kube

WMAP_PUBLIC_END

#endif  // WMAP_KUBE_H_
