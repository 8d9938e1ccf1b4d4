// Kubernetes resource quantities (resource.Quantity): the syntax, exact amounts and canonical
// strings. The one quantity reader every layer uses.
//
// Syntax: <sign?><digits with at most one point><suffix?>, suffix one of the binary Ki Mi Gi Ti
// Pi Ei, the decimal n u m k M G T P E, or a decimal exponent e<n> / E<n> (signed).
// Amounts are what the scheduler accounts: CPU in millicores, every other resource in whole
// units, rounded towards +infinity when converted; parsing is exact decimal arithmetic (no
// floating point), and an amount beyond int64 is an error.
#ifndef WMAP_QUANTITY_H_
#define WMAP_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "wmap/export.h"

#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// True when `text` is a quantity as the API server's `quantity` format accepts it.
bool IsQuantity(std::string_view text);

// The amount of `quantity` (a quantity string such as "500m", "1.5Gi", "2e3", or a JSON number)
// for `resource`: millicores for "cpu", units otherwise. Errors (code kInvalidInput) quote the
// text and say why ("unknown suffix", "too large", ...).
Result<int64_t> QuantityAmount(std::string_view resource, const Value& quantity);
Result<int64_t> QuantityAmount(std::string_view resource, std::string_view text);

// A canonical quantity string for an amount: "250m" or "2" for CPU; "16Gi", "512Mi" or "1000"
// for memory-like resources (memory, ephemeral-storage, storage, hugepages-*: binary suffixes
// when exact); the plain integer otherwise. QuantityAmount(r, FormatAmount(r, a)) == a.
std::string FormatAmount(std::string_view resource, int64_t amount);

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_QUANTITY_H_
