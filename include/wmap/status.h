// Error reporting shared by every layer: an error is a value with a code, a message, a source
// position or a field path when one is known, and an optional hint that says what to do next.
// Callers decide on the code, never on the message: ErrorCodeInfo() is the one table that maps a
// code to its machine-readable name and to the exit codes of the command line.
#ifndef WMAP_STATUS_H_
#define WMAP_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "wmap/export.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// 1-based line and column (column counts bytes); 0 means unknown.
struct Position {
  int line = 0;
  int column = 0;
  size_t offset = 0;  // 0-based byte offset into the source
  bool known() const { return line > 0; }
};

// What kind of failure an error is. Stable: the names are part of the error documents that
// `-o json` prints, and scripts rely on the exit codes.
enum class ErrorCode : uint8_t {
  kUnknown,            // not classified
  kUsage,              // a command line or API call that is malformed (flags, arguments)
  kNotFound,           // a file, definition or workload that is not there
  kNoDefinition,       // an object whose apiVersion/kind no definition reads
  kParse,              // JSON, YAML or jq text that does not parse
  kCompile,            // a jq program that parses but does not compile (unknown function...)
  kInvalidInput,       // an object or document with the wrong shape
  kInvalidDefinition,  // a definition that does not validate
  kEvaluation,         // a jq expression that failed while running
  kInvalidPath,        // a jq expression used as a path that is not one (cannot be written)
  kLimitExceeded,      // a budget: time, memory, steps, outputs, depth, size
  kIo,                 // reading or writing failed
  kUnsupported,        // a valid request this build or this workload cannot serve
  kNotWritable,        // a change the definition has no writable path for
  kUnauthorized,       // the API server rejected the credentials (401)
  kForbidden,          // the API server refused the request to this user (403)
  kUnreachable,        // the API server could not be reached (DNS, connect, TLS, timeout)
  kConflict,           // the API server refused a write that conflicts (409: exists, field owners)
  kInternal,           // a broken invariant (a bug)
};

struct ErrorCodeTraits {
  ErrorCode code;
  std::string_view name;  // "invalid_input": the `error` field of error documents
  int exit_code;          // of the workload commands (get, describe, gang, mutate...)
  int jq_exit_code;       // of `wmap jq`, which keeps gojq's: 2 usage, 3 compile, 5 otherwise
};

// The row of the table for `code`.
const ErrorCodeTraits& ErrorCodeInfo(ErrorCode code);
// The code named `name`, or kUnknown.
ErrorCode ErrorCodeFromName(std::string_view name);

struct Error {
  std::string message;
  std::string file;  // may be empty ("<stdin>" for standard input)
  Position position;
  std::string hint;
  ErrorCode code = ErrorCode::kUnknown;
  std::string field = "";  // the field path the error is about ("spec.replicas"), "" if none
  // The cause in full for those who debug it (a jq expression as run and the evaluator's
  // message), "" if none; `message` says what failed without it, and front ends show it only
  // when asked (mutate --verbose).
  std::string detail = "";
  // What a reader knows beyond the message, for front ends that lay errors out themselves: the
  // problem alone (`message` may add the location and the context to it), and the construct it
  // was found in with where that began (a YAML scanner's "while scanning a quoted scalar"), ""
  // and unknown when not known.
  std::string problem = "";
  std::string context = "";
  Position context_position = {};

  static Error Of(ErrorCode code, std::string message, std::string hint = "") {
    Error e;
    e.code = code;
    e.message = std::move(message);
    e.hint = std::move(hint);
    return e;
  }

  // "file:line:col: message" (parts that are unknown are left out).
  std::string ToString() const;
};

// A value or an error.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_STATUS_H_
