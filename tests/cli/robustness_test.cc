// The built `wmap` under hostile input and tight process limits: an address-space cap
// (prlimit --as), deep values, definitions that try to exhaust memory or time. Every case must end
// by itself (the outer `timeout` would give exit 124) with a clean error or the right answer,
// never a signal.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "capped_run.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

using capped_run::Has;
using capped_run::kAddressSanitized;
using capped_run::Outcome;
using capped_run::Quote;

// Runs `wmap ARGS` under a 4 GB address-space cap (none in sanitized builds) and a 120 s guard.
Outcome RunCapped(const std::string& args) { return capped_run::RunShell("", args, 4000000000); }

TEST(RobustnessTest, DeepValuesCompareAndSortUnderAnAddressSpaceCap) {
  for (std::string_view q : {
           "reduce range(100000) as $i (null; [.]) | . == .",
           "reduce range(100000) as $i (null; {a: .}) | [., .] | sort | length == 2",
           "reduce range(100000) as $i (null; [.]) | [., [.]] | unique | length == 2",
           "reduce range(100000) as $i (null; [.]) | [., .] | group_by(.) | length == 1",
           "reduce range(100000) as $i (null; [.]) | [., [.]] | min | length == 1",
       }) {
    Outcome o = RunCapped("jq -n " + Quote(q));
    ASSERT_TRUE(o.exited) << q << "\n" << o.output;
    EXPECT_EQ(o.code, 0) << q << "\n" << o.output;
    EXPECT_EQ(o.output, "true\n") << q;
  }
}

