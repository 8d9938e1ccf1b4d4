// Human output never sends what an object holds as terminal control sequences: names with
// escape sequences and line feeds are shown in caret notation by get, describe, gang, status and
// in error messages, as kubectl shows them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "golden_support.h"

namespace wmap::cli {
namespace {

constexpr char kEvilJob[] = R"(apiVersion: batch/v1
kind: Job
metadata: {name: "x\e]0;pwned\a\e[2J", namespace: "a\nb", uid: "u-1"}
spec:
  template:
    spec:
      containers: [{name: a, image: x}]
)";

bool HasControl(const std::string& text) {
  for (char c : text) {
    const unsigned char b = static_cast<unsigned char>(c);
    if ((b < 0x20 && b != '\n') || b == 0x7f) return true;
  }
  return false;
}

TEST(TerminalEscapeTest, ObjectNamesReachTheTerminalEscaped) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"get", "-f", "-"},
                                             {"get", "-f", "-", "-o", "wide"},
                                             {"describe", "-f", "-"},
                                             {"status", "-f", "-"},
                                             {"gang", "-f", "-"}}) {
    SCOPED_TRACE(args[0]);
    golden::Outcome o = golden::Run(args, kEvilJob);
    EXPECT_FALSE(HasControl(o.out)) << o.out;
    EXPECT_FALSE(HasControl(o.err)) << o.err;
    if (args[0] != "status") {  // status shows one workload's state, not its name
      EXPECT_NE(o.out.find("x^[]0;pwned^G^[[2J"), std::string::npos) << o.out;
    }
  }
  // The table keeps one row per object: the line feed in the namespace is shown, not sent.
  golden::Outcome table = golden::Run({"get", "-f", "-"}, kEvilJob);
  EXPECT_NE(table.out.find("a^Jb"), std::string::npos) << table.out;
}

TEST(TerminalEscapeTest, FileNamesInErrorsStayOnOneLine) {
  golden::Outcome o = golden::Run({"get", "-f", "no\nsuch\x1b[2J.yaml"});
  EXPECT_EQ(o.err, "wmap get: open no^Jsuch^[[2J.yaml: no such file or directory\n");
}

}  // namespace
}  // namespace wmap::cli
