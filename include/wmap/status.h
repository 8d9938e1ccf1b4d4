// Error reporting shared by every layer: an error is a value with a message, a source position
// when one is known, and an optional hint that says what to do next.
#ifndef WMAP_STATUS_H_
#define WMAP_STATUS_H_

#include <string>
#include <utility>
#include <variant>

namespace wmap {

// 1-based line and column (column counts bytes); 0 means unknown.
struct Position {
  int line = 0;
  int column = 0;
  size_t offset = 0;  // 0-based byte offset into the source
  bool known() const { return line > 0; }
};

struct Error {
  std::string message;
  std::string file;  // may be empty ("<stdin>" for standard input)
  Position position;
  std::string hint;

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

#endif  // WMAP_STATUS_H_
