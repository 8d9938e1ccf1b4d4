// Conversions between decimal text and base-2^32 magnitudes in subquadratic time, for BigInt.
//
// Both directions split the number in halves and join the converted halves with one
// multiplication (Karatsuba): decimal to binary as hi * 10^k + lo in base 2^32, binary to decimal
// as hi * 2^(32k) + lo in base 10^9, so no division is needed. A million digits convert in well
// under a second; the schoolbook loops they replace took tens of seconds.
#ifndef WMAP_VALUE_BIG_INT_RADIX_H_
#define WMAP_VALUE_BIG_INT_RADIX_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace wmap::big_int_radix {

// The magnitude (base 2^32, least significant limb first, no high zero limbs) of a string of
// ASCII digits (already checked).
std::vector<uint32_t> FromDigits(std::string_view digits);

// The base-10^9 chunks (least significant first, no high zero chunks) of a magnitude.
std::vector<uint32_t> ToChunks(const std::vector<uint32_t>& mag);

}  // namespace wmap::big_int_radix

#endif  // WMAP_VALUE_BIG_INT_RADIX_H_
