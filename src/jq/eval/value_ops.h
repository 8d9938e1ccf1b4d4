// jq's operations on values with gojq's semantics and error messages: indexing, slicing,
// arithmetic. Every function either stores its result in *out and returns true, or stores
// gojq's error message in *error and returns false.
#ifndef WMAP_JQ_EVAL_VALUE_OPS_H_
#define WMAP_JQ_EVAL_VALUE_OPS_H_

#include <cstdint>
#include <string>

#include "jq/ast.h"
#include "wmap/value.h"

namespace wmap::jq::eval {

// `v[key]` for any key (string, number, array of numbers, {"start","end"} slice object).
bool IndexValue(const Value& v, const Value& key, Value* out, std::string* error);
// `v.name`: the string-key case of IndexValue, without building a key value.
bool IndexField(const Value& v, std::string_view name, Value* out, std::string* error);
// `v[from:to]`; null bounds are open.
bool SliceValue(const Value& v, const Value& from, const Value& to, Value* out, std::string* error);
// Message for iterating over a value that is neither an array nor an object.
std::string IterateError(const Value& v);

// Binary operators other than and/or/alternative.
bool BinaryOperation(ast::BinaryOp op, const Value& l, const Value& r, Value* out,
                     std::string* error);
bool Negate(const Value& v, Value* out, std::string* error);
// -v for a number: int64 minimum becomes a big integer, a number literal keeps its text with the
// sign toggled (as gojq negates a number read from input), -0.0 and NaN stay doubles.
Value NegateNumber(const Value& number);

// gojq's conversion of a number to an integer index: truncation toward zero, saturating.
int64_t ToIndex(const Value& number);
// Slice bounds from numbers: the start rounds down, the end rounds up (gojq 0.12.19).
int64_t SliceStart(const Value& number);
int64_t SliceEnd(const Value& number);
// gojq's clampIndex: negative i counts from max, then the result is clamped to [min, max].
int64_t ClampIndex(int64_t i, int64_t min, int64_t max);

// A number value from a double: an int64 when integral with |d| <= 2^53 (where both print alike),
// the double otherwise.
Value NumberValue(double d);

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_VALUE_OPS_H_
