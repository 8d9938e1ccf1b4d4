// Updates through definition paths (reference section 2.4): assign and zip-by-instance,
// unzipping, writability, fragment fields, suspend and resume.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "resolve/resolve_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/workload.h"

namespace wmap {
namespace {

using test_support::Catalog;
using test_support::Json;

namespace fs = std::filesystem;

std::vector<std::string> Keys(const Value& object) {
  std::vector<std::string> out;
  for (const Member& m : object.members()) out.emplace_back(m.key.as_string());
  return out;
}

const char* kJobSet = R"({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
  "metadata": {"name": "js"},
  "spec": {"replicatedJobs": [
      {"name": "leader", "replicas": 1, "template": {"spec": {"parallelism": 1, "template": {"a": 1}}}},
      {"name": "workers", "replicas": 2, "template": {"spec": {"parallelism": 4, "template": {"a": 2}}}}],
    "network": {}}})";

TEST(UpdateTest, PodTemplatesZipByInstanceAndKeepFieldOrder) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  Result<Value> updated = w.UpdatePodTemplateSpecs(
      1, {{"workers", Json(R"({"b": 2})")}, {"leader", Json(R"({"b": 1})")}});
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  Workload after(w.definition(), *updated);
  auto templates = after.PodTemplateSpecs(1);
  ASSERT_TRUE(templates.ok());
  EXPECT_EQ((**templates)[0], Json(R"({"b": 1})"));
  EXPECT_EQ((**templates)[1], Json(R"({"b": 2})"));
  EXPECT_EQ(Keys(*updated), (std::vector<std::string>{"apiVersion", "kind", "metadata", "spec"}));
  EXPECT_EQ(Keys(*updated->find("spec")), (std::vector<std::string>{"replicatedJobs", "network"}));
  // The workload itself is unchanged.
  EXPECT_EQ((**w.PodTemplateSpecs(1))[0], Json(R"({"a": 1})"));
}

TEST(UpdateTest, EveryInstanceNeedsAValue) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  Result<Value> updated = w.UpdatePodTemplateSpecs(1, {{"leader", Json("{}")}});
  ASSERT_FALSE(updated.ok());
  EXPECT_EQ(updated.error().message,
            "failed to unzip given pod template specs and instance ids: value not found for "
            "instance id: workers");
}

TEST(UpdateTest, NonWritablePathsAreRefused) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  Result<Value> updated = w.UpdateReplicas(1, {{"leader", 1}, {"workers", 3}});
  ASSERT_FALSE(updated.ok());
  // The message names the field; the expression and the evaluator's words are the detail.
  EXPECT_EQ(updated.error().message,
            "cannot update through spec.structureDefinition.childComponents[0].scaleDefinition."
            "replicasPath: the expression yields values, not a jq path that can be written");
  EXPECT_EQ(updated.error().code, ErrorCode::kInvalidPath);
  EXPECT_EQ(updated.error().field,
            "spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath");
  const std::string& detail = updated.error().detail;
  EXPECT_EQ(detail.rfind("expression '.spec.replicatedJobs[] | .replicas * "
                         ".template.spec.parallelism': JQ execution error for expression ",
                         0),
            0u)
      << detail;
  EXPECT_NE(detail.find("invalid path against: "), std::string::npos) << detail;
  EXPECT_FALSE(updated.error().hint.empty());
}

TEST(UpdateTest, AlternativeWithLiteralIsWritableOnlyWhenTheLeftExists) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition lws = Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1");
  int leader = lws.FindComponent("leader");
  ASSERT_GE(leader, 0);
  Workload present(lws, Json(R"({"spec": {"replicas": 2, "leaderWorkerTemplate": {"size": 3}}})"));
  Result<Value> ok = present.UpdateReplicas(leader, {{"", 5}});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(*ok->find("spec")->find("replicas"), Value::Int(5));
  Workload absent(lws, Json(R"({"spec": {"leaderWorkerTemplate": {"size": 3}}})"));
  Result<Value> refused = absent.UpdateReplicas(leader, {{"", 5}});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().detail.find("invalid path against: number (1)"), std::string::npos)
      << refused.error().detail;
}

