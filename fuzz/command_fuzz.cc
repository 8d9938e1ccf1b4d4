// Fuzzes the commands end to end, as a script would run them, with their output going where
// writes fail: the first input byte picks a command line, the second where standard output goes
// (a file, /dev/full, or a pipe whose reader is gone), the rest is standard input. Every run must
// end without crashing and without leaking, whatever the input and however the writes fail.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/command.h"

namespace {

const std::vector<std::vector<std::string>>& CommandLines() {
  static const std::vector<std::vector<std::string>> lines = {
      {"jq", "."},
      {"jq", "-c", "--max-memory", "8Mi", "--timeout", "1s", ".. | tostring"},
      {"jq", "--yaml-input", "--yaml-output", "."},
      {"get", "-f", "-"},
      {"get", "-f", "-", "-o", "json"},
      {"describe", "-f", "-"},
      {"status", "-f", "-", "-o", "yaml"},
      {"inspect", "-f", "-"},
      {"gang", "-f", "-", "--for", "kai", "-o", "manifests"},
      {"mutate", "-f", "-", "--label", "a=b", "--scheduler-name", "s"},
      {"suspend", "-f", "-"},
      {"validate", "-"},
  };
  return lines;
}

// A file descriptor holding `text` at offset 0 (memfd), or -1.
int MemoryFile(const uint8_t* data, size_t size) {
  int fd = ::memfd_create("fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // As a shell pipeline with SIGPIPE ignored: writes to a closed pipe fail with EPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const auto& lines = CommandLines();
  const std::vector<std::string>& args = lines[data[0] % lines.size()];
  int in = MemoryFile(data + 2, size - 2);
  int err = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  int out = -1;
  int pipe_fds[2] = {-1, -1};
  switch (data[1] % 3) {
    case 0:
      out = MemoryFile(nullptr, 0);
      break;
    case 1:
      out = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
      break;
    default:
      if (::pipe2(pipe_fds, O_CLOEXEC) == 0) {
        ::close(pipe_fds[0]);
        out = pipe_fds[1];
      }
      break;
  }
  if (in >= 0 && out >= 0 && err >= 0) {
    wmap::cli::CommandIo io;
    io.in_fd = in;
    io.out_fd = out;
    io.err_fd = err;
    (void)wmap::cli::RunMain(args, io);
  }
  for (int fd : {in, out, err}) {
    if (fd >= 0) ::close(fd);
  }
  return 0;
}
