// Golden-file checks of `wmap` command lines run in-process from the source folder.
//
// A golden file holds the command line, the exit status, standard output and standard error:
//
//   $ wmap gang -f examples/jobset-training.yaml
//   exit: 0
//   --- stdout
//   ...
//   --- stderr
//   ...
//
// With WMAP_UPDATE_GOLDENS=1 in the environment the files are written instead of compared (the
// test then still fails, so an update is never silent in a normal run).
#ifndef WMAP_TESTS_CLI_GOLDEN_SUPPORT_H_
#define WMAP_TESTS_CLI_GOLDEN_SUPPORT_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/command.h"
#include "test_files.h"

namespace wmap::cli::golden {

// Everything in the file behind fd, from its start (the offset is not moved).
inline std::string ReadFd(int fd) {
  std::string out;
  char buf[65536];
  ssize_t n;
  off_t off = 0;
  while ((n = ::pread(fd, buf, sizeof buf, off)) > 0) {
    out.append(buf, static_cast<size_t>(n));
    off += n;
  }
  return out;
}

// A temporary file opened for reading and writing, removed on destruction.
class TempFile {
 public:
  explicit TempFile(const std::string& contents = "") {
    char path[] = "/tmp/wmap_golden_XXXXXX";
    fd_ = ::mkstemp(path);
    path_ = path;
    WriteAll(fd_, contents);
    ::lseek(fd_, 0, SEEK_SET);
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  std::string Contents() const { return ReadFd(fd_); }

 private:
  int fd_;
  std::string path_;
};

struct Outcome {
  int code = 0;
  std::string out;
  std::string err;
};

// The environment commands run in by default: no NO_COLOR, no terminal.
inline const std::vector<std::string>& DefaultEnv() {
  static const std::vector<std::string> env = {"HOME=/nonexistent", "TERM=dumb"};
  return env;
}

// Runs `wmap ARGS...` with the source folder as the working directory, `input` on standard input
// and exactly the environment `env` ("NAME=VALUE" entries).
inline Outcome Run(const std::vector<std::string>& args, const std::string& input = "",
                   const std::vector<std::string>& env = DefaultEnv()) {
  std::vector<const char*> environment;
  for (const std::string& e : env) environment.push_back(e.c_str());
  environment.push_back(nullptr);
  std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(WMAP_SOURCE_DIR);
  TempFile in(input), out, err;
  CommandIo io{in.fd(), out.fd(), err.fd(), environment.data()};
  Outcome o;
  o.code = RunMain(args, io);
  o.out = out.Contents();
  o.err = err.Contents();
  std::filesystem::current_path(previous);
  return o;
}

inline std::string Render(const std::vector<std::string>& args, const Outcome& o) {
  std::string text = "$ wmap";
  for (const std::string& a : args) text += " " + a;
  text += "\nexit: " + std::to_string(o.code) + "\n--- stdout\n" + o.out + "--- stderr\n" + o.err;
  return text;
}

inline std::filesystem::path GoldenPath(const std::string& command, const std::string& name) {
  return std::filesystem::path(WMAP_SOURCE_DIR) / "tests/cli/testdata" / command /
         (name + ".golden");
}

using test_files::ReadFile;

// Runs the command line and compares everything it did with the golden file
// tests/cli/testdata/<folder>/<name>.golden; returns what the command did.
inline Outcome ExpectGolden(const std::string& folder, const std::string& name,
                            const std::vector<std::string>& args, const std::string& input = "",
                            const std::vector<std::string>& env = DefaultEnv()) {
  Outcome o = Run(args, input, env);
  std::string actual = Render(args, o);
  std::filesystem::path path = GoldenPath(folder, name);
  const char* update = std::getenv("WMAP_UPDATE_GOLDENS");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    ADD_FAILURE() << "updated " << path;
    return o;
  }
  std::string expected = ReadFile(path);
  EXPECT_FALSE(expected.empty()) << "missing golden file " << path
                                 << " (run with WMAP_UPDATE_GOLDENS=1 to create it)";
  EXPECT_EQ(actual, expected) << "golden " << path
                              << " differs; regenerate with WMAP_UPDATE_GOLDENS=1 and review";
  return o;
}

}  // namespace wmap::cli::golden

#endif  // WMAP_TESTS_CLI_GOLDEN_SUPPORT_H_
