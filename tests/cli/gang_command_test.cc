// `wmap gang`: golden outputs on the examples and on small objects of tests/cli/testdata/gang, in
// every output format and for every exit status.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/golden_support.h"
#include "wmap/json.h"

namespace wmap::cli {
namespace {

using golden::ExpectGolden;

const std::string kData = "tests/cli/testdata/gang/";

struct GoldenCase {
  const char* name;
  std::vector<std::string> args;
  const char* input_file = nullptr;  // piped to standard input
};

class GangGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GangGolden, MatchesGoldenFile) {
  const GoldenCase& c = GetParam();
  std::vector<std::string> args = {"gang"};
  args.insert(args.end(), c.args.begin(), c.args.end());
  std::string input;
  if (c.input_file != nullptr)
    input = golden::ReadFile(std::string(WMAP_SOURCE_DIR) + "/" + c.input_file);
  ExpectGolden("gang", c.name, args, input);
}

const std::vector<std::string> kTraining = {"-f",           kData + "training.yaml",
                                            "-f",           kData + "training-pods.yaml",
                                            "--definition", kData + "training-definition.yaml"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GangGolden,
    ::testing::Values(
        GoldenCase{"jobset-example-text", {"-f", "examples/jobset-training.yaml"}},
        GoldenCase{"jobset-example-json", {"-f", "examples/jobset-training.yaml", "-o", "json"}},
        GoldenCase{"jobset-example-yaml", {"-f", "examples/jobset-training.yaml", "-o", "yaml"}},
        GoldenCase{
            "jobset-example-pods-text",
            {"-f", "examples/jobset-training.yaml", "-f", "examples/jobset-training.pods.yaml"}},
        GoldenCase{"raycluster-example-pods-text",
                   {"-f", "examples/raycluster.yaml", "-f", "examples/raycluster.pods.yaml"}},
        GoldenCase{"leaderworkerset-example-pods-text",
                   {"-f", "examples/leaderworkerset-serving.yaml", "-f",
                    "examples/leaderworkerset-serving.pods.yaml"}},
        GoldenCase{"leaderworkerset-example-pods-json",
                   {"-f", "examples/leaderworkerset-serving.yaml", "-f",
                    "examples/leaderworkerset-serving.pods.yaml", "-o", "json"}},
        GoldenCase{"examples-folder-text", {"-f", "examples/"}},
        GoldenCase{"dynamo-example-pods-json",
                   {"-f", "examples/dynamo-graph.yaml", "-f", "examples/dynamo-graph.pods.yaml",
                    "-o", "json"}},
        GoldenCase{"gangs-form-lws-text",
                   {"-f", kData + "lws-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/lws.yaml"}},
        GoldenCase{"gangs-form-jobset-json",
                   {"-f", kData + "jobset-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/jobset.yaml", "-o", "json"}},
        // Nothing planned: the reason in the text, and in the document's warnings as on stderr.
        GoldenCase{"dynamo-without-grove-text", {"-f", kData + "dynamo-without-grove.yaml"}},
        GoldenCase{"for-kai-dynamo-without-grove-yaml",
                   {"--for", "kai", "-f", kData + "dynamo-without-grove.yaml"}},
        GoldenCase{"for-kueue-podgroups-without-pods-yaml",
                   {"--for", "kueue", "-f",
                    "catalog/testdata/trainer-kubeflow-org-trainjob-v1alpha1/"
                    "initializing-no-initializers.yaml"}},
        GoldenCase{"for-kai-lws-yaml",
                   {"--for", "kai", "-f", kData + "lws-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/lws.yaml"}},
        GoldenCase{"for-kai-jobset-json",
                   {"--for", "kai", "-f", kData + "jobset-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/jobset.yaml", "-o", "json"}},
        GoldenCase{"for-volcano-raycluster-yaml",
                   {"--for", "volcano", "-f", kData + "raycluster-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/raycluster.yaml"}},
        GoldenCase{"for-coscheduling-pytorchjob-yaml",
                   {"--for", "coscheduling", "-f", kData + "pytorchjob-workload.yaml",
                    "--definition", "tests/resolve/testdata/gangs/pytorchjob.yaml"}},
        GoldenCase{"for-kueue-jobset-manifests",
                   {"--for", "kueue", "-f", kData + "jobset-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/jobset.yaml", "-o", "manifests"}},
        GoldenCase{"volcano-jobs-text", {"-f", kData + "volcano-jobs.yaml"}},
        GoldenCase{"for-volcano-volcano-jobs-yaml",
                   {"--for", "volcano", "-f", kData + "volcano-jobs.yaml"}},
        GoldenCase{"for-kueue-partial-admission-yaml",
                   {"--for", "kueue", "-f", kData + "kueue-jobs.yaml"}},
        // Kueue's own Job and StatefulSet integrations turned off: prebuilt Workloads, with
        // minCount from the Job's partial admission.
        GoldenCase{"for-kueue-prebuilt-partial-admission-yaml",
                   {"--for", "kueue", "--kueue-prebuilt", "-f", kData + "kueue-jobs.yaml"}},
        GoldenCase{
            "for-kueue-v1beta1-dynamo-example-yaml",
            {"--for", "kueue", "--api-version", "v1beta1", "-f", "examples/dynamo-graph.yaml"}},
        GoldenCase{"for-kueue-bad-api-version",
                   {"--for", "kueue", "--api-version", "v1alpha1", "-f", "examples/"}},
        GoldenCase{"kueue-prebuilt-without-for", {"--kueue-prebuilt", "-f", "examples/"}},
        GoldenCase{"for-volcano-catalog-jobset-yaml",
                   {"--for", "volcano", "-f", "examples/jobset-training.yaml", "-f",
                    "examples/jobset-training.pods.yaml"}},
        GoldenCase{
            "for-volcano-tiers-jobset-yaml",
            {"--for", "volcano", "--volcano-tier", "kubernetes.io/hostname=node", "--volcano-tier",
             "topology.kubernetes.io/zone=zone", "-f", kData + "jobset-workload.yaml",
             "--definition", "tests/resolve/testdata/gangs/jobset.yaml"}},
        GoldenCase{
            "for-volcano-min-task-member-jobset-yaml",
            {"--for", "volcano", "--volcano-min-task-member", "-f", kData + "jobset-workload.yaml",
             "--definition", "tests/resolve/testdata/gangs/jobset.yaml"}},
        GoldenCase{"for-volcano-bad-tier",
                   {"--for", "volcano", "--volcano-tier", "rack", "-f", "examples/"}},
        GoldenCase{"volcano-tier-for-kai",
                   {"--for", "kai", "--volcano-tier", "rack=spine", "-f", "examples/"}},
        GoldenCase{"for-k8s-workload-jobset-yaml",
                   {"--for", "k8s-workload", "-f", kData + "jobset-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/jobset.yaml"}},
        GoldenCase{
            "for-k8s-workload-v1alpha3-lws-yaml",
            {"--for", "k8s-workload", "--api-version", "v1alpha3", "-f",
             kData + "lws-workload.yaml", "--definition", "tests/resolve/testdata/gangs/lws.yaml"}},
        GoldenCase{"for-k8s-workload-lws-json",
                   {"--for", "k8s-workload", "-f", kData + "lws-workload.yaml", "--definition",
                    "tests/resolve/testdata/gangs/lws.yaml", "-o", "json"}},
        GoldenCase{"for-kai-catalog-jobset-yaml",
                   {"--for", "kai", "-f", "examples/jobset-training.yaml", "-f",
                    "examples/jobset-training.pods.yaml"}},
        GoldenCase{"for-unknown-scheduler", {"--for", "yunikorn", "-f", "examples/"}},
        GoldenCase{"for-unknown-scheduler-json",
                   {"--for", "yunikorn", "-f", "examples/", "-o", "json"}},
        GoldenCase{"for-bad-output", {"--for", "kai", "-f", "examples/", "-o", "table"}},
        GoldenCase{"subgroups-text", kTraining},
        GoldenCase{"subgroups-json", With(kTraining, {"-o", "json"})},
        GoldenCase{"subgroups-yaml", With(kTraining, {"-o", "yaml"})},
        GoldenCase{
            "subgroups-no-pods-text",
            {"-f", kData + "training.yaml", "--definition", kData + "training-definition.yaml"}},
        GoldenCase{"raycluster-pods-text", {"-f", kData + "raycluster.yaml"}},
        GoldenCase{"raycluster-pods-json", {"-f", kData + "raycluster.yaml", "-o", "json"}},
        GoldenCase{"raycluster-stdin-text", {"-f", "-"}, "tests/cli/testdata/gang/raycluster.yaml"},
        GoldenCase{"no-gang-instructions", {"-f", "tests/cli/testdata/suspend/deployment.yaml"}},
        GoldenCase{"unknown-kind", {"-f", kData + "unknown-kind.yaml"}},
        GoldenCase{"unknown-kind-json", {"-f", kData + "unknown-kind.yaml", "-o", "json"}},
        GoldenCase{"pods-only", {"-f", kData + "pods-only.yaml"}},
        GoldenCase{"missing-file", {"-f", kData + "no-such-file.yaml"}},
        GoldenCase{"missing-file-yaml", {"-f", kData + "no-such-file.yaml", "-o", "yaml"}},
        GoldenCase{"no-file", {}},
        GoldenCase{"bad-output", {"-f", "examples/jobset-training.yaml", "-o", "wide"}},
        GoldenCase{"unexpected-argument", {"examples/jobset-training.yaml"}},
        GoldenCase{"help", {"--help"}}),
    [](const ::testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.name;
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

// The JSON document agrees with the definition's instructions: the subgroup minimums are the
// components' minReplicas, and every pod of a component joins that component's subgroup.
TEST(GangCommandTest, SubgroupsFollowTheDefinition) {
  golden::Outcome o = golden::Run(With({"gang", "-o", "json"}, kTraining));
  ASSERT_EQ(o.code, 0) << o.err;
  Result<Value> doc = json::Parse(o.out);
  ASSERT_TRUE(doc.ok()) << o.out;
  // The podGroup form is planned as one gang with a subgroup per listed component.
  EXPECT_EQ(*doc->find("form"), Value::String("podGroup"));
  ASSERT_EQ(doc->find("gangs")->size(), 1u);
  const Value& group = (*doc->find("gangs"))[0];
  EXPECT_EQ(*group.find("name"), Value::String("pg-0b1c2d3e-0000-4000-8000-000000000001-training"));
  EXPECT_EQ(*group.find("minSubGroup"), Value::Int(2));
  const Value& subs = *group.find("subGroups");
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(*subs[0].find("minMember"), Value::Int(1));  // replicasPath "1"
  EXPECT_EQ(*subs[1].find("minMember"), Value::Int(3));  // minReplicas over replicas
  EXPECT_EQ(*subs[1].find("pods"), Value::Int(4));
  const Value& pods = *doc->find("pods");
  ASSERT_EQ(pods.size(), 5u);
  int workers = 0;
  for (const Value& p : pods.items()) {
    const Value* sub = p.find("subGroup");
    if (sub != nullptr && *sub == Value::String("worker")) ++workers;
  }
  EXPECT_EQ(workers, 3);
  EXPECT_EQ(pods[4].find("subGroup"), nullptr);  // the debugging pod is in no subgroup
}

}  // namespace
}  // namespace wmap::cli
