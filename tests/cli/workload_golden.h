// Golden files for the workload commands (definitions, get, describe, status, inspect, validate),
// run in-process from the source folder with a fixed environment: SOURCE_DATE_EPOCH set (AGE is
// reproducible), no terminal, no NO_COLOR, no COLUMNS.
//
// A golden file (tests/cli/testdata/workload/<name>.golden) holds the command line, the exit
// status, standard output and standard error:
//
//   $ wmap get -f examples/
//   exit: 0
//   --- stdout
//   ...
//   --- stderr
//   ...
//
// WMAP_UPDATE_GOLDENS=1 rewrites the files instead of comparing (and fails the test, so an update
// is never silent).
#ifndef WMAP_TESTS_CLI_WORKLOAD_GOLDEN_H_
#define WMAP_TESTS_CLI_WORKLOAD_GOLDEN_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/command.h"

namespace wmap::cli::workload_golden {

// 2025-03-22T12:00:00Z: after every example was created.
inline constexpr const char* kEpoch = "SOURCE_DATE_EPOCH=1742644800";

struct Outcome {
  int code = 0;
  std::string out;
  std::string err;
};

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

// A temporary file, removed on destruction.
class Temp {
 public:
  explicit Temp(const std::string& contents = "") {
    char path[] = "/tmp/wmap_workload_golden_XXXXXX";
    fd_ = ::mkstemp(path);
    path_ = path;
    WriteAll(fd_, contents);
    ::lseek(fd_, 0, SEEK_SET);
  }
  ~Temp() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  Temp(const Temp&) = delete;
  Temp& operator=(const Temp&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
  std::string path_;
};

// Runs `wmap ARGS...` in the source folder; `extra_env` entries ("NAME=VALUE") are added.
inline Outcome Run(const std::vector<std::string>& args, const std::string& input = "",
                   const std::vector<std::string>& extra_env = {}) {
  std::vector<std::string> env_strings = {"HOME=/nonexistent", kEpoch};
  env_strings.insert(env_strings.end(), extra_env.begin(), extra_env.end());
  std::vector<const char*> env;
  for (const std::string& e : env_strings) env.push_back(e.c_str());
  env.push_back(nullptr);
  std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(WMAP_SOURCE_DIR);
  Temp in(input), out, err;
  CommandIo io{in.fd(), out.fd(), err.fd(), env.data()};
  Outcome o;
  o.code = RunMain(args, io);
  o.out = ReadFd(out.fd());
  o.err = ReadFd(err.fd());
  std::filesystem::current_path(previous);
  return o;
}

inline std::string Render(const std::vector<std::string>& args, const Outcome& o) {
  std::string text = "$ wmap";
  for (const std::string& a : args) text += " " + a;
  text += "\nexit: " + std::to_string(o.code) + "\n--- stdout\n" + o.out + "--- stderr\n" + o.err;
  return text;
}

inline std::string GoldenPath(const std::string& name) {
  return std::string(WMAP_SOURCE_DIR) + "/tests/cli/testdata/workload/" + name + ".golden";
}

// Runs the command and compares with (or, under WMAP_UPDATE_GOLDENS=1, writes) the golden file.
inline Outcome ExpectGolden(const std::string& name, const std::vector<std::string>& args,
                            const std::string& input = "",
                            const std::vector<std::string>& extra_env = {}) {
  Outcome o = Run(args, input, extra_env);
  std::string actual = Render(args, o);
  std::string path = GoldenPath(name);
  const char* update = std::getenv("WMAP_UPDATE_GOLDENS");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    ADD_FAILURE() << "updated " << path;
    return o;
  }
  std::ifstream file(path, std::ios::binary);
  std::stringstream expected;
  expected << file.rdbuf();
  EXPECT_TRUE(file.good() || !expected.str().empty()) << "missing golden file " << path;
  EXPECT_EQ(actual, expected.str())
      << "golden " << path << " differs; regenerate with WMAP_UPDATE_GOLDENS=1 and review";
  return o;
}

}  // namespace wmap::cli::workload_golden

#endif  // WMAP_TESTS_CLI_WORKLOAD_GOLDEN_H_
