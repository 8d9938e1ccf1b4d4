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

#include <string>
#include <vector>

#include "cli/golden_support.h"

namespace wmap::cli::workload_golden {

// 2025-03-22T12:00:00Z: after every example was created.
inline constexpr const char* kEpoch = "SOURCE_DATE_EPOCH=1742644800";

using golden::Outcome;
using Temp = golden::TempFile;
using golden::ReadFd;

// The fixed environment plus `extra_env` entries ("NAME=VALUE").
inline std::vector<std::string> Env(const std::vector<std::string>& extra_env) {
  std::vector<std::string> env = {"HOME=/nonexistent", kEpoch};
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  return env;
}

// Runs `wmap ARGS...` in the source folder with the fixed environment.
inline Outcome Run(const std::vector<std::string>& args, const std::string& input = "",
                   const std::vector<std::string>& extra_env = {}) {
  return golden::Run(args, input, Env(extra_env));
}

// Runs the command and compares with (or, under WMAP_UPDATE_GOLDENS=1, writes) the golden file.
inline Outcome ExpectGolden(const std::string& name, const std::vector<std::string>& args,
                            const std::string& input = "",
                            const std::vector<std::string>& extra_env = {}) {
  return golden::ExpectGolden("workload", name, args, input, Env(extra_env));
}

}  // namespace wmap::cli::workload_golden

#endif  // WMAP_TESTS_CLI_WORKLOAD_GOLDEN_H_
