#include "jq/builtins/civil_time.h"

#include <algorithm>
#include <ctime>

namespace wmap::jq::builtins {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t Clamp(int64_t v, int64_t limit) { return std::max(-limit, std::min(limit, v)); }

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

int64_t UnixFromFields(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                       int64_t second, int64_t offset) {
  // Bounds keep every product below 2^63 while covering any realistic date.
  year = Clamp(year, 1'000'000'000);
  month = Clamp(month, 1'000'000'000);
  day = Clamp(day, 1'000'000'000'000);
  hour = Clamp(hour, 1'000'000'000'000);
  minute = Clamp(minute, 1'000'000'000'000);
  second = Clamp(second, 1'000'000'000'000);
  int64_t m0 = month - 1;
  year += FloorDiv(m0, 12);
  int m = static_cast<int>(m0 - FloorDiv(m0, 12) * 12) + 1;
  int64_t days = DaysFromCivil(year, m, 1) + (day - 1);
  return days * 86400 + hour * 3600 + minute * 60 + second - offset;
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

int64_t UnixFromLocalFields(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                            int64_t second) {
  int64_t as_utc = UnixFromFields(year, month, day, hour, minute, second, 0);
  int64_t guess = as_utc - LocalOffset(as_utc, nullptr);
  return as_utc - LocalOffset(guess, nullptr);
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
