// Golden outputs of `wmap definitions`, `get`, `describe`, `status`, `inspect` and `validate` on
// the examples, in every output format (table, wide, tree without colour, tree with colour, tree at
// 80 columns, JSON, YAML, markdown), and every exit status of the workload commands.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli/source_error.h"
#include "shared_data.h"
#include "test_files.h"
#include "wmap/json.h"
#include "wmap/text.h"
#include "wmap/yaml.h"
#include "workload_golden.h"

namespace wmap::cli {
namespace {

using workload_golden::ExpectGolden;

struct GoldenCase {
  const char* name;
  std::vector<std::string> args;
  int exit_code = 0;
  const char* input_file = nullptr;  // piped to standard input
  std::vector<std::string> env = {};
};

std::ostream& operator<<(std::ostream& os, const GoldenCase& c) { return os << c.name; }

class WorkloadGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(WorkloadGolden, MatchesGoldenFile) {
  const GoldenCase& c = GetParam();
  for (const std::string& arg : c.args) {
    if (arg.starts_with("../shared/")) WMAP_NEEDS_SHARED(arg.substr(10));
  }
  std::string input;
  if (c.input_file != nullptr) {
    input = test_files::ReadFile(std::string(WMAP_SOURCE_DIR) + "/" + c.input_file);
  }
  workload_golden::Outcome o = ExpectGolden(c.name, c.args, input, c.env);
  EXPECT_EQ(o.code, c.exit_code) << o.err;
  // With --width N (or COLUMNS=N) no line is wider than N columns; colour escapes do not count.
  if (c.exit_code != 0) return;
  size_t width = 0;
  for (size_t i = 0; i + 1 < c.args.size(); ++i) {
    if (c.args[i] == "--width") width = std::stoul(c.args[i + 1]);
  }
  for (const std::string& e : c.env) {
    if (e.rfind("COLUMNS=", 0) == 0) width = std::stoul(e.substr(8));
  }
  if (width == 0) return;
  std::istringstream lines(o.out);
  std::string line;
  while (std::getline(lines, line)) {
    std::string plain;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\033') {
        while (i < line.size() && line[i] != 'm') ++i;
        continue;
      }
      plain += line[i];
    }
    EXPECT_LE(text::DisplayWidth(plain), width) << plain;
  }
}

// `wmap definitions NAME -o yaml|json` of a built-in definition is its catalog file's document.
TEST(DefinitionsCommandTest, BuiltInDefinitionInFullIsItsCatalogDocument) {
  for (const char* name : {"ray-io-raycluster-v1", "jobset-x-k8s-io-jobset-v1alpha2"}) {
    Result<Value> expected = yaml::Parse(
        test_files::ReadFile(std::string(WMAP_SOURCE_DIR) + "/catalog/" + name + ".yaml"));
    ASSERT_TRUE(expected.ok()) << name;
    workload_golden::Outcome as_yaml = workload_golden::Run({"definitions", name, "-o", "yaml"});
    ASSERT_EQ(as_yaml.code, 0) << as_yaml.err;
    Result<Value> got_yaml = yaml::Parse(as_yaml.out);
    ASSERT_TRUE(got_yaml.ok());
    EXPECT_EQ(*got_yaml, *expected) << name;
    workload_golden::Outcome as_json = workload_golden::Run({"definitions", name, "-o", "json"});
    ASSERT_EQ(as_json.code, 0) << as_json.err;
    Result<Value> got_json = json::Parse(as_json.out);
    ASSERT_TRUE(got_json.ok());
    EXPECT_EQ(*got_json, *expected) << name;
    // The readable view starts with the definition's name.
    workload_golden::Outcome table = workload_golden::Run({"definitions", name});
    ASSERT_EQ(table.code, 0);
    EXPECT_EQ(table.out.rfind(std::string("Name:        ") + name + "\n", 0), 0u) << table.out;
  }
}

