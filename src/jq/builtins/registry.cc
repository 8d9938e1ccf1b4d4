#include "jq/builtins/registry.h"

#include <vector>

#include "jq/native.h"

namespace wmap::jq {

std::span<const NativeSpec> NativeBuiltins() {
  // Built once, on first use; the topic tables are static, so the specs stay valid.
  static const std::vector<NativeSpec> all = [] {
    std::vector<NativeSpec> specs;
    for (auto table :
         {builtins::CollectionNatives(), builtins::StringNatives(), builtins::MathNatives(),
          builtins::RegexNatives(), builtins::DateNatives(), builtins::FormatNatives()}) {
      specs.insert(specs.end(), table.begin(), table.end());
    }
    return specs;
  }();
  return all;
}

}  // namespace wmap::jq
