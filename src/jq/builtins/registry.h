// The natives of each topic, collected by NativeBuiltins() (registry.cc). Each function returns
// a static table that lives for the whole process.
#ifndef WMAP_JQ_BUILTINS_REGISTRY_H_
#define WMAP_JQ_BUILTINS_REGISTRY_H_

#include <span>

#include "jq/native.h"

namespace wmap::jq::builtins {

std::span<const NativeSpec> CollectionNatives();
std::span<const NativeSpec> StringNatives();
std::span<const NativeSpec> MathNatives();
std::span<const NativeSpec> RegexNatives();
std::span<const NativeSpec> DateNatives();
std::span<const NativeSpec> FormatNatives();

}  // namespace wmap::jq::builtins

#endif  // WMAP_JQ_BUILTINS_REGISTRY_H_
