#include "value/big_int_radix.h"

#include <algorithm>
#include <utility>

namespace wmap::big_int_radix {
namespace {

using Vec = std::vector<uint32_t>;

// Below this many limbs a product is computed by the schoolbook method.
constexpr size_t kKaratsubaLimbs = 40;
// Below these sizes a conversion runs the quadratic loop, which is faster for short numbers.
constexpr size_t kSmallDigits = 3600;
constexpr size_t kSmallLimbs = 360;

// Magnitudes in base B (2^32 or 10^9), least significant limb first.
template <uint64_t B>
struct Radix {
  static void Trim(Vec* v) {
    while (!v->empty() && v->back() == 0) v->pop_back();
  }

  // *r += a * B^offset.
  static void AddAt(Vec* r, const uint32_t* a, size_t n, size_t offset) {
    if (r->size() < offset + n) r->resize(offset + n, 0);
    uint64_t carry = 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t s = uint64_t{(*r)[offset + i]} + a[i] + carry;
      carry = s >= B ? 1 : 0;
      (*r)[offset + i] = static_cast<uint32_t>(s - carry * B);
    }
    for (size_t k = offset + n; carry != 0; ++k) {
      if (k == r->size()) r->push_back(0);
      uint64_t s = uint64_t{(*r)[k]} + carry;
      carry = s >= B ? 1 : 0;
      (*r)[k] = static_cast<uint32_t>(s - carry * B);
    }
  }

  // *r -= a, where *r >= a.
  static void Sub(Vec* r, const Vec& a) {
    uint64_t borrow = 0;
    for (size_t i = 0; i < r->size() && (i < a.size() || borrow != 0); ++i) {
      uint64_t sub = (i < a.size() ? a[i] : 0) + borrow;
      uint64_t cur = (*r)[i];
      borrow = cur < sub ? 1 : 0;
      (*r)[i] = static_cast<uint32_t>(cur + borrow * B - sub);
    }
    Trim(r);
  }

  static Vec School(const uint32_t* a, size_t na, const uint32_t* b, size_t nb) {
    Vec r(na + nb, 0);
    for (size_t i = 0; i < na; ++i) {
      uint64_t carry = 0;
      for (size_t j = 0; j < nb; ++j) {
        uint64_t t = uint64_t{a[i]} * b[j] + r[i + j] + carry;
        r[i + j] = static_cast<uint32_t>(t % B);
        carry = t / B;
      }
      r[i + nb] = static_cast<uint32_t>(carry);
    }
    Trim(&r);
    return r;
  }

  static Vec Sum(const uint32_t* a, size_t na, const uint32_t* b, size_t nb) {
    Vec r(a, a + na);
    AddAt(&r, b, nb, 0);
    return r;
  }

  // a * b (Karatsuba above kKaratsubaLimbs; an unbalanced product in slices of the shorter).
  static Vec Mul(const uint32_t* a, size_t na, const uint32_t* b, size_t nb) {
    if (na < nb) {
      std::swap(a, b);
      std::swap(na, nb);
    }
    if (nb == 0) return {};
    if (nb < kKaratsubaLimbs) return School(a, na, b, nb);
    if (2 * nb <= na) {
      Vec r;
      for (size_t off = 0; off < na; off += nb) {
        Vec part = Mul(a + off, std::min(nb, na - off), b, nb);
        AddAt(&r, part.data(), part.size(), off);
      }
      Trim(&r);
      return r;
    }
    size_t m = na / 2;  // nb > m: both operands have a high part
    Vec z0 = Mul(a, m, b, m);
    Vec z2 = Mul(a + m, na - m, b + m, nb - m);
    Vec sa = Sum(a, m, a + m, na - m);
    Vec sb = Sum(b, m, b + m, nb - m);
    Vec z1 = Mul(sa.data(), sa.size(), sb.data(), sb.size());
    Trim(&z1);
    Sub(&z1, z0);
    Sub(&z1, z2);
    Vec r = z0;
    AddAt(&r, z1.data(), z1.size(), m);
    AddAt(&r, z2.data(), z2.size(), 2 * m);
    Trim(&r);
    return r;
  }

