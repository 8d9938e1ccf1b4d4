// Heap nodes behind Value: long strings, arrays, objects, big integers and number literals. Private
// to the value layer.
//
// Every node starts with an atomic reference count. A node is immutable while shared
// (count > 1); a Value that holds the only reference may mutate it in place.
#ifndef WMAP_SRC_VALUE_VALUE_NODES_H_
#define WMAP_SRC_VALUE_VALUE_NODES_H_

#include <atomic>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "value/block_cache.h"
#include "wmap/value.h"

namespace wmap::internal {

// A string of more than Value's inline capacity. The bytes follow the header in the same
// allocation and are followed by a NUL (not part of the string).
struct StringNode : NodeHeader {
  size_t size = 0;

  const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  char* data() { return reinterpret_cast<char*>(this + 1); }
  std::string_view view() const { return {data(), size}; }

  // Allocates a node holding a copy of s, with a reference count of 1.
  static StringNode* Make(std::string_view s);
  static void Free(StringNode* node) noexcept;
};

struct ArrayNode : NodeHeader {
  std::vector<Value> items;

  static void* operator new(size_t size) { return AllocateBlock(size); }
  static void operator delete(void* p, size_t size) noexcept { ReleaseBlock(p, size); }
};

using MemberVector = std::vector<Member, BlockAllocator<Member>>;

// An object: members in insertion order with unique keys. Objects with more than
// kIndexThreshold members also keep `index`, an open-addressing hash table of member
// positions (slot value = position + 1, 0 = empty; capacity a power of two, load <= 1/2).
// Invariant: index is empty or maps every member's key to its position.
struct ObjectNode : NodeHeader {
  static constexpr size_t kIndexThreshold = 16;

  MemberVector members;
  std::vector<uint32_t> index;

  static void* operator new(size_t size) { return AllocateBlock(size); }
  static void operator delete(void* p, size_t size) noexcept { ReleaseBlock(p, size); }

  // Position of key in members, or -1.
  ptrdiff_t Find(std::string_view key) const;
  // Appends a member whose key is known to be absent, keeping the index up to date.
  void AppendNew(Value key, Value value);
  // Builds or rebuilds the index if the member count calls for one.
  void RebuildIndex();
  // Adds members[position] to a non-empty index that has a free slot.
  void InsertIntoIndex(size_t position);
};

// An integer beyond int64 (never one that fits: Value::Big stores those inline).
struct BigIntNode : NodeHeader {
  BigInt value;
  double approx = 0;  // value.ToDouble(), computed once
};

// A number with its source text. Invariant: `number` is a plain number (not a literal).
struct NumberLiteralNode : NodeHeader {
  Value number;
  std::string text;
};

}  // namespace wmap::internal

namespace wmap {

inline internal::StringNode* Value::string_node() const {
  return static_cast<internal::StringNode*>(node());
}
inline internal::ArrayNode* Value::array_node() const {
  return static_cast<internal::ArrayNode*>(node());
}
inline internal::ObjectNode* Value::object_node() const {
  return static_cast<internal::ObjectNode*>(node());
}
inline internal::BigIntNode* Value::big_node() const {
  return static_cast<internal::BigIntNode*>(node());
}
inline internal::NumberLiteralNode* Value::literal_node() const {
  return static_cast<internal::NumberLiteralNode*>(node());
}

}  // namespace wmap

namespace wmap::internal {

// Hash of a key for ObjectNode's index.
// The hash is seeded per process (from address-space randomization and the time of first use),
// so that inputs cannot be prepared offline to collide in every run. The seed is fixed at first
// use, so it is the same for every index built in the process, including during static
// initialization.
uint64_t MakeHashSeed();
inline uint64_t HashSeed() {
  static const uint64_t seed = MakeHashSeed();
  return seed;
}

inline uint64_t HashKey(std::string_view key) {
  // 64-bit multiplicative hash over 8-byte words; keys are short, so this is a few multiplies.
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  uint64_t h = (key.size() ^ HashSeed()) * kMul;
  const char* p = key.data();
  size_t n = key.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
  }
  h ^= h >> 32;
  h *= kMul;
  h ^= h >> 29;
  return h;
}