// Every example in the help of the workload commands runs and succeeds (examples that need
// files the reader provides, or other programs, are skipped).
TEST(WorkloadHelpTest, EveryCommandHasExamplesThatRun) {
  for (const char* command : {"definitions", "get", "describe", "status", "inspect", "validate"}) {
    workload_golden::Outcome help = workload_golden::Run({command, "--help"});
    ASSERT_EQ(help.code, 0) << command;
    size_t at = help.out.find("\nExamples:\n");
    ASSERT_NE(at, std::string::npos) << command << " --help has no examples";
    std::istringstream lines(help.out.substr(at + 11));
    std::string line;
    int ran = 0;
    while (std::getline(lines, line) && !line.empty()) {
      if (line.rfind("  wmap ", 0) != 0) continue;
      if (line.find_first_of("|>$*") != std::string::npos ||
          line.find("my-") != std::string::npos) {
        continue;
      }
      // Words as the shell splits them, with single quotes.
      std::vector<std::string> args;
      std::string word;
      bool quoted = false, in_word = false;
      for (char ch : line.substr(7)) {
        if (ch == '\'') {
          quoted = !quoted;
          in_word = true;
        } else if (ch == ' ' && !quoted) {
          if (in_word) args.push_back(word);
          word.clear();
          in_word = false;
        } else {
          word += ch;
          in_word = true;
        }
      }
      if (in_word) args.push_back(word);
      if (std::find(args.begin(), args.end(), "pods.yaml") != args.end()) continue;
      // Examples that read a cluster run in tests/live against a real API server.
      const bool reads_cluster =
          args[0] == "get" || args[0] == "describe" || args[0] == "status" || args[0] == "inspect";
      if (std::find(args.begin(), args.end(), "-f") == args.end() && args.size() > 1 &&
          reads_cluster) {
        continue;
      }
      workload_golden::Outcome o = workload_golden::Run(args);
      EXPECT_EQ(o.code, 0) << line << "\n" << o.err;
      ++ran;
    }
    EXPECT_GT(ran, 0) << command;
  }
}

const std::string kIn = "tests/cli/testdata/workload/inputs/";
const std::string kJobSet = "examples/jobset-training.yaml";
const std::string kJobSetPods = "examples/jobset-training.pods.yaml";
const std::string kLws = "examples/leaderworkerset-serving.yaml";
const std::string kLwsPods = "examples/leaderworkerset-serving.pods.yaml";
const std::string kRay = "examples/raycluster.yaml";
const std::string kRayPods = "examples/raycluster.pods.yaml";
const std::string kDynamo = "examples/dynamo-graph.yaml";
const std::string kDynamoPods = "examples/dynamo-graph.pods.yaml";

INSTANTIATE_TEST_SUITE_P(
    Definitions, WorkloadGolden,
    ::testing::Values(
        GoldenCase{"definitions-table-ray", {"definitions", "--group", "ray.io"}},
        GoldenCase{"definitions-json-jobset", {"definitions", "--kind", "jobset", "-o", "json"}},
        GoldenCase{"definitions-yaml-lws",
                   {"definitions", "--group", "leaderworkerset.x-k8s.io", "-o", "yaml"}},
        GoldenCase{"definitions-one-table",
                   {"definitions", "example-com-trainingrun-v1", "--definition",
                    kIn + "training-definition.yaml"}},
        GoldenCase{"definitions-one-yaml",
                   {"definitions", "example-com-trainingrun-v1", "--definition",
                    kIn + "training-definition.yaml", "-o", "yaml"}},
        GoldenCase{"definitions-one-json",
                   {"definitions", "example-com-trainingrun-v1", "--definition",
                    kIn + "training-definition.yaml", "-o", "json"}},
        GoldenCase{"definitions-one-markdown",
                   {"definitions", "example-com-trainingrun-v1", "--definition",
                    kIn + "training-definition.yaml", "-o", "markdown"}},
        GoldenCase{"definitions-override",
                   {"definitions", "--kind", "RayCluster", "--definition",
                    "../shared/conformance/upstream/catalog/ray-io-raycluster-v1.yaml"}},
        GoldenCase{"definitions-dir-override",
                   {"definitions", "--group", "jobset.x-k8s.io", "--definitions",
                    "../shared/conformance/upstream/catalog"}},
        GoldenCase{"definitions-not-found", {"definitions", "no-such-definition"}, 3},
        GoldenCase{"definitions-not-found-json", {"definitions", "no-such", "-o", "json"}, 3},
        GoldenCase{"definitions-bad-output", {"definitions", "-o", "xml"}, 2},
        GoldenCase{"definitions-missing-dir", {"definitions", "--definitions", "/nonexistent"}, 3},
        GoldenCase{"definitions-invalid-definition",
                   {"definitions", "--definition", "tests/model/testdata/cycle.yaml"},
                   1}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& c : n) c = c == '-' ? '_' : c;
      return n;
    });