  static Vec Mul(const Vec& a, const Vec& b) { return Mul(a.data(), a.size(), b.data(), b.size()); }
};

using Binary = Radix<uint64_t{1} << 32>;
using Decimal = Radix<1000000000>;

// powers[j] = base^(2^j) in the radix R, computed as needed by squaring.
template <typename R>
const Vec& Power(std::vector<Vec>* powers, size_t j) {
  while (powers->size() <= j) powers->push_back(R::Mul(powers->back(), powers->back()));
  return (*powers)[j];
}

// The smallest j with unit * 2^(j+1) >= n: splitting n at unit * 2^j leaves halves of similar
// size (the low one a whole power).
size_t SplitLevel(size_t n, size_t unit) {
  size_t j = 0;
  while ((unit << (j + 1)) < n) ++j;
  return j;
}

Vec DigitsToBinary(std::string_view d, std::vector<Vec>* pow10) {
  while (d.size() > 1 && d.front() == '0') d.remove_prefix(1);
  if (d.size() <= kSmallDigits) {
    Vec m;
    for (size_t i = 0; i < d.size();) {
      size_t chunk = std::min<size_t>(9, d.size() - i);
      uint64_t add = 0;
      uint64_t mul = 1;
      for (size_t k = 0; k < chunk; ++k) {
        add = add * 10 + static_cast<uint64_t>(d[i + k] - '0');
        mul *= 10;
      }
      uint64_t carry = add;
      for (uint32_t& limb : m) {
        uint64_t t = uint64_t{limb} * mul + carry;
        limb = static_cast<uint32_t>(t);
        carry = t >> 32;
      }
      if (carry != 0) m.push_back(static_cast<uint32_t>(carry));
      i += chunk;
    }
    Binary::Trim(&m);
    return m;
  }
  size_t j = SplitLevel(d.size(), 9);
  size_t low = size_t{9} << j;  // digits in the low half: its weight is 10^low = (10^9)^(2^j)
  Vec hi = DigitsToBinary(d.substr(0, d.size() - low), pow10);
  Vec lo = DigitsToBinary(d.substr(d.size() - low), pow10);
  Vec r = Binary::Mul(hi, Power<Binary>(pow10, j));
  Binary::AddAt(&r, lo.data(), lo.size(), 0);
  Binary::Trim(&r);
  return r;
}

Vec BinaryToChunks(const uint32_t* m, size_t n, std::vector<Vec>* pow2) {
  while (n > 0 && m[n - 1] == 0) --n;
  if (n <= kSmallLimbs) {
    Vec rest(m, m + n);
    Vec chunks;
    while (!rest.empty()) {
      uint64_t rem = 0;
      for (size_t i = rest.size(); i-- > 0;) {
        uint64_t cur = (rem << 32) | rest[i];
        rest[i] = static_cast<uint32_t>(cur / 1000000000u);
        rem = cur % 1000000000u;
      }
      Binary::Trim(&rest);
      chunks.push_back(static_cast<uint32_t>(rem));
    }
    return chunks;
  }
  size_t j = SplitLevel(n, 1);
  size_t low = size_t{1} << j;  // limbs in the low half: its weight is 2^(32 low)
  Vec lo = BinaryToChunks(m, low, pow2);
  Vec hi = BinaryToChunks(m + low, n - low, pow2);
  Vec r = Decimal::Mul(hi, Power<Decimal>(pow2, j));
  Decimal::AddAt(&r, lo.data(), lo.size(), 0);
  Decimal::Trim(&r);
  return r;
}

}  // namespace

Vec FromDigits(std::string_view digits) {
  std::vector<Vec> pow10 = {Vec{1000000000u}};
  return DigitsToBinary(digits, &pow10);
}

Vec ToChunks(const Vec& mag) {
  // 2^32 in base 10^9.
  std::vector<Vec> pow2 = {Vec{294967296u, 4u}};
  return BinaryToChunks(mag.data(), mag.size(), &pow2);
}

}  // namespace wmap::big_int_radix
