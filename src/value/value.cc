// Value: construction, reference counting, accessors and copy-on-write mutators.
#include "wmap/value.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>

#include "value/value_nodes.h"

namespace wmap {

using internal::ArrayNode;
using internal::ObjectNode;
using internal::StringNode;

std::string_view TypeName(Type t) {
  switch (t) {
    case Type::kNull:
      return "null";
    case Type::kBoolean:
      return "boolean";
    case Type::kNumber:
      return "number";
    case Type::kString:
      return "string";
    case Type::kArray:
      return "array";
    case Type::kObject:
      return "object";
  }
  return "null";
}

namespace internal {

uint64_t MakeHashSeed() {
  static int anchor;
  auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&anchor));
  auto now = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return (address * 0xD6E8FEB86659FD93ULL) ^ now;
}

StringNode* StringNode::Make(std::string_view s) {
  void* mem = AllocateBlock(sizeof(StringNode) + s.size() + 1);
  auto* node = new (mem) StringNode();
  node->size = s.size();
  std::memcpy(node->data(), s.data(), s.size());
  node->data()[s.size()] = '\0';
  return node;
}

void StringNode::Free(StringNode* node) noexcept {
  size_t size = sizeof(StringNode) + node->size + 1;
  node->~StringNode();
  ReleaseBlock(node, size);
}

ptrdiff_t ObjectNode::Find(std::string_view key) const {
  if (index.empty()) {
    for (size_t i = 0; i < members.size(); ++i) {
      if (members[i].key.as_string() == key) return static_cast<ptrdiff_t>(i);
    }
    return -1;
  }
  const size_t mask = index.size() - 1;
  for (size_t slot = HashKey(key) & mask;; slot = (slot + 1) & mask) {
    uint32_t entry = index[slot];
    if (entry == 0) return -1;
    if (members[entry - 1].key.as_string() == key) return entry - 1;
  }
}

void ObjectNode::InsertIntoIndex(size_t position) {
  const size_t mask = index.size() - 1;
  size_t slot = HashKey(members[position].key.as_string()) & mask;
  while (index[slot] != 0) slot = (slot + 1) & mask;
  index[slot] = static_cast<uint32_t>(position + 1);
}

void ObjectNode::RebuildIndex() {
  if (members.size() <= kIndexThreshold) {
    index.clear();
    index.shrink_to_fit();
    return;
  }
  size_t capacity = 64;
  while (capacity < members.size() * 2) capacity *= 2;
  index.assign(capacity, 0);
  for (size_t i = 0; i < members.size(); ++i) InsertIntoIndex(i);
}

void ObjectNode::AppendNew(Value key, Value value) {
  members.push_back(Member{std::move(key), std::move(value)});
  if (index.empty()) {
    if (members.size() > kIndexThreshold) RebuildIndex();
  } else if (members.size() * 2 > index.size()) {
    RebuildIndex();
  } else {
    InsertIntoIndex(members.size() - 1);
  }
}

NodeHeader* ValueBuilder::MakeStringNode(std::string_view s) { return StringNode::Make(s); }

Value ValueBuilder::ArrayFrom(std::vector<Value>&& items) {
  Value v;
  auto* node = new ArrayNode();
  node->items = std::move(items);
  v.store(Value::Tag::kArray, static_cast<NodeHeader*>(node));
  return v;
}

Value ValueBuilder::ObjectFromUniqueMembers(MemberVector&& members) {
  Value v;
  auto* node = new ObjectNode();
  node->members = std::move(members);
  node->RebuildIndex();
  v.store(Value::Tag::kObject, static_cast<NodeHeader*>(node));
  return v;
}