INSTANTIATE_TEST_SUITE_P(
    Get, WorkloadGolden,
    ::testing::Values(
        GoldenCase{"get-table", {"get", "-f", "examples/"}},
        GoldenCase{"get-wide", {"get", "-f", "examples/", "-o", "wide"}},
        GoldenCase{"get-json", {"get", "-f", kRay, "-f", kRayPods, "-o", "json"}},
        GoldenCase{"get-yaml", {"get", "-f", kLws, "-f", kLwsPods, "-o", "yaml"}},
        GoldenCase{"get-no-pods", {"get", "-f", kJobSet, "-f", kRay, "-f", kLws}},
        GoldenCase{"get-selector",
                   {"get", "-f", "examples/", "-l", "team in (data-platform,inference-platform)"}},
        GoldenCase{"get-selector-not",
                   {"get", "-f", "examples/", "-l", "!team,app.kubernetes.io/name"}},
        GoldenCase{"get-status-filter", {"get", "-f", "examples/", "--status", "running,failed"}},
        GoldenCase{"get-list-json", {"get", "-f", kIn + "list.json"}},
        GoldenCase{"get-generate-name", {"get", "-f", "tests/cli/testdata/gang/volcano-jobs.yaml"}},
        GoldenCase{"get-generate-name-json",
                   {"get", "-f", "tests/cli/testdata/gang/volcano-jobs.yaml", "-o", "json"}},
        GoldenCase{"get-evaluation-warning",
                   {"get", "-f", kIn + "training-broken.yaml", "--definition",
                    kIn + "training-definition.yaml", "-o", "wide"}},
        GoldenCase{"get-stdin", {"get", "-f", "-"}, 0, "examples/raycluster.yaml"},
        GoldenCase{"get-undefined-kind", {"get", "-f", kIn + "unknown-kind.yaml", "-f", kRay}},
        GoldenCase{"get-invalid-yaml", {"get", "-f", kIn + "broken.yaml"}, 1},
        GoldenCase{"get-invalid-yaml-json", {"get", "-f", kIn + "broken.yaml", "-o", "json"}, 1},
        GoldenCase{"get-missing-file", {"get", "-f", "examples/nope.yaml"}, 3},
        GoldenCase{"get-bad-selector", {"get", "-f", "examples/", "-l", "a in (b"}, 2},
        GoldenCase{"get-bad-status", {"get", "-f", "examples/", "--status", "Sleeping"}, 2},
        GoldenCase{"get-no-files", {"get"}, 2},
        GoldenCase{"get-no-files-yaml", {"get", "-o", "yaml"}, 2}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& c : n) c = c == '-' ? '_' : c;
      return n;
    });

