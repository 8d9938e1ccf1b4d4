// A growable byte buffer for input text that may be very large (one JSON document of hundreds of
// megabytes), in its own anonymous memory mapping.
//
// Unlike std::string it grows without copying or zero-filling (mremap moves the pages; a page
// becomes resident only when a read writes it), it can give the pages of text already parsed
// back to the system while offsets stay valid (Discard), and it returns its spare pages after
// a large value has been consumed. Invariant: [0, size()) is readable; bytes before
// discarded() read as zeros.
#ifndef WMAP_CLI_TEXT_BUFFER_H_
#define WMAP_CLI_TEXT_BUFFER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace wmap::cli {

class TextBuffer {
 public:
  TextBuffer() = default;
  ~TextBuffer();
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {data_, size_}; }
  size_t discarded() const { return discarded_; }

  // Appends up to max_bytes read from fd with one read() call (retried on EINTR). Returns the
  // number of bytes read (0 at the end of the input), or -1 with errno set.
  long AppendFromFd(int fd, size_t max_bytes);
  // Appends everything up to the end of fd. False with errno set on a read error.
  bool AppendAllFromFd(int fd);
  void Append(std::string_view s);
  // Drops the first n bytes (the rest moves to the front) and gives spare pages back when the
  // buffer is much larger than what it holds.
  void EraseFront(size_t n);
  void Clear() { EraseFront(size_); }
  // Gives the whole pages below offset back to the system; the caller never reads them again.
  void Discard(size_t offset);

 private:
  // Makes capacity for at least n bytes; aborts with std::bad_alloc when memory is exhausted.
  void Reserve(size_t n);

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;   // bytes mapped (a multiple of the page size)
  size_t discarded_ = 0;  // a multiple of the page size, <= size_
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_TEXT_BUFFER_H_
