// getpath, setpath and delpaths with gojq's semantics and messages. Path arrays hold strings
// (object keys), numbers (array indices, negative from the end) and {"start","end"} objects
// (array slices). Recursion along a path is bounded by the run's depth budget.
#ifndef WMAP_JQ_EVAL_PATHS_H_
#define WMAP_JQ_EVAL_PATHS_H_

#include <span>
#include <string>

#include "jq/eval/runtime.h"
#include "wmap/value.h"

namespace wmap::jq::eval {

// The value at `path` in v (null where absent). On failure raises gojq's getpath error.
Status GetPath(Runtime& rt, const Value& v, const Value& path, Value* out);
// v with the value at `path` replaced by n, creating objects and arrays where null. Consumes v:
// containers held only by v are updated in place.
Status SetPath(Runtime& rt, Value v, const Value& path, const Value& n, Value* out);
// v without the values at each path of `paths` (an array of paths). Indices refer to v before
// any deletion.
Status DelPaths(Runtime& rt, const Value& v, const Value& paths, Value* out);

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_PATHS_H_
