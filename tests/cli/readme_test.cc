// The README's main-job command, read from README.md and run word for word (through `sh -c`, in a
// scratch folder where ./build/wmap is the binary under test and examples/ the repository's),
// must exit 0 and print exactly the output the README shows under it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <sys/wait.h>

#include "test_files.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

using test_files::ReadFile;

// The body of the first fenced block (```lang) after `marker`.
std::string BlockAfter(const std::string& text, const std::string& marker, size_t* end) {
  size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  size_t fence = text.find("```", at);
  if (fence == std::string::npos) return "";
  size_t body = text.find('\n', fence);
  size_t close = text.find("\n```", body);
  if (body == std::string::npos || close == std::string::npos) return "";
  *end = close + 4;
  return text.substr(body + 1, close - body);
}

TEST(ReadmeTest, MainJobCommandPrintsWhatTheReadmeShows) {
  std::string readme = ReadFile(fs::path(WMAP_SOURCE_DIR) / "README.md");
  size_t end = 0;
  std::string command = BlockAfter(readme, "The first command ends by running", &end);
  ASSERT_FALSE(command.empty()) << "README.md has no main-job command block";
  while (!command.empty() && command.back() == '\n') command.pop_back();
  ASSERT_EQ(command.find('\n'), std::string::npos) << "the main-job command is one line";
  ASSERT_EQ(command.rfind("./build/wmap ", 0), 0u) << command;
  std::string shown = BlockAfter(readme.substr(end), "", &end);
  ASSERT_FALSE(shown.empty()) << "README.md shows no output under the main-job command";

  // The quickstart script runs the same command.
  std::string quickstart = ReadFile(fs::path(WMAP_SOURCE_DIR) / "scripts" / "quickstart.sh");
  EXPECT_NE(quickstart.find("\n" + command + "\n"), std::string::npos)
      << "scripts/quickstart.sh does not run: " << command;

  fs::path scratch = fs::temp_directory_path() / ("wmap_readme_" + std::to_string(::getpid()));
  fs::create_directories(scratch / "build");
  fs::create_symlink(WMAP_BINARY, scratch / "build" / "wmap");
  fs::create_directory_symlink(fs::path(WMAP_SOURCE_DIR) / "examples", scratch / "examples");
  std::string shell = "cd '" + scratch.string() + "' && env -u NO_COLOR -u COLUMNS " + command;
  FILE* pipe = ::popen(shell.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int status = ::pclose(pipe);
  fs::remove_all(scratch);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(out, shown) << "README.md shows a different output than the command prints";
}

}  // namespace
}  // namespace wmap::cli
