// Scalar rules shared by the YAML reader and writer: how plain scalars resolve to types under
// the two supported schemas, Go-compatible integer/float/timestamp parsing, and Go's shortest
// float formatting. Private to the value layer.
#ifndef WMAP_SRC_VALUE_YAML_SCALAR_H_
#define WMAP_SRC_VALUE_YAML_SCALAR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "wmap/yaml.h"

namespace wmap::yaml::internal {

// What a scalar's text resolves to. kUint is an integer above INT64_MAX (up to UINT64_MAX).
enum class ScalarKind { kString, kNull, kBool, kInt, kUint, kFloat, kTimestamp };

struct Resolved {
  ScalarKind kind = ScalarKind::kString;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
};

// Resolves the text of an untagged plain scalar. Under Schema::kKubernetes the YAML 1.1 table of
// go-yaml v2 applies (yes/no/on/off/y/n are booleans); under Schema::kGojq that of go-yaml v3
// (only true/false). Both: null/~/empty, Go integer syntax after removing '_' (0x, 0o, 0b,
// leading-0 octal), YAML floats, .inf/.nan, and timestamps (reported as kTimestamp).
Resolved ResolvePlain(std::string_view s, Schema schema);

// Go's strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) (no underscores accepted).
bool ParseGoInt(std::string_view s, int64_t* out);
bool ParseGoUint(std::string_view s, uint64_t* out);

// A timestamp in one of the forms go-yaml accepts: "2006-1-2T15:4:5.999999999Z07:00" (T or t),
// "2006-1-2 15:4:5.999999999" and "2006-1-2".
struct Timestamp {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int nanos = 0;           // fractional second, in nanoseconds
  int offset_seconds = 0;  // east of UTC
};
bool ParseTimestamp(std::string_view s, Timestamp* out);
// True for sexagesimal numbers such as "1:20" (go-yaml quotes them on output).
bool IsBase60Float(std::string_view s);

// Appends Go's strconv.FormatFloat(d, 'g', -1, bits) (bits is 32 or 64): the shortest digits
// that round-trip at that precision, in exponent form when the decimal exponent is < -4 or >= 6
// ("1e+06", "0.0001", "123456.5", "-0", "+Inf", "-Inf", "NaN").
void FormatGoFloat(double d, int bits, std::string* out);

}  // namespace wmap::yaml::internal

#endif  // WMAP_SRC_VALUE_YAML_SCALAR_H_
