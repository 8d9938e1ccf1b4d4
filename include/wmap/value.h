// The JSON value type shared by every layer of workload-map.
//
// A Value is 16 bytes: a tag plus either an inline payload (bool, int64, double, or a string of
// up to 14 bytes) or a pointer to an immutable, reference-counted heap node (long string, array,
// object). Copying a Value is cheap (a reference-count increment at most). Containers are copied
// only when written while shared ("copy on write"): every mutating member first makes the node
// unique. Reference counts are atomic, so Values may be shared between threads as long as each
// thread mutates only Values it holds exclusively (the usual value-semantics contract).
//
// Numbers keep an exact int64 when the source text (or arithmetic) produced an integer that fits,
// an exact big integer (a heap node, see big_int.h) for integers beyond int64, and a double
// otherwise. A number may also carry its source text (a "number literal", made by the JSON
// reader on request): it prints as that text while it passes through unchanged, and behaves as
// its plain number everywhere else. All have type Type::Number; is_integer() is true for int64
// only, is_big_integer() for big integers.
//
// Objects keep insertion order (so documents round-trip with their field order); jq semantics
// (sorted iteration and output) are provided by sorted_members(). Keys are unique.
#ifndef WMAP_VALUE_H_
#define WMAP_VALUE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wmap/export.h"

#include "wmap/big_int.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// The jq types, declared in jq's sort order (null < false < true < numbers < strings < arrays <
// objects). Booleans share one type; compare() orders false before true.
enum class Type : uint8_t { kNull, kBoolean, kNumber, kString, kArray, kObject };

// The jq name of a type: "null", "boolean", "number", "string", "array", "object".
std::string_view TypeName(Type t);

class Value;
struct Member;

namespace internal {
// The reference count at the start of every heap node. A node is immutable while the count is
// above 1.
struct NodeHeader {
  std::atomic<uint32_t> refs{1};
};
struct StringNode;
struct ArrayNode;
struct ObjectNode;
struct BigIntNode;
struct NumberLiteralNode;
struct ValueBuilder;
}  // namespace internal

class Value {
 public:
  // Constructors: null by default.
  Value() noexcept : raw_{} {}
  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  // A double; integral doubles are *not* converted to Int (use Number for that).
  static Value Double(double d);
  // A number from a double, stored as an exact int64 when d is integral and fits.
  static Value Number(double d);
  // An exact integer: an int64 when b fits, a big integer otherwise.
  static Value Big(const BigInt& b);
  // `number` (a plain number: int64, big integer or double) printed as `text` while unchanged.
  // The caller guarantees that text is a JSON number denoting `number`.
  static Value NumberLiteral(const Value& number, std::string_view text);
  static Value String(std::string_view s) {
    if (s.size() > kInlineCapacity) return LongString(s);
    Value v;
    v.raw_[0] = static_cast<uint8_t>(Tag::kShortString);
    v.raw_[1] = static_cast<uint8_t>(s.size());
    if (!s.empty()) std::memcpy(v.raw_ + kShortOffset, s.data(), s.size());
    return v;
  }
  static Value String(std::string&& s);
  static Value String(const char* s) { return String(std::string_view(s)); }
  static Value Array(std::vector<Value> items = {});
  static Value Array(std::initializer_list<Value> items);
  // An empty array/object with room reserved.
  static Value EmptyArray(size_t reserve = 0);
  static Value EmptyObject(size_t reserve = 0);
  // Builds an object from pairs; a later duplicate key replaces the earlier value.
  static Value Object(std::initializer_list<std::pair<std::string_view, Value>> members);

  Value(const Value& o) noexcept {
    std::memcpy(raw_, o.raw_, sizeof(raw_));
    if (is_heap()) retain();
  }
  Value(Value&& o) noexcept {
    std::memcpy(raw_, o.raw_, sizeof(raw_));
    std::memset(o.raw_, 0, sizeof(o.raw_));
  }
  Value& operator=(const Value& o) noexcept;
  Value& operator=(Value&& o) noexcept {
    // o's bits are taken before releasing: o may be owned by the node released here.
    unsigned char tmp[16];
    std::memcpy(tmp, o.raw_, sizeof(tmp));
    std::memset(o.raw_, 0, sizeof(o.raw_));
    if (is_heap()) release();
    std::memcpy(raw_, tmp, sizeof(raw_));
    return *this;
  }
  ~Value() {
    if (is_heap()) release();
  }

  // Type queries.
  Type type() const { return kTypeOfTag[raw_[0]]; }
  bool is_null() const { return tag() == Tag::kNull; }
  bool is_bool() const { return tag() == Tag::kFalse || tag() == Tag::kTrue; }
  bool is_number() const { return type() == Type::kNumber; }
  bool is_integer() const { return tag() == Tag::kInt; }         // exact int64 representation
  bool is_big_integer() const { return tag() == Tag::kBigInt; }  // an integer beyond int64
  bool is_number_literal() const { return tag() == Tag::kNumberLiteral; }
  bool is_string() const { return tag() == Tag::kShortString || tag() == Tag::kLongString; }
  bool is_array() const { return tag() == Tag::kArray; }
  bool is_object() const { return tag() == Tag::kObject; }
  // jq truthiness: everything but null and false.
  bool truthy() const { return tag() != Tag::kNull && tag() != Tag::kFalse; }