Value ValueBuilder::ObjectFromMembers(MemberVector&& members) {
  Value v;
  auto* node = new ObjectNode();
  v.store(Value::Tag::kObject, static_cast<NodeHeader*>(node));
  node->members = std::move(members);
  MemberVector& ms = node->members;
  // Fast path: verify that keys are unique (building the index on the way for large objects).
  bool unique = true;
  if (ms.size() <= ObjectNode::kIndexThreshold) {
    // A 64-bit filter over a cheap fingerprint of each key's first word: only a key whose
    // fingerprint was seen before is compared with the earlier keys.
    uint64_t seen = 0;
    for (size_t i = 0; i < ms.size() && unique; ++i) {
      uint64_t bit = uint64_t{1} << FirstWordFingerprint(ms[i].key);
      if ((seen & bit) != 0) {
        for (size_t j = 0; j < i; ++j) {
          if (KeyEquals(ms[i].key, ms[j].key)) {
            unique = false;
            break;
          }
        }
      }
      seen |= bit;
    }
  } else {
    size_t capacity = 64;
    while (capacity < ms.size() * 2) capacity *= 2;
    node->index.assign(capacity, 0);
    const size_t mask = capacity - 1;
    for (size_t i = 0; i < ms.size() && unique; ++i) {
      std::string_view key = ms[i].key.as_string();
      size_t slot = HashKey(key) & mask;
      for (; node->index[slot] != 0; slot = (slot + 1) & mask) {
        if (ms[node->index[slot] - 1].key.as_string() == key) {
          unique = false;
          break;
        }
      }
      node->index[slot] = static_cast<uint32_t>(i + 1);
    }
  }
  if (unique) return v;
  // Duplicates: a later value replaces the earlier one at the earlier position.
  MemberVector all = std::move(ms);
  ms.clear();
  node->index.clear();
  ms.reserve(all.size());
  for (Member& m : all) {
    ptrdiff_t at = node->Find(m.key.as_string());
    if (at >= 0) {
      ms[at].value = std::move(m.value);
    } else {
      node->AppendNew(std::move(m.key), std::move(m.value));
    }
  }
  return v;
}

}  // namespace internal

namespace {

// Destroying a deeply nested value must not recurse without bound. Containers are destroyed
// recursively up to kMaxDestroyDepth levels; deeper ones are queued and destroyed by the
// outermost destruction on this thread.
constexpr int kMaxDestroyDepth = 64;

struct PendingNode {
  bool is_object;
  void* node;
};

// Containers queued for destruction on this thread. Trivially destructible, so it stays usable
// while other thread-local objects are destroyed at thread exit; its buffer is released whenever
// the queue drains.
struct PendingQueue {
  PendingNode* data;
  size_t size;
  size_t capacity;
};

thread_local int destroy_depth = 0;
thread_local PendingQueue pending = {nullptr, 0, 0};

void PushPending(PendingNode n) noexcept {
  if (pending.size == pending.capacity) {
    size_t capacity = pending.capacity == 0 ? 256 : pending.capacity * 2;
    void* grown = std::realloc(pending.data, capacity * sizeof(PendingNode));
    if (grown == nullptr) std::abort();  // out of memory while freeing memory
    pending.data = static_cast<PendingNode*>(grown);
    pending.capacity = capacity;
  }
  pending.data[pending.size++] = n;
}

void DeleteNode(const PendingNode& n) noexcept {
  if (n.is_object) {
    delete static_cast<ObjectNode*>(n.node);
  } else {
    delete static_cast<ArrayNode*>(n.node);
  }
}

void DestroyContainer(bool is_object, void* node) noexcept {
  if (destroy_depth >= kMaxDestroyDepth) {
    PushPending({is_object, node});
    return;
  }
  ++destroy_depth;
  DeleteNode({is_object, node});
  if (destroy_depth == 1 && pending.size != 0) {
    while (pending.size != 0) {
      PendingNode n = pending.data[--pending.size];
      DeleteNode(n);
    }
    std::free(pending.data);
    pending = {nullptr, 0, 0};
  }
  --destroy_depth;
}

}  // namespace

