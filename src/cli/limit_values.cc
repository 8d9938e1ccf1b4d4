#include "cli/limit_values.h"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>

#include "wmap/quantity.h"

namespace wmap::cli {
namespace {

// The leading run of digits (and, when allowed, one decimal point) of text.
std::string_view NumberPrefix(std::string_view text, bool allow_point) {
  size_t i = 0;
  bool point = false;
  while (i < text.size() &&
         ((text[i] >= '0' && text[i] <= '9') || (allow_point && !point && text[i] == '.'))) {
    point = point || text[i] == '.';
    ++i;
  }
  return text.substr(0, i);
}

}  // namespace

std::optional<std::chrono::nanoseconds> ParseLimitDuration(std::string_view text) {
  std::string_view number = NumberPrefix(text, true);
  if (number.empty() || number == ".") return std::nullopt;
  std::string_view unit = text.substr(number.size());
  double scale = 0;
  if (unit == "ns") {
    scale = 1;
  } else if (unit == "us" || unit == "µs") {
    scale = 1e3;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "s") {
    scale = 1e9;
  } else if (unit == "m") {
    scale = 60e9;
  } else if (unit == "h") {
    scale = 3600e9;
  } else {
    return std::nullopt;
  }
  double value = std::stod(std::string(number)) * scale;
  if (!(value >= 1) || value > 366.0 * 24 * 3600e9) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<int64_t>(std::llround(value)));
}

std::optional<uint64_t> ParseLimitBytes(std::string_view text) {
  // Whole numbers only: a byte limit has no fraction, sign or exponent.
  std::string_view number = NumberPrefix(text, false);
  if (number.empty()) return std::nullopt;
  std::string_view suffix = text.substr(number.size());
  if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E' || suffix[0] == '.')) {
    return std::nullopt;
  }
  Result<int64_t> amount = QuantityAmount("memory", text);
  if (!amount.ok() || *amount <= 0) return std::nullopt;
  return static_cast<uint64_t>(*amount);
}

std::string FormatLimitBytes(uint64_t bytes) {
  static constexpr std::pair<uint64_t, const char*> kUnits[] = {{uint64_t{1} << 40, "Ti"},
                                                                {uint64_t{1} << 30, "Gi"},
                                                                {uint64_t{1} << 20, "Mi"},
                                                                {uint64_t{1} << 10, "Ki"}};
  for (const auto& [unit, suffix] : kUnits) {
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + suffix;
  }
  return std::to_string(bytes);
}

std::optional<uint64_t> ParseLimitCount(std::string_view text) {
  if (NumberPrefix(text, false).size() != text.size() || text.empty()) return std::nullopt;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || value == 0) return std::nullopt;
  return value;
}

}  // namespace wmap::cli
