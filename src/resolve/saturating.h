// int64 arithmetic that saturates at the type's limits instead of overflowing: pod counts and
// resource amounts read from a hostile or mistaken object must not wrap around.
#ifndef WMAP_RESOLVE_SATURATING_H_
#define WMAP_RESOLVE_SATURATING_H_

#include <cstdint>
#include <limits>

namespace wmap::resolve {

inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}

inline int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    return (a > 0) == (b > 0) ? std::numeric_limits<int64_t>::max()
                              : std::numeric_limits<int64_t>::min();
  }
  return r;
}

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_SATURATING_H_