namespace {

// Drops one reference to a node. A count of 1 means the caller holds the only reference, so no
// other thread can be touching the count: the node is freed without an atomic read-modify-write.
template <typename Node>
bool DropReference(Node* n) {
  if (n->refs.load(std::memory_order_acquire) == 1) return true;
  return n->refs.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

}  // namespace

void Value::release() noexcept {
  switch (tag()) {
    case Tag::kLongString: {
      StringNode* n = string_node();
      if (DropReference(n)) StringNode::Free(n);
      break;
    }
    case Tag::kArray: {
      ArrayNode* n = array_node();
      if (DropReference(n)) DestroyContainer(false, n);
      break;
    }
    case Tag::kObject: {
      ObjectNode* n = object_node();
      if (DropReference(n)) DestroyContainer(true, n);
      break;
    }
    case Tag::kBigInt: {
      internal::BigIntNode* n = big_node();
      if (DropReference(n)) delete n;
      break;
    }
    case Tag::kNumberLiteral: {
      internal::NumberLiteralNode* n = literal_node();
      if (DropReference(n)) delete n;
      break;
    }
    default:
      break;
  }
}

Value& Value::operator=(const Value& o) noexcept {
  if (this != &o) {
    if (o.is_heap()) o.retain();
    if (is_heap()) release();
    std::memcpy(raw_, o.raw_, sizeof(raw_));
  }
  return *this;
}

Value Value::Bool(bool b) {
  Value v;
  v.raw_[0] = static_cast<uint8_t>(b ? Tag::kTrue : Tag::kFalse);
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.store(Tag::kInt, i);
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.store(Tag::kDouble, d);
  return v;
}

Value Value::Number(double d) {
  // [-2^63, 2^63) is exactly representable at both ends; -0 stays a double to keep its sign.
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && std::trunc(d) == d &&
      !(d == 0 && std::signbit(d))) {
    return Int(static_cast<int64_t>(d));
  }
  return Double(d);
}

Value Value::LongString(std::string_view s) {
  Value v;
  v.store(Tag::kLongString, static_cast<internal::NodeHeader*>(StringNode::Make(s)));
  return v;
}

Value Value::String(std::string&& s) { return String(std::string_view(s)); }

Value Value::Array(std::vector<Value> items) {
  return internal::ValueBuilder::ArrayFrom(std::move(items));
}

Value Value::Array(std::initializer_list<Value> items) {
  return internal::ValueBuilder::ArrayFrom(std::vector<Value>(items));
}

Value Value::EmptyArray(size_t reserve) {
  std::vector<Value> items;
  items.reserve(reserve);
  return internal::ValueBuilder::ArrayFrom(std::move(items));
}

Value Value::EmptyObject(size_t reserve) {
  internal::MemberVector members;
  members.reserve(reserve);
  return internal::ValueBuilder::ObjectFromUniqueMembers(std::move(members));
}

Value Value::Object(std::initializer_list<std::pair<std::string_view, Value>> members) {
  Value v = EmptyObject(members.size());
  for (const auto& [k, val] : members) v.set(k, val);
  return v;
}

double Value::as_double() const {
  assert(is_number());
  switch (tag()) {
    case Tag::kInt:
      return static_cast<double>(load<int64_t>());
    case Tag::kDouble:
      return load<double>();
    case Tag::kBigInt:
      return big_node()->approx;
    case Tag::kNumberLiteral:
      return literal_node()->number.as_double();
    default:
      return 0;
  }
}

const BigInt& Value::as_big() const {
  assert(is_big_integer());
  return big_node()->value;
}

const Value& Value::plain_number() const {
  return tag() == Tag::kNumberLiteral ? literal_node()->number : *this;
}

std::string_view Value::literal_text() const {
  assert(is_number_literal());
  return literal_node()->text;
}

Value Value::Big(const BigInt& b) {
  if (b.FitsInt64()) return Int(b.ToInt64());
  auto node = std::make_unique<internal::BigIntNode>();
  node->value = b;
  node->approx = b.ToDouble();
  Value v;
  v.store(Tag::kBigInt, static_cast<internal::NodeHeader*>(node.release()));
  return v;
}

