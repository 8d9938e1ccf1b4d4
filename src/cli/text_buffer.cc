#include "cli/text_buffer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wmap::cli {
namespace {

size_t PageSize() {
  static const size_t size = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

size_t RoundUpToPage(size_t n) { return (n + PageSize() - 1) & ~(PageSize() - 1); }

// Capacity kept after a large value has been consumed.
constexpr size_t kRetainedCapacity = size_t{4} << 20;

}  // namespace

TextBuffer::~TextBuffer() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
}

void TextBuffer::Reserve(size_t n) {
  if (n <= capacity_) return;
  size_t want = RoundUpToPage(std::max({n, capacity_ * 2, size_t{1} << 20}));
  void* p = data_ == nullptr
                ? ::mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : ::mremap(data_, capacity_, want, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<char*>(p);
  capacity_ = want;
}

long TextBuffer::AppendFromFd(int fd, size_t max_bytes) {
  Reserve(size_ + max_bytes);
  while (true) {
    ssize_t n = ::read(fd, data_ + size_, max_bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) size_ += static_cast<size_t>(n);
    return static_cast<long>(n);
  }
}

bool TextBuffer::AppendAllFromFd(int fd) {
  struct stat st;
  size_t chunk = size_t{1} << 20;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    Reserve(size_ + static_cast<size_t>(st.st_size) + 1);
    chunk = static_cast<size_t>(st.st_size) + 1;
  }
  while (true) {
    long n = AppendFromFd(fd, chunk);
    if (n < 0) return false;
    if (n == 0) return true;
  }
}

void TextBuffer::Append(std::string_view s) {
  Reserve(size_ + s.size());
  if (!s.empty()) std::memcpy(data_ + size_, s.data(), s.size());
  size_ += s.size();
}

void TextBuffer::EraseFront(size_t n) {
  n = std::min(n, size_);
  if (n > 0 && n < size_) std::memmove(data_, data_ + n, size_ - n);
  size_ -= n;
  discarded_ = 0;
  // Give back the pages past what is held once a large value is gone; the mapping stays.
  if (capacity_ > kRetainedCapacity) {
    size_t keep = RoundUpToPage(std::max(size_, kRetainedCapacity));
    if (keep < capacity_) ::madvise(data_ + keep, capacity_ - keep, MADV_DONTNEED);
  }
}

void TextBuffer::Discard(size_t offset) {
  size_t end = std::min(offset, size_) & ~(PageSize() - 1);
  if (end <= discarded_) return;
  ::madvise(data_ + discarded_, end - discarded_, MADV_DONTNEED);
  discarded_ = end;
}

}  // namespace wmap::cli
