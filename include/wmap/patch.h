// JSON merge patches (RFC 7386) and JSON patches (RFC 6902) between two values.
//
// MergePatch(from, to) is the smallest merge patch in RFC 7386's sense: objects are compared
// member by member and only the members that differ appear; a member `from` has and `to` lacks
// appears as null; anything that is not an object on both sides is replaced whole. Its members
// follow `to`'s order, then the removed members in `from`'s order.
//
// ApplyMergePatch(from, MergePatch(from, to)) == to holds whenever `to` has no null member
// inside an object that `from` lacks or that differs (RFC 7386 cannot express a null value).
#ifndef WMAP_PATCH_H_
#define WMAP_PATCH_H_

#include "wmap/export.h"
#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

Value MergePatch(const Value& from, const Value& to);

// RFC 7386's MergePatch(target, patch): a null member of the patch removes the member, an
// object member merges recursively, anything else replaces.
Value ApplyMergePatch(const Value& target, const Value& patch);

// An RFC 6902 patch (an array of {"op", "path", "value"} operations) from `from` to `to` that
// uses only "add", "remove" and "replace": objects are compared member by member (removals
// first, then changes and additions in `to`'s order); arrays of equal length element by element;
// an array that only grows at its end gets "add" operations for the new elements; any other
// difference replaces the value at that path. Paths are JSON pointers (RFC 6901, "~0" and "~1"
// escapes). Equal values give an empty array.
Value JsonPatch(const Value& from, const Value& to);

// Applies the "add", "remove" and "replace" operations of an RFC 6902 patch; any other operation,
// a path that does not exist or a malformed operation is an error naming the operation's index.
Result<Value> ApplyJsonPatch(const Value& target, const Value& patch);

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_PATCH_H_
