// Cases where upstream's own Go library (tests/upstream runs it) and wmap disagreed, on
// upstream's catalog definitions and our catalog test data: who joins which pod group depends
// on counts and selectors only, as in upstream.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "resolve_test_support.h"
#include "shared_data.h"
#include "test_files.h"
#include "wmap/gang.h"
#include "wmap/tree.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

using test_support::Catalog;

std::vector<Value> Documents(const std::string& testdata_file) {
  const std::filesystem::path path =
      std::filesystem::path(WMAP_SOURCE_DIR) / "catalog/testdata" / testdata_file;
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(test_files::ReadFile(path));
  EXPECT_TRUE(docs.ok()) << path;
  std::vector<Value> out;
  if (docs.ok()) {
    for (const yaml::Document& d : *docs) out.push_back(d.value);
  }
  return out;
}

// The Pods among `objects`, or (`pods` false) the others.
std::vector<Value> Pods(const std::vector<Value>& objects, bool pods = true) {
  std::vector<Value> out;
  for (const Value& o : objects) {
    const Value* kind = o.find("kind");
    const bool pod = kind != nullptr && kind->is_string() && kind->as_string() == "Pod";
    if (pod == pods) out.push_back(o);
  }
  return out;
}

TEST(UpstreamAgreement, APodWithoutAReplicaKeyIsStillPlaced) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  // Dynamo's frontend pods carry no Grove scaling-group replica index; upstream places pods by
  // component and instance alone.
  const Definition d = Catalog("nvidia-com-dynamographdeployment-v1beta1");
  const std::vector<Value> workload =
      Documents("nvidia-com-dynamographdeployment-v1beta1/running.yaml");
  const std::vector<Value> objects =
      Documents("nvidia-com-dynamographdeployment-v1beta1/running.pods.yaml");
  Result<WorkloadTree> tree = BuildTree(d, workload.at(0), Pods(objects, false), Pods(objects));
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  for (const auto& u : tree->unattributed) ADD_FAILURE() << u.name << ": " << u.reason;
}

TEST(UpstreamAgreement, APodOfAnInstanceTheWorkloadLacksJoinsNoGroup) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  const Definition d = Catalog("grove-io-podcliqueset-v1alpha1");
  const std::vector<Value> workload = Documents("grove-io-podcliqueset-v1alpha1/degraded.yaml");
  const std::vector<Value> pods =
      Pods(Documents("grove-io-podcliqueset-v1alpha1/degraded.pods.yaml"));
  Result<GangPlans> plans = PlanGangs(Workload(d, workload.at(0)), pods);
  ASSERT_TRUE(plans.ok()) << plans.error().message;
  ASSERT_FALSE(plans->pods.empty());
  const PodGangAssignment& first = plans->pods.front();
  EXPECT_EQ(first.pod.rfind("llama-disagg-0-", 0), 0u) << first.pod;
  EXPECT_EQ(first.gang, "");
  EXPECT_EQ(first.reason.rfind("could not match instance id \"llama-disagg-0-", 0), 0u)
      << first.reason;
  EXPECT_NE(first.reason.find(". existing instance ids [frontend decode pleader pworker]"),
            std::string::npos)
      << first.reason;
}

TEST(UpstreamAgreement, AFailingPodDefinitionLeavesTheGroupsAndSaysWhatIsMissing) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  const Definition d = Catalog("nvidia-com-dynamographdeployment-v1beta1");
  std::vector<Value> workload = Documents("nvidia-com-dynamographdeployment-v1beta1/running.yaml");
  Value& components = *workload.at(0).find_mutable("spec")->find_mutable("components");
  Value first = components.items()[0];
  first.erase("podTemplate");
  Value edited = Value::EmptyArray();
  edited.push_back(first);
  for (size_t i = 1; i < components.items().size(); ++i) edited.push_back(components.items()[i]);
  components = edited;
  const std::vector<Value> pods =
      Pods(Documents("nvidia-com-dynamographdeployment-v1beta1/running.pods.yaml"));
  Result<GangPlans> plans = PlanGangs(Workload(d, workload.at(0)), pods);
  ASSERT_TRUE(plans.ok()) << plans.error().message;
  std::vector<std::string> gangs;
  for (const GangPlan& g : plans->gangs) {
    gangs.push_back(g.name.substr(g.name.rfind('-') + 1) + " " + std::to_string(g.min_member));
    EXPECT_TRUE(g.resources.empty());
  }
  EXPECT_EQ(gangs, (std::vector<std::string>{"frontend 1", "worker 2"}));
  ASSERT_FALSE(plans->warnings.empty());
  EXPECT_NE(plans->warnings[0].find("requests and template not read"), std::string::npos);
}

}  // namespace
}  // namespace wmap
