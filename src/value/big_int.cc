// Schoolbook arithmetic on base-2^32 magnitudes; division is Knuth's algorithm D. Decimal
// conversions are subquadratic (value/big_int_radix.h).
#include "wmap/big_int.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "value/big_int_radix.h"

namespace wmap {
namespace {

using Mag = std::vector<uint32_t>;

constexpr uint64_t kBase = uint64_t{1} << 32;

void TrimMag(Mag* m) {
  while (!m->empty() && m->back() == 0) m->pop_back();
}

int CompareMag(const Mag& a, const Mag& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

Mag AddMag(const Mag& a, const Mag& b) {
  const Mag& x = a.size() >= b.size() ? a : b;
  const Mag& y = a.size() >= b.size() ? b : a;
  Mag r(x.size() + 1, 0);
  uint64_t carry = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t s = uint64_t{x[i]} + (i < y.size() ? y[i] : 0) + carry;
    r[i] = static_cast<uint32_t>(s);
    carry = s >> 32;
  }
  r[x.size()] = static_cast<uint32_t>(carry);
  TrimMag(&r);
  return r;
}

// a - b where |a| >= |b|.
Mag SubMag(const Mag& a, const Mag& b) {
  Mag r(a.size(), 0);
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t t = int64_t{a[i]} - (i < b.size() ? int64_t{b[i]} : 0) - borrow;
    borrow = t < 0 ? 1 : 0;
    r[i] = static_cast<uint32_t>(t);
  }
  TrimMag(&r);
  return r;
}

Mag MulMag(const Mag& a, const Mag& b) {
  if (a.empty() || b.empty()) return {};
  Mag r(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) {
      uint64_t t = uint64_t{a[i]} * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    r[i + b.size()] = static_cast<uint32_t>(carry);
  }
  TrimMag(&r);
  return r;
}

// m = m / d; returns m % d. d != 0.
uint32_t DivSmall(Mag* m, uint32_t d) {
  uint64_t rem = 0;
  for (size_t i = m->size(); i-- > 0;) {
    uint64_t cur = (rem << 32) | (*m)[i];
    (*m)[i] = static_cast<uint32_t>(cur / d);
    rem = cur % d;
  }
  TrimMag(m);
  return static_cast<uint32_t>(rem);
}

// m << s for 0 <= s < 32, with one extra limb of room.
Mag ShiftLeftSmall(const Mag& m, int s) {
  Mag r(m.size() + 1, 0);
  for (size_t i = 0; i < m.size(); ++i) {
    uint64_t t = uint64_t{m[i]} << s;
    r[i] |= static_cast<uint32_t>(t);
    r[i + 1] = static_cast<uint32_t>(t >> 32);
  }
  return r;
}

// u = q * v + r with 0 <= r < v; v non-empty.
void DivModMag(const Mag& u, const Mag& v, Mag* q, Mag* r) {
  if (CompareMag(u, v) < 0) {
    q->clear();
    *r = u;
    return;
  }
  if (v.size() == 1) {
    *q = u;
    uint32_t rem = DivSmall(q, v[0]);
    r->clear();
    if (rem != 0) r->push_back(rem);
    return;
  }
  const int s = std::countl_zero(v.back());
  const size_t n = v.size();
  const size_t m = u.size() - n;
  Mag vn = ShiftLeftSmall(v, s);
  vn.pop_back();  // the top limb is normalized, so the extra limb is zero
  Mag un = ShiftLeftSmall(u, s);
  q->assign(m + 1, 0);
  for (size_t j = m + 1; j-- > 0;) {
    uint64_t num = (uint64_t{un[j + n]} << 32) | un[j + n - 1];
    uint64_t qhat = num / vn[n - 1];
    uint64_t rhat = num % vn[n - 1];
    while (qhat >= kBase || qhat * vn[n - 2] > ((rhat << 32) | un[j + n - 2])) {
      --qhat;
      rhat += vn[n - 1];
      if (rhat >= kBase) break;
    }
    uint64_t carry = 0;
    int64_t borrow = 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t p = qhat * vn[i] + carry;
      carry = p >> 32;
      int64_t t = int64_t{un[i + j]} - static_cast<int64_t>(p & 0xffffffffu) - borrow;
      un[i + j] = static_cast<uint32_t>(t);
      borrow = t < 0 ? 1 : 0;
    }
    int64_t t = int64_t{un[j + n]} - static_cast<int64_t>(carry) - borrow;
    un[j + n] = static_cast<uint32_t>(t);
    if (t < 0) {
      // qhat was one too large: add the divisor back.
      --qhat;
      uint64_t c = 0;
      for (size_t i = 0; i < n; ++i) {
        uint64_t sum = uint64_t{un[i + j]} + vn[i] + c;
        un[i + j] = static_cast<uint32_t>(sum);
        c = sum >> 32;
      }
      un[j + n] += static_cast<uint32_t>(c);
    }
    (*q)[j] = static_cast<uint32_t>(qhat);
  }
  TrimMag(q);
  r->assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    uint64_t hi = i + 1 < un.size() ? un[i + 1] : 0;
    (*r)[i] = s == 0 ? un[i] : static_cast<uint32_t>((un[i] >> s) | (hi << (32 - s)));
  }
  TrimMag(r);
}

}  // namespace

void BigInt::Trim() {
  TrimMag(&mag_);
  if (mag_.empty()) neg_ = false;
}

BigInt BigInt::FromInt64(int64_t v) {
  BigInt b;
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  b.neg_ = v < 0;
  if (u != 0) b.mag_.push_back(static_cast<uint32_t>(u));
  if ((u >> 32) != 0) b.mag_.push_back(static_cast<uint32_t>(u >> 32));
  return b;
}

