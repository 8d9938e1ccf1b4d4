#include "cli/cluster_source.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

#include "cli/command.h"
#include "wmap/meta.h"
#include "wmap/text.h"

namespace wmap::cli {
namespace {

// "JobSet.v1alpha2.jobset.x-k8s.io", as upstream's retry list names definitions.
std::string DottedKind(const GroupVersionKind& k) {
  return k.group.empty() ? k.kind + "." + k.version : k.kind + "." + k.version + "." + k.group;
}

// The definitions whose root kind the token names when discovery does not know it: an exact
// kind (case-insensitive), narrowed by version and group when the token is dotted.
std::vector<const CatalogEntry*> DefinitionsNamed(const DefinitionResolver& resolver,
                                                  std::string_view type) {
  std::string token = text::AsciiLower(type);
  std::string kind = token, rest;
  if (size_t dot = token.find('.'); dot != std::string::npos) {
    kind = token.substr(0, dot);
    rest = token.substr(dot + 1);
  }
  std::vector<const CatalogEntry*> out;
  for (const CatalogEntry& e : resolver.catalog().entries()) {
    const GroupVersionKind& k = e.definition.root_kind();
    if (text::AsciiLower(k.kind) != kind) continue;
    if (!rest.empty() && rest != text::AsciiLower(k.group) &&
        rest != text::AsciiLower(k.version + "." + k.group)) {
      continue;
    }
    out.push_back(&e);
  }
  return out;
}

// The served resource a definition reads for a resolved TYPE: the resource itself when a
// definition has its version, else another served version of the same group and kind that a
// definition has.
const kube::ApiResource* WithDefinition(const kube::Discovery& discovery,
                                        const kube::ApiResource& resource,
                                        const DefinitionResolver& resolver) {
  if (resolver.Find(resource.ApiVersion(), resource.kind) != nullptr) return &resource;
  for (const CatalogEntry& e : resolver.catalog().entries()) {
    const GroupVersionKind& k = e.definition.root_kind();
    if (k.group != resource.group || k.kind != resource.kind) continue;
    const kube::ApiResource* served = discovery.FindKind(k.group, k.version, k.kind);
    if (served != nullptr && served->version == k.version) return served;
  }
  return nullptr;
}

// A TYPE that discovery does not know.
Error UnknownType(std::string_view type) {
  return Error::Of(ErrorCode::kNotFound,
                   "the server doesn't have a resource type \"" + std::string(type) + "\"",
                   "'kubectl api-resources' lists the types the server serves, 'wmap "
                   "definitions' the types wmap reads");
}

// A served type that no definition reads.
Error NoDefinitionFor(const kube::ApiResource& resource) {
  return Error::Of(ErrorCode::kNoDefinition,
                   "no definition for " + resource.ApiVersion() + " " + resource.kind + " (" +
                       resource.GroupResource() + ")",
                   "pass --definition FILE or add one with --definitions DIR; 'wmap "
                   "definitions' lists the built-in definitions");
}

// From this many namespaces holding workloads, pods and owners are listed across the cluster.
constexpr size_t kClusterWideListFrom = 4;

}  // namespace

SourceObject ClusterObject(Value value, const kube::ApiResource& resource) {
  SourceObject o;
  o.value = std::move(value);
  std::string path = resource.CollectionPath(o.Namespace()) + "/" + std::string(o.Name());
  o.file = std::move(path);
  return o;
}

std::string KindKey(std::string_view api_version, std::string_view kind) {
  return std::string(api_version) + " " + std::string(kind);
}

void ClusterFlags::Register(FlagParser* parser) {
  parser->String({"--kubeconfig"}, &kubeconfig);
  parser->String({"--context"}, &context);
  parser->String({"--cluster"}, &cluster);
  parser->String({"--user"}, &user);
  parser->String({"-s", "--server"}, &server);
  parser->String({"--token"}, &token);
  parser->String({"--certificate-authority"}, &certificate_authority);
  parser->String({"--tls-server-name"}, &tls_server_name);
  parser->String({"--request-timeout"}, &request_timeout);
  parser->Bool({"--insecure-skip-tls-verify"}, &insecure_skip_tls_verify);
  parser->String({"--cache-dir"}, &cache_dir);
}

bool ClusterFlags::AnyGiven() const {
  return !kubeconfig.empty() || !context.empty() || !cluster.empty() || !user.empty() ||
         !server.empty();
}

kube::DiscoveryCacheOptions ClusterFlags::CacheOptions(const CommandIo& io) const {
  kube::DiscoveryCacheOptions options;
  if (!cache_dir.empty()) {
    options.dir = cache_dir;
  } else if (std::optional<std::string_view> dir = GetEnv(io, "KUBECACHEDIR");
             dir && !dir->empty()) {
    options.dir = std::string(*dir);
  } else if (std::optional<std::string_view> home = GetEnv(io, "HOME"); home && !home->empty()) {
    options.dir = std::string(*home) + "/.kube/cache";
  }
  return options;
}

std::string ClusterFlagsHelp() {
  return "Cluster flags (as kubectl's):\n"
         "  --kubeconfig FILE, --context NAME, --cluster NAME, --user NAME, -s/--server URL,\n"
         "  --token TOKEN, --certificate-authority FILE, --insecure-skip-tls-verify,\n"
         "  --tls-server-name NAME, --request-timeout D (0, seconds or 30s, 1m...),\n"
         "  --cache-dir DIR (discovery is read from the server and kept there for the\n"
         "  reading commands; default ~/.kube/cache)\n";
}

std::optional<std::chrono::milliseconds> ParseRequestTimeout(std::string_view text) {
  if (text.empty()) return std::chrono::milliseconds(0);
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (text.size() > 9) return std::nullopt;
    return std::chrono::seconds(std::stoll(std::string(text)));
  }
  // Go's time.ParseDuration units: h, m, s, ms (whole numbers).
  double total_ms = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    if (start == i || i - start > 12) return std::nullopt;
    double n = std::stod(std::string(text.substr(start, i - start)));
    size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    std::string_view unit = text.substr(unit_start, i - unit_start);
    if (unit == "h") {
      total_ms += n * 3600000;
    } else if (unit == "m") {
      total_ms += n * 60000;
    } else if (unit == "s") {
      total_ms += n * 1000;
    } else if (unit == "ms") {
      total_ms += n;
    } else {
      return std::nullopt;
    }
  }
  return std::chrono::milliseconds(static_cast<int64_t>(total_ms));
}

