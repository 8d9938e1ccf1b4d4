// Arbitrary-precision signed integers for numbers beyond int64.
//
// A BigInt is a sign and a magnitude of base-2^32 limbs, least significant first. Invariants:
// the magnitude has no high zero limbs, and zero has no limbs and is never negative, so every
// integer has exactly one representation (equality is limb equality). Division truncates toward
// zero and the remainder takes the dividend's sign (Go's big.Int Quo/Rem, C++'s / and %).
// Operations allocate and may throw std::bad_alloc only; nothing else throws.
#ifndef WMAP_BIG_INT_H_
#define WMAP_BIG_INT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

class BigInt {
 public:
  BigInt() = default;  // zero
  static BigInt FromInt64(int64_t v);
  // Optional sign followed by one or more ASCII digits (leading zeros allowed); nullopt
  // otherwise.
  static std::optional<BigInt> FromDecimal(std::string_view text);
  // The exact value of a finite double with no fractional part; nullopt otherwise.
  static std::optional<BigInt> FromDouble(double d);

  bool is_zero() const { return mag_.empty(); }
  bool negative() const { return neg_; }
  int sign() const { return neg_ ? -1 : (mag_.empty() ? 0 : 1); }
  bool FitsInt64() const;
  int64_t ToInt64() const;  // only when FitsInt64()
  // The nearest double (ties to even); ±infinity beyond the double range.
  double ToDouble() const;
  std::string ToDecimal() const;
  void AppendDecimal(std::string* out) const;

  BigInt operator-() const;
  BigInt Abs() const;
  friend BigInt operator+(const BigInt& a, const BigInt& b);
  friend BigInt operator-(const BigInt& a, const BigInt& b);
  friend BigInt operator*(const BigInt& a, const BigInt& b);
  // Truncated division: a == q * b + r with |r| < |b| and r having a's sign (or zero).
  // b must not be zero.
  static void DivMod(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r);
  // -1, 0 or 1.
  static int Compare(const BigInt& a, const BigInt& b);
  friend bool operator==(const BigInt& a, const BigInt& b) = default;

 private:
  void Trim();

  std::vector<uint32_t> mag_;
  bool neg_ = false;
};

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_BIG_INT_H_
