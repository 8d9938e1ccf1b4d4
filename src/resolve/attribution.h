// Attribution of live pods to a workload: the controller ownership walk and the pod's
// component, instance and replica (reference section 2.5).
#ifndef WMAP_RESOLVE_ATTRIBUTION_H_
#define WMAP_RESOLVE_ATTRIBUTION_H_

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "wmap/definition.h"
#include "wmap/meta.h"
#include "wmap/value.h"
#include "wmap/workload.h"

namespace wmap::resolve {

// Which objects are owned by one workload. Indexes the given child objects and pods by UID; the
// spans must outlive it. Not thread-safe (it caches walk results); build one per tree.
class OwnershipIndex {
 public:
  OwnershipIndex(const Definition& definition, const Value& workload,
                 std::span<const Value> children, std::span<const Value> pods);

  // nullopt when `object`'s controller chain reaches the workload within
  // meta::kMaxControllerDepth hops through kinds that belong to the workload; otherwise why not.
  std::optional<std::string> Unreached(const Value& object);

 private:
  struct WalkResult {
    std::optional<std::string> reason;  // nullopt: the workload is reached
    int depth = 0;                      // hops from the object to the workload, when reached
    bool too_long = false;              // failed for lack of hops: depends on the start, so
                                        // never cached
  };
  // The walk from `object`, `hops` already taken.
  WalkResult Walk(const Value& object, int hops);
  static WalkResult TooLong();
  bool FollowsKind(std::string_view api_version, std::string_view kind) const;

  const Definition& definition_;
  std::string workload_uid_;
  std::map<std::string, const Value*, std::less<>> by_uid_;
  // UID -> the finished walk from that object (never a too_long one).
  std::map<std::string, WalkResult, std::less<>> cache_;
};

struct PodPlace {
  size_t component;
  std::string instance_id;
  std::optional<std::string> replica_key;
};

// The component, instance and replica of an owned pod; a string says why there is none.
std::variant<PodPlace, std::string> PlacePod(const Definition& definition,
                                             const PodQuerier& querier, const Value& pod);

// metadata.<field> as a string ("" when absent).
std::string MetadataString(const Value& object, std::string_view field);

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_ATTRIBUTION_H_
