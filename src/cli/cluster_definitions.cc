#include "cli/cluster_definitions.h"

#include <algorithm>
#include <string>
#include <utility>

#include "wmap/catalog.h"

namespace wmap::cli {
namespace {

// The kinds of definition a cluster may hold, in the order they are merged.
struct DefinitionKind {
  std::string_view group, version, kind;
};
constexpr DefinitionKind kDefinitionKinds[] = {
    {"run.ai", "v1alpha1", "Karta"},
    {"workloadmap.dev", "v1alpha1", "WorkloadDefinition"},
};

std::string Str(const Value& v, std::string_view key) {
  const Value* f = v.find(key);
  return f != nullptr && f->is_string() ? std::string(f->as_string()) : std::string();
}

std::string NameOf(const Value& object) {
  const Value* metadata = object.find("metadata");
  return metadata != nullptr ? Str(*metadata, "name") : std::string();
}

// "JobSet.v1alpha2.jobset.x-k8s.io", as upstream names a root kind in its messages.
std::string Dotted(const GroupVersionKind& k) {
  return k.group.empty() ? k.kind + "." + k.version : k.kind + "." + k.version + "." + k.group;
}

std::string Key(const GroupVersionKind& k) { return k.group + "/" + k.version + "/" + k.kind; }

}  // namespace

std::string WarningLine(const DefinitionWarning& warning) {
  return warning.message + " (" + warning.reason + ")";
}

ClusterDefinitions MergeClusterDefinitions(std::span<const Value> objects, const ServedKind& served,
                                           DefinitionResolver* resolver) {
  ClusterDefinitions out;
  struct Loaded {
    Definition definition;
    const Value* object;
  };
  std::vector<std::pair<std::string, std::vector<Loaded>>> by_kind;  // first claim first
  for (const Value& object : objects) {
    const std::string name = NameOf(object);
    const std::string kind = Str(object, "kind");
    Value body = object;
    body.erase("status");  // the operator's, not the definition's
    LoadResult loaded = LoadDefinitionValue(body, kind + "/" + name);
    if (!loaded.ok() || loaded.definitions.size() != 1) {
      std::string why = loaded.errors.empty() ? "no definition" : loaded.errors.front().message;
      if (loaded.errors.size() > 1) {
        why += " (and " + std::to_string(loaded.errors.size() - 1) + " more)";
      }
      out.warnings.push_back(
          {"invalid", name, kind + " \"" + name + "\" is not valid and is skipped: " + why});
      continue;
    }
    const std::string key = Key(loaded.definitions.front().root_kind());
    auto it = std::find_if(by_kind.begin(), by_kind.end(),
                           [&](const auto& claim) { return claim.first == key; });
    if (it == by_kind.end()) it = by_kind.insert(by_kind.end(), {key, {}});
    it->second.push_back({std::move(loaded.definitions.front()), &object});
  }
  for (auto& [key, claims] : by_kind) {
    const GroupVersionKind& kind = claims.front().definition.root_kind();
    if (claims.size() > 1) {
      std::string names;
      for (const Loaded& c : claims) names += (names.empty() ? "" : ", ") + c.definition.name();
      out.warnings.push_back({"collision", "",
                              std::to_string(claims.size()) + " Karta definitions claim " +
                                  Dotted(kind) + " (" + names +
                                  "); none of them is used; remove one from the cluster"});
      continue;
    }
    Loaded& only = claims.front();
    const std::string name = only.definition.name();
    if (!served(kind)) {
      out.warnings.push_back({"no_crd", name,
                              "definition \"" + name + "\" reads " + Dotted(kind) +
                                  ", which this cluster does not serve"});
    }
    const CatalogEntry* existing = resolver->catalog().Find(kind);
    if (existing != nullptr && existing->origin != kBuiltInOrigin) continue;  // a file given
    out.documents[name] = *only.object;
    resolver->Add(std::move(only.definition), std::string(kClusterOrigin));
  }
  return out;
}

Result<ClusterDefinitions> FetchClusterDefinitions(kube::Client* client,
                                                   kube::CachedDiscovery* discovery,
                                                   DefinitionResolver* resolver) {
  std::vector<DefinitionWarning> warnings;
  Result<const kube::Discovery*> served = discovery->Get();
  if (!served.ok()) {
    if (served.error().code != ErrorCode::kUnreachable) return served.error();
    ClusterDefinitions out;
    out.warnings.push_back(
        {"unreachable", "", served.error().message + "; using the built-in definitions"});
    return out;
  }
  std::vector<Value> objects;
  for (const DefinitionKind& k : kDefinitionKinds) {
    const kube::ApiResource* resource = (*served)->FindKind(k.group, k.version, k.kind);
    if (resource == nullptr || resource->version != k.version) continue;  // no CRD: none
    kube::ListOptions options;                                            // cluster-scoped
    std::optional<Error> e = kube::List(client, *resource, options, [&](Value item) {
      objects.push_back(std::move(item));
      return true;
    });
    if (!e) continue;
    if (e->code == ErrorCode::kForbidden) {
      warnings.push_back(
          {"forbidden", "",
           e->message + "; the cluster's " + std::string(k.kind) + " objects are not used"});
      continue;
    }
    if (e->code == ErrorCode::kUnreachable) {
      warnings.push_back({"unreachable", "", e->message + "; using the built-in definitions"});
      objects.clear();
      break;
    }
    return *e;
  }
  auto merge = [&](const kube::Discovery& d, DefinitionResolver* into) {
    return MergeClusterDefinitions(
        objects,
        [&](const GroupVersionKind& kind) {
          const kube::ApiResource* r = d.FindKind(kind.group, kind.version, kind.kind);
          return r != nullptr && r->version == kind.version;
        },
        into);
  };
  const DefinitionResolver before = *resolver;  // copies share the definitions
  ClusterDefinitions out = merge(**served, resolver);
  // A root kind missing from a cached discovery may be a CRD installed since: ask once more.
  const bool unserved =
      std::any_of(out.warnings.begin(), out.warnings.end(),
                  [](const DefinitionWarning& w) { return w.reason == "no_crd"; });
  if (unserved && !discovery->fetched()) {
    served = discovery->Refresh();
    if (!served.ok()) return served.error();
    *resolver = before;
    out = merge(**served, resolver);
  }
  out.warnings.insert(out.warnings.begin(), warnings.begin(), warnings.end());
  return out;
}

}  // namespace wmap::cli
