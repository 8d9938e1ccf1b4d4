// Discovery on disk between commands (kube.h: CachedDiscovery).
//
// The file holds the discovery as per-group-version resource lists (the APIResourceList shape
// that Discovery::FromResourceLists reads) in discovery order, with the preferred version of
// every group, so that a cached discovery resolves every TYPE exactly as a fetched one does.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <string>
#include <system_error>

#include "kube/files.h"
#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

constexpr std::string_view kFormat = "wmap.discovery/v1";
constexpr std::string_view kFileName = "wmap-discovery.json";

Value Strings(const std::vector<std::string>& items) {
  Value out = Value::EmptyArray();
  for (const std::string& s : items) out.push_back(Value::String(s));
  return out;
}

Value ResourceEntry(const ApiResource& r) {
  Value v = Value::EmptyObject();
  v.set("name", Value::String(r.resource));
  v.set("kind", Value::String(r.kind));
  v.set("singularName", Value::String(r.singular));
  v.set("namespaced", Value::Bool(r.namespaced));
  v.set("shortNames", Strings(r.short_names));
  v.set("verbs", Strings(r.verbs));
  v.set("categories", Strings(r.categories));
  return v;
}

// Seconds since the file was last written, or nullopt when it cannot be read.
std::optional<int64_t> AgeSeconds(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return static_cast<int64_t>(std::time(nullptr)) - static_cast<int64_t>(st.st_mtime);
}

// Writes `text` to `path` through a temporary file in the same folder renamed over it, so that
// a reader sees the old file or the new one, never a part. False when any step fails.
bool WriteAtomically(const std::string& path, const std::string& text) {
  std::filesystem::path target(path);
  std::error_code ec;
  std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) return false;
  std::string temp = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX"));
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return false;
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  bool ok = done == text.size() && ::fchmod(fd, 0640) == 0;
  ok = ::close(fd) == 0 && ok;
  if (ok && ::rename(temp.c_str(), path.c_str()) == 0) return true;
  ::unlink(temp.c_str());
  return false;
}

}  // namespace

std::string DiscoveryCacheFolder(std::string_view dir, std::string_view server) {
  std::string host(server);
  for (std::string_view scheme : {"https://", "http://"}) {
    if (size_t at = host.find(scheme); at != std::string::npos) {
      host.erase(at, scheme.size());
      break;
    }
  }
  for (char& c : host) {
    const bool kept = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/' ||
                      c == '.' || c == '(' || c == ')';
    if (!kept) c = '_';
  }
  return (std::filesystem::path(std::string(dir)) / "discovery" / host).string();
}

Value DiscoveryCacheDocument(const Discovery& discovery, std::string_view server) {
  Value lists = Value::EmptyArray();
  // Consecutive resources of one group version make one list, so the order is kept.
  std::string gv;
  Value resources;
  auto close = [&] {
    if (resources.is_null()) return;
    Value list = Value::EmptyObject();
    list.set("groupVersion", Value::String(gv));
    list.set("resources", std::move(resources));
    lists.push_back(std::move(list));
    resources = Value();
  };
  for (const ApiResource& r : discovery.resources()) {
    if (resources.is_null() || r.ApiVersion() != gv) {
      close();
      gv = r.ApiVersion();
      resources = Value::EmptyArray();
    }
    resources.push_back(ResourceEntry(r));
  }
  close();
  Value preferred = Value::EmptyObject();
  for (const auto& [group, version] : discovery.preferred_versions()) {
    preferred.set(group, Value::String(version));
  }
  Value doc = Value::EmptyObject();
  doc.set("format", Value::String(kFormat));
  doc.set("server", Value::String(server));
  doc.set("preferred", std::move(preferred));
  doc.set("lists", std::move(lists));
  return doc;
}

std::optional<Discovery> DiscoveryFromCacheDocument(const Value& document,
                                                    std::string_view server) {
  if (!document.is_object()) return std::nullopt;
  const Value* format = document.find("format");
  const Value* from = document.find("server");
  const Value* preferred = document.find("preferred");
  const Value* lists = document.find("lists");
  if (format == nullptr || !format->is_string() || format->as_string() != kFormat ||
      from == nullptr || !from->is_string() || from->as_string() != server ||
      preferred == nullptr || !preferred->is_object() || lists == nullptr || !lists->is_array() ||
      lists->size() == 0) {
    return std::nullopt;
  }
  std::map<std::string, std::string> versions;
  for (const Member& m : preferred->members()) {
    if (!m.value.is_string()) return std::nullopt;
    versions.emplace(std::string(m.key.as_string()), std::string(m.value.as_string()));
  }
  for (const Value& list : lists->items()) {
    const Value* gv = list.find("groupVersion");
    const Value* resources = list.find("resources");
    if (gv == nullptr || !gv->is_string() || resources == nullptr || !resources->is_array()) {
      return std::nullopt;
    }
    for (const Value& r : resources->items()) {
      const Value* name = r.find("name");
      const Value* kind = r.find("kind");
      if (name == nullptr || !name->is_string() || kind == nullptr || !kind->is_string()) {
        return std::nullopt;
      }
    }
  }
  std::vector<Value> items(lists->items().begin(), lists->items().end());
  Discovery d = Discovery::FromResourceLists(items, versions);
  if (d.resources().empty()) return std::nullopt;
  return d;
}

CachedDiscovery::CachedDiscovery(Client* client, DiscoveryCacheOptions options)
    : client_(client), options_(std::move(options)) {}

Result<const Discovery*> CachedDiscovery::Get() {
  if (discovery_) return &*discovery_;
  if (!options_.dir.empty()) {
    const std::string& server = client_->config().server;
    std::string path = DiscoveryCacheFolder(options_.dir, server) + "/" + std::string(kFileName);
    std::optional<int64_t> age = AgeSeconds(path);
    std::string text, error;
    if (age && *age >= 0 && *age < options_.ttl.count() && ReadFile(path, &text, &error)) {
      Result<Value> doc = json::Parse(text);
      if (doc.ok()) {
        discovery_ = DiscoveryFromCacheDocument(*doc, server);
        if (discovery_) return &*discovery_;
      }
    }
  }
  return Fetch();
}

Result<const Discovery*> CachedDiscovery::Refresh() {
  if (fetched_) return &*discovery_;
  return Fetch();
}

Result<const Discovery*> CachedDiscovery::Fetch() {
  Result<Discovery> d = Discovery::Fetch(client_);
  if (!d.ok()) return d.error();
  discovery_ = std::move(*d);
  fetched_ = true;
  if (!options_.dir.empty() && !discovery_->resources().empty()) {
    const std::string& server = client_->config().server;
    WriteAtomically(DiscoveryCacheFolder(options_.dir, server) + "/" + std::string(kFileName),
                    json::ToString(DiscoveryCacheDocument(*discovery_, server)) + "\n");
  }
  return &*discovery_;
}

}  // namespace wmap::kube