TEST(UpdateTest, ZipCountMismatch) {
  std::string text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
    childComponents:
      - name: c
        ownerRef: r
        specDefinition: {podSpecPath: '.spec.first'}
        instanceIdPath: '.spec.items[].name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.name}}
)";
  LoadResult r = LoadDefinitions(text, "x");
  ASSERT_TRUE(r.ok());
  Workload w(r.definitions[0], Json(R"({"spec": {"items": [{"name": "a"}, {"name": "b"}]}})"));
  Result<Value> updated = w.UpdatePodSpecs(1, {{"a", Json("{}")}, {"b", Json("{}")}});
  ASSERT_FALSE(updated.ok());
  EXPECT_NE(updated.error().message.find("array length mismatch: expected 1 values but got 2"),
            std::string::npos)
      << updated.error().message;
}

TEST(UpdateTest, FragmentFieldsAllEmptyAreSkippedAndUndefinedPathsRefused) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition dynamo = Catalog("nvidia-com-dynamographdeployment-v1alpha1");
  Workload w(dynamo, Json(R"({"spec": {"services": {
      "Frontend": {"replicas": 1, "extraPodSpec": {"mainContainer": {"image": "a:1"}}},
      "decode": {"replicas": 2, "extraPodSpec": {"mainContainer": {"image": "b:1"}}}}}})"));
  FragmentedPodSpec frontend, decode;
  frontend.image = Value::String("a:2");
  decode.image = Value::String("b:2");
  Result<Value> updated =
      w.UpdateFragmentedPodSpecs(1, {{"Frontend", frontend}, {"decode", decode}});
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  auto fragments = Workload(dynamo, *updated).FragmentedPodSpecs(1);
  ASSERT_TRUE(fragments.ok());
  EXPECT_EQ((**fragments)[0].image, Value::String("a:2"));
  EXPECT_EQ((**fragments)[1].image, Value::String("b:2"));
  // Labels were empty for every instance: nothing written, no nulls introduced.
  EXPECT_EQ(updated->find("spec")->find("services")->find("decode")->find("labels"), nullptr);

  // Empty values everywhere: the object comes back as it was.
  Result<Value> unchanged = w.UpdateFragmentedPodSpecs(1, {{"Frontend", {}}, {"decode", {}}});
  ASSERT_TRUE(unchanged.ok());
  EXPECT_EQ(*unchanged, w.object());

  // v1beta1 has no schedulerNamePath... use a field the definition lacks: containers.
  FragmentedPodSpec with_containers;
  with_containers.containers = Json(R"([{"name": "x"}])");
  Result<Value> refused =
      w.UpdateFragmentedPodSpecs(1, {{"Frontend", with_containers}, {"decode", {}}});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "failed to update containers: path is not defined and values are not empty");
}

TEST(UpdateTest, SuspendAndResume) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  Result<Value> suspended = w.ApplySuspendActions(0);
  ASSERT_TRUE(suspended.ok()) << suspended.error().message;
  EXPECT_EQ(*suspended->find("spec")->find("suspend"), Value::Bool(true));
  EXPECT_EQ(Keys(*suspended->find("spec")),
            (std::vector<std::string>{"replicatedJobs", "network", "suspend"}));
  Result<Value> resumed = Workload(w.definition(), *suspended).ApplyResumeActions(0);
  ASSERT_TRUE(resumed.ok());
  EXPECT_EQ(*resumed->find("spec")->find("suspend"), Value::Bool(false));
  Result<Value> none = w.ApplySuspendActions(1);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "component replicatedjob does not have suspendDefinition");
}

}  // namespace
}  // namespace wmap