std::optional<Error> ClusterFlags::Validate() const {
  if (!ParseRequestTimeout(request_timeout)) {
    return UsageError("invalid --request-timeout \"" + request_timeout + "\"",
                      "use a whole number of seconds or a duration such as 30s, 1m or 500ms");
  }
  return std::nullopt;
}

Result<std::unique_ptr<kube::Client>> ClusterFlags::Connect(
    const CommandIo& io, const std::string& namespace_name) const {
  kube::ConfigOverrides o;
  o.kubeconfig = kubeconfig;
  o.context = context;
  o.cluster = cluster;
  o.user = user;
  o.server = server;
  o.token = token;
  o.certificate_authority = certificate_authority;
  o.tls_server_name = tls_server_name;
  o.namespace_name = namespace_name;
  if (insecure_skip_tls_verify) o.insecure_skip_tls_verify = true;
  kube::ConfigEnvironment env;
  env.getenv = [io](std::string_view name) -> std::optional<std::string> {
    std::optional<std::string_view> v = GetEnv(io, name);
    if (!v) return std::nullopt;
    return std::string(*v);
  };
  Result<kube::ClientConfig> config = kube::LoadClientConfig(o, env);
  if (!config.ok()) return config.error();
  kube::ClientOptions options;
  options.request_timeout =
      ParseRequestTimeout(request_timeout).value_or(std::chrono::milliseconds(0));
  options.user_agent = "wmap/" + std::string(Version());
  return kube::Client::Create(std::move(*config), std::move(options));
}

Result<const kube::ApiResource*> ResolveWorkloadType(const kube::Discovery& discovery,
                                                     std::string_view type,
                                                     const DefinitionResolver& resolver) {
  const kube::ApiResource* resource = discovery.Resolve(type);
  if (resource == nullptr) {
    std::vector<const CatalogEntry*> defined = DefinitionsNamed(resolver, type);
    if (defined.size() == 1) {
      return Error::Of(
          ErrorCode::kNotFound,
          defined[0]->definition.root_kind().kind + " is not installed in this cluster",
          "'kubectl api-resources' lists the types the server serves");
    }
    return UnknownType(type);
  }
  const kube::ApiResource* served = WithDefinition(discovery, *resource, resolver);
  if (served == nullptr) {
    return NoDefinitionFor(*resource);
  }
  return served;
}

Result<ClusterConnection> ClusterConnection::Open(const ClusterFlags& flags, const CommandIo& io,
                                                  const std::string& namespace_name) {
  Result<std::unique_ptr<kube::Client>> client = flags.Connect(io, namespace_name);
  if (!client.ok()) return client.error();
  ClusterConnection c;
  c.client = std::move(*client);
  c.discovery = std::make_unique<kube::CachedDiscovery>(c.client.get(), flags.CacheOptions(io));
  return c;
}

