// jq's total order over Values (gojq's compare, with exact comparison between int64, big integer
// and double; a number literal compares as its number).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "wmap/value.h"

namespace wmap {
namespace {

int Sign(int64_t a, int64_t b) { return a < b ? -1 : (a == b ? 0 : 1); }

// gojq: a NaN on the left sorts first; a NaN on the right sorts last.
int CompareDoubles(double a, double b) {
  if (a < b || std::isnan(a)) return -1;
  if (a == b) return 0;
  return 1;
}

// Exact comparison of an int64 with a double (no rounding of the integer).
int CompareIntDouble(int64_t i, double d) {
  if (std::isnan(d)) return 1;
  if (d >= 9223372036854775808.0) return -1;
  if (d < -9223372036854775808.0) return 1;
  double t = std::trunc(d);
  auto ti = static_cast<int64_t>(t);
  if (i != ti) return i < ti ? -1 : 1;
  if (d > t) return -1;
  if (d < t) return 1;
  return 0;
}

// A big integer against an int64 or a double, exactly. Big integers lie outside int64.
int CompareBigOther(const BigInt& big, const Value& o) {
  if (o.is_integer()) return big.sign();
  double d = o.as_double();
  if (std::isnan(d)) return 1;
  if (std::isinf(d)) return d > 0 ? -1 : 1;
  if (std::fabs(d) < 9223372036854775808.0) return big.sign();
  // |d| >= 2^63 is integral, so it converts exactly.
  std::optional<BigInt> exact = BigInt::FromDouble(d);
  return BigInt::Compare(big, *exact);
}

int CompareNumbers(const Value& x, const Value& y) {
  const Value& a = x.plain_number();
  const Value& b = y.plain_number();
  if (a.is_big_integer()) {
    if (b.is_big_integer()) return BigInt::Compare(a.as_big(), b.as_big());
    return CompareBigOther(a.as_big(), b);
  }
  if (b.is_big_integer()) {
    if (!a.is_integer() && std::isnan(a.as_double())) return -1;
    return -CompareBigOther(b.as_big(), a);
  }
  if (a.is_integer()) {
    if (b.is_integer()) return Sign(a.as_int(), b.as_int());
    return CompareIntDouble(a.as_int(), b.as_double());
  }
  if (b.is_integer()) {
    if (std::isnan(a.as_double())) return -1;
    return -CompareIntDouble(b.as_int(), a.as_double());
  }
  return CompareDoubles(a.as_double(), b.as_double());
}

int CompareStrings(std::string_view a, std::string_view b) {
  int c = a.compare(b);
  return c < 0 ? -1 : (c == 0 ? 0 : 1);
}

int TypeRank(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return 0;
    case Type::kBoolean:
      return v.as_bool() ? 2 : 1;
    case Type::kNumber:
      return 3;
    case Type::kString:
      return 4;
    case Type::kArray:
      return 5;
    case Type::kObject:
      return 6;
  }
  return 0;
}

// Containers nested deeper than this are compared by CompareDeep, which keeps its own stack:
// comparison never recurses more than kMaxRecursion native frames, whatever the depth of the data.
constexpr int kMaxRecursion = 128;

int CompareDeep(const Value& a, const Value& b);

// The order of two values of the same type rank when neither is a container that still needs
// its children compared: sets *descend and returns 0 when the children decide.
int CompareShallow(const Value& a, const Value& b, bool* descend) {
  *descend = false;
  int ra = TypeRank(a);
  int rb = TypeRank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.type()) {
    case Type::kNull:
    case Type::kBoolean:
      return 0;
    case Type::kNumber:
      return CompareNumbers(a, b);
    case Type::kString:
      return CompareStrings(a.as_string(), b.as_string());
    case Type::kArray:
    case Type::kObject:
      *descend = true;
      return 0;
  }
  return 0;
}

// The children of two containers of the same type, in comparison order, and the answer when all
// of them compare equal. For objects the keys decide first: a nonzero `keys` means the sorted key
// lists differ and the children are not looked at.
struct ChildPairs {
  std::vector<const Value*> left;
  std::vector<const Value*> right;
  int tail = 0;
  int keys = 0;
};

ChildPairs Children(const Value& a, const Value& b) {
  ChildPairs c;
  if (a.is_array()) {
    auto ai = a.items();
    auto bi = b.items();
    size_t n = std::min(ai.size(), bi.size());
    c.left.reserve(n);
    c.right.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      c.left.push_back(&ai[i]);
      c.right.push_back(&bi[i]);
    }
    c.tail = Sign(static_cast<int64_t>(ai.size()), static_cast<int64_t>(bi.size()));
    return c;
  }
  std::vector<const Member*> ak = a.sorted_members();
  std::vector<const Member*> bk = b.sorted_members();
  size_t n = std::min(ak.size(), bk.size());
  for (size_t i = 0; i < n && c.keys == 0; ++i) {
    c.keys = CompareStrings(ak[i]->key.as_string(), bk[i]->key.as_string());
  }
  if (c.keys == 0 && ak.size() != bk.size()) c.keys = ak.size() < bk.size() ? -1 : 1;
  if (c.keys != 0) return c;
  c.left.reserve(n);
  c.right.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    c.left.push_back(&ak[i]->value);
    c.right.push_back(&bk[i]->value);
  }
  return c;
}

int CompareRecursive(const Value& a, const Value& b, int depth) {
  bool descend = false;
  int c = CompareShallow(a, b, &descend);
  if (!descend) return c;
  if (depth >= kMaxRecursion) return CompareDeep(a, b);
  if (a.is_array()) {
    auto ai = a.items();
    auto bi = b.items();
    size_t n = std::min(ai.size(), bi.size());
    for (size_t i = 0; i < n; ++i) {
      c = CompareRecursive(ai[i], bi[i], depth + 1);
      if (c != 0) return c;
    }
    return Sign(static_cast<int64_t>(ai.size()), static_cast<int64_t>(bi.size()));
  }
  ChildPairs pairs = Children(a, b);
  if (pairs.keys != 0) return pairs.keys;
  for (size_t i = 0; i < pairs.left.size(); ++i) {
    c = CompareRecursive(*pairs.left[i], *pairs.right[i], depth + 1);
    if (c != 0) return c;
  }
  return pairs.tail;
}

// The same order with an explicit stack of the containers being compared (heap memory grows
// with the depth of the data; the native stack does not).
int CompareDeep(const Value& a, const Value& b) {
  struct Level {
    ChildPairs pairs;
    size_t next = 0;
  };
  std::vector<Level> stack;
  const Value* x = &a;
  const Value* y = &b;
  for (;;) {
    bool descend = false;
    int c = CompareShallow(*x, *y, &descend);
    if (c != 0) return c;
    if (descend) {
      ChildPairs pairs = Children(*x, *y);
      if (pairs.keys != 0) return pairs.keys;
      stack.push_back(Level{std::move(pairs), 0});
    }
    // The next pair of children still to compare, finishing the levels whose children all
    // compared equal.
    for (;;) {
      if (stack.empty()) return 0;
      Level& top = stack.back();
      if (top.next < top.pairs.left.size()) {
        x = top.pairs.left[top.next];
        y = top.pairs.right[top.next];
        ++top.next;
        break;
      }
      if (top.pairs.tail != 0) return top.pairs.tail;
      stack.pop_back();
    }
  }
}

}  // namespace

int Compare(const Value& a, const Value& b) { return CompareRecursive(a, b, 0); }

}  // namespace wmap
