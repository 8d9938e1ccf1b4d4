// Shared helpers for the native builtins: gojq's error texts, value previews and number
// conversions. Every helper is pure and bounded by the size of its inputs (previews stop after
// a fixed number of bytes, whatever the size of the value).
#ifndef WMAP_JQ_BUILTINS_COMMON_H_
#define WMAP_JQ_BUILTINS_COMMON_H_

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "jq/eval/preview.h"
#include "jq/native.h"
#include "wmap/value.h"

namespace wmap::jq::builtins {

// gojq's preview of a value (compact JSON cut to 30 bytes) and its "<type> (<preview>)" form;
// the evaluator's renderings, so operators and natives word errors alike.
inline std::string Preview(const Value& v) { return eval::Preview(v); }
inline std::string TypePreview(const Value& v) { return eval::TypeErrorPreview(v); }

// "<name> cannot be applied to: <type preview of v>".
std::string FuncTypeError(std::string_view name, const Value& v);

// "<name>(<arg previews joined by "; ">) cannot be applied to: <type preview of v>".
std::string FuncArgsTypeError(std::string_view name, std::span<const Value> args, const Value& v);

// "<name> cannot be applied to <preview of v>: <reason>", and the same with arguments.
std::string FuncWrapError(std::string_view name, const Value& v, std::string_view reason);
std::string FuncArgsWrapError(std::string_view name, std::span<const Value> args, const Value& v,
                              std::string_view reason);

// What one string element of `n` bytes in a new array costs the memory budget (the evaluator's
// own estimate: short strings live inside the value).
inline size_t PieceBytes(size_t n) { return sizeof(Value) + (n > 14 ? n + 16 : 0); }

// The compact JSON text of v (tojson), charged to the run as it is written: false (and *out
// left partial or empty) once the budget is spent.
bool ChargedCompactJson(const NativeContext& ctx, const Value& v, std::string* out);

// Sets *out to the string error and returns false, for `return Fail(out, ...)`.
inline bool Fail(Value* out, std::string message) {
  *out = Value::String(std::move(message));
  return false;
}
inline bool Ok(Value* out, Value v) {
  *out = std::move(v);
  return true;
}

// A number result: an exact integer when d is integral, in int64 range and not -0; a double
// otherwise (so -0 and fractional values keep their text).
Value NumberResult(double d);

// gojq's toInt: doubles truncate toward zero and clamp to the int64 range; NaN gives the
// minimum (Go converts it like -infinity).
int64_t ClampToInt(const Value& number);

// "cannot add: <type preview l> and <type preview r>" (the `+` operator's error).
std::string AddError(const Value& l, const Value& r);

// Appends `v` + `w` following jq's `+` for the value kinds natives combine (null, numbers,
// strings, arrays, objects). Returns false with an error message in *out otherwise.
bool AddValues(const Value& l, const Value& r, Value* out);

}  // namespace wmap::jq::builtins

#endif  // WMAP_JQ_BUILTINS_COMMON_H_
