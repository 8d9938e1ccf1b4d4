// Date natives: gmtime, localtime, mktime, strftime, strflocaltime, strptime, now. Broken-down
// times are gojq's arrays [year, month (0-11), day, hours, minutes, seconds (with fraction),
// weekday (0 = Sunday), day of the year (0-based)].
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "jq/builtins/civil_time.h"
#include "jq/builtins/common.h"
#include "jq/builtins/registry.h"
#include "jq/builtins/time_format.h"

namespace wmap::jq::builtins {
namespace {

using Args = std::span<const Value>;

// An instant as whole seconds plus nanoseconds, split the way gojq splits an epoch number: the
// seconds truncate toward zero while the fraction is taken from the floor.
struct Instant {
  int64_t seconds = 0;
  int64_t nanos = 0;
};

// Exact for every epoch number whose seconds fit in int64; nullopt for the rest (NaN, infinities,
// beyond about ±2.9e11 years), which no date can show.
std::optional<Instant> InstantFromEpoch(double v) {
  if (!(v > -9.2e18 && v < 9.2e18)) return std::nullopt;
  Instant t;
  t.seconds = static_cast<int64_t>(v);
  double frac = v - std::floor(v);
  t.nanos = static_cast<int64_t>(frac * 1e9);
  if (t.nanos >= 1000000000) {
    t.seconds += t.nanos / 1000000000;
    t.nanos %= 1000000000;
  }
  return t;
}

double EpochFromInstant(const Instant& t) {
  return static_cast<double>(t.seconds) + static_cast<double>(t.nanos) / 1e9;
}

CivilTime CivilAt(const Instant& t, bool local) {
  if (!local) return CivilFromUnix(t.seconds, t.nanos, 0, "UTC");
  std::string zone;
  int64_t offset = LocalOffset(t.seconds, &zone);
  return CivilFromUnix(t.seconds, t.nanos, offset, std::move(zone));
}

Value BrokenDown(const CivilTime& t) {
  double seconds = static_cast<double>(t.second) + static_cast<double>(t.nanos) / 1e9;
  return Value::Array({Value::Int(t.year), Value::Int(t.month - 1), Value::Int(t.day),
                       Value::Int(t.hour), Value::Int(t.minute), Value::Number(seconds),
                       Value::Int(t.weekday), Value::Int(t.yday)});
}

// Reads a broken-down time array (missing trailing fields count as 0; weekday and day of the
// year are ignored). False when an element is not a number or the date is out of range.
bool InstantFromArray(const Value& a, bool local, Instant* out) {
  int64_t fields[6] = {0, 0, 0, 0, 0, 0};
  int64_t nanos = 0;
  auto items = a.items();
  for (size_t i = 0; i < items.size() && i < 8; ++i) {
    if (!items[i].is_number()) return false;
    if (i >= 6) continue;
    if (i == 5) {
      double s = items[i].as_double();
      fields[5] = ClampToInt(Value::Double(s));
      if (std::isfinite(s)) nanos = static_cast<int64_t>((s - std::floor(s)) * 1e9);
    } else {
      fields[i] = ClampToInt(items[i]);
    }
  }
  int64_t month = fields[1] > INT64_MAX - 1 ? fields[1] : fields[1] + 1;
  std::optional<int64_t> seconds =
      local ? UnixFromLocalFields(fields[0], month, fields[2], fields[3], fields[4], fields[5])
            : UnixFromFields(fields[0], month, fields[2], fields[3], fields[4], fields[5], 0);
  if (!seconds) return false;
  out->seconds = *seconds;
  out->nanos = nanos;
  return true;
}

bool Gmtime(const NativeContext&, const Value& in, Args, Value* out) {
  std::optional<Instant> t = in.is_number() ? InstantFromEpoch(in.as_double()) : std::nullopt;
  if (!t) return Fail(out, FuncTypeError("gmtime", in));
  return Ok(out, BrokenDown(CivilAt(*t, false)));
}

bool Localtime(const NativeContext&, const Value& in, Args, Value* out) {
  std::optional<Instant> t = in.is_number() ? InstantFromEpoch(in.as_double()) : std::nullopt;
  if (!t) return Fail(out, FuncTypeError("localtime", in));
  return Ok(out, BrokenDown(CivilAt(*t, true)));
}

bool Mktime(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("mktime", in));
  Instant t;
  if (!InstantFromArray(in, false, &t)) return Fail(out, FuncTypeError("mktime", in));
  return Ok(out, Value::Number(EpochFromInstant(t)));
}

bool FormatCommon(std::string_view name, bool local, const Value& in, Args args, Value* out) {
  if ((!in.is_number() && !in.is_array()) || !args[0].is_string()) {
    return Fail(out, FuncArgsTypeError(name, args, in));
  }
  // A number is formatted from its instant directly (exact); an array through its fields.
  std::optional<Instant> t;
  if (in.is_number()) {
    t = InstantFromEpoch(in.as_double());
  } else if (Instant from_fields; InstantFromArray(in, local, &from_fields)) {
    t = from_fields;
  }
  if (!t) return Fail(out, FuncArgsTypeError(name, args, in));
  CivilTime civil = CivilAt(*t, local);
  return Ok(out, Value::String(FormatTime(civil, t->seconds, args[0].as_string())));
}

bool Strftime(const NativeContext&, const Value& in, Args args, Value* out) {
  return FormatCommon("strftime", false, in, args, out);
}

bool Strflocaltime(const NativeContext&, const Value& in, Args args, Value* out) {
  return FormatCommon("strflocaltime", true, in, args, out);
}

bool Strptime(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!in.is_string() || !args[0].is_string()) {
    return Fail(out, FuncArgsTypeError("strptime", args, in));
  }
  Instant t;
  std::string error;
  if (!ParseTime(in.as_string(), args[0].as_string(), &t.seconds, &t.nanos, &error)) {
    return Fail(out, FuncArgsWrapError("strptime", args, in, error));
  }
  std::optional<Instant> rounded = InstantFromEpoch(EpochFromInstant(t));
  if (!rounded) return Fail(out, FuncArgsWrapError("strptime", args, in, "date out of range"));
  return Ok(out, BrokenDown(CivilAt(*rounded, false)));
}

bool Now(const NativeContext& ctx, const Value&, Args, Value* out) {
  if (ctx.run.now) return Ok(out, Value::Number(ctx.run.now()));
  auto since = std::chrono::system_clock::now().time_since_epoch();
  double seconds = std::chrono::duration<double>(since).count();
  return Ok(out, Value::Number(seconds));
}

constexpr NativeSpec kNatives[] = {
    {"gmtime", 0, Gmtime},     {"localtime", 0, Localtime},         {"mktime", 0, Mktime},
    {"strftime", 1, Strftime}, {"strflocaltime", 1, Strflocaltime}, {"strptime", 1, Strptime},
    {"now", 0, Now},
};

}  // namespace

std::span<const NativeSpec> DateNatives() { return kNatives; }

}  // namespace wmap::jq::builtins