  // Accessors. Calling one on the wrong type is a programming error (asserted in debug builds).
  bool as_bool() const { return tag() == Tag::kTrue; }
  int64_t as_int() const { return load<int64_t>(); }  // only when is_integer()
  double as_double() const;                           // any number (big integers rounded)
  const BigInt& as_big() const;                       // only when is_big_integer()
  // The number without its source text: *this unless is_number_literal().
  const Value& plain_number() const;
  std::string_view literal_text() const;  // only when is_number_literal()
  std::string_view as_string() const {
    if (tag() == Tag::kShortString) {
      return {reinterpret_cast<const char*>(raw_ + kShortOffset), raw_[1]};
    }
    return long_string();
  }

  // Arrays.
  size_t size() const;                   // array length or object member count; 0 otherwise
  std::span<const Value> items() const;  // empty unless an array
  const Value& operator[](size_t i) const { return items()[i]; }
  // Mutators copy on write. On a value that is not an array, they first make it an empty array.
  void push_back(Value v);
  std::vector<Value>& mutable_items();

  // Objects (insertion order).
  std::span<const Member> members() const;  // empty unless an object
  // Members ordered by key bytes (gojq iteration and output order).
  std::vector<const Member*> sorted_members() const;
  // Lookup is a linear scan for small objects and a hash index for large ones (O(1) expected).
  const Value* find(std::string_view key) const;  // nullptr when absent (or not an object)
  // Mutators copy on write. set() on a value that is not an object first makes it an empty
  // object; find_mutable() and erase() on a non-object return nullptr / false.
  void set(std::string_view key, Value v);  // insert (at the end) or replace in place
  void set(Value key, Value v);             // key must be a string
  Value* find_mutable(std::string_view key);
  bool erase(std::string_view key);  // keeps the order of the other members; false when absent

  // True when both refer to the same heap node (or are the same inline value bits).
  bool identical(const Value& o) const;
  // Number of Values sharing this node (1 for inline values); for tests and COW decisions.
  uint32_t use_count() const;

 private:
  enum class Tag : uint8_t {
    kNull,
    kFalse,
    kTrue,
    kInt,
    kDouble,
    kShortString,
    kLongString,  // heap tags start here: raw_[8..16) holds a node pointer
    kArray,
    kObject,
    kBigInt,
    kNumberLiteral,
  };
  // Layout of raw_: byte 0 is the Tag. Inline strings keep their length in byte 1 and their
  // bytes in [2, 16). Every other payload (int64, double, node pointer) lives in [8, 16).
  // Payloads are read and written with memcpy, so the overlay is well defined.
  static constexpr size_t kInlineCapacity = 14;
  static constexpr Type kTypeOfTag[] = {
      Type::kNull,   Type::kBoolean, Type::kBoolean, Type::kNumber, Type::kNumber, Type::kString,
      Type::kString, Type::kArray,   Type::kObject,  Type::kNumber, Type::kNumber};
  static constexpr size_t kPayloadOffset = 8;
  static constexpr size_t kShortOffset = 2;

  Tag tag() const { return static_cast<Tag>(raw_[0]); }
  bool is_heap() const { return raw_[0] >= static_cast<uint8_t>(Tag::kLongString); }
  template <typename T>
  T load() const {
    // T may be a pointer: the payload holds pointers on purpose.
    static_assert(sizeof(T) == 8);  // NOLINT(bugprone-sizeof-expression)
    T v;
    std::memcpy(&v, raw_ + kPayloadOffset, sizeof(T));  // NOLINT(bugprone-sizeof-expression)
    return v;
  }
  template <typename T>
  void store(Tag t, T v) {
    static_assert(sizeof(T) == 8);
    std::memset(raw_, 0, kPayloadOffset);
    raw_[0] = static_cast<uint8_t>(t);
    std::memcpy(raw_ + kPayloadOffset, &v, sizeof(T));
  }
  internal::NodeHeader* node() const { return load<internal::NodeHeader*>(); }
  // Typed node access (defined with the node types, in the value layer).
  internal::StringNode* string_node() const;
  internal::ArrayNode* array_node() const;
  internal::ObjectNode* object_node() const;
  internal::BigIntNode* big_node() const;
  internal::NumberLiteralNode* literal_node() const;

  static Value LongString(std::string_view s);
  std::string_view long_string() const;  // empty unless a long string
  // Drops this Value's reference; leaves raw_ stale (callers overwrite or destroy it).
  void release() noexcept;
  void retain() const noexcept { node()->refs.fetch_add(1, std::memory_order_relaxed); }
  void make_unique_array();
  void make_unique_object();

  alignas(8) unsigned char raw_[16];

  friend struct internal::StringNode;
  friend struct internal::ArrayNode;
  friend struct internal::ObjectNode;
  friend struct internal::ValueBuilder;
};

static_assert(sizeof(Value) == 16, "Value must stay 16 bytes");
static_assert(alignof(Value) == 8);

struct Member {
  Value key;  // always a string
  Value value;
};

// jq's total order: by type (see Type), then numbers by value (int64 and double compared
// exactly; a NaN sorts below every number, as in gojq, and is not equal to itself), strings by
// bytes, arrays lexicographically, objects by their sorted key lists, then by values in key
// order. Returns -1, 0 or 1.
int Compare(const Value& a, const Value& b);
inline bool operator==(const Value& a, const Value& b) { return Compare(a, b) == 0; }
inline bool operator!=(const Value& a, const Value& b) { return Compare(a, b) != 0; }
inline bool operator<(const Value& a, const Value& b) { return Compare(a, b) < 0; }

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_VALUE_H_
