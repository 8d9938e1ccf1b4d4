// Byte scanning shared by the JSON reader and writer. Private to the value layer.
#ifndef WMAP_SRC_VALUE_JSON_SCAN_H_
#define WMAP_SRC_VALUE_JSON_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace wmap::internal {

// Returns the first position in [p, end) holding '"', '\\', a byte < 0x20, a byte >= 0x80, or
// (when kStopAtDel) 0x7f; returns end when there is none.
template <bool kStopAtDel = false>
inline const char* ScanSpecial(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i del = _mm_set1_epi8(0x7f);
  while (end - p >= 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compare: bytes >= 0x80 are negative, so "< 0x20" also catches them.
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                               _mm_cmplt_epi8(x, space));
    if constexpr (kStopAtDel) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, del));
    int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  // Eight bytes at a time: a byte is flagged when it is '"', '\\', < 0x20, >= 0x80 (or 0x7f).
  // The zero-byte tests can also flag bytes above the first true hit (borrows), never below it,
  // so the lowest flagged byte is exact.
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    uint64_t hit = has_zero(w ^ (kOnes * '"')) | has_zero(w ^ (kOnes * '\\')) |
                   ((w - kOnes * 0x20) & ~w & kHigh) | (w & kHigh);
    if (kStopAtDel) hit |= has_zero(w ^ (kOnes * 0x7f));
    if (hit != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      return p + (__builtin_ctzll(hit) >> 3);
#else
      break;  // the byte loop below finds it
#endif
    }
    p += 8;
  }
  for (; p < end; ++p) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80 || (kStopAtDel && c == 0x7f)) return p;
  }
  return end;
}

inline const char* ScanStringSpecial(const char* p, const char* end) {
  return ScanSpecial<false>(p, end);
}

// Length (2..4) of the well-formed UTF-8 sequence starting at p (whose first byte is >= 0x80),
// or 0 when it is not well formed (Go's rules: no overlongs, no surrogates, <= U+10FFFF).
inline size_t ValidUtf8Sequence(const char* p, const char* end) {
  auto b = [&](size_t i) { return static_cast<unsigned char>(p[i]); };
  auto cont = [&](size_t i) { return (b(i) & 0xc0) == 0x80; };
  size_t avail = static_cast<size_t>(end - p);
  unsigned char c = b(0);
  if (c >= 0xc2 && c <= 0xdf) return avail >= 2 && cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (avail < 3) return 0;
    unsigned char c1 = b(1);
    unsigned char lo = c == 0xe0 ? 0xa0 : 0x80;
    unsigned char hi = c == 0xed ? 0x9f : 0xbf;
    return c1 >= lo && c1 <= hi && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (avail < 4) return 0;
    unsigned char c1 = b(1);
    unsigned char lo = c == 0xf0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xf4 ? 0x8f : 0xbf;
    return c1 >= lo && c1 <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace wmap::internal

#endif  // WMAP_SRC_VALUE_JSON_SCAN_H_
