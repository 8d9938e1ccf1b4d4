// The cpu (millicores), memory (bytes) and GPU figures of a ResourceList, for terse assertions.
#ifndef WMAP_TESTS_RESOLVE_RESOURCE_BRIEF_H_
#define WMAP_TESTS_RESOLVE_RESOURCE_BRIEF_H_

#include <cstdint>
#include <ostream>

#include "wmap/resources.h"

namespace wmap {

struct ResourceBrief {
  int64_t cpu_millicores = 0;
  int64_t memory_bytes = 0;
  int64_t gpus = 0;
  bool operator==(const ResourceBrief&) const = default;
};

inline ResourceBrief Brief(const ResourceList& list) {
  return {AmountOf(list, "cpu"), AmountOf(list, "memory"), GpuCount(list)};
}

inline std::ostream& operator<<(std::ostream& os, const ResourceBrief& b) {
  return os << "{cpu " << b.cpu_millicores << "m, memory " << b.memory_bytes << ", gpus " << b.gpus
            << "}";
}

}  // namespace wmap

#endif  // WMAP_TESTS_RESOLVE_RESOURCE_BRIEF_H_
