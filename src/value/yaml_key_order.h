// go-yaml's mapping key order, used when the YAML writer sorts keys. Private to the value layer.
#ifndef WMAP_SRC_VALUE_YAML_KEY_ORDER_H_
#define WMAP_SRC_VALUE_YAML_KEY_ORDER_H_

#include <string_view>

namespace wmap::yaml::internal {

// Strict weak order of go-yaml's key sorter for string keys: compares code points; at the first
// difference, two letters compare by code point, a letter sorts before a non-letter (after a
// non-letter when the common prefix ends in a digit), and runs of digits compare by numeric
// value, then by length. A proper prefix sorts first. Letters outside ASCII are recognised for
// the common scripts only.
bool KeyLess(std::string_view a, std::string_view b);

}  // namespace wmap::yaml::internal

#endif  // WMAP_SRC_VALUE_YAML_KEY_ORDER_H_
