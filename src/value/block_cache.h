// A per-thread cache of small memory blocks for Value's heap nodes. Private to the value layer.
//
// Blocks of up to kMaxCachedSize bytes are rounded up to a multiple of 16 and recycled through
// per-thread free lists (at most kMaxBlocksPerClass per size class); larger blocks go straight
// to ::operator new/delete. A block may be freed on any thread: it then joins that thread's
// cache. Blocks freed after the thread's cache has been torn down are returned to the system.
#ifndef WMAP_SRC_VALUE_BLOCK_CACHE_H_
#define WMAP_SRC_VALUE_BLOCK_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <new>

namespace wmap::internal {

constexpr size_t kMaxCachedSize = 256;
constexpr size_t kSizeClasses = kMaxCachedSize / 16 + 1;
constexpr uint32_t kMaxBlocksPerClass = 1024;

struct FreeBlock {
  FreeBlock* next;
};

// Trivially constructible and destructible so that access needs no initialization guard.
struct BlockCacheState {
  FreeBlock* heads[kSizeClasses];
  uint32_t counts[kSizeClasses];
  uint8_t phase;  // 0: not yet used, 1: active (teardown registered), 2: torn down
};

inline thread_local BlockCacheState block_cache;

// Registers the thread's teardown; returns false if the cache was already torn down.
bool ActivateBlockCache();

inline void* AllocateBlock(size_t size) {
  if (size <= kMaxCachedSize) {
    size_t c = (size + 15) / 16;
    BlockCacheState& s = block_cache;
    FreeBlock* b = s.heads[c];
    if (b != nullptr) {
      s.heads[c] = b->next;
      --s.counts[c];
      return b;
    }
    return ::operator new(c * 16);
  }
  return ::operator new(size);
}

inline void ReleaseBlock(void* p, size_t size) noexcept {
  if (size <= kMaxCachedSize) {
    size_t c = (size + 15) / 16;
    BlockCacheState& s = block_cache;
    if (s.phase == 1 || (s.phase == 0 && ActivateBlockCache())) {
      if (s.counts[c] < kMaxBlocksPerClass) {
        auto* b = static_cast<FreeBlock*>(p);
        b->next = s.heads[c];
        s.heads[c] = b;
        ++s.counts[c];
        return;
      }
    }
  }
  ::operator delete(p);
}

// A standard allocator over the block cache, for node-owned containers.
template <typename T>
struct BlockAllocator {
  using value_type = T;
  BlockAllocator() noexcept = default;
  template <typename U>
  BlockAllocator(const BlockAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)
  T* allocate(size_t n) { return static_cast<T*>(AllocateBlock(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { ReleaseBlock(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const BlockAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace wmap::internal

#endif  // WMAP_SRC_VALUE_BLOCK_CACHE_H_
