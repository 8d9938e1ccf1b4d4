// A large in-memory output buffer in front of a file descriptor.
//
// Guarantees: bytes reach the descriptor in the order they were appended, in writes of at least
// kFlushThreshold bytes except for explicit Flush() calls and destruction. A write error is
// sticky: later appends are dropped and ok() stays false. Not thread-safe.
#ifndef WMAP_CLI_OUTPUT_BUFFER_H_
#define WMAP_CLI_OUTPUT_BUFFER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace wmap::cli {

class OutputBuffer {
 public:
  static constexpr size_t kFlushThreshold = 1 << 20;

  explicit OutputBuffer(int fd) : fd_(fd) { buffer_.reserve(kFlushThreshold + 4096); }
  ~OutputBuffer() { Flush(); }
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  // The string to append to directly; call MaybeFlush() after appending.
  std::string* buffer() { return &buffer_; }
  void Append(std::string_view s) {
    buffer_.append(s);
    MaybeFlush();
  }
  void Append(char c) {
    buffer_.push_back(c);
    MaybeFlush();
  }
  void MaybeFlush() {
    if (buffer_.size() >= kFlushThreshold) Flush();
  }
  // Writes everything buffered; returns ok().
  bool Flush();
  bool ok() const { return ok_; }
  // The errno of the failed write (0 while ok()).
  int error() const { return error_; }

 private:
  int fd_;
  std::string buffer_;
  bool ok_ = true;
  int error_ = 0;
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_OUTPUT_BUFFER_H_
