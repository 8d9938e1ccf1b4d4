// The kind index: compiled documents, looked up by apiVersion and kind.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "schema/documents.h"
#include "schema/validator.h"
#include "wmap/schema.h"

namespace wmap::schema {

std::string GroupVersionKind::ApiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

namespace {

std::string KeyOf(std::string_view api_version, std::string_view kind) {
  std::string key(api_version);
  key += ' ';
  key += kind;
  return key;
}

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Error e;
    e.file = path;
    e.message = "cannot read the file";
    return e;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<CompiledDocument> CompileFile(const std::string& path) {
  Result<std::string> text = ReadText(path);
  if (!text.ok()) return text.error();
  return CompileDocument(*text, path);
}

Violation Whole(std::string message) { return Violation{"", std::move(message), Position{}}; }

}  // namespace

class SchemaSet::Impl {
 public:
  struct Entry {
    GroupVersionKind gvk;
    const Graph* graph;
    int32_t root;
    bool custom;
    bool served;
  };

  size_t Add(CompiledDocument doc) {
    size_t added = 0;
    for (KindEntry& k : doc.kinds) {
      std::string key = KeyOf(k.gvk.ApiVersion(), k.gvk.kind);
      auto [it, inserted] = entries_.try_emplace(
          std::move(key), Entry{std::move(k.gvk), doc.graph.get(), k.root, k.custom, k.served});
      if (inserted) ++added;
    }
    graphs_.push_back(std::move(doc.graph));
    return added;
  }

  const Entry* Find(std::string_view api_version, std::string_view kind) const {
    auto it = entries_.find(KeyOf(api_version, kind));
    return it == entries_.end() ? nullptr : &it->second;
  }

  std::vector<GroupVersionKind> Kinds() const {
    std::vector<GroupVersionKind> out;
    out.reserve(entries_.size());
    for (const auto& [key, e] : entries_) out.push_back(e.gvk);
    std::sort(out.begin(), out.end(), [](const GroupVersionKind& a, const GroupVersionKind& b) {
      return std::tie(a.group, a.version, a.kind) < std::tie(b.group, b.version, b.kind);
    });
    return out;
  }

  std::vector<Violation> Validate(const Value& object,
                                  const std::map<std::string, Position>* positions) const {
    std::vector<Violation> out;
    if (!object.is_object()) {
      out.push_back(Whole("(root): Invalid value: \"" + std::string(TypeName(object.type())) +
                          "\": an object must be a mapping with apiVersion and kind"));
      return out;
    }
    const Value* api_version = object.find("apiVersion");
    const Value* kind = object.find("kind");
    bool named = true;
    for (const auto& [name, field] : {std::pair{"apiVersion", api_version}, {"kind", kind}}) {
      if (field != nullptr && field->is_string() && !field->as_string().empty()) continue;
      out.push_back(Violation{name, std::string(name) + ": Required value", Position{}});
      named = false;
    }
    if (!named) return out;
    const Entry* entry = Find(api_version->as_string(), kind->as_string());
    std::string what = "kind \"" + std::string(kind->as_string()) + "\" in version \"" +
                       std::string(api_version->as_string()) + "\"";
    if (entry == nullptr) {
      out.push_back(Whole("no matches for " + what + ": no schema for this kind"));
      return out;
    }
    if (!entry->served) {
      out.push_back(Whole("no matches for " + what + ": the version is defined but not served"));
    }
    ValidateResource(*entry->graph, entry->root, entry->gvk, entry->custom, object, positions,
                     &out);
    return out;
  }

 private:
  std::vector<std::unique_ptr<const Graph>> graphs_;
  std::unordered_map<std::string, Entry> entries_;
};

SchemaSet::SchemaSet() : impl_(std::make_unique<Impl>()) {}
SchemaSet::~SchemaSet() = default;
SchemaSet::SchemaSet(SchemaSet&&) noexcept = default;
SchemaSet& SchemaSet::operator=(SchemaSet&&) noexcept = default;

Result<size_t> SchemaSet::AddDocument(std::string_view text, std::string_view name) {
  Result<CompiledDocument> doc = CompileDocument(text, name);
  if (!doc.ok()) return doc.error();
  return impl_->Add(std::move(*doc));
}

Result<size_t> SchemaSet::AddFile(const std::string& path) {
  Result<CompiledDocument> doc = CompileFile(path);
  if (!doc.ok()) return doc.error();
  return impl_->Add(std::move(*doc));
}

Result<size_t> SchemaSet::AddDirectory(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) {
    Error e;
    e.file = dir;
    e.message = "cannot list the directory: " + ec.message();
    return e;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    if (!it->is_regular_file(ec)) continue;
    std::string ext = it->path().extension().string();
    if (ext == ".yaml" || ext == ".yml" || ext == ".json") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());

  // Files are compiled on worker threads (largest first, for balance) and added in path order.
  std::vector<std::optional<Result<CompiledDocument>>> compiled(files.size());
  std::vector<size_t> order(files.size());
  std::vector<uintmax_t> sizes(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    order[i] = i;
    sizes[i] = fs::file_size(files[i], ec);
    if (ec) sizes[i] = 0;
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
  std::atomic<size_t> next{0};
  auto work = [&]() {
    for (size_t n = next++; n < order.size(); n = next++) {
      compiled[order[n]].emplace(CompileFile(files[order[n]]));
    }
  };
  size_t workers = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  workers = std::min(workers, std::max<size_t>(files.size(), 1));
  std::vector<std::jthread> threads;
  try {
    for (size_t i = 1; i < workers; ++i) threads.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads: the calling thread compiles what is left.
  }
  work();
  threads.clear();  // joins

  size_t added = 0;
  std::optional<Error> first_error;
  for (std::optional<Result<CompiledDocument>>& doc : compiled) {
    if (!doc->ok()) {
      if (!first_error) first_error = doc->error();
      continue;
    }
    added += impl_->Add(std::move(doc->value()));
  }
  if (first_error) return *first_error;
  return added;
}

bool SchemaSet::Contains(std::string_view api_version, std::string_view kind) const {
  return impl_->Find(api_version, kind) != nullptr;
}

std::vector<GroupVersionKind> SchemaSet::Kinds() const { return impl_->Kinds(); }

std::vector<Violation> SchemaSet::Validate(const Value& object) const {
  return impl_->Validate(object, nullptr);
}

std::vector<Violation> SchemaSet::Validate(const yaml::Document& document) const {
  std::vector<Violation> out = impl_->Validate(document.value, &document.positions);
  for (Violation& v : out) {
    if (!v.position.known()) v.position = document.start;
  }
  return out;
}

}  // namespace wmap::schema