std::vector<const kube::ApiResource*> ServedDefinitionTypes(const kube::Discovery& discovery,
                                                            const Catalog& catalog) {
  std::vector<const kube::ApiResource*> out;
  for (const CatalogEntry& e : catalog.entries()) {
    const GroupVersionKind& k = e.definition.root_kind();
    const kube::ApiResource* r = discovery.FindKind(k.group, k.version, k.kind);
    if (r != nullptr && r->version == k.version) out.push_back(r);
  }
  return out;
}

Result<ClusterTypes> ResolveClusterTypes(kube::CachedDiscovery* cached, const ClusterQuery& query,
                                         const DefinitionResolver& resolver, ClusterRead* read) {
  Result<std::vector<kube::TypeRequest>> types = kube::ParseTypeArguments(query.type_args);
  if (!types.ok()) return types.error();
  bool named = false;
  for (const kube::TypeRequest& t : *types) named = named || !t.names.empty();
  if (named && !query.label_selector.empty()) {
    return UsageError("when names are given, -l (--selector) cannot be used",
                      "leave out the names to list by labels");
  }
  if (named && query.all_namespaces) {
    return UsageError("a resource cannot be retrieved by name across all namespaces",
                      "name the namespace with -n NAMESPACE instead of -A");
  }
  Result<const kube::Discovery*> discovery = cached->Get();
  if (!discovery.ok()) return discovery.error();
  // A TYPE missing from a cached discovery may be a CRD installed since it was written.
  if (!cached->fetched()) {
    for (const kube::TypeRequest& t : *types) {
      if ((*discovery)->Resolve(t.type) != nullptr) continue;
      discovery = cached->Refresh();
      if (!discovery.ok()) return discovery.error();
      break;
    }
  }
  ClusterTypes out;
  out.discovery = *discovery;
  std::vector<ClusterTarget>& targets = out.targets;
  // Each TYPE resolved first, so that a bad one fails before anything is read.
  if (query.all_types) {
    for (const kube::ApiResource* served : ServedDefinitionTypes(**discovery, resolver.catalog())) {
      read->root_kinds.insert(KindKey(served->ApiVersion(), served->kind));
      targets.push_back({served, resolver.Find(served->ApiVersion(), served->kind), {}});
    }
  }
  for (const kube::TypeRequest& t : *types) {
    const kube::ApiResource* resource = (*discovery)->Resolve(t.type);
    if (resource == nullptr) {
      std::vector<const CatalogEntry*> defined = DefinitionsNamed(resolver, t.type);
      if (defined.size() > 1) {
        std::string list;
        for (const CatalogEntry* e : defined) {
          list += (list.empty() ? "" : ", ") + DottedKind(e->definition.root_kind());
        }
        return UsageError("\"" + t.type +
                          "\" matches more than one Karta definition, retry "
                          "with one of: " +
                          list);
      }
      if (defined.size() == 1) {
        read->warnings.push_back(defined[0]->definition.root_kind().kind +
                                 " is not installed in this cluster");
        if (!t.names.empty()) read->named_missing = true;
        continue;
      }
      return UnknownType(t.type);
    }
    const kube::ApiResource* served = WithDefinition(**discovery, *resource, resolver);
    if (served == nullptr) {
      return NoDefinitionFor(*resource);
    }
    const CatalogEntry* entry = resolver.Find(served->ApiVersion(), served->kind);
    read->root_kinds.insert(KindKey(served->ApiVersion(), served->kind));
    targets.push_back({served, entry, t.names});
  }
  return out;
}

