// Locating and reading jq modules (`import`/`include`, modulemeta) in the library paths.
#ifndef WMAP_JQ_EVAL_MODULES_H_
#define WMAP_JQ_EVAL_MODULES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/value.h"

namespace wmap::jq::eval {

// The file for module `relpath` with extension `ext` (".jq" or ".json"): tried as
// <dir>/<relpath><ext> and <dir>/<relpath>/<last component><ext> for each directory of the
// import's `search` metadata (relative to `base_dir`), then each of `library_paths`.
std::optional<std::string> FindModule(std::string_view relpath, std::string_view ext,
                                      const Value& metadata, const std::string& base_dir,
                                      const std::vector<std::string>& library_paths);

bool ReadTextFile(const std::string& path, std::string* out);

// The directory part of a file path ("" for a bare name).
std::string DirName(const std::string& path);

// modulemeta: the module's metadata with "defs" and "deps", or false with gojq's message.
bool ModuleMeta(std::string_view name, const std::vector<std::string>& library_paths, Value* out,
                std::string* error);

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_MODULES_H_
