// Calendar arithmetic for the date builtins: a broken-down time in a fixed UTC offset, converted
// to and from seconds since the Unix epoch, with Go's time.Date normalisation (out-of-range
// months, days, hours... carry into the larger fields). Pure functions, no global state except
// the process time zone read by LocalOffset().
#ifndef WMAP_JQ_BUILTINS_CIVIL_TIME_H_
#define WMAP_JQ_BUILTINS_CIVIL_TIME_H_

#include <cstdint>
#include <optional>
#include <string>

namespace wmap::jq::builtins {

// A broken-down time: calendar fields of one instant as seen in a fixed UTC offset. Produced by
// CivilFromUnix, which keeps every field in its normal range.
struct CivilTime {
  int64_t year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
  int hour = 0;
  int minute = 0;
  int second = 0;
  int64_t nanos = 0;         // 0..999999999
  int weekday = 4;           // 0 = Sunday
  int yday = 0;              // 0-based day of the year
  int64_t offset = 0;        // seconds east of UTC
  std::string zone = "UTC";  // abbreviation for %Z
};

// Days since 1970-01-01 of a proleptic Gregorian date (month 1..12).
int64_t DaysFromCivil(int64_t y, int m, int d);

// The civil time of `seconds` + `nanos` (0..1e9) since the epoch, shifted by `offset` seconds.
CivilTime CivilFromUnix(int64_t seconds, int64_t nanos, int64_t offset, std::string zone);

// Seconds since the epoch of the given fields read in a fixed offset; fields may be out of range
// and are normalised as Go's time.Date does. Exact, or nullopt when the instant is beyond what
// int64 seconds hold (years past about ±2.9e11).
std::optional<int64_t> UnixFromFields(int64_t year, int64_t month, int64_t day, int64_t hour,
                                      int64_t minute, int64_t second, int64_t offset);

// The process time zone's offset (seconds east of UTC) and abbreviation at `seconds`.
int64_t LocalOffset(int64_t seconds, std::string* zone);

// Seconds since the epoch of local-time fields (normalised as UnixFromFields; nullopt as it).
std::optional<int64_t> UnixFromLocalFields(int64_t year, int64_t month, int64_t day, int64_t hour,
                                           int64_t minute, int64_t second);

// ISO 8601 week-numbering year and week of a civil date.
void IsoWeek(const CivilTime& t, int64_t* iso_year, int* iso_week);

}  // namespace wmap::jq::builtins

#endif  // WMAP_JQ_BUILTINS_CIVIL_TIME_H_
