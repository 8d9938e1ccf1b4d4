// Exact Kubernetes quantities: parsing to integer amounts and canonical formatting.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

#include "wmap/json.h"
#include "wmap/quantity.h"

namespace wmap {
namespace {

using int128 = __int128;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr size_t kMaxSignificantDigits = 30;  // keeps the mantissa far inside int128
constexpr int kMaxExponent = 100;             // 10^100 overflows and 10^-100 rounds, either way

Error QuantityError(std::string_view text, std::string_view why) {
  return Error::Of(ErrorCode::kInvalidInput,
                   "invalid quantity \"" + std::string(text) + "\": " + std::string(why),
                   "quantities look like 2, 500m, 1.5Gi, 128Mi or 1e3");
}

// The suffix as a power of ten and a power of two; false when it is not a suffix.
bool ParseSuffix(std::string_view s, int* pow10, int* pow2) {
  *pow10 = 0;
  *pow2 = 0;
  if (s.empty()) return true;
  if (s.size() == 2 && s[1] == 'i') {
    const std::string_view binary = "KMGTPE";
    size_t i = binary.find(s[0]);
    if (i == std::string_view::npos) return false;
    *pow2 = static_cast<int>(10 * (i + 1));
    return true;
  }
  if (s.size() == 1) {
    switch (s[0]) {
      case 'n':
        *pow10 = -9;
        return true;
      case 'u':
        *pow10 = -6;
        return true;
      case 'm':
        *pow10 = -3;
        return true;
      case 'k':
        *pow10 = 3;
        return true;
      case 'M':
        *pow10 = 6;
        return true;
      case 'G':
        *pow10 = 9;
        return true;
      case 'T':
        *pow10 = 12;
        return true;
      case 'P':
        *pow10 = 15;
        return true;
      case 'E':
        *pow10 = 18;
        return true;
      default:
        break;
    }
  }
  if (s[0] != 'e' && s[0] != 'E') return false;
  std::string_view exp = s.substr(1);
  bool negative = false;
  if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) {
    negative = exp[0] == '-';
    exp.remove_prefix(1);
  }
  if (exp.empty()) return false;
  int v = 0;
  for (char c : exp) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    // Beyond any int64 amount either way; kept small so the scaling loops stay short.
    v = std::min(v * 10 + (c - '0'), kMaxExponent);
  }
  *pow10 = negative ? -v : v;
  return true;
}

// ceil(n / d) for d > 0.
int128 CeilDiv(int128 n, int128 d) {
  int128 q = n / d;
  if (n % d != 0 && n > 0) ++q;
  return q;
}

Result<int64_t> ParseAmount(std::string_view text, int unit_pow10) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;  // significant digits of integer and fraction parts
  int fraction_digits = 0;
  bool any_digit = false, dot = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      any_digit = true;
      if (digits.empty() && c == '0') {
        if (dot) ++fraction_digits;
        continue;
      }
      digits += c;
      if (dot) ++fraction_digits;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any_digit) return QuantityError(text, "no digits");
  int pow10 = 0, pow2 = 0;
  if (!ParseSuffix(text.substr(i), &pow10, &pow2)) {
    return QuantityError(text, "unknown suffix \"" + std::string(text.substr(i)) + "\"");
  }
  // Trailing zeros of the mantissa move into the exponent.
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    --fraction_digits;
  }
  if (digits.empty()) return int64_t{0};
  if (digits.size() > kMaxSignificantDigits) return QuantityError(text, "too many digits");
  int128 value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  int exponent = pow10 + unit_pow10 - fraction_digits;
  for (int k = 0; k < pow2; ++k) {
    value *= 2;
    if (value > static_cast<int128>(kMax) * 1000000000000000000LL) {
      return QuantityError(text, "too large");
    }
  }
  // Amounts round towards +infinity: up for positive quantities, magnitude down for negative.
  if (exponent >= 0) {
    for (int k = 0; k < exponent; ++k) {
      value *= 10;
      if (value > kMax) return QuantityError(text, "too large");
    }
  } else if (exponent < -38) {
    value = negative ? 0 : 1;  // 0 < |value| < 1 unit
  } else {
    int128 divisor = 1;
    for (int k = 0; k < -exponent; ++k) divisor *= 10;
    value = negative ? value / divisor : CeilDiv(value, divisor);
  }
  if (value > kMax) return QuantityError(text, "too large");
  return static_cast<int64_t>(negative ? -value : value);
}

}  // namespace

namespace {

bool IsMemoryLike(std::string_view resource) {
  return resource == "memory" || resource == "ephemeral-storage" || resource == "storage" ||
         resource.starts_with("hugepages-");
}

}  // namespace

Result<int64_t> QuantityAmount(std::string_view resource, const Value& quantity) {
  const int unit_pow10 = resource == "cpu" ? 3 : 0;
  if (quantity.is_string()) return ParseAmount(quantity.as_string(), unit_pow10);
  if (quantity.is_number()) {
    std::string text;
    json::FormatNumber(quantity, &text);
    return ParseAmount(text, unit_pow10);
  }
  return Error::Of(
      ErrorCode::kInvalidInput,
      "a quantity must be a string or a number, got " + json::ToCompactString(quantity),
      "write quantities as strings: \"500m\", \"16Gi\"");
}

Result<int64_t> QuantityAmount(std::string_view resource, std::string_view text) {
  return ParseAmount(text, resource == "cpu" ? 3 : 0);
}

bool IsQuantity(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  bool digit = false, dot = false;
  for (; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      digit = true;
    } else if (text[i] == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  int pow10 = 0, pow2 = 0;
  return digit && ParseSuffix(text.substr(i), &pow10, &pow2);
}

std::string FormatAmount(std::string_view resource, int64_t amount) {
  if (resource == "cpu") {
    if (amount % 1000 == 0) return std::to_string(amount / 1000);
    return std::to_string(amount) + "m";
  }
  if (IsMemoryLike(resource) && amount != 0) {
    static constexpr const char* kSuffixes[] = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    for (int k = 0; k < 6; ++k) {
      const int64_t unit = int64_t{1} << (10 * (6 - k));
      if (amount % unit == 0) return std::to_string(amount / unit) + kSuffixes[k];
    }
  }
  return std::to_string(amount);
}

}  // namespace wmap
