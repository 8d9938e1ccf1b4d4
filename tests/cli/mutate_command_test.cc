// `wmap mutate`: golden outputs for every output format and exit status, and round trips through
// the command: the printed object, read back through the definition, has the change where the
// definition says and nothing else changed; the printed patch turns the input into that object.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/golden_support.h"
#include "wmap/catalog.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

using golden::ExpectGolden;

const std::string kExample = "examples/jobset-training.yaml";
const std::string kData = "tests/cli/testdata/mutate/";

struct GoldenCase {
  const char* name;
  std::vector<std::string> args;
  const char* input_file = nullptr;
};

class MutateGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(MutateGolden, MatchesGoldenFile) {
  const GoldenCase& c = GetParam();
  std::vector<std::string> args = {"mutate"};
  args.insert(args.end(), c.args.begin(), c.args.end());
  std::string input;
  if (c.input_file != nullptr) {
    input = golden::ReadFile(std::string(WMAP_SOURCE_DIR) + "/" + c.input_file);
  }
  ExpectGolden("mutate", c.name, args, input);
}

const std::vector<std::string> kGraph = {"-f", kData + "servinggraph.yaml", "--definition",
                                         kData + "fragments-definition.yaml"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MutateGolden,
    ::testing::Values(
        GoldenCase{"jobset-scheduler-yaml",
                   {"-f", kExample, "--scheduler-name", "kai-scheduler", "--label",
                    "kai.scheduler/queue=research"}},
        GoldenCase{
            "jobset-instance-json",
            {"-f", kExample, "--instance", "workers", "--toleration", "nvidia.com/gpu:NoSchedule",
             "--toleration", "spot=true:PreferNoSchedule", "--node-selector", "pool=a100",
             "--image", "trainer=ghcr.io/example/llama-train:2.4.0", "-o", "json"}},
        GoldenCase{"mixed-stream-yaml",
                   {"-f", "tests/cli/testdata/mutate/mixed-stream.yaml", "--label", "team=a"}},
        GoldenCase{"mixed-stream-patch",
                   {"-f", "tests/cli/testdata/mutate/mixed-stream.yaml", "--label", "team=a", "-o",
                    "patch"}},
        GoldenCase{"jobset-patch",
                   {"-f", kExample, "--priority-class", "high", "--annotation", "owner=ml-platform",
                    "-o", "patch"}},
        GoldenCase{"jobset-stdin-patch",
                   {"-f", "-", "--component", "replicatedjob", "--image", "registry.local/llama:2",
                    "-o", "patch"},
                   "examples/jobset-training.yaml"},
        GoldenCase{"leaderworkerset-component-patch",
                   {"-f", "examples/leaderworkerset-serving.yaml", "-f",
                    "examples/leaderworkerset-serving.pods.yaml", "--component", "worker",
                    "--node-selector", "cloud.google.com/gke-nodepool=h100-pool", "-o", "patch"}},
        GoldenCase{"raycluster-instance-json-patch",
                   {"-f", "examples/raycluster.yaml", "--instance", "gpu-inference",
                    "--priority-class", "inference-high", "--label", "tier=gpu", "--toleration",
                    "spot=true:PreferNoSchedule", "-o", "json-patch"}},
        GoldenCase{"raycluster-instance-patch",
                   {"-f", "examples/raycluster.yaml", "--instance", "gpu-inference",
                    "--priority-class", "inference-high", "--label", "tier=gpu", "-o", "patch"}},
        GoldenCase{"dynamo-example-fragments-patch",
                   {"-f", "examples/dynamo-graph.yaml", "--instance", "VllmDecodeWorker",
                    "--scheduler-name", "kai-scheduler", "--label", "tier=decode", "--image",
                    "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.4.1", "-o", "patch"}},
        GoldenCase{"fragments-instance-patch",
                   With(kGraph, {"--instance", "frontend", "--label", "tier=cpu",
                                 "--scheduler-name", "kai-scheduler", "-o", "patch"})},
        GoldenCase{"fragments-image-yaml",
                   With(kGraph, {"--image", "registry.example.com/chat-engine:1.0"})},
        GoldenCase{"fragments-named-image-patch",
                   With(kGraph,
                        {"--image", "engine=registry.example.com/chat-engine:1.0", "-o", "patch"})},
        GoldenCase{"fragments-toleration-not-writable",
                   With(kGraph, {"--toleration", "nvidia.com/gpu:NoSchedule"})},
        GoldenCase{"fragments-toleration-not-writable-json",
                   With(kGraph, {"--toleration", "nvidia.com/gpu:NoSchedule", "-o", "json"})},
        GoldenCase{"computed-path-not-writable",
                   {"-f", kData + "assembled.yaml", "--definition",
                    kData + "computed-definition.yaml", "--scheduler-name", "kai-scheduler"}},
        GoldenCase{
            "computed-path-not-writable-verbose",
            {"-f", kData + "assembled.yaml", "--definition", kData + "computed-definition.yaml",
             "--scheduler-name", "kai-scheduler", "--verbose"}},
        GoldenCase{"component-not-found",
                   {"-f", kExample, "--component", "workers", "--scheduler-name", "s"}},
        GoldenCase{
            "component-not-found-json",
            {"-f", kExample, "--component", "workers", "--scheduler-name", "s", "-o", "json"}},
        GoldenCase{"component-without-template",
                   {"-f", kExample, "--component", "jobset", "--scheduler-name", "s"}},
        GoldenCase{"instance-not-found",
                   {"-f", kExample, "--instance", "leader", "--scheduler-name", "s", "-o", "yaml"}},
        GoldenCase{"container-not-found", {"-f", kExample, "--image", "worker=img:2"}},
        GoldenCase{"unknown-kind",
                   {"-f", "tests/cli/testdata/gang/unknown-kind.yaml", "--label", "a=b"}},
        GoldenCase{"missing-file", {"-f", kData + "nope.yaml", "--label", "a=b"}},
        GoldenCase{"nothing-to-change", {"-f", kExample}},
        GoldenCase{"bad-toleration", {"-f", kExample, "--toleration", "a=b:Never"}},
        GoldenCase{"bad-label-json", {"-f", kExample, "--label", "novalue", "-o", "json"}},
        GoldenCase{"bad-output", {"-f", kExample, "--label", "a=b", "-o", "table"}},
        GoldenCase{"unknown-flag", {"-f", kExample, "--labels", "a=b"}},
        GoldenCase{"help", {"--help"}}),
    [](const ::testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.name;
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

Value ReadExample() {
  Result<Value> v = yaml::Parse(golden::ReadFile(std::string(WMAP_SOURCE_DIR) + "/" + kExample));
  EXPECT_TRUE(v.ok());
  return v.ok() ? *v : Value();
}

Value ParseJson(const std::string& text) {
  Result<Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : Value();
}

const Definition& JobSetDefinition() {
  const CatalogEntry* entry = Catalog::BuiltIn().Find("jobset.x-k8s.io/v1alpha2", "JobSet");
  EXPECT_NE(entry, nullptr);
  return entry->definition;
}

std::vector<Value> Templates(const Value& object) {
  Workload w(JobSetDefinition(), object);
  Result<std::optional<std::vector<Value>>> t = w.PodTemplateSpecs(1);
  EXPECT_TRUE(t.ok() && t.value().has_value());
  if (!t.ok() || !t.value().has_value()) return {};
  return *t.value();
}

TEST(MutateCommandTest, RoundTripThroughTheDefinition) {
  golden::Outcome o =
      golden::Run({"mutate", "-f", kExample, "--instance", "workers", "--node-selector",
                   "pool=a100", "--label", "team=research", "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  Value original = ReadExample();
  Value mutated = ParseJson(o.out);
  std::vector<Value> before = Templates(original);
  std::vector<Value> after = Templates(mutated);
  ASSERT_EQ(after.size(), 2u);
  ASSERT_EQ(before.size(), 2u);
  // The driver's template is untouched; the workers' has exactly the two changes.
  EXPECT_EQ(after[0], before[0]);
  Value expected = before[1];
  Value* spec = expected.find_mutable("spec");
  Value* selector = spec->find_mutable("nodeSelector");
  selector->set("pool", Value::String("a100"));
  expected.find_mutable("metadata")->find_mutable("labels")->set("team", Value::String("research"));
  EXPECT_EQ(after[1], expected);
  // Outside the templates the object is as it was: putting the old templates back gives it.
  Workload w(JobSetDefinition(), mutated);
  Result<Value> restored =
      w.UpdatePodTemplateSpecs(1, {{"driver", before[0]}, {"workers", before[1]}});
  ASSERT_TRUE(restored.ok());
  EXPECT_EQ(json::ToString(*restored, {.indent = 0, .sort_keys = false}),
            json::ToString(original, {.indent = 0, .sort_keys = false}));
}

TEST(MutateCommandTest, PatchTurnsTheInputIntoThePrintedObject) {
  std::vector<std::string> changes = {"--scheduler-name", "kai-scheduler",    "--toleration",
                                      "x=y:NoSchedule",   "--priority-class", "high"};
  golden::Outcome whole = golden::Run(With({"mutate", "-f", kExample, "-o", "json"}, changes));
  golden::Outcome patch = golden::Run(With({"mutate", "-f", kExample, "-o", "patch"}, changes));
  ASSERT_EQ(whole.code, 0) << whole.err;
  ASSERT_EQ(patch.code, 0) << patch.err;
  Value patched = ApplyMergePatch(ReadExample(), ParseJson(patch.out));
  EXPECT_EQ(patched, ParseJson(whole.out));
  EXPECT_NE(patched, ReadExample());
}

TEST(MutateCommandTest, JsonPatchTurnsTheInputIntoThePrintedObject) {
  std::vector<std::string> changes = {"--instance",     "workers", "--toleration",
                                      "x=y:NoSchedule", "--image", "trainer=img:2",
                                      "--label",        "a=b"};
  golden::Outcome whole = golden::Run(With({"mutate", "-f", kExample, "-o", "json"}, changes));
  golden::Outcome patch =
      golden::Run(With({"mutate", "-f", kExample, "-o", "json-patch"}, changes));
  ASSERT_EQ(whole.code, 0) << whole.err;
  ASSERT_EQ(patch.code, 0) << patch.err;
  Value operations = ParseJson(patch.out);
  EXPECT_EQ(operations.size(), 3u);  // one toleration, one image, one label
  Result<Value> patched = ApplyJsonPatch(ReadExample(), operations);
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_EQ(*patched, ParseJson(whole.out));
}

TEST(MutateCommandTest, YamlOutputReadsBackAsTheJsonOutput) {
  std::vector<std::string> changes = {"--label", "a=b", "--image", "img:1"};
  golden::Outcome yaml_out = golden::Run(With({"mutate", "-f", kExample}, changes));
  golden::Outcome json_out = golden::Run(With({"mutate", "-f", kExample, "-o", "json"}, changes));
  ASSERT_EQ(yaml_out.code, 0);
  Result<Value> from_yaml = yaml::Parse(yaml_out.out);
  ASSERT_TRUE(from_yaml.ok());
  EXPECT_EQ(*from_yaml, ParseJson(json_out.out));
  // Applying the same changes again changes nothing.
  golden::Outcome again =
      golden::Run(With({"mutate", "-f", "-", "-o", "json"}, changes), yaml_out.out);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(ParseJson(again.out), *from_yaml);
}

}  // namespace
}  // namespace wmap::cli