// Constructs Values straight from nodes; used by the readers to avoid redundant checks.
struct ValueBuilder {
  // An object Value from members whose keys are already unique.
  static Value ObjectFromUniqueMembers(MemberVector&& members);
  static Value ObjectFromUniqueMembers(std::vector<Member>&& members) {
    return ObjectFromUniqueMembers(MemberVector(std::make_move_iterator(members.begin()),
                                                std::make_move_iterator(members.end())));
  }
  // An object Value from members that may repeat keys: a later value replaces an earlier one
  // at the earlier position.
  static Value ObjectFromMembers(MemberVector&& members);
  static Value ObjectFromMembers(std::vector<Member>&& members) {
    return ObjectFromMembers(MemberVector(std::make_move_iterator(members.begin()),
                                          std::make_move_iterator(members.end())));
  }
  static Value ArrayFrom(std::vector<Value>&& items);
  // Equality of two string Values (inline strings compare as 16 raw bytes).
  static bool KeyEquals(const Value& a, const Value& b) {
    uint64_t a0, b0;
    std::memcpy(&a0, a.raw_, 8);
    std::memcpy(&b0, b.raw_, 8);
    if (a0 != b0) return false;  // tag, length and the first six bytes of inline strings
    if (a.tag() == Value::Tag::kShortString) {
      return std::memcmp(a.raw_ + 8, b.raw_ + 8, 8) == 0;
    }
    return a.as_string() == b.as_string();
  }
  // Strings longer than this live in a node.
  static constexpr size_t kInlineCapacity = Value::kInlineCapacity;
  // The two words of v's representation. Equal words imply equal values (the same inline
  // scalar or the same node); equal values in different nodes have different words.
  static void Words(const Value& v, uint64_t* w0, uint64_t* w1) {
    std::memcpy(w0, v.raw_, 8);
    std::memcpy(w1, v.raw_ + 8, 8);
  }
  static bool SameRepresentation(const Value& a, const Value& b) {
    return std::memcmp(a.raw_, b.raw_, sizeof(a.raw_)) == 0;
  }
  // The elements of an array / members of an object without an out-of-line call; the value
  // must have that type.
  static std::span<const Value> ItemsOf(const Value& v) { return v.array_node()->items; }
  static std::span<const Member> MembersOf(const Value& v) { return v.object_node()->members; }

  // A number in [0, 64) that is equal for equal string Values.
  static unsigned FirstWordFingerprint(const Value& key) {
    uint64_t w0, w1;
    std::memcpy(&w0, key.raw_, 8);
    std::memcpy(&w1, key.raw_ + 8, 8);
    // A long string's second word is its node pointer, which differs between equal strings:
    // use the length instead (its first word is just the tag).
    if (key.tag() != Value::Tag::kShortString) w1 = key.as_string().size();
    return static_cast<unsigned>(((w0 ^ (w1 * 0x9E3779B97F4A7C15ULL)) * 0xD6E8FEB86659FD93ULL) >>
                                 58);
  }

  // The Assign* functions overwrite *dst in place; dst must not hold a heap node (it is null
  // in the reader). Writing the final location directly avoids a temporary whose 16-byte copy
  // would stall on the store just made.

  // Sets *dst to the string of n bytes at p, where at least 16 bytes starting at p are readable.
  static void AssignStringReadable16(Value* dst, const char* p, size_t n) {
    if (n > Value::kInlineCapacity) {
      NodeHeader* node = MakeStringNode(std::string_view(p, n));
      uint64_t bits;
      std::memcpy(&bits, &node, 8);
      StoreWords(dst, static_cast<uint64_t>(Value::Tag::kLongString), bits);
      return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // raw_[0] = tag, raw_[1] = n, raw_[2..16) = p[0..14) with the bytes past n cleared.
    uint64_t w0, w1;
    std::memcpy(&w0, p, 8);
    std::memcpy(&w1, p + 6, 8);
    w0 = (w0 << 16) | (static_cast<uint64_t>(n) << 8) |
         static_cast<uint64_t>(Value::Tag::kShortString);
    size_t used = n + Value::kShortOffset;  // bytes of raw_ in use
    if (used < 8) {
      w0 &= (uint64_t{1} << (used * 8)) - 1;
      w1 = 0;
    } else if (used < 16) {
      w1 &= (uint64_t{1} << ((used - 8) * 8)) - 1;
    }
    StoreWords(dst, w0, w1);
#else
    *dst = Value::String(std::string_view(p, n));
#endif
  }
  static void AssignInt(Value* dst, int64_t i) {
    StoreWords(dst, static_cast<uint64_t>(Value::Tag::kInt), static_cast<uint64_t>(i));
  }
  static void AssignDouble(Value* dst, double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    StoreWords(dst, static_cast<uint64_t>(Value::Tag::kDouble), bits);
  }

 private:
  static NodeHeader* MakeStringNode(std::string_view s);
  static void StoreWords(Value* dst, uint64_t w0, uint64_t w1) {
    std::memcpy(dst->raw_, &w0, 8);
    std::memcpy(dst->raw_ + 8, &w1, 8);
  }
};

}  // namespace wmap::internal

#endif  // WMAP_SRC_VALUE_VALUE_NODES_H_
