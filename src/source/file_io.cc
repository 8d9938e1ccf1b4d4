// Whole-file reads (wmap/source.h).
#include <string>

#include "wmap/source.h"
#include "wmap/text.h"

#include <cctype>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wmap {
std::string ErrnoText(int err) {
  std::string text = std::strerror(err);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

bool ReadWholeFd(int fd, std::string* out, std::string* error) {
  struct stat st;
  size_t chunk = 1 << 20;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    out->reserve(out->size() + static_cast<size_t>(st.st_size) + 1);
    chunk = static_cast<size_t>(st.st_size) + 1;
  }
  size_t used = out->size();
  while (true) {
    if (out->size() < used + chunk) out->resize(used + chunk);
    ssize_t n = ::read(fd, out->data() + used, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = "read: " + ErrnoText(errno);
      out->resize(used);
      return false;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  out->resize(used);
  return true;
}

bool OpenForReading(const std::string& path, int* fd, std::string* error, ErrorCode* code) {
  if (code != nullptr) *code = ErrorCode::kIo;
  *fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (*fd < 0) {
    int err = errno;
    if (code != nullptr && (err == ENOENT || err == ENOTDIR)) *code = ErrorCode::kNotFound;
    *error = "open " + text::EscapeForTerminal(path) + ": " + ErrnoText(err);
    return false;
  }
  struct stat st;
  if (::fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(*fd);
    *fd = -1;
    *error = "read " + path + ": is a directory";
    return false;
  }
  return true;
}

bool ReadWholeFile(const std::string& path, std::string* out, std::string* error, ErrorCode* code) {
  int fd = -1;
  if (!OpenForReading(path, &fd, error, code)) return false;
  std::string read_error;
  bool ok = ReadWholeFd(fd, out, &read_error);
  ::close(fd);
  if (!ok) *error = "read " + path + ": " + read_error.substr(6);
  return ok;
}

}  // namespace wmap
