#include "jq/builtins/civil_time.h"

#include <algorithm>
#include <ctime>
#include <limits>

namespace wmap::jq::builtins {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = FloorDiv(y, 400);
  int64_t yoe = y - era * 400;
  int64_t mp = (m + 9) % 12;
  int64_t doy = (153 * mp + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilTime CivilFromUnix(int64_t seconds, int64_t nanos, int64_t offset, std::string zone) {
  CivilTime t;
  int64_t local = seconds + offset;
  int64_t days = FloorDiv(local, 86400);
  int64_t rem = local - days * 86400;
  t.hour = static_cast<int>(rem / 3600);
  t.minute = static_cast<int>(rem % 3600 / 60);
  t.second = static_cast<int>(rem % 60);
  t.nanos = nanos;
  t.weekday = static_cast<int>(FloorDiv(days + 4, 7) * -7 + days + 4);
  int64_t z = days + 719468;
  int64_t era = FloorDiv(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  t.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  t.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  t.year = y + (t.month <= 2);
  t.yday = static_cast<int>(days - DaysFromCivil(t.year, 1, 1));
  t.offset = offset;
  t.zone = std::move(zone);
  return t;
}

std::optional<int64_t> UnixFromFields(int64_t year, int64_t month, int64_t day, int64_t hour,
                                      int64_t minute, int64_t second, int64_t offset) {
  // Within these bounds every intermediate fits in int64 and the sum in __int128; beyond them
  // the instant is certainly out of int64 seconds.
  constexpr int64_t kFieldLimit = 1'000'000'000'000;  // 1e12
  for (int64_t v : {year, month, day, hour, minute, second, offset}) {
    if (v > kFieldLimit || v < -kFieldLimit) return std::nullopt;
  }
  int64_t m0 = month - 1;
  year += FloorDiv(m0, 12);
  int m = static_cast<int>(m0 - FloorDiv(m0, 12) * 12) + 1;
  const __int128 days = static_cast<__int128>(DaysFromCivil(year, m, 1)) + (day - 1);
  const __int128 total = days * 86400 + static_cast<__int128>(hour) * 3600 +
                         static_cast<__int128>(minute) * 60 + second - offset;
  if (total > std::numeric_limits<int64_t>::max() || total < std::numeric_limits<int64_t>::min()) {
    return std::nullopt;
  }
  return static_cast<int64_t>(total);
}

int64_t LocalOffset(int64_t seconds, std::string* zone) {
  time_t t = static_cast<time_t>(seconds);
  struct tm tm {};
  if (localtime_r(&t, &tm) == nullptr) {
    if (zone != nullptr) *zone = "UTC";
    return 0;
  }
  if (zone != nullptr) *zone = tm.tm_zone != nullptr ? tm.tm_zone : "";
  return tm.tm_gmtoff;
}

std::optional<int64_t> UnixFromLocalFields(int64_t year, int64_t month, int64_t day, int64_t hour,
                                           int64_t minute, int64_t second) {
  std::optional<int64_t> as_utc = UnixFromFields(year, month, day, hour, minute, second, 0);
  if (!as_utc) return std::nullopt;
  // An offset is at most a day: near the ends of the range the shifted guesses are clamped.
  auto shift = [](int64_t v, int64_t by) {
    int64_t r;
    return __builtin_sub_overflow(v, by, &r) ? v : r;
  };
  const int64_t guess = shift(*as_utc, LocalOffset(*as_utc, nullptr));
  return shift(*as_utc, LocalOffset(guess, nullptr));
}

void IsoWeek(const CivilTime& t, int64_t* iso_year, int* iso_week) {
  // The week belongs to the year of its Thursday.
  int wd = (t.weekday + 6) % 7;  // Monday = 0
  int64_t days = DaysFromCivil(t.year, t.month, t.day);
  int64_t thursday = days - wd + 3;
  CivilTime th = CivilFromUnix(thursday * 86400, 0, 0, "");
  *iso_year = th.year;
  *iso_week = th.yday / 7 + 1;
}

}  // namespace wmap::jq::builtins
