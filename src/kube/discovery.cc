// Discovery (aggregated apidiscovery.k8s.io/v2, else the per-group documents) and TYPE
// resolution as kubectl's RESTMapper and shortcut expander do it.
#include <algorithm>
#include <cctype>
#include <string>

#include "kube/files.h"
#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

constexpr std::string_view kAggregatedAccept =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
    "application/json";

std::string Str(const Value& object, std::string_view key) {
  const Value* v = object.find(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::vector<std::string> Strings(const Value& object, std::string_view key) {
  std::vector<std::string> out;
  const Value* v = object.find(key);
  if (v == nullptr || !v->is_array()) return out;
  for (const Value& s : v->items()) {
    if (s.is_string()) out.emplace_back(s.as_string());
  }
  return out;
}

// Appends the resources of one APIGroupDiscoveryList (/api or /apis).
std::optional<Error> AddAggregated(const Value& list, std::vector<ApiResource>* out,
                                   std::map<std::string, std::string>* preferred) {
  if (Str(list, "kind") != "APIGroupDiscoveryList") {
    return Error::Of(ErrorCode::kInvalidInput, "not an APIGroupDiscoveryList");
  }
  const Value* items = list.find("items");
  if (items == nullptr || !items->is_array()) return std::nullopt;
  for (const Value& group : items->items()) {
    const Value* metadata = group.find("metadata");
    std::string name = metadata != nullptr ? Str(*metadata, "name") : "";
    const Value* versions = group.find("versions");
    if (versions == nullptr || !versions->is_array()) continue;
    for (const Value& version : versions->items()) {
      std::string v = Str(version, "version");
      preferred->emplace(name, v);  // the first version listed is the preferred one
      const Value* resources = version.find("resources");
      if (resources == nullptr || !resources->is_array()) continue;
      for (const Value& r : resources->items()) {
        ApiResource a;
        a.group = name;
        a.version = v;
        a.resource = Str(r, "resource");
        if (const Value* kind = r.find("responseKind")) a.kind = Str(*kind, "kind");
        a.singular = Str(r, "singularResource");
        if (a.singular.empty()) a.singular = Lower(a.kind);
        a.namespaced = Str(r, "scope") != "Cluster";
        a.short_names = Strings(r, "shortNames");
        a.verbs = Strings(r, "verbs");
        a.categories = Strings(r, "categories");
        if (!a.resource.empty() && !a.kind.empty()) out->push_back(std::move(a));
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string ApiResource::GroupResource() const {
  return group.empty() ? resource : resource + "." + group;
}

std::string ApiResource::CollectionPath(std::string_view namespace_name) const {
  std::string path = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (namespaced && !namespace_name.empty()) path += "/namespaces/" + std::string(namespace_name);
  return path + "/" + resource;
}

Result<Discovery> Discovery::FromAggregated(const Value& api, const Value& apis) {
  Discovery d;
  for (const Value* list : {&api, &apis}) {
    if (std::optional<Error> e = AddAggregated(*list, &d.resources_, &d.preferred_)) return *e;
  }
  return d;
}

Discovery Discovery::FromResourceLists(std::span<const Value> lists,
                                       const std::map<std::string, std::string>& preferred) {
  Discovery d;
  d.preferred_ = preferred;
  for (const Value& list : lists) {
    std::string group_version = Str(list, "groupVersion");
    size_t slash = group_version.find('/');
    std::string group = slash == std::string::npos ? "" : group_version.substr(0, slash);
    std::string version =
        slash == std::string::npos ? group_version : group_version.substr(slash + 1);
    d.preferred_.emplace(group, version);
    const Value* resources = list.find("resources");
    if (resources == nullptr || !resources->is_array()) continue;
    for (const Value& r : resources->items()) {
      ApiResource a;
      a.group = group;
      a.version = version;
      a.resource = Str(r, "name");
      if (a.resource.find('/') != std::string::npos) continue;  // a subresource
      a.kind = Str(r, "kind");
      a.singular = Str(r, "singularName");
      if (a.singular.empty()) a.singular = Lower(a.kind);
      const Value* namespaced = r.find("namespaced");
      a.namespaced = namespaced == nullptr || namespaced->truthy();
      a.short_names = Strings(r, "shortNames");
      a.verbs = Strings(r, "verbs");
      a.categories = Strings(r, "categories");
      d.resources_.push_back(std::move(a));
    }
  }
  return d;
}

Result<Discovery> Discovery::Fetch(Client* client) {
  RequestContext context{"get", "", "discovery", "", "", ""};
  Value docs[2];
  bool aggregated = true;
  const char* paths[2] = {"/api", "/apis"};
  for (int i = 0; i < 2; ++i) {
    Result<Response> r = client->Get(paths[i], "", kAggregatedAccept);
    if (!r.ok()) return r.error();
    if (r->status != 200) {
      return StatusError(r->status, r->body, context, client->config().server,
                         client->config().user_name);
    }
    Result<Value> doc = json::Parse(r->body);
    if (!doc.ok()) {
      return Error::Of(ErrorCode::kInvalidInput, "the discovery document " + std::string(paths[i]) +
                                                     " of " + client->config().server +
                                                     " is not JSON: " + doc.error().message);
    }
    docs[i] = std::move(*doc);
    if (Str(docs[i], "kind") != "APIGroupDiscoveryList") aggregated = false;
  }
  if (aggregated) return FromAggregated(docs[0], docs[1]);
  // Servers before 1.26: /api lists the core versions, /apis the groups; each group version
  // has its own document. One that fails (an aggregated API that is down) is left out.
  std::vector<std::string> group_versions;
  std::map<std::string, std::string> preferred;
  if (const Value* versions = docs[0].find("versions"); versions && versions->is_array()) {
    for (const Value& v : versions->items()) {
      if (v.is_string()) group_versions.push_back(std::string(v.as_string()));
    }
  }
  if (const Value* groups = docs[1].find("groups"); groups && groups->is_array()) {
    for (const Value& g : groups->items()) {
      std::string name = Str(g, "name");
      if (const Value* p = g.find("preferredVersion")) preferred[name] = Str(*p, "version");
      if (const Value* versions = g.find("versions"); versions && versions->is_array()) {
        for (const Value& v : versions->items()) group_versions.push_back(Str(v, "groupVersion"));
      }
    }
  }
  std::vector<Value> lists;
  for (const std::string& gv : group_versions) {
    std::string path = gv.find('/') == std::string::npos ? "/api/" + gv : "/apis/" + gv;
    Result<Response> r = client->Get(path, "");
    if (!r.ok()) return r.error();
    if (r->status != 200) continue;
    Result<Value> doc = json::Parse(r->body);
    if (doc.ok()) lists.push_back(std::move(*doc));
  }
  return FromResourceLists(lists, preferred);
}

bool Discovery::Preferred(const ApiResource& resource) const {
  auto it = preferred_.find(resource.group);
  return it == preferred_.end() || it->second == resource.version;
}

const ApiResource* Discovery::Resolve(std::string_view type) const {
  const std::string token = Lower(type);
  // Candidate (resource, version, group) readings of the token, most specific first, as
  // schema.ParseResourceArg reads it: "r.v.g" then "r.g" then "r".
  struct Reading {
    std::string resource, version, group;
    bool grouped;
  };
  std::vector<Reading> readings;
  size_t first = token.find('.');
  if (first != std::string::npos) {
    size_t second = token.find('.', first + 1);
    if (second != std::string::npos) {
      readings.push_back({token.substr(0, first), token.substr(first + 1, second - first - 1),
                          token.substr(second + 1), true});
    }
    readings.push_back({token.substr(0, first), "", token.substr(first + 1), true});
  } else {
    readings.push_back({token, "", "", false});
  }
  for (const Reading& reading : readings) {
    const ApiResource* found = nullptr;
    for (const ApiResource& r : resources_) {
      if (reading.grouped && Lower(r.group) != reading.group) continue;
      if (!reading.version.empty() && r.version != reading.version) continue;
      bool match = r.resource == reading.resource || r.singular == reading.resource ||
                   Lower(r.kind) == reading.resource;
      if (!match && !reading.grouped) {
        match = std::find(r.short_names.begin(), r.short_names.end(), reading.resource) !=
                r.short_names.end();
      }
      if (!match) continue;
      // The first group in discovery order wins, at its preferred version when it is listed.
      if (found == nullptr) {
        found = &r;
      } else if (found->group == r.group && !Preferred(*found) && Preferred(r)) {
        found = &r;
      }
    }
    if (found != nullptr) return found;
  }
  return nullptr;
}

const ApiResource* Discovery::FindKind(std::string_view group, std::string_view version,
                                       std::string_view kind) const {
  const ApiResource* any = nullptr;
  for (const ApiResource& r : resources_) {
    if (r.group != group || r.kind != kind) continue;
    if (r.version == version) return &r;
    if (any == nullptr || (!Preferred(*any) && Preferred(r))) any = &r;
  }
  return any;
}

Result<std::vector<TypeRequest>> ParseTypeArguments(std::span<const std::string> args) {
  std::vector<TypeRequest> out;
  if (args.empty()) return out;
  const bool slash_form = args[0].find('/') != std::string::npos;
  if (slash_form) {
    for (const std::string& a : args) {
      size_t slash = a.find('/');
      if (slash == std::string::npos || slash == 0 || slash + 1 == a.size()) {
        return Error::Of(ErrorCode::kUsage,
                         "there is no need to specify a resource type as a separate argument "
                         "when passing arguments in resource/name form (e.g. 'wmap get "
                         "resource/<resource_name>' instead of 'wmap get resource "
                         "resource/<resource_name>')");
      }
      std::string type = a.substr(0, slash);
      std::string name = a.substr(slash + 1);
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const TypeRequest& t) { return t.type == type; });
      if (it == out.end()) {
        out.push_back({type, {name}});
      } else {
        it->names.push_back(name);
      }
    }
    return out;
  }
  std::vector<std::string> names(args.begin() + 1, args.end());
  for (const std::string& n : names) {
    if (n.find('/') != std::string::npos) {
      return Error::Of(ErrorCode::kUsage,
                       "there is no need to specify a resource type as a separate argument when "
                       "passing arguments in resource/name form (e.g. 'wmap get "
                       "resource/<resource_name>' instead of 'wmap get resource "
                       "resource/<resource_name>')");
    }
  }
  size_t start = 0;
  const std::string& types = args[0];
  for (size_t i = 0; i <= types.size(); ++i) {
    if (i < types.size() && types[i] != ',') continue;
    std::string type = types.substr(start, i - start);
    start = i + 1;
    if (type.empty()) continue;
    out.push_back({type, names});
  }
  if (out.empty()) return Error::Of(ErrorCode::kUsage, "no resource type given");
  return out;
}

}  // namespace wmap::kube
