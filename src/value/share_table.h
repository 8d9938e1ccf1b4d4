// Sharing of repeated values while one large document is read (hash-consing). Private to the
// value layer.
//
// Documents such as a list of workloads repeat the same small subtrees many times (container
// ports, volume mounts, tolerations, resource blocks, image names). The reader offers every
// array, object and long string it completes to a ShareTable; when an equal value was completed
// recently, the reader takes that value instead of building a copy, so the document holds one
// node for all of them. Values are immutable while shared and a writer copies a shared node
// first, so only identity (Value::identical) tells shared values apart.
//
// The table is two-way set-associative and lossy: each hash selects a bucket of two slots; a
// new entry, or one found in the second slot, moves to the first slot (a new entry drops the
// bucket's least recently used one). Equality is decided on representations only (two
// containers match when their elements are the same inline scalars or the same nodes), so a
// lookup costs one hash over the elements' words and at most two comparisons, and children
// shared before their parent make the parent shareable in turn. Which repeats are found
// depends on the hashes; the values read do not. Entries hold references, so an entry stays
// valid when the document drops its value (an earlier value of a repeated key). The table
// grows with the document, from kMinSlots to kMaxSlots entries (16 bytes each), keeping its
// entries.
#ifndef WMAP_SRC_VALUE_SHARE_TABLE_H_
#define WMAP_SRC_VALUE_SHARE_TABLE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
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
  const Value* FindArray(uint64_t hash, size_t n, Get get) {
    return FindInBucket(hash, [&](const Value& entry) {
      if (!entry.is_array()) return false;
      auto have = ValueBuilder::ItemsOf(entry);
      if (have.size() != n) return false;
      for (size_t i = 0; i < n; ++i) {
        if (!ValueBuilder::SameRepresentation(have[i], get(i))) return false;
      }
      return true;
    });
  }

  // An earlier object whose members are the sequence's n/2 key-value pairs, or null. An object
  // read with a repeated key never matches (its member count is smaller), so it is built as
  // usual.
  template <typename Get>
  const Value* FindObject(uint64_t hash, size_t n, Get get) {
    return FindInBucket(hash, [&](const Value& entry) {
      if (!entry.is_object()) return false;
      auto have = ValueBuilder::MembersOf(entry);
      if (have.size() * 2 != n) return false;
      for (size_t i = 0; i < have.size(); ++i) {
        if (!ValueBuilder::SameRepresentation(have[i].key, get(2 * i)) ||
            !ValueBuilder::SameRepresentation(have[i].value, get(2 * i + 1))) {
          return false;
        }
      }
      return true;
    });
  }

  // An earlier long string with these bytes, or null.
  const Value* FindString(uint64_t hash, std::string_view s) {
    return FindInBucket(
        hash, [&](const Value& entry) { return entry.is_string() && entry.as_string() == s; });
  }

  // Makes v the newest entry of hash's bucket (dropping its oldest), growing the table when the
  // document has made many more entries than it has slots.
  void Insert(uint64_t hash, const Value& v) {
    if (++inserted_ > slots_.size() * 2 && slots_.size() < kMaxSlots) Grow();
    size_t first = Bucket(hash);
    slots_[first + 1] = std::move(slots_[first]);
    slots_[first] = v;
  }

 private:
  // Four times the slots; entries keep their order of age within their new buckets.
  void Grow() {
    std::vector<Value> old(std::min(slots_.size() * 4, kMaxSlots));
    old.swap(slots_);
    inserted_ = 0;
    for (size_t b = 0; b < old.size(); b += 2) {
      for (size_t k : {b + 1, b}) {  // the older entry first
        if (old[k].is_null()) continue;
        size_t first = Bucket(HashOf(old[k]));
        slots_[first + 1] = std::move(slots_[first]);
        slots_[first] = std::move(old[k]);
      }
    }
  }

  // The first slot of hash's bucket.
  size_t Bucket(uint64_t hash) const { return (hash & (slots_.size() / 2 - 1)) * 2; }
  // The entry of hash's bucket that matches, made the bucket's newest, or null.
  template <typename Matches>
  const Value* FindInBucket(uint64_t hash, Matches matches) {
    size_t first = Bucket(hash);
    if (matches(slots_[first])) return &slots_[first];
    if (!matches(slots_[first + 1])) return nullptr;
    std::swap(slots_[first], slots_[first + 1]);
    return &slots_[first];
  }

  // The hash an entry was inserted with (it depends only on the entry's contents).
  static uint64_t HashOf(const Value& entry) {
    if (entry.is_string()) return HashKey(entry.as_string());
    if (entry.is_array()) {
      auto items = ValueBuilder::ItemsOf(entry);
      return Hash(false, items.size(), Sequence(items.data()));
    }
    auto members = ValueBuilder::MembersOf(entry);
    return Hash(true, 2 * members.size(), MemberSequence(members.data()));
  }

  std::vector<Value> slots_;  // buckets of two; size a power of two
  Value empty_array_;
  Value empty_object_;
  size_t inserted_ = 0;
};

}  // namespace wmap::internal

#endif  // WMAP_SRC_VALUE_SHARE_TABLE_H_
