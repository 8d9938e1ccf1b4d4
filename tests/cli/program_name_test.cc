// The program's name in help and messages: "wmap", or "kubectl wmap" when it runs as the kubectl
// plugin kubectl-wmap (cli/command.h ProgramName and ForProgram), checked on the built binary run
// through a link of that name, as kubectl runs it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/command.h"
#include "test_files.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

TEST(ProgramNameTest, KubectlPluginByBasename) {
  EXPECT_EQ(ProgramName("wmap"), "wmap");
  EXPECT_EQ(ProgramName("/usr/local/bin/wmap"), "wmap");
  EXPECT_EQ(ProgramName("/home/u/.krew/bin/kubectl-wmap"), "kubectl wmap");
  EXPECT_EQ(ProgramName("kubectl-wmap"), "kubectl wmap");
  EXPECT_EQ(ProgramName("kubectl-wmap-old"), "wmap");
}

TEST(ProgramNameTest, CommandLinesAreSaidAsTheProgramSaysThem) {
  CommandIo plugin;
  plugin.program = "kubectl wmap";
  EXPECT_EQ(ForProgram(plugin, "  wmap get jobsets\nrun 'wmap get --help'"),
            "  kubectl wmap get jobsets\nrun 'kubectl wmap get --help'");
  EXPECT_EQ(ForProgram(plugin, "-p \"$(wmap suspend -f x.yaml -o patch)\""),
            "-p \"$(kubectl wmap suspend -f x.yaml -o patch)\"");
  // Names that only contain the word stay as they are.
  EXPECT_EQ(ForProgram(plugin, "deploy/rbac/wmap-reader.yaml, ./build/wmap get, libwmap x"),
            "deploy/rbac/wmap-reader.yaml, ./build/wmap get, libwmap x");
  EXPECT_EQ(ForProgram(CommandIo{}, "  wmap get"), "  wmap get");
}

struct Ran {
  int code;
  std::string out, err;
};

Ran Exec(const std::string& program, const std::string& args) {
  char dir[] = "/tmp/wmap-program-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  const std::string out = std::string(dir) + "/out", err = std::string(dir) + "/err";
  std::string cmd = "HOME=/nonexistent '" + program + "' " + args + " >" + out + " 2>" + err;
  int status = std::system(cmd.c_str());
  Ran r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test_files::ReadFile(out),
        test_files::ReadFile(err)};
  fs::remove_all(dir);
  return r;
}

TEST(ProgramNameTest, TheBinaryRunAsKubectlWmap) {
  char dir[] = "/tmp/wmap-plugin-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string link = std::string(dir) + "/kubectl-wmap";
  fs::create_symlink(WMAP_BINARY, link);

  Ran help = Exec(link, "--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_TRUE(help.out.starts_with("kubectl wmap - read Kubernetes workload objects")) << help.out;
  EXPECT_NE(help.out.find("  kubectl wmap COMMAND [ARGS...]\n"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("  wmap "), std::string::npos) << help.out;

  Ran usage = Exec(link, "get --bogus");
  EXPECT_EQ(usage.code, 2);
  EXPECT_EQ(usage.err,
            "kubectl wmap get: unknown flag \"--bogus\"\n"
            "hint: run 'kubectl wmap get --help' for usage\n");
  Ran unknown = Exec(link, "nope");
  EXPECT_EQ(unknown.err,
            "kubectl wmap: unknown command \"nope\"\n"
            "Run 'kubectl wmap --help' for the list of commands.\n");
  Ran suspend = Exec(link, "suspend --help");
  EXPECT_NE(suspend.out.find("  kubectl wmap suspend TYPE/NAME..."), std::string::npos)
      << suspend.out;

  // The same binary by its own name says wmap.
  Ran plain = Exec(WMAP_BINARY, "get --bogus");
  EXPECT_EQ(plain.err,
            "wmap get: unknown flag \"--bogus\"\nhint: run 'wmap get --help' for usage\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wmap::cli