Value Value::NumberLiteral(const Value& number, std::string_view text) {
  auto node = std::make_unique<internal::NumberLiteralNode>();
  node->number = number.plain_number();
  node->text = std::string(text);
  Value v;
  v.store(Tag::kNumberLiteral, static_cast<internal::NodeHeader*>(node.release()));
  return v;
}

std::string_view Value::long_string() const {
  assert(is_string());
  if (tag() == Tag::kLongString) return string_node()->view();
  return {};
}

size_t Value::size() const {
  if (tag() == Tag::kArray) return array_node()->items.size();
  if (tag() == Tag::kObject) return object_node()->members.size();
  return 0;
}

std::span<const Value> Value::items() const {
  if (tag() != Tag::kArray) return {};
  return array_node()->items;
}

void Value::make_unique_array() {
  if (tag() != Tag::kArray) {
    *this = EmptyArray();
    return;
  }
  ArrayNode* n = array_node();
  if (n->refs.load(std::memory_order_acquire) == 1) return;
  *this = internal::ValueBuilder::ArrayFrom(std::vector<Value>(n->items));
}

void Value::make_unique_object() {
  if (tag() != Tag::kObject) {
    *this = EmptyObject();
    return;
  }
  ObjectNode* n = object_node();
  if (n->refs.load(std::memory_order_acquire) == 1) return;
  Value copy;
  auto* node = new ObjectNode();
  node->members = n->members;
  node->index = n->index;
  copy.store(Tag::kObject, static_cast<internal::NodeHeader*>(node));
  *this = std::move(copy);
}

void Value::push_back(Value v) {
  make_unique_array();
  array_node()->items.push_back(std::move(v));
}

std::vector<Value>& Value::mutable_items() {
  make_unique_array();
  return array_node()->items;
}

std::span<const Member> Value::members() const {
  if (tag() != Tag::kObject) return {};
  return object_node()->members;
}

std::vector<const Member*> Value::sorted_members() const {
  std::vector<const Member*> out;
  if (tag() != Tag::kObject) return out;
  const auto& ms = object_node()->members;
  out.reserve(ms.size());
  for (const Member& m : ms) out.push_back(&m);
  std::sort(out.begin(), out.end(), [](const Member* a, const Member* b) {
    return a->key.as_string() < b->key.as_string();
  });
  return out;
}

const Value* Value::find(std::string_view key) const {
  if (tag() != Tag::kObject) return nullptr;
  const ObjectNode* n = object_node();
  ptrdiff_t at = n->Find(key);
  return at < 0 ? nullptr : &n->members[at].value;
}

void Value::set(std::string_view key, Value v) {
  make_unique_object();
  ObjectNode* n = object_node();
  ptrdiff_t at = n->Find(key);
  if (at >= 0) {
    n->members[at].value = std::move(v);
  } else {
    n->AppendNew(String(key), std::move(v));
  }
}

void Value::set(Value key, Value v) {
  assert(key.is_string());
  make_unique_object();
  ObjectNode* n = object_node();
  ptrdiff_t at = n->Find(key.as_string());
  if (at >= 0) {
    n->members[at].value = std::move(v);
  } else {
    n->AppendNew(std::move(key), std::move(v));
  }
}

Value* Value::find_mutable(std::string_view key) {
  if (tag() != Tag::kObject) return nullptr;
  if (object_node()->Find(key) < 0) return nullptr;
  make_unique_object();
  ObjectNode* n = object_node();
  return &n->members[n->Find(key)].value;
}

bool Value::erase(std::string_view key) {
  if (tag() != Tag::kObject) return false;
  if (object_node()->Find(key) < 0) return false;
  make_unique_object();
  ObjectNode* n = object_node();
  n->members.erase(n->members.begin() + n->Find(key));
  n->RebuildIndex();
  return true;
}

bool Value::identical(const Value& o) const { return std::memcmp(raw_, o.raw_, sizeof(raw_)) == 0; }

uint32_t Value::use_count() const {
  return is_heap() ? node()->refs.load(std::memory_order_relaxed) : 1;
}

}  // namespace wmap