TEST(RobustnessTest, DeepProgramsEndCleanlyUnderAnAddressSpaceCap) {
  fs::path dir = fs::temp_directory_path() / ("wmap_robust_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string interpolation = "\"";
  for (int i = 0; i < 100000; ++i) interpolation += "\\(1)";
  interpolation += "\" | length";
  std::ofstream(dir / "interpolation.jq") << interpolation;
  Outcome o = RunCapped("jq -n -f '" + (dir / "interpolation.jq").string() + "'");
  ASSERT_TRUE(o.exited) << o.output.substr(0, 300);
  // Either the run fits the stack it got, or it is refused as too deep: never a crash.
  EXPECT_TRUE(o.code == 0 ? o.output == "100000\n" : Has(o, "recursion depth limit exceeded"))
      << o.output.substr(0, 300);
  fs::remove_all(dir);
}

TEST(RobustnessTest, JqTimeoutHoldsWhileBuiltinsSort) {
  Outcome o = RunCapped(
      "jq -n --timeout 1s " +
      Quote("[range(2000000)] as $a | reduce range(1000) as $i (0; . + ($a | sort | length))"));
  ASSERT_TRUE(o.exited) << o.output;
  EXPECT_EQ(o.code, 5) << o.output;
  EXPECT_TRUE(Has(o, "deadline exceeded")) << o.output;
}

TEST(RobustnessTest, JqMemoryBudgetHoldsWhileBuiltinsBuild) {
  // Each builds far more than the budget from a 20 MB string; charged as they build, they stop
  // at the budget ("memory limit exceeded"), long before the address-space cap ("out of memory").
  for (std::string_view q : {
           "(\"a,\" * 10000000) | [splits(\",\")] | length",
           "(\"a,\" * 10000000) | split(\",\") | length",
           "(\"a,\" * 10000000) | explode | length",
           "(\"a,\" * 10000000) | [match(\",\"; \"g\")] | length",
           "[range(3000000) | tostring] | join(\",\") | length",
           "[range(3000000) | [.]] | add | length",
           "[range(3000000)] | tojson | length",
       }) {
    Outcome o = RunCapped("jq -n --max-memory 64Mi " + Quote(q));
    ASSERT_TRUE(o.exited) << q << "\n" << o.output;
    EXPECT_EQ(o.code, 5) << q << "\n" << o.output;
    EXPECT_TRUE(Has(o, "memory limit exceeded")) << q << "\n" << o.output;
  }
}

// A Job definition whose status expression is `expression`, and three Jobs, in a fresh folder.
class DefinitionBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wmap_budget_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream jobs(dir_ / "jobs.yaml");
    for (int i = 1; i <= 3; ++i) {
      jobs << "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j" << i
           << ", namespace: default}\nspec:\n  template:\n    spec:\n      containers: [{name: c, "
              "image: busybox}]\n";
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Definition(std::string_view expression) {
    std::string path = (dir_ / "definition.yaml").string();
    std::string quoted = "'";
    for (char c : expression) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    quoted += "'";
    std::ofstream(path) << "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: "
                           "budget-job\nspec:\n  structureDefinition:\n    rootComponent:\n      "
                           "name: job\n      kind: {group: batch, version: v1, kind: Job}\n      "
                           "specDefinition:\n        podTemplateSpecPath: .spec.template\n      "
                           "statusDefinition:\n        statusMappings:\n          running:\n     "
                           "       - byExpression:\n                expression: "
                        << quoted << "\n                expectedResult: \"true\"\n";
    return "-d '" + path + "' -f '" + (dir_ / "jobs.yaml").string() + "'";
  }

  fs::path dir_;
};

TEST_F(DefinitionBudgetTest, MemoryBudgetIsAnErrorDocument) {
  // The default budget (256Mi) in plain builds; in sanitized builds, where building that much
  // one element at a time outlasts the default 10 s timeout, a smaller one.
  const std::string budget = kAddressSanitized ? "--eval-memory 16Mi " : "";
  for (std::string_view e :
       {"[null | setpath([100000000]; 1)] | length > 0", ". as $x | [range(1e9)] | length > 0"}) {
    Outcome o = RunCapped("status -o json " + budget + Definition(e));
    ASSERT_TRUE(o.exited) << e << "\n" << o.output;
    EXPECT_EQ(o.code, 1) << e << "\n" << o.output;
    EXPECT_TRUE(Has(o, "\"error\": \"limit_exceeded\"")) << e << "\n" << o.output;
    EXPECT_TRUE(Has(o, "memory limit exceeded")) << e << "\n" << o.output;
  }
}

TEST_F(DefinitionBudgetTest, DeadlineIsChargedByWork) {
  // Each step copies 100 MB (10 MB in sanitized builds, where every allocation of that size is
  // slow): the deadline is checked by the bytes built, not every 1,024 steps.
  const std::string bytes = kAddressSanitized ? "10000000" : "100000000";
  Outcome o = RunCapped("status --eval-timeout 1s --eval-memory 0 " +
                        Definition("reduce (0 | while(. < 100000; . + 1)) as $i (\"a\" * " + bytes +
                                   "; ascii_downcase) | length > 0"));
  ASSERT_TRUE(o.exited) << o.output;
  EXPECT_NE(o.code, 124) << "the per-evaluation timeout did not stop the evaluation";
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_TRUE(Has(o, "deadline exceeded")) << o.output;
}

TEST_F(DefinitionBudgetTest, CommandDeadlineBoundsAllObjects) {
  // Each object's evaluation alone could run 100 s; the command's deadline ends them all.
  Outcome o =
      RunCapped("get --eval-timeout 100s --deadline 2s " + Definition("0 | until(false; . + 1)"));
  ASSERT_TRUE(o.exited) << o.output;
  EXPECT_NE(o.code, 124) << "the command deadline did not stop the evaluations";
  for (std::string_view job : {"Job/j1", "Job/j2", "Job/j3"}) {
    EXPECT_TRUE(Has(o, std::string("could not resolve ") + std::string(job))) << o.output;
  }
  EXPECT_TRUE(Has(o, "deadline exceeded")) << o.output;
}

TEST_F(DefinitionBudgetTest, AnEndlessDefinitionFileIsRefusedAtItsBound) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  Outcome o = RunCapped("get -d /dev/zero -f '" + (dir_ / "jobs.yaml").string() + "'");
  ASSERT_TRUE(o.exited) << o.output.substr(0, 300);
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_TRUE(Has(o, "/dev/zero: the file is larger than 256Mi")) << o.output;
}

TEST_F(DefinitionBudgetTest, LimitFlagsAreChecked) {
  Outcome o = RunCapped("status --eval-memory lots " + Definition("true"));
  ASSERT_TRUE(o.exited);
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_TRUE(Has(o, "invalid --eval-memory \"lots\"")) << o.output;
  o = RunCapped("status --deadline soon " + Definition("true"));
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_TRUE(Has(o, "invalid --deadline \"soon\"")) << o.output;
}

}  // namespace
}  // namespace wmap::cli