std::optional<Error> ReadClusterWorkloads(kube::Client* client, kube::CachedDiscovery* cached,
                                          const ClusterQuery& query,
                                          const DefinitionResolver& resolver,
                                          const std::function<void(SourceObject)>& add,
                                          ClusterRead* read) {
  Result<ClusterTypes> types = ResolveClusterTypes(cached, query, resolver, read);
  if (!types.ok()) return types.error();
  const kube::Discovery* discovery = types->discovery;
  const std::vector<ClusterTarget>& targets = types->targets;
  const std::string ns = query.all_namespaces ? "" : client->config().namespace_name;

  // The workloads.
  std::set<std::string> namespaces;  // of the workloads found
  bool any = false;
  for (const ClusterTarget& t : targets) {
    size_t taken = 0;  // of this TYPE
    auto take = [&](Value item) {
      ++taken;
      SourceObject o = ClusterObject(std::move(item), *t.resource);
      namespaces.insert(std::string(o.Namespace()));
      any = true;
      add(std::move(o));
      return true;
    };
    if (!t.names.empty()) {
      for (const std::string& name : t.names) {
        Result<Value> object = kube::GetObject(client, *t.resource, ns, name);
        if (!object.ok()) return object.error();
        take(std::move(*object));
      }
      continue;
    }
    kube::ListOptions options;
    options.namespace_name = ns;
    options.label_selector = query.label_selector;
    options.field_selector = query.field_selector;
    options.chunk_size = query.chunk_size;
    std::optional<Error> e = kube::List(client, *t.resource, options, take);
    if (e && e->code == ErrorCode::kForbidden && ns.empty() && t.resource->namespaced &&
        taken == 0) {
      // Forbidden across the cluster: the context's namespace may still be allowed.
      options.namespace_name = client->config().namespace_name;
      read->warnings.push_back(e->message + "; listing namespace " + options.namespace_name +
                               " instead");
      e = kube::List(client, *t.resource, options, take);
    }
    if (e) return e;
  }
  if (!any || query.workloads_only) return std::nullopt;

  // The pods, then the kinds on their controller-owner chains, level by level: one list per
  // kind and namespace, each kind read once, until the chains reach the workloads' kinds. Only
  // objects with a controller owner can belong to a workload; the rest are left out.
  std::vector<std::string> scopes;
  if (!ns.empty()) {
    scopes.push_back(ns);
  } else {
    scopes.assign(namespaces.begin(), namespaces.end());
  }
  std::set<std::string> listed = read->root_kinds;     // "apiVersion kind" read or not to read
  std::set<std::pair<std::string, std::string>> next;  // (apiVersion, kind) to read
  auto keep = [&](Value item, const kube::ApiResource& resource) {
    const Value* owner = meta::ControllerReference(item);
    if (owner == nullptr) return;
    std::string api_version(meta::StringField(*owner, "apiVersion"));
    std::string kind(meta::StringField(*owner, "kind"));
    if (listed.count(KindKey(api_version, kind)) == 0) next.emplace(api_version, kind);
    add(ClusterObject(std::move(item), resource));
  };
  auto list_everywhere = [&](const kube::ApiResource& resource) -> std::optional<Error> {
    // Workloads in many namespaces: one paged list across the cluster costs fewer requests
    // than one per namespace (what it reads beyond them is reduced to owner links as it
    // streams); where that is forbidden, one list per namespace as below.
    if (ns.empty() && scopes.size() >= kClusterWideListFrom) {
      kube::ListOptions options;
      options.chunk_size = query.chunk_size;
      size_t taken = 0;
      std::optional<Error> e = kube::List(client, resource, options, [&](Value item) {
        ++taken;
        keep(std::move(item), resource);
        return true;
      });
      if (!e) return std::nullopt;
      if (e->code != ErrorCode::kForbidden || taken > 0) return e;
    }
    for (const std::string& scope : scopes) {
      kube::ListOptions options;
      options.namespace_name = scope;
      options.chunk_size = query.chunk_size;
      std::optional<Error> e = kube::List(client, resource, options, [&](Value item) {
        keep(std::move(item), resource);
        return true;
      });
      if (e && e->code == ErrorCode::kForbidden) {
        read->warnings.push_back(e->message + "; PODS and GPUS may be incomplete");
        continue;
      }
      if (e) return e;
    }
    return std::nullopt;
  };
  const kube::ApiResource* pods = discovery->FindKind("", "v1", "Pod");
  if (pods == nullptr || listed.count("v1 Pod") > 0) return std::nullopt;
  listed.insert("v1 Pod");
  if (std::optional<Error> e = list_everywhere(*pods)) return e;
  for (int depth = 0; depth < meta::kMaxControllerDepth && !next.empty(); ++depth) {
    std::set<std::pair<std::string, std::string>> level;
    level.swap(next);
    for (const auto& [api_version, kind] : level) {
      if (!listed.insert(KindKey(api_version, kind)).second) continue;
      size_t slash = api_version.find('/');
      std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
      std::string version =
          slash == std::string::npos ? api_version : api_version.substr(slash + 1);
      const kube::ApiResource* resource = discovery->FindKind(group, version, kind);
      if (resource == nullptr || resource->version != version) continue;  // not served
      if (std::optional<Error> e = list_everywhere(*resource)) return e;
    }
  }
  return std::nullopt;
}

}  // namespace wmap::cli
