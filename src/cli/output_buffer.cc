#include "cli/output_buffer.h"

#include "cli/command.h"

#include <cerrno>

#include <unistd.h>

namespace wmap::cli {

bool OutputBuffer::Flush() {
  size_t done = 0;
  while (ok_ && done < buffer_.size()) {
    ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok_ = false;
      error_ = errno;
      NoteWriteError(fd_, error_);
      break;
    }
    done += static_cast<size_t>(n);
  }
  buffer_.clear();
  return ok_;
}

}  // namespace wmap::cli
