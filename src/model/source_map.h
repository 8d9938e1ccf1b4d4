// Maps a byte offset inside a scalar's text (a jq expression) back to a line and column of the
// YAML or JSON source it was read from.
//
// Exact for plain and quoted scalars on one line without escapes, and for literal block scalars
// (`|`, `|-`, `|+`); for other styles (folded, multi-line plain, escapes) the position is the
// nearest known point (the start of the scalar's content or of its line).
#ifndef WMAP_MODEL_SOURCE_MAP_H_
#define WMAP_MODEL_SOURCE_MAP_H_

#include <string_view>

#include "wmap/status.h"

namespace wmap::model {

// `field` is the recorded position of the node: the key for an object member (is_member), the
// value itself for an array item. Returns `field` when the source cannot be read there.
Position MapScalarOffset(std::string_view source, Position field, bool is_member,
                         std::string_view scalar_text, size_t offset);

}  // namespace wmap::model

#endif  // WMAP_MODEL_SOURCE_MAP_H_