INSTANTIATE_TEST_SUITE_P(
    Describe, WorkloadGolden,
    ::testing::Values(
        GoldenCase{"describe-jobset-tree", {"describe", "-f", kJobSet, "-f", kJobSetPods}},
        GoldenCase{"describe-jobset-80",
                   {"describe", "-f", kJobSet, "-f", kJobSetPods, "--width", "80"}},
        GoldenCase{"describe-jobset-40",
                   {"describe", "-f", kJobSet, "-f", kJobSetPods, "--width", "40"}},
        GoldenCase{"describe-jobset-json",
                   {"describe", "-f", kJobSet, "-f", kJobSetPods, "-o", "json"}},
        GoldenCase{"describe-jobset-no-pods", {"describe", "-f", kJobSet}},
        GoldenCase{"describe-lws-tree", {"describe", "-f", kLws, "-f", kLwsPods}},
        GoldenCase{"describe-lws-80", {"describe", "-f", kLws, "-f", kLwsPods, "--width", "80"}},
        GoldenCase{"describe-lws-yaml", {"describe", "-f", kLws, "-f", kLwsPods, "-o", "yaml"}},
        GoldenCase{"describe-ray-tree", {"describe", "-f", kRay, "-f", kRayPods}},
        GoldenCase{"describe-ray-80", {"describe", "-f", kRay, "-f", kRayPods, "--width", "80"}},
        GoldenCase{"describe-ray-60", {"describe", "-f", kRay, "-f", kRayPods, "--width", "60"}},
        GoldenCase{"describe-ray-color",
                   {"describe", "-f", kRay, "-f", kRayPods, "--width", "80", "--color"}},
        GoldenCase{"describe-ray-no-color-env",
                   {"describe", "-f", kRay, "-f", kRayPods, "--color", "--no-color"},
                   0,
                   nullptr,
                   {"NO_COLOR=1"}},
        GoldenCase{"describe-ray-columns-env",
                   {"describe", "-f", kRay, "-f", kRayPods},
                   0,
                   nullptr,
                   {"COLUMNS=72"}},
        GoldenCase{"describe-ray-json", {"describe", "-f", kRay, "-f", kRayPods, "-o", "json"}},
        GoldenCase{"describe-ray-pod-limit",
                   {"describe", "-f", kRay, "-f", kRayPods, "--pod-limit", "1"}},
        GoldenCase{"describe-dynamo-tree", {"describe", "-f", kDynamo, "-f", kDynamoPods}},
        GoldenCase{"describe-dynamo-json",
                   {"describe", "-f", kDynamo, "-f", kDynamoPods, "-o", "json"}},
        GoldenCase{"describe-folder", {"describe", "-f", "examples/", "--width", "100"}},
        GoldenCase{"describe-subgroups-80",
                   {"describe", "-f", kIn + "training.yaml", "-f", kIn + "training-pods.yaml",
                    "--definition", kIn + "training-definition.yaml", "--width", "80"}},
        GoldenCase{"describe-subgroups-json",
                   {"describe", "-f", kIn + "training.yaml", "-f", kIn + "training-pods.yaml",
                    "--definition", kIn + "training-definition.yaml", "-o", "json"}},
        GoldenCase{"describe-no-definition", {"describe", "-f", kIn + "unknown-kind.yaml"}, 4},
        GoldenCase{"describe-no-definition-json",
                   {"describe", "-f", kIn + "unknown-kind.yaml", "-o", "json"},
                   4},
        GoldenCase{"describe-no-definition-yaml",
                   {"describe", "-f", kIn + "unknown-kind.yaml", "-o", "yaml"},
                   4},
        GoldenCase{"describe-pods-only", {"describe", "-f", kRayPods}, 3},
        GoldenCase{"describe-evaluation-error",
                   {"describe", "-f", kIn + "training-broken.yaml", "--definition",
                    kIn + "training-definition.yaml"},
                   1},
        GoldenCase{"describe-evaluation-error-json",
                   {"describe", "-f", kIn + "training-broken.yaml", "--definition",
                    kIn + "training-definition.yaml", "-o", "json"},
                   1},
        GoldenCase{"describe-missing-file", {"describe", "-f", "examples/nope.yaml"}, 3},
        GoldenCase{"describe-invalid-yaml", {"describe", "-f", kIn + "broken.yaml"}, 1},
        GoldenCase{"describe-unknown-flag", {"describe", "--frobnicate"}, 2},
        GoldenCase{"describe-bad-width", {"describe", "-f", kRay, "--width", "wide"}, 2}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& c : n) c = c == '-' ? '_' : c;
      return n;
    });

INSTANTIATE_TEST_SUITE_P(
    StatusInspectValidate, WorkloadGolden,
    ::testing::Values(
        GoldenCase{"status-text", {"status", "-f", kRay}},
        GoldenCase{"status-json", {"status", "-f", kRay, "-f", kLws, "-o", "json"}},
        GoldenCase{"status-no-definition", {"status", "-f", kIn + "unknown-kind.yaml"}, 4},
        GoldenCase{"status-no-definition-json",
                   {"status", "-f", kIn + "unknown-kind.yaml", "-o", "json"},
                   4},
        GoldenCase{"status-missing-file", {"status", "-f", "examples/nope.yaml"}, 3},
        GoldenCase{"status-usage", {"status"}, 2},
        // Services, ConfigMaps, Secrets and PVCs bundled with the workload: skipped, warned.
        GoldenCase{"status-bundled-objects", {"status", "-f", kIn + "job-with-service.yaml"}},
        GoldenCase{"inspect-bundled-objects-json",
                   {"inspect", "-f", kIn + "job-with-service.yaml", "-o", "json"}},
        GoldenCase{"inspect-json", {"inspect", "-f", kJobSet}},
        GoldenCase{"inspect-no-definition", {"inspect", "-f", kIn + "unknown-kind.yaml"}, 4},
        GoldenCase{"validate-missing-file", {"validate", "catalog/nope.yaml"}, 3}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& c : n) c = c == '-' ? '_' : c;
      return n;
    });

}  // namespace
}  // namespace wmap::cli
