// `wmap completion`: the scripts parse in their shells, and completing a command line in bash
// and fish offers the commands, flags and values the command table and help texts define.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/golden_support.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

// The script for `shell`, written to a temporary file that is removed on destruction.
class Script {
 public:
  explicit Script(const std::string& shell) {
    golden::Outcome o = golden::Run({"completion", shell});
    EXPECT_EQ(o.code, 0) << o.err;
    text_ = o.out;
    char path[] = "/tmp/wmap_completion_XXXXXX";
    int fd = ::mkstemp(path);
    WriteAll(fd, text_);
    ::close(fd);
    path_ = path;
  }
  ~Script() { ::unlink(path_.c_str()); }
  Script(const Script&) = delete;
  Script& operator=(const Script&) = delete;
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

 private:
  std::string path_;
  std::string text_;
};

struct ShellResult {
  int status = -1;
  std::string out;
};

// Runs `command` through /bin/sh and captures its standard output and error.
ShellResult Shell(const std::string& command) {
  ShellResult r;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool Installed(const std::string& program) {
  return Shell("command -v " + program + " >/dev/null").status == 0;
}

std::set<std::string> Words(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  std::string w;
  while (in >> w) out.insert(w);
  return out;
}

// What bash completes for `line` (the words typed so far; a trailing space starts a new word).
std::set<std::string> BashComplete(const Script& script, const std::string& line) {
  std::istringstream in(line);
  std::string w;
  std::vector<std::string> parts;
  while (in >> w) parts.push_back(w);
  if (line.empty() || line.back() == ' ') parts.push_back("");
  std::string array = "COMP_WORDS=(wmap";
  for (const std::string& p : parts) array += " '" + p + "'";
  array += ")";
  int cword = static_cast<int>(parts.size());
  std::string command = "cd '" + std::string(WMAP_SOURCE_DIR) + "' && bash -c \"source '" +
                        script.path() + "'; " + array + "; COMP_CWORD=" + std::to_string(cword) +
                        "; _wmap; printf '%s\\\\n' \\\"\\${COMPREPLY[@]}\\\"\"";
  ShellResult r = Shell(command);
  EXPECT_EQ(r.status, 0) << command << "\n" << r.out;
  return Words(r.out);
}

// What fish completes for `line`.
std::set<std::string> FishComplete(const Script& script, const std::string& line) {
  std::string command =
      "fish --no-config -c \"source '" + script.path() + "'; complete -C 'wmap " + line + "'\"";
  ShellResult r = Shell(command);
  EXPECT_EQ(r.status, 0) << command << "\n" << r.out;
  std::set<std::string> out;
  std::istringstream in(r.out);
  std::string row;
  while (std::getline(in, row)) out.insert(row.substr(0, row.find('\t')));
  return out;
}

TEST(CompletionCommandTest, BashScriptParsesAndCompletes) {
  Script script("bash");
  ShellResult syntax = Shell("bash -n '" + script.path() + "'");
  ASSERT_EQ(syntax.status, 0) << syntax.out;

  std::set<std::string> commands = BashComplete(script, "");
  for (const Command& c : Commands()) EXPECT_TRUE(commands.count(std::string(c.name))) << c.name;
  EXPECT_TRUE(commands.count("help"));
  EXPECT_TRUE(commands.count("--version"));
  EXPECT_EQ(BashComplete(script, "mu"), std::set<std::string>{"mutate"});
  EXPECT_EQ(BashComplete(script, "gang -o "), (std::set<std::string>{"text", "json", "yaml"}));
  EXPECT_EQ(BashComplete(script, "mutate --output "),
            (std::set<std::string>{"yaml", "json", "patch", "json-patch"}));
  EXPECT_EQ(BashComplete(script, "mutate --ima"), std::set<std::string>{"--image"});
  EXPECT_EQ(BashComplete(script, "mutate --to"),
            (std::set<std::string>{"--toleration", "--token"}));
  EXPECT_EQ(BashComplete(script, "completion "), (std::set<std::string>{"bash", "zsh", "fish"}));
  EXPECT_EQ(BashComplete(script, "help sus"), std::set<std::string>{"suspend"});
  // A flag that takes a free value offers nothing; a file flag offers files.
  EXPECT_TRUE(BashComplete(script, "mutate --label ").empty());
  EXPECT_TRUE(
      BashComplete(script, "suspend -f examples/jobset-tr").count("examples/jobset-training.yaml"));
  std::set<std::string> suspend_flags = BashComplete(script, "suspend -");
  for (const char* flag :
       {"-f", "--filename", "-o", "--output", "--definition", "--definitions", "--help"}) {
    EXPECT_TRUE(suspend_flags.count(flag)) << flag;
  }
  // Flags of the other commands come from their help too.
  EXPECT_TRUE(BashComplete(script, "jq --yaml-i").count("--yaml-input"));
}

TEST(CompletionCommandTest, ZshScriptParses) {
  if (!Installed("zsh")) GTEST_SKIP() << "zsh is not installed";
  Script script("zsh");
  ShellResult syntax = Shell("zsh -n '" + script.path() + "'");
  EXPECT_EQ(syntax.status, 0) << syntax.out;
  // Loaded as a completion function in an interactive-less shell, it defines _wmap.
  ShellResult load = Shell("zsh -f -c \"autoload -Uz compinit && compinit -u -D && source '" +
                           script.path() + "' && whence -w _wmap\"");
  EXPECT_EQ(load.status, 0) << load.out;
  EXPECT_NE(load.out.find("_wmap: function"), std::string::npos) << load.out;
  for (const Command& c : Commands()) {
    EXPECT_NE(script.text().find("    " + std::string(c.name) + ")"), std::string::npos) << c.name;
  }
}

TEST(CompletionCommandTest, FishScriptParsesAndCompletes) {
  if (!Installed("fish")) GTEST_SKIP() << "fish is not installed";
  Script script("fish");
  ShellResult syntax = Shell("fish --no-execute '" + script.path() + "'");
  ASSERT_EQ(syntax.status, 0) << syntax.out;
  std::set<std::string> commands = FishComplete(script, "");
  for (const Command& c : Commands()) EXPECT_TRUE(commands.count(std::string(c.name))) << c.name;
  EXPECT_EQ(FishComplete(script, "mutate --ima"), std::set<std::string>{"--image"});
  EXPECT_EQ(FishComplete(script, "gang -o "), (std::set<std::string>{"text", "json", "yaml"}));
  EXPECT_EQ(FishComplete(script, "completion "), (std::set<std::string>{"bash", "zsh", "fish"}));
}

TEST(CompletionCommandTest, UsageErrors) {
  golden::ExpectGolden("completion", "no-shell", {"completion"});
  golden::ExpectGolden("completion", "unknown-shell", {"completion", "powershell"});
  golden::ExpectGolden("completion", "help", {"completion", "--help"});
}

TEST(CompletionCommandTest, VersionAndHelpListTheCommands) {
  golden::Outcome version = golden::Run({"--version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_EQ(version.out, "wmap " + std::string(Version()) + "\n");
  golden::Outcome help = golden::Run({"--help"});
  for (const char* name : {"gang", "mutate", "suspend", "resume", "completion"}) {
    EXPECT_NE(help.out.find(std::string("\n  ") + name + " "), std::string::npos) << name;
    // Every one of them has a help with examples.
    golden::Outcome h = golden::Run({"help", name});
    EXPECT_EQ(h.code, 0);
    EXPECT_NE(h.out.find("\nExample"), std::string::npos) << name;
    EXPECT_EQ(golden::Run({name, "--help"}).out, h.out);
  }
}

}  // namespace
}  // namespace wmap::cli
