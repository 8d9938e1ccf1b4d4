#include "wmap/catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ios>
#include <iterator>
#include <optional>
#include <system_error>
#include <utility>

#include "catalog/embedded_files.h"

namespace wmap {
namespace {

bool IsDefinitionFile(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// Definition files are read whole before they are parsed, so their size is bounded: a device
// or an endless pipe named as a definition file (`-d /dev/zero`) is refused at this size
// instead of growing until memory runs out.
constexpr std::streamsize kMaxDefinitionFileBytes = std::streamsize{256} << 20;

// Reads all of `path` into *text; on failure returns what went wrong.
std::optional<std::string> ReadFile(const std::filesystem::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read the file";
  text->clear();
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text->append(chunk, static_cast<size_t>(in.gcount()));
    if (static_cast<std::streamsize>(text->size()) > kMaxDefinitionFileBytes) {
      text->clear();
      return "the file is larger than 256Mi; definition files are read whole";
    }
  }
  if (in.bad()) return "cannot read the file";
  return std::nullopt;
}

Catalog LoadBuiltIn() {
  Catalog catalog;
  for (const Catalog::File& file : Catalog::BuiltInFiles()) {
    catalog.AddText(file.text, std::string(kBuiltInOrigin) + ":" + std::string(file.name));
  }
  // Entries remember only where they came from, not which compiled-in file.
  Catalog out;
  for (const CatalogEntry& e : catalog.entries())
    out.Add(e.definition, std::string(kBuiltInOrigin));
  return out;
}

}  // namespace

const Catalog& Catalog::BuiltIn() {
  static const Catalog* const built_in = new Catalog(LoadBuiltIn());  // never destroyed
  return *built_in;
}

std::vector<Catalog::File> Catalog::BuiltInFiles() {
  std::vector<File> files;
  files.reserve(catalog_internal::kEmbeddedFileCount);
  for (size_t i = 0; i < catalog_internal::kEmbeddedFileCount; ++i) {
    const catalog_internal::EmbeddedFile& f = catalog_internal::kEmbeddedFiles[i];
    files.push_back({f.name, std::string_view(reinterpret_cast<const char*>(f.data), f.size)});
  }
  return files;
}

std::vector<Error> Catalog::AddPath(const std::string& path, const LoadOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path root(path);
  std::vector<fs::path> files;
  if (fs::is_directory(root, ec)) {
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec) && IsDefinitionFile(it->path())) files.push_back(it->path());
    }
    if (ec) {
      return {Error{"cannot read the folder: " + ec.message(),
                    path,
                    {},
                    "check that the path exists and is readable"}};
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(root);
  }
  std::vector<Error> errors;
  for (const fs::path& file : files) {
    std::string text;
    if (std::optional<std::string> failed = ReadFile(file, &text)) {
      const bool too_large = text.empty() && failed->starts_with("the file is larger");
      errors.push_back(Error{*failed,
                             file.string(),
                             {},
                             too_large ? "check that the path names a file of definitions"
                                       : "check that the path exists and is readable"});
      continue;
    }
    std::vector<Error> more = AddText(text, file.string(), options);
    errors.insert(errors.end(), std::make_move_iterator(more.begin()),
                  std::make_move_iterator(more.end()));
  }
  return errors;
}

std::vector<Error> Catalog::AddText(std::string_view text, std::string_view origin,
                                    const LoadOptions& options) {
  LoadResult loaded = LoadDefinitions(text, origin, options);
  for (Definition& d : loaded.definitions) Add(std::move(d), std::string(origin));
  return std::move(loaded.errors);
}

void Catalog::Add(Definition definition, std::string origin) {
  const GroupVersionKind& kind = definition.root_kind();
  std::erase_if(entries_, [&](const CatalogEntry& e) {
    const GroupVersionKind& k = e.definition.root_kind();
    return k.group == kind.group && k.version == kind.version && k.kind == kind.kind;
  });
  auto at = std::upper_bound(
      entries_.begin(), entries_.end(), definition.name(),
      [](const std::string& name, const CatalogEntry& e) { return name < e.definition.name(); });
  entries_.insert(at, CatalogEntry{std::move(definition), std::move(origin)});
}

const CatalogEntry* Catalog::Find(std::string_view api_version, std::string_view kind) const {
  for (const CatalogEntry& e : entries_) {
    const GroupVersionKind& k = e.definition.root_kind();
    if (k.kind == kind && k.ApiVersion() == api_version) return &e;
  }
  return nullptr;
}

const CatalogEntry* Catalog::Find(const GroupVersionKind& kind) const {
  return Find(kind.ApiVersion(), kind.kind);
}

const CatalogEntry* Catalog::FindByName(std::string_view name) const {
  for (const CatalogEntry& e : entries_) {
    if (e.definition.name() == name) return &e;
  }
  return nullptr;
}

}  // namespace wmap
