// Output that cannot be written is a failure: every command, on a full device, a closed
// descriptor or a pipe nobody reads, reports one write error and exits non-zero; an endless jq
// filter ends when its reader goes away even with SIGPIPE ignored.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>
#include <csignal>

#include <string>
#include <vector>

#include "cli/command.h"
#include "golden_support.h"

namespace wmap::cli {
namespace {

// Runs `wmap ARGS` in the source folder with standard output on `out_fd`; returns the exit code
// and standard error.
golden::Outcome RunWithOutput(const std::vector<std::string>& args, int out_fd) {
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(WMAP_SOURCE_DIR);
  golden::TempFile in(""), err;
  std::vector<const char*> env = {"HOME=/nonexistent", "TERM=dumb", nullptr};
  CommandIo io{in.fd(), out_fd, err.fd(), env.data()};
  golden::Outcome o;
  o.code = RunMain(args, io);
  o.err = err.Contents();
  std::filesystem::current_path(previous);
  return o;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::vector<std::vector<std::string>>& EveryCommand() {
  static const std::vector<std::vector<std::string>> commands = {
      {"get", "-f", "examples/"},
      {"describe", "-f", "examples/jobset-training.yaml"},
      {"inspect", "-f", "examples/jobset-training.yaml"},
      {"status", "-f", "examples/jobset-training.yaml"},
      {"mutate", "-f", "examples/jobset-training.yaml", "--label", "a=b"},
      {"suspend", "-f", "examples/jobset-training.yaml"},
      {"resume", "-f", "examples/jobset-training.yaml"},
      {"gang", "-f", "examples/"},
      {"gang", "--for", "kai", "-f", "examples/"},
      {"definitions"},
      {"validate", "catalog/batch-job-v1.yaml"},
      {"completion", "bash"},
      {"jq", "-n", "1"},
      {"--help"},
      {"help", "get"},
      {"--version"},
  };
  return commands;
}

TEST(WriteErrorTest, AFullDeviceIsAFailureReportedOnce) {
  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (full < 0) GTEST_SKIP() << "no /dev/full";
  for (const std::vector<std::string>& args : EveryCommand()) {
    SCOPED_TRACE(args[0]);
    golden::Outcome o = RunWithOutput(args, full);
    EXPECT_EQ(o.code, kExitRuntime);
    EXPECT_EQ(Count(o.err, "wmap: write error: No space left on device\n"), 1u) << o.err;
  }
  ::close(full);
}

TEST(WriteErrorTest, AClosedDescriptorIsAFailure) {
  // A descriptor number far above what the test opens, and not open.
  const int closed = 1000;
  ASSERT_EQ(::fcntl(closed, F_GETFD), -1);
  for (const std::vector<std::string>& args : EveryCommand()) {
    SCOPED_TRACE(args[0]);
    golden::Outcome o = RunWithOutput(args, closed);
    EXPECT_EQ(o.code, kExitRuntime);
    EXPECT_EQ(Count(o.err, "wmap: write error: Bad file descriptor\n"), 1u) << o.err;
  }
}

TEST(WriteErrorTest, AnEndlessFilterEndsWhenItsReaderIsGone) {
  // As with `trap '' PIPE; wmap jq -n 'repeat(.)' | head -c1`: writes fail with EPIPE instead
  // of killing the process, and the run must stop rather than spin.
  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &previous), 0);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  golden::Outcome o = RunWithOutput({"jq", "-n", "repeat(.)"}, fds[1]);
  ::close(fds[1]);
  ::sigaction(SIGPIPE, &previous, nullptr);
  EXPECT_EQ(o.code, kExitRuntime);
  EXPECT_EQ(o.err, "wmap: write error: Broken pipe\n");
}

TEST(WriteErrorTest, AnErrorOfTheCommandKeepsItsExitCode) {
  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (full < 0) GTEST_SKIP() << "no /dev/full";
  // A usage error is reported as such, and the output it could not write as well.
  golden::Outcome o = RunWithOutput({"get", "-f", "examples/", "-o", "nope"}, full);
  EXPECT_EQ(o.code, kExitUsage) << o.err;
  ::close(full);
}

}  // namespace
}  // namespace wmap::cli
