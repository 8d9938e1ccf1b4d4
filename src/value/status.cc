// Error formatting.
#include "wmap/status.h"

#include <iterator>

namespace wmap {

namespace {

// The one table of error codes. The workload commands' exit codes are upstream kli's (1 error,
// 2 usage, 3 not found, 4 no definition);
// `wmap jq` keeps gojq's (2 usage, 3 compile error, 5 any other failure).
constexpr ErrorCodeTraits kErrorCodes[] = {
    {ErrorCode::kUnknown, "error", 1, 5},
    {ErrorCode::kUsage, "usage", 2, 2},
    {ErrorCode::kNotFound, "not_found", 3, 2},
    {ErrorCode::kNoDefinition, "no_definition_for_type", 4, 5},
    {ErrorCode::kParse, "parse_error", 1, 3},
    {ErrorCode::kCompile, "compile_error", 1, 3},
    {ErrorCode::kInvalidInput, "invalid_input", 1, 5},
    {ErrorCode::kInvalidDefinition, "invalid_definition", 1, 5},
    {ErrorCode::kEvaluation, "evaluation_failed", 1, 5},
    {ErrorCode::kInvalidPath, "invalid_path", 1, 5},
    {ErrorCode::kLimitExceeded, "limit_exceeded", 1, 5},
    {ErrorCode::kIo, "io_error", 1, 2},
    {ErrorCode::kUnsupported, "not_supported", 1, 5},
    {ErrorCode::kNotWritable, "not_writable", 1, 5},
    {ErrorCode::kUnauthorized, "unauthorized", 1, 5},
    {ErrorCode::kForbidden, "forbidden", 1, 5},
    {ErrorCode::kUnreachable, "unreachable", 1, 5},
    {ErrorCode::kConflict, "conflict", 1, 5},
    {ErrorCode::kInternal, "internal_error", 1, 5},
};
static_assert(std::size(kErrorCodes) == static_cast<size_t>(ErrorCode::kInternal) + 1);

}  // namespace

const ErrorCodeTraits& ErrorCodeInfo(ErrorCode code) {
  size_t index = static_cast<size_t>(code);
  if (index >= std::size(kErrorCodes) || kErrorCodes[index].code != code) return kErrorCodes[0];
  return kErrorCodes[index];
}

ErrorCode ErrorCodeFromName(std::string_view name) {
  for (const ErrorCodeTraits& row : kErrorCodes) {
    if (row.name == name) return row.code;
  }
  return ErrorCode::kUnknown;
}

std::string Error::ToString() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    out += ':';
  }
  if (position.known()) {
    out += std::to_string(position.line);
    out += ':';
    if (position.column > 0) {
      out += std::to_string(position.column);
      out += ':';
    }
  }
  if (!out.empty()) out += ' ';
  out += message;
  return out;
}

}  // namespace wmap
