// Value checks for the `format`s the validator knows, and the texts its messages are made of.
#ifndef WMAP_SCHEMA_FORMATS_H_
#define WMAP_SCHEMA_FORMATS_H_

#include <string>
#include <string_view>

#include "schema/graph.h"
#include "wmap/value.h"

namespace wmap::schema {

// Whether `v` (already of an admitted type) satisfies `format`. Only strings are checked for
// string formats and only numbers for numeric ones; kNone always holds.
bool FormatHolds(Format format, const Value& v);
// The format's name as messages use it ("int32", "date-time", "quantity").
std::string_view FormatName(Format format);

// TypeBit set of a value: integral numbers carry both kIntegerBit and kNumberBit.
uint8_t ValueBits(const Value& v);
// The schema type name of a value: "integer" for integral numbers, "number", "string", ...
std::string_view ValueTypeName(const Value& v);
// "integer", "integer or string", "string or number".
std::string ExpectedTypes(uint8_t bits);
// A value as field errors print it: strings quoted, numbers and booleans bare, containers as
// compact JSON (long texts shortened with "...").
std::string ShowValue(const Value& v);

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_FORMATS_H_
