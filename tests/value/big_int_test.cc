#include "wmap/big_int.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace wmap {
namespace {

BigInt B(std::string_view text) {
  std::optional<BigInt> b = BigInt::FromDecimal(text);
  EXPECT_TRUE(b.has_value()) << text;
  return b ? *b : BigInt();
}

TEST(BigIntTest, DecimalRoundTrip) {
  EXPECT_EQ(B("0").ToDecimal(), "0");
  EXPECT_EQ(B("-0").ToDecimal(), "0");
  EXPECT_FALSE(B("-0").negative());
  EXPECT_EQ(B("+42").ToDecimal(), "42");
  EXPECT_EQ(B("000123").ToDecimal(), "123");
  EXPECT_EQ(B("4722366482869645213696").ToDecimal(), "4722366482869645213696");
  EXPECT_EQ(B("-1000000000000000000000000000000").ToDecimal(), "-1000000000000000000000000000000");
  // A chunk boundary of the base-10^9 conversion: the inner zeros must be kept.
  EXPECT_EQ(B("1000000000000000001").ToDecimal(), "1000000000000000001");
  EXPECT_FALSE(BigInt::FromDecimal("").has_value());
  EXPECT_FALSE(BigInt::FromDecimal("-").has_value());
  EXPECT_FALSE(BigInt::FromDecimal("12a").has_value());
  EXPECT_FALSE(BigInt::FromDecimal("1.5").has_value());
}

TEST(BigIntTest, Int64Range) {
  EXPECT_TRUE(B("9223372036854775807").FitsInt64());
  EXPECT_FALSE(B("9223372036854775808").FitsInt64());
  EXPECT_TRUE(B("-9223372036854775808").FitsInt64());
  EXPECT_FALSE(B("-9223372036854775809").FitsInt64());
  EXPECT_EQ(B("-9223372036854775808").ToInt64(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(BigInt::FromInt64(std::numeric_limits<int64_t>::min()).ToDecimal(),
            "-9223372036854775808");
  EXPECT_EQ(BigInt::FromInt64(-5).ToInt64(), -5);
  EXPECT_EQ(BigInt::FromInt64(0).sign(), 0);
}

TEST(BigIntTest, AddSubtractMultiply) {
  EXPECT_EQ((B("9223372036854775807") + B("1")).ToDecimal(), "9223372036854775808");
  EXPECT_EQ((B("18446744073709551615") + B("1")).ToDecimal(), "18446744073709551616");
  EXPECT_EQ((B("-5") + B("3")).ToDecimal(), "-2");
  EXPECT_EQ((B("5") + B("-5")).ToDecimal(), "0");
  EXPECT_FALSE((B("5") + B("-5")).negative());
  EXPECT_EQ((B("18446744073709551616") - B("1")).ToDecimal(), "18446744073709551615");
  EXPECT_EQ((B("1") - B("18446744073709551616")).ToDecimal(), "-18446744073709551615");
  EXPECT_EQ((B("-9223372036854775808") - B("1")).ToDecimal(), "-9223372036854775809");
  EXPECT_EQ((B("557702036893939360447070208") * B("557702036893939360447070208")).ToDecimal(),
            "311031561955648899562865430629603887429045530881163264");
  EXPECT_EQ((B("-9223372036854775807") * B("557702036893939360447070208")).ToDecimal(),
            "-5143893371984510803678792604831111805828857856");
  EXPECT_EQ((B("123") * B("0")).ToDecimal(), "0");
  EXPECT_EQ((-B("7")).ToDecimal(), "-7");
  EXPECT_EQ(B("-7").Abs().ToDecimal(), "7");
}

TEST(BigIntTest, DivModTruncates) {
  struct Case {
    const char* a;
    const char* b;
    const char* q;
    const char* r;
  };
  for (const Case& c : {
           Case{"7", "2", "3", "1"},
           Case{"-7", "2", "-3", "-1"},
           Case{"7", "-2", "-3", "1"},
           Case{"-7", "-2", "3", "-1"},
           Case{"1", "4722366482869645213696", "0", "1"},
           Case{"30414093201713378043612608166064768844377641568960512000000000000",
                "265252859812191058636308480000000", "114660755112113373922453094400000", "0"},
           Case{"30414093201713378043612608166064768844377641568960512000000000000",
                "265252859812191058636308480000001", "114660755112113373922453094399999",
                "150592104700077684713855385600001"},
           Case{"557702036893939360447070208", "9223372036854775807", "60466176", "60466176"},
       }) {
    BigInt q, r;
    BigInt::DivMod(B(c.a), B(c.b), &q, &r);
    EXPECT_EQ(q.ToDecimal(), c.q) << c.a << " / " << c.b;
    EXPECT_EQ(r.ToDecimal(), c.r) << c.a << " % " << c.b;
  }
}

TEST(BigIntTest, DivModIdentityOnManyOperands) {
  // Deterministic pseudo-random operands of 1 to 6 limbs; checks a == q*b + r and |r| < |b|,
  // which exercises the estimate corrections of the long division.
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state;
  };
  auto random_big = [&](int limbs) {
    std::string digits = std::to_string(next() % 9 + 1);
    for (int i = 0; i < limbs; ++i) digits += std::to_string(next() % 1000000000ULL);
    return B((next() & 1) ? "-" + digits : digits);
  };
  for (int i = 0; i < 400; ++i) {
    BigInt a = random_big(static_cast<int>(next() % 6) + 1);
    BigInt b = random_big(static_cast<int>(next() % 4));
    BigInt q, r;
    BigInt::DivMod(a, b, &q, &r);
    EXPECT_EQ(q * b + r, a) << a.ToDecimal() << " / " << b.ToDecimal();
    EXPECT_LT(BigInt::Compare(r.Abs(), b.Abs()), 0);
    EXPECT_TRUE(r.is_zero() || r.negative() == a.negative());
  }
}

TEST(BigIntTest, Compare) {
  EXPECT_EQ(BigInt::Compare(B("-4722366482869645213697"), B("-2")), -1);
  EXPECT_EQ(BigInt::Compare(B("4722366482869645213697"), B("4722366482869645213696")), 1);
  EXPECT_EQ(BigInt::Compare(B("-4722366482869645213697"), B("-4722366482869645213696")), -1);
  EXPECT_EQ(BigInt::Compare(B("12"), B("12")), 0);
  EXPECT_EQ(BigInt::Compare(B("0"), B("-1")), 1);
}

TEST(BigIntTest, ToDoubleRoundsToNearestEven) {
  EXPECT_EQ(B("9007199254740993").ToDouble(), 9007199254740992.0);  // tie: to even
  EXPECT_EQ(B("9007199254740995").ToDouble(), 9007199254740996.0);  // tie: to even
  // 10^23 lies exactly between two doubles and rounds to the even one; one more rounds up.
  EXPECT_EQ(B("100000000000000000000000").ToDouble(), 99999999999999991611392.0);
  EXPECT_EQ(B("100000000000000000000001").ToDouble(), 100000000000000008388608.0);
  EXPECT_EQ(B("-4722366482869645213696").ToDouble(), -4722366482869645213696.0);
  std::string huge = "1" + std::string(400, '0');
  EXPECT_EQ(B(huge).ToDouble(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(B("-" + huge).ToDouble(), -std::numeric_limits<double>::infinity());
}

TEST(BigIntTest, FromDouble) {
  EXPECT_EQ(BigInt::FromDouble(1e20)->ToDecimal(), "100000000000000000000");
  EXPECT_EQ(BigInt::FromDouble(-4722366482869645213696.0)->ToDecimal(), "-4722366482869645213696");
  EXPECT_EQ(BigInt::FromDouble(1e23)->ToDecimal(), "99999999999999991611392");
  EXPECT_EQ(BigInt::FromDouble(3.0)->ToDecimal(), "3");
  EXPECT_EQ(BigInt::FromDouble(0.0)->ToDecimal(), "0");
  EXPECT_FALSE(BigInt::FromDouble(0.5).has_value());
  EXPECT_FALSE(BigInt::FromDouble(std::nan("")).has_value());
  EXPECT_FALSE(BigInt::FromDouble(std::numeric_limits<double>::infinity()).has_value());
}

}  // namespace
}  // namespace wmap

namespace wmap {
namespace {

// The decimal text of b by repeated division by 10^9 (Knuth's division): an independent oracle
// for the subquadratic conversion.
std::string ReferenceDecimal(BigInt b) {
  bool neg = b.negative();
  b = b.Abs();
  const BigInt billion = BigInt::FromInt64(1000000000);
  std::vector<int64_t> chunks;
  while (!b.is_zero()) {
    BigInt q, r;
    BigInt::DivMod(b, billion, &q, &r);
    chunks.push_back(r.ToInt64());
    b = q;
  }
  if (chunks.empty()) return "0";
  std::string s = neg ? "-" : "";
  s += std::to_string(chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    std::string part = std::to_string(chunks[i]);
    s += std::string(9 - part.size(), '0') + part;
  }
  return s;
}

TEST(BigIntTest, LongDecimalsConvertExactly) {
  // Sizes on both sides of the thresholds where conversion switches to divide and conquer.
  std::mt19937 rng(42);
  for (size_t digits : {3599, 3600, 3601, 3700, 7300, 12345, 40000}) {
    std::string text(1, static_cast<char>('1' + rng() % 9));
    while (text.size() < digits) text.push_back(static_cast<char>('0' + rng() % 10));
    std::optional<BigInt> b = BigInt::FromDecimal(text);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(ReferenceDecimal(*b), text) << digits;
    EXPECT_EQ(b->ToDecimal(), text) << digits;
    // Arithmetic on the converted value agrees with the text: (b * 10 + 7) prints as text + "7".
    BigInt c = *b * BigInt::FromInt64(10) + BigInt::FromInt64(7);
    EXPECT_EQ(c.ToDecimal(), text + "7") << digits;
  }
  // Powers of two and of ten, where every limb is zero but one.
  BigInt two_pow = BigInt::FromInt64(1);
  for (int i = 0; i < 40000; ++i) two_pow = two_pow + two_pow;
  EXPECT_EQ(two_pow.ToDecimal(), ReferenceDecimal(two_pow));
  std::string ten_pow = "1" + std::string(36864, '0');
  EXPECT_EQ(BigInt::FromDecimal(ten_pow)->ToDecimal(), ten_pow);
  EXPECT_EQ(BigInt::FromDecimal("-" + ten_pow)->ToDecimal(), "-" + ten_pow);
  EXPECT_EQ(BigInt::FromDecimal("000" + ten_pow)->ToDecimal(), ten_pow);
}

}  // namespace
}  // namespace wmap
