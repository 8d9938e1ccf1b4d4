// strftime and strptime with the directives, flags and error texts of gojq's time formatting
// (itchyny/timefmt-go). Output length is bounded: widths are capped at 1024 per directive.
#ifndef WMAP_JQ_BUILTINS_TIME_FORMAT_H_
#define WMAP_JQ_BUILTINS_TIME_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "jq/builtins/civil_time.h"

namespace wmap::jq::builtins {

// Formats `t` (whose Unix time is `unix_seconds`) with a strftime-style format.
std::string FormatTime(const CivilTime& t, int64_t unix_seconds, std::string_view format);

// Parses `source` with a strptime-style format. On success sets *unix_seconds and *nanos (the
// instant, any parsed zone offset applied) and returns true; otherwise sets *error to
// `failed to parse "<source>" with "<format>": <reason>`.
bool ParseTime(std::string_view source, std::string_view format, int64_t* unix_seconds,
               int64_t* nanos, std::string* error);

}  // namespace wmap::jq::builtins

#endif  // WMAP_JQ_BUILTINS_TIME_FORMAT_H_
