// Values of the limit flags of `wmap jq` (--timeout, --max-memory, --max-steps,
// --max-outputs): durations, byte sizes and counts as people write them.
#ifndef WMAP_CLI_LIMIT_VALUES_H_
#define WMAP_CLI_LIMIT_VALUES_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wmap::cli {

// "30s", "1.5m", "500ms", "2h", "250us": a positive decimal number and a unit (ns, us, ms, s,
// m, h), as Go's time.ParseDuration takes them; at most a year.
std::optional<std::chrono::nanoseconds> ParseLimitDuration(std::string_view text);

// "512Mi", "2G", "1048576": a positive whole number with an optional suffix, binary (Ki, Mi,
// Gi, Ti, Pi, Ei) or decimal (k, M, G, T, P, E), read as Kubernetes quantities (wmap/quantity.h).
std::optional<uint64_t> ParseLimitBytes(std::string_view text);

// A size as ParseLimitBytes reads it back: "256Mi", "1Gi", "1000".
std::string FormatLimitBytes(uint64_t bytes);

// A positive integer.
std::optional<uint64_t> ParseLimitCount(std::string_view text);

}  // namespace wmap::cli

#endif  // WMAP_CLI_LIMIT_VALUES_H_
