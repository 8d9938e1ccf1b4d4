// Sharing of repeated values while one large document is read (hash-consing). Private to the
// value layer.
//
// Documents such as a list of workloads repeat the same small subtrees many times (container
// ports, volume mounts, tolerations, resource blocks, image names). The reader offers every
// array, object and long string it completes to a ShareTable; when an equal value was completed
// recently, the reader takes that value instead of building a copy, so the document holds one
// node for all of them. Values are immutable while shared, so sharing is invisible to readers of
// the document; a writer copies the node first, as for any shared value.
//
// The table is direct-mapped and lossy: each hash selects one slot, a miss replaces the slot's
// entry, and equality is decided on representations only (two containers match when their
// elements are the same inline scalars or the same nodes), so a lookup costs one hash over the
// elements' words and at most one comparison, and children shared before their parent make
// the parent shareable in turn. Entries hold references, so an entry stays valid when the
// document drops its value (an earlier value of a repeated key). The table grows with the
// document, from kMinSlots to kMaxSlots entries (16 bytes each).
#ifndef WMAP_SRC_VALUE_SHARE_TABLE_H_
#define WMAP_SRC_VALUE_SHARE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "value/value_nodes.h"

namespace wmap::internal {

class ShareTable {
 public:
  static constexpr size_t kMinSlots = size_t{1} << 8;
  static constexpr size_t kMaxSlots = size_t{1} << 19;

  ShareTable()
      : slots_(kMinSlots),
        empty_array_(ValueBuilder::ArrayFrom(std::vector<Value>())),
        empty_object_(ValueBuilder::ObjectFromUniqueMembers(MemberVector())) {}

  // The one empty array and empty object of everything read with this table.
  const Value& empty_array() const { return empty_array_; }
  const Value& empty_object() const { return empty_object_; }

  // A reader offers a container as the sequence of Values it closes it with: the items of an
  // array, or the keys and values of an object in turn. `get(i)` is Value i of a sequence of n.
  static auto Sequence(const Value* values) {
    return [values](size_t i) -> const Value& { return values[i]; };
  }
  static auto MemberSequence(const Member* members) {
    return [members](size_t i) -> const Value& {
      return i % 2 == 0 ? members[i / 2].key : members[i / 2].value;
    };
  }

  // Hash of a sequence of n values, tagged with the container kind.
  template <typename Get>
  static uint64_t Hash(bool is_object, size_t n, Get get) {
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
    uint64_t h = (n * 2 + (is_object ? 1 : 0)) * kMul;
    for (size_t i = 0; i < n; ++i) {
      uint64_t w0, w1;
      ValueBuilder::Words(get(i), &w0, &w1);
      h = (h ^ w0) * kMul;
      h = (h ^ (w1 + (h >> 31))) * kMul;
    }
    return h ^ (h >> 29);
  }

  // An earlier array whose items are the sequence, or null.
  template <typename Get>
  const Value* FindArray(uint64_t hash, size_t n, Get get) const {
    const Value& entry = slots_[hash & (slots_.size() - 1)];
    if (!entry.is_array()) return nullptr;
    auto have = ValueBuilder::ItemsOf(entry);
    if (have.size() != n) return nullptr;
    for (size_t i = 0; i < n; ++i) {
      if (!ValueBuilder::SameRepresentation(have[i], get(i))) return nullptr;
    }
    return &entry;
  }

  // An earlier object whose members are the sequence's n/2 key-value pairs, or null. An object
  // read with a repeated key never matches (its member count is smaller), so it is built as
  // usual.
  template <typename Get>
  const Value* FindObject(uint64_t hash, size_t n, Get get) const {
    const Value& entry = slots_[hash & (slots_.size() - 1)];
    if (!entry.is_object()) return nullptr;
    auto have = ValueBuilder::MembersOf(entry);
    if (have.size() * 2 != n) return nullptr;
    for (size_t i = 0; i < have.size(); ++i) {
      if (!ValueBuilder::SameRepresentation(have[i].key, get(2 * i)) ||
          !ValueBuilder::SameRepresentation(have[i].value, get(2 * i + 1))) {
        return nullptr;
      }
    }
    return &entry;
  }

  // An earlier long string with these bytes, or null.
  const Value* FindString(uint64_t hash, std::string_view s) const {
    const Value& entry = slots_[hash & (slots_.size() - 1)];
    if (!entry.is_string() || entry.as_string() != s) return nullptr;
    return &entry;
  }

  // Makes v the entry for hash (replacing the slot's entry), growing the table when the
  // document has made many more entries than it has slots.
  void Insert(uint64_t hash, const Value& v) {
    if (++inserted_ > slots_.size() * 2 && slots_.size() < kMaxSlots) {
      // Entries are dropped rather than rehashed: their hashes are not stored, and the values
      // that repeat often come back soon.
      std::vector<Value>(slots_.size() * 4 > kMaxSlots ? kMaxSlots : slots_.size() * 4)
          .swap(slots_);
      inserted_ = 0;
    }
    slots_[hash & (slots_.size() - 1)] = v;
  }

 private:
  std::vector<Value> slots_;  // size a power of two
  Value empty_array_;
  Value empty_object_;
  size_t inserted_ = 0;
};

}  // namespace wmap::internal

#endif  // WMAP_SRC_VALUE_SHARE_TABLE_H_
