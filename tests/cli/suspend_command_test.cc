// `wmap suspend` and `wmap resume`: golden outputs for every output format and exit status, and
// the suspended object read back through the definition's status.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/golden_support.h"
#include "wmap/catalog.h"
#include "wmap/json.h"
#include "wmap/workload.h"

namespace wmap::cli {
namespace {

using golden::ExpectGolden;

const std::string kExample = "examples/jobset-training.yaml";
const std::string kData = "tests/cli/testdata/suspend/";

struct GoldenCase {
  const char* name;
  std::vector<std::string> args;  // starting with the command
  const char* input_file = nullptr;
};

class SuspendGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(SuspendGolden, MatchesGoldenFile) {
  const GoldenCase& c = GetParam();
  std::string input;
  if (c.input_file != nullptr) {
    input = golden::ReadFile(std::string(WMAP_SOURCE_DIR) + "/" + c.input_file);
  }
  ExpectGolden("suspend", c.name, c.args, input);
}

const std::vector<std::string> kQueueJob = {"-f", kData + "queuejob.yaml", "--definition",
                                            kData + "bad-action-definition.yaml"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> Cmd(std::string_view verb, std::vector<std::string> args) {
  args.insert(args.begin(), std::string(verb));
  return args;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SuspendGolden,
    ::testing::Values(
        GoldenCase{"suspend-jobset-yaml", Cmd("suspend", {"-f", kExample})},
        GoldenCase{"suspend-jobset-json", Cmd("suspend", {"-f", kExample, "-o", "json"})},
        GoldenCase{"suspend-jobset-patch", Cmd("suspend", {"-f", kExample, "-o", "patch"})},
        GoldenCase{"suspend-jobset-json-patch",
                   Cmd("suspend", {"-f", kExample, "-o", "json-patch"})},
        GoldenCase{"resume-jobset-patch", Cmd("resume", {"-f", kExample, "-o", "patch"})},
        GoldenCase{"resume-jobset-stdin-yaml", Cmd("resume", {"-f", "-"}),
                   "examples/jobset-training.yaml"},
        GoldenCase{"suspend-raycluster-patch",
                   Cmd("suspend", {"-f", "examples/raycluster.yaml", "-o", "patch"})},
        GoldenCase{"suspend-leaderworkerset-not-supported",
                   Cmd("suspend", {"-f", "examples/leaderworkerset-serving.yaml"})},
        GoldenCase{"suspend-two-actions-patch", Cmd("suspend", With(kQueueJob, {"-o", "patch"}))},
        GoldenCase{"resume-action-not-writable", Cmd("resume", kQueueJob)},
        GoldenCase{"resume-action-not-writable-json",
                   Cmd("resume", With(kQueueJob, {"-o", "json"}))},
        GoldenCase{"suspend-not-supported", Cmd("suspend", {"-f", kData + "deployment.yaml"})},
        GoldenCase{"suspend-not-supported-yaml",
                   Cmd("suspend", {"-f", kData + "deployment.yaml", "-o", "yaml"})},
        GoldenCase{"suspend-unknown-kind",
                   Cmd("suspend", {"-f", "tests/cli/testdata/gang/unknown-kind.yaml"})},
        GoldenCase{"suspend-missing-file", Cmd("suspend", {"-f", kData + "nope.yaml"})},
        GoldenCase{"suspend-no-file", Cmd("suspend", {})},
        GoldenCase{"suspend-bad-output", Cmd("suspend", {"-f", kExample, "-o", "tree"})},
        GoldenCase{"suspend-help", Cmd("suspend", {"--help"})},
        GoldenCase{"resume-help", Cmd("resume", {"-h"})}),
    [](const ::testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.name;
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

// The suspended object reads as suspended through the definition's suspend expression, and
// resuming it gives back the field the definition's resume action writes.
TEST(SuspendCommandTest, SuspendThenResume) {
  golden::Outcome suspended = golden::Run({"suspend", "-f", kExample, "-o", "json"});
  ASSERT_EQ(suspended.code, 0) << suspended.err;
  Result<Value> object = json::Parse(suspended.out);
  ASSERT_TRUE(object.ok());
  EXPECT_EQ(*object->find("spec")->find("suspend"), Value::Bool(true));
  golden::Outcome resumed = golden::Run({"resume", "-f", "-", "-o", "json"}, suspended.out);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  Result<Value> back = json::Parse(resumed.out);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back->find("spec")->find("suspend"), Value::Bool(false));
  // Nothing but spec.suspend differs from the input.
  Value expected = *object;
  expected.find_mutable("spec")->set("suspend", Value::Bool(false));
  EXPECT_EQ(*back, expected);
}

}  // namespace
}  // namespace wmap::cli
