// The shared input and error layer of the workload commands: flags, progress on a terminal, error
// reports, display formats and the tree renderer's width guarantee.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cli/display_format.h"
#include "cli/source_error.h"
#include "cli/tree_render.h"
#include "cli/workload_input.h"
#include "shared_data.h"
#include "wmap/json.h"
#include "wmap/text.h"
#include "wmap/yaml.h"
#include "workload_golden.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

CommandIo NoTerminalIo() {
  static const char* const kEnv[] = {"NO_COLOR=1", nullptr};
  CommandIo io;
  io.in_fd = -1;
  io.err_fd = -1;
  io.environment = kEnv;
  return io;
}

TEST(FlagParserTest, ValuesListsBooleansAndPositionals) {
  std::vector<std::string> files;
  std::string output;
  bool verbose = false;
  FlagParser p;
  p.Strings({"-f", "--filename"}, &files);
  p.String({"-o", "--output"}, &output);
  p.Bool({"-v"}, &verbose);
  std::vector<std::string> positional;
  std::vector<std::string> args = {
      "-f", "a.yaml", "--filename=b.yaml", "-fc.yaml", "-ojson", "NAME", "-v", "-", "--", "-x"};
  EXPECT_FALSE(p.Parse(args, &positional).has_value());
  EXPECT_EQ(files, (std::vector<std::string>{"a.yaml", "b.yaml", "c.yaml"}));
  EXPECT_EQ(output, "json");
  EXPECT_TRUE(verbose);
  EXPECT_EQ(positional, (std::vector<std::string>{"NAME", "-", "-x"}));

  std::vector<std::string> unknown = {"--nope"};
  std::optional<Error> e = p.Parse(unknown, &positional);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(ErrorCodeInfo(e->code).exit_code, kExitUsage);
  EXPECT_EQ(e->message, "unknown flag \"--nope\"");
  std::vector<std::string> missing = {"-o"};
  e = p.Parse(missing, &positional);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, "flag needs an argument: -o");
}

TEST(ProgressTest, SilentOffTerminalAndAfterTheFirstSecondOnOne) {
  // Not a terminal: nothing, however long it takes.
  workload_golden::Temp file;
  CommandIo io = NoTerminalIo();
  io.err_fd = file.fd();
  {
    Progress quiet(io, "reading");
    quiet.Update(10, 100, 1);
  }
  EXPECT_EQ(workload_golden::ReadFd(file.fd()), "");

  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  int terminal = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  io.err_fd = terminal;
  std::string shown;
  {
    Progress progress(io, "reading");
    progress.Update(10, 100, 1);  // within the first second: nothing
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    progress.Update(50 << 20, 100 << 20, 1234);
    progress.Finish();
  }
  ::fcntl(master, F_SETFL, O_NONBLOCK);
  char buf[512];
  ssize_t n;
  while ((n = ::read(master, buf, sizeof buf)) > 0) shown.append(buf, static_cast<size_t>(n));
  ::close(terminal);
  ::close(master);
  EXPECT_EQ(shown, "\r\033[Kreading: 50.0 MB of 100.0 MB (50%), 1234 objects\r\033[K");
}

TEST(ReportErrorTest, TextOnStderrDocumentsOnStdout) {
  Error e;
  e.code = ErrorCode::kNotFound;
  e.message = "definition \"x\" not found";
  e.hint = "list them";
  for (std::string output : {"", "json", "yaml"}) {
    workload_golden::Temp out, err;
    CommandIo io = NoTerminalIo();
    io.out_fd = out.fd();
    io.err_fd = err.fd();
    EXPECT_EQ(ReportError(io, "definitions", output, e), kExitNotFound);
    std::string o = workload_golden::ReadFd(out.fd());
    std::string r = workload_golden::ReadFd(err.fd());
    if (output.empty()) {
      EXPECT_EQ(o, "");
      EXPECT_EQ(r, "wmap definitions: definition \"x\" not found\nhint: list them\n");
      continue;
    }
    EXPECT_EQ(r, "");
    Result<Value> v = output == "json" ? json::Parse(o) : yaml::Parse(o);
    ASSERT_TRUE(v.ok()) << o;
    EXPECT_EQ(*v->find("error"), Value::String("not_found"));
    EXPECT_EQ(*v->find("message"), Value::String("definition \"x\" not found"));
    EXPECT_EQ(*v->find("hint"), Value::String("list them"));
  }
}

TEST(DisplayFormatTest, QuantitiesAgesAndTimestamps) {
  EXPECT_EQ(FormatCpu(0), "0");
  EXPECT_EQ(FormatCpu(500), "500m");
  EXPECT_EQ(FormatCpu(2000), "2");
  EXPECT_EQ(FormatCpu(2500), "2.5");
  EXPECT_EQ(FormatMemory(0), "0");
  EXPECT_EQ(FormatMemory(512ll << 20), "512Mi");
  EXPECT_EQ(FormatMemory(3ll << 29), "1.5Gi");
  EXPECT_EQ(FormatMemory(1ll << 40), "1Ti");
  EXPECT_EQ(HumanDuration(-5), "<invalid>");
  EXPECT_EQ(HumanDuration(45), "45s");
  EXPECT_EQ(HumanDuration(200), "3m20s");
  EXPECT_EQ(HumanDuration(5 * 3600), "5h");
  EXPECT_EQ(HumanDuration(3 * 86400 + 3600), "3d1h");
  EXPECT_EQ(HumanDuration(40 * 86400), "40d");
  EXPECT_EQ(HumanDuration(800 * 86400), "2y70d");
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseTimestamp("2025-03-14T09:26:53Z"), 1741944413);
  EXPECT_EQ(ParseTimestamp("2025-03-14T10:26:53.5+01:00"), 1741944413);
  EXPECT_FALSE(ParseTimestamp("yesterday").has_value());
  EXPECT_FALSE(ParseTimestamp("2025-03-14T09:26:53").has_value());
}

TEST(TreeRenderTest, NoLineWiderThanTheWidth) {
  TreeNode root;
  root.label = {{"a-very-long-component-name-that-keeps-going-and-going", Tone::kBold},
                {" StatefulSet", Tone::kCyan}};
  root.details = {
      {"Running", Tone::kGreen}, {"replicas 10/10/10"}, {"64 GPUs"}, {"cpu 258"}, {"mem 2Ti"}};
  TreeNode child = root;
  child.children.push_back(root);
  child.children.push_back(root);
  root.children = {child, child};
  for (size_t width : {40u, 60u, 80u}) {
    std::string text = RenderTree(root, {width, true});
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      std::string line = text.substr(start, end - start);
      // Colour escapes do not count.
      std::string plain;
      for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\033') {
          while (i < line.size() && line[i] != 'm') ++i;
          continue;
        }
        plain += line[i];
      }
      EXPECT_LE(text::DisplayWidth(plain), width) << plain;
      start = end + 1;
    }
  }
  EXPECT_EQ(ShortenMiddle("llama-finetune-workers-3-1-s2rfl", 15), "llama-f…1-s2rfl");
}

}  // namespace
}  // namespace wmap::cli
