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

int CompareObjects(const Value& a, const Value& b) {
  std::vector<const Member*> ak = a.sorted_members();
  std::vector<const Member*> bk = b.sorted_members();
  size_t n = std::min(ak.size(), bk.size());
  for (size_t i = 0; i < n; ++i) {
    int c = CompareStrings(ak[i]->key.as_string(), bk[i]->key.as_string());
    if (c != 0) return c;
  }
  if (ak.size() != bk.size()) return ak.size() < bk.size() ? -1 : 1;
  for (size_t i = 0; i < n; ++i) {
    int c = Compare(ak[i]->value, bk[i]->value);
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace

int Compare(const Value& a, const Value& b) {
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
    case Type::kArray: {
      auto ai = a.items();
      auto bi = b.items();
      size_t n = std::min(ai.size(), bi.size());
      for (size_t i = 0; i < n; ++i) {
        int c = Compare(ai[i], bi[i]);
        if (c != 0) return c;
      }
      return Sign(static_cast<int64_t>(ai.size()), static_cast<int64_t>(bi.size()));
    }
    case Type::kObject:
      return CompareObjects(a, b);
  }
  return 0;
}

}  // namespace wmap
