// Per-thread block cache teardown.
#include "value/block_cache.h"

namespace wmap::internal {

namespace {

struct BlockCacheTeardown {
  ~BlockCacheTeardown() {
    BlockCacheState& s = block_cache;
    s.phase = 2;
    for (size_t c = 0; c < kSizeClasses; ++c) {
      while (s.heads[c] != nullptr) {
        FreeBlock* b = s.heads[c];
        s.heads[c] = b->next;
        ::operator delete(b);
      }
      s.counts[c] = 0;
    }
  }
};

}  // namespace

bool ActivateBlockCache() {
  if (block_cache.phase == 2) return false;
  thread_local BlockCacheTeardown teardown;
  (void)teardown;
  block_cache.phase = 1;
  return true;
}

}  // namespace wmap::internal
