// gojq's short renderings of values inside error messages.
#ifndef WMAP_JQ_EVAL_PREVIEW_H_
#define WMAP_JQ_EVAL_PREVIEW_H_

#include <string>

#include "wmap/value.h"

namespace wmap::jq::eval {

// Compact JSON of v cut to at most 30 bytes, ending in ` ...`, ` ..."`, ` ...]` or ` ...}` when
// cut (gojq's Preview). Work is bounded regardless of the size or depth of v.
std::string Preview(const Value& v);
// "null" for null, else "<type> (<preview>)" (gojq's typeErrorPreview).
std::string TypeErrorPreview(const Value& v);

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_PREVIEW_H_
