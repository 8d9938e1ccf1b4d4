// The inventory: objects grouped into workloads, each with the definition that reads it.
//
// Contract:
// - DefinitionResolver: the built-in catalog, then each definition folder (or file), then each
//   definition file ("-" = standard input); a later definition replaces an earlier one with the
//   same root GVK. Find() looks an object up by apiVersion and kind; NoDefinition() is the
//   kNoDefinition error that says how to add one.
// - GroupWorkloads: a workload is an object with a definition that has no controller owner among
//   the inputs and is not a Pod owned by a controller. Every other object belongs to the workload
//   its chain of controller owner references reaches (wmap/meta.h: controller references only,
//   at most meta::kMaxControllerDepth hops, through any given object); Pods go to `pods`, the
//   rest to `children`. Owned objects whose chain reaches no workload are `orphans`; unowned
//   objects with no definition are `undefined`; pods with owners but no controller are counted
//   in `uncontrolled`, for the one warning every front end gives about them.
#ifndef WMAP_INVENTORY_H_
#define WMAP_INVENTORY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "wmap/catalog.h"
#include "wmap/definition.h"
#include "wmap/export.h"
#include "wmap/meta.h"
#include "wmap/source.h"
#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// Where definitions come from besides the built-in catalog.
struct DefinitionSources {
  std::vector<std::string> folders;  // each a folder of definitions, or one definition file
  std::vector<std::string> files;    // each one definition file; "-" reads stdin_fd
  LoadOptions load;
  int stdin_fd = 0;
};

// The definitions available to a front end (see the file comment).
class DefinitionResolver {
 public:
  // Loads the sources; a missing path is kNotFound, an invalid definition kInvalidDefinition
  // with every problem in the message.
  static std::optional<Error> Create(const DefinitionSources& sources, DefinitionResolver* out);

  const Catalog& catalog() const { return catalog_; }
  // Adds or replaces (same root GVK) one definition, as the definitions of a cluster are merged
  // in after the sources.
  void Add(Definition definition, std::string origin) {
    catalog_.Add(std::move(definition), std::move(origin));
  }
  // The entry whose root GVK is the object's apiVersion and kind, or nullptr.
  const CatalogEntry* Find(const Value& object) const;
  const CatalogEntry* Find(std::string_view api_version, std::string_view kind) const;
  // "no definition for example.com/v1 Foo: ...", kNoDefinition, located at the object.
  static Error NoDefinition(const SourceObject& object);

 private:
  Catalog catalog_;
};

// One workload with the objects attributed to it.
struct WorkloadGroup {
  SourceObject workload;
  const CatalogEntry* entry = nullptr;
  std::vector<Value> children;  // input order
  std::vector<Value> pods;      // input order
};

// Pods that list owners but none with `controller: true` (meta::IsUncontrolledPod), counted as
// they are read.
class UncontrolledPods {
 public:
  void Add(const SourceObject& pod);
  size_t count() const { return count_; }
  // One warning line for all of them, or "" when there were none.
  std::string Warning() const;

 private:
  size_t count_ = 0;
  std::string first_;  // "file:line:col pod/name" of the first one
};

struct Inventory {
  std::vector<WorkloadGroup> workloads;  // input order
  std::vector<SourceObject> orphans;     // owned objects whose chain reaches no workload
  std::vector<SourceObject> undefined;   // unowned, non-Pod-child objects with no definition
  UncontrolledPods uncontrolled;
};

Inventory GroupWorkloads(std::vector<SourceObject> objects, const DefinitionResolver& resolver);

// Follows controller-owner uids (see GroupWorkloads) for callers that stream: record every
// object's uid and controller owner uid, then ask for the workload uid an object belongs to.
class OwnerIndex {
 public:
  void Add(std::string_view uid, std::string_view owner_uid);
  // The first uid on the chain from `owner_uid` (inclusive) for which is_root(uid) holds, or ""
  // when none does within meta::kMaxControllerDepth hops (owner_uid is the first hop).
  template <typename IsRoot>
  std::string_view RootOf(std::string_view owner_uid, const IsRoot& is_root) const {
    std::string_view uid = owner_uid;
    for (int hop = 0; hop < meta::kMaxControllerDepth && !uid.empty(); ++hop) {
      if (is_root(uid)) return uid;
      auto it = owners_.find(std::string(uid));
      if (it == owners_.end()) return {};
      uid = it->second;
    }
    return {};
  }
  bool Contains(std::string_view uid) const { return owners_.count(std::string(uid)) > 0; }

 private:
  std::unordered_map<std::string, std::string> owners_;
};

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_INVENTORY_H_
