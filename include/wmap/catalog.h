// Sets of definitions keyed by the root kind they describe, and the catalog built into `wmap`.
//
// The built-in catalog is the set of files in the repository's catalog/ folder, compiled into the
// binary; a user's own definitions (files or folders) are added on top and replace a built-in
// definition of the same root group/version/kind. Lookups are by the object's apiVersion and
// kind, exactly as the API server names them.
#ifndef WMAP_CATALOG_H_
#define WMAP_CATALOG_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/definition.h"
#include "wmap/status.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

inline constexpr std::string_view kBuiltInOrigin = "built-in";

struct CatalogEntry {
  Definition definition;
  std::string origin;  // kBuiltInOrigin, or the file the definition was loaded from
};

// Definitions with distinct root kinds, kept sorted by definition name. Copies share the
// definitions (which are immutable); a Catalog itself is not synchronised for writing, but any
// number of threads may read a Catalog nobody writes.
class Catalog {
 public:
  Catalog() = default;

  // The definitions compiled into the binary, loaded on first use (thread-safe). A built-in file
  // that fails to load is a build defect: the catalog tests reject it, and here it is skipped.
  static const Catalog& BuiltIn();
  // The names and contents of the compiled-in files, sorted by name.
  struct File {
    std::string_view name;
    std::string_view text;
  };
  static std::vector<File> BuiltInFiles();

  // Loads one file, or every *.yaml, *.yml and *.json file directly inside a folder (in name
  // order). Every definition that loads is added (replacing one with the same root kind); every
  // problem is returned, with file and position. A path that cannot be read is one error.
  std::vector<Error> AddPath(const std::string& path, const LoadOptions& options = {});
  // The same for text already read; `origin` names it in errors and in CatalogEntry::origin.
  std::vector<Error> AddText(std::string_view text, std::string_view origin,
                             const LoadOptions& options = {});
  // Adds or replaces (same root kind) one definition.
  void Add(Definition definition, std::string origin);

  // The definition whose root kind has this apiVersion ("group/version", or "v1" for the core
  // group) and kind; nullptr when there is none.
  const CatalogEntry* Find(std::string_view api_version, std::string_view kind) const;
  const CatalogEntry* Find(const GroupVersionKind& kind) const;
  // By metadata.name; nullptr when there is none.
  const CatalogEntry* FindByName(std::string_view name) const;

  std::span<const CatalogEntry> entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<CatalogEntry> entries_;  // sorted by definition name; root kinds distinct
};

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_CATALOG_H_