std::optional<BigInt> BigInt::FromDecimal(std::string_view text) {
  bool neg = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    neg = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  BigInt b;
  b.mag_ = big_int_radix::FromDigits(text);
  b.neg_ = neg;
  b.Trim();
  return b;
}

std::optional<BigInt> BigInt::FromDouble(double d) {
  if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
  BigInt b;
  if (d == 0) return b;
  int e = 0;
  double m = std::frexp(std::fabs(d), &e);  // |d| = m * 2^e, m in [0.5, 1)
  auto mant = static_cast<uint64_t>(std::ldexp(m, 53));
  int shift = e - 53;
  if (shift < 0) {
    mant >>= -shift;  // exact: d is integral
    shift = 0;
  }
  b.mag_ = {static_cast<uint32_t>(mant), static_cast<uint32_t>(mant >> 32)};
  TrimMag(&b.mag_);
  size_t limbs = static_cast<size_t>(shift / 32);
  b.mag_.insert(b.mag_.begin(), limbs, 0);
  if (shift % 32 != 0) {
    b.mag_ = ShiftLeftSmall(b.mag_, shift % 32);
    TrimMag(&b.mag_);
  }
  b.neg_ = d < 0;
  return b;
}

bool BigInt::FitsInt64() const {
  if (mag_.size() > 2) return false;
  uint64_t u = mag_.empty() ? 0 : mag_[0];
  if (mag_.size() == 2) u |= uint64_t{mag_[1]} << 32;
  return neg_ ? u <= (uint64_t{1} << 63) : u < (uint64_t{1} << 63);
}

int64_t BigInt::ToInt64() const {
  uint64_t u = mag_.empty() ? 0 : mag_[0];
  if (mag_.size() >= 2) u |= uint64_t{mag_[1]} << 32;
  return neg_ ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
}

double BigInt::ToDouble() const {
  if (mag_.empty()) return 0;
  size_t bits = mag_.size() * 32 - static_cast<size_t>(std::countl_zero(mag_.back()));
  double d;
  if (bits <= 64) {
    uint64_t u = mag_[0];
    if (mag_.size() == 2) u |= uint64_t{mag_[1]} << 32;
    d = static_cast<double>(u);
  } else {
    // The top 64 bits, with any lower set bit folded into bit 0 as a sticky bit: rounding the
    // 64-bit value to 53 bits then rounds exactly as rounding the whole magnitude would.
    size_t low = bits - 64;  // bits below the top 64
    uint64_t top = 0;
    for (size_t k = 0; k < 64; ++k) {
      size_t bit = low + k;
      if ((mag_[bit / 32] >> (bit % 32)) & 1) top |= uint64_t{1} << k;
    }
    bool sticky = false;
    for (size_t bit = 0; bit < low && !sticky; ++bit) {
      if (bit % 32 == 0 && bit + 32 <= low) {
        sticky = mag_[bit / 32] != 0;
        bit += 31;
        continue;
      }
      sticky = ((mag_[bit / 32] >> (bit % 32)) & 1) != 0;
    }
    if (sticky) top |= 1;
    d = std::ldexp(static_cast<double>(top), static_cast<int>(std::min<size_t>(low, 4096)));
  }
  return neg_ ? -d : d;
}

void BigInt::AppendDecimal(std::string* out) const {
  if (mag_.empty()) {
    out->push_back('0');
    return;
  }
  std::vector<uint32_t> chunks = big_int_radix::ToChunks(mag_);  // base 10^9, least first
  if (neg_) out->push_back('-');
  out->append(std::to_string(chunks.back()));
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    std::string part = std::to_string(chunks[i]);
    out->append(9 - part.size(), '0');
    out->append(part);
  }
}

std::string BigInt::ToDecimal() const {
  std::string s;
  AppendDecimal(&s);
  return s;
}

BigInt BigInt::operator-() const {
  BigInt r = *this;
  if (!r.mag_.empty()) r.neg_ = !r.neg_;
  return r;
}

BigInt BigInt::Abs() const {
  BigInt r = *this;
  r.neg_ = false;
  return r;
}

BigInt operator+(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.neg_ == b.neg_) {
    r.mag_ = AddMag(a.mag_, b.mag_);
    r.neg_ = a.neg_;
  } else if (CompareMag(a.mag_, b.mag_) >= 0) {
    r.mag_ = SubMag(a.mag_, b.mag_);
    r.neg_ = a.neg_;
  } else {
    r.mag_ = SubMag(b.mag_, a.mag_);
    r.neg_ = b.neg_;
  }
  r.Trim();
  return r;
}

BigInt operator-(const BigInt& a, const BigInt& b) { return a + (-b); }

BigInt operator*(const BigInt& a, const BigInt& b) {
  BigInt r;
  r.mag_ = MulMag(a.mag_, b.mag_);
  r.neg_ = a.neg_ != b.neg_;
  r.Trim();
  return r;
}

void BigInt::DivMod(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r) {
  BigInt quot, rem;
  DivModMag(a.mag_, b.mag_, &quot.mag_, &rem.mag_);
  quot.neg_ = a.neg_ != b.neg_;
  rem.neg_ = a.neg_;
  quot.Trim();
  rem.Trim();
  if (q != nullptr) *q = std::move(quot);
  if (r != nullptr) *r = std::move(rem);
}

int BigInt::Compare(const BigInt& a, const BigInt& b) {
  if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
  int c = CompareMag(a.mag_, b.mag_);
  return a.neg_ ? -c : c;
}

}  // namespace wmap
