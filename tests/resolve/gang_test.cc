// Gang groups of live pods under both forms (reference section 2.8): the deprecated `podGroups`
// with the group size, and the newer `podGroup` with flat subgroups.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "resolve/gang_karta.h"
#include "resolve/resolve_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

using test_support::CatalogText;
using test_support::ReadFile;

namespace fs = std::filesystem;

Definition Load(const std::string& text) {
  LoadResult r = LoadDefinitions(text, "test");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].ToString());
  return r.definitions.at(0);
}

// The catalog entry with its gang instructions replaced by `gang` (text under
// `optimizationInstructions:`, indented for it).
Definition WithGang(const std::string& name, const std::string& gang) {
  std::string text = CatalogText(name);
  size_t at = text.find("  optimizationInstructions:");
  EXPECT_NE(at, std::string::npos);
  return Load(text.substr(0, at) + "  optimizationInstructions:\n" + gang);
}

std::vector<Value> Documents(const std::string& file) {
  Result<std::vector<yaml::Document>> docs =
      yaml::ParseStream(ReadFile(fs::path(WMAP_SOURCE_DIR) / "tests/resolve/testdata" / file));
  EXPECT_TRUE(docs.ok()) << file;
  std::vector<Value> out;
  for (const yaml::Document& d : *docs) out.push_back(d.value);
  return out;
}

const Value& Named(const std::vector<Value>& docs, std::string_view name) {
  for (const Value& d : docs) {
    if (d.find("metadata")->find("name")->as_string() == name) return d;
  }
  ADD_FAILURE() << "no object " << name;
  return docs[0];
}

TEST(GangTest, DeprecatedFormJobSet) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = Load(CatalogText("jobset-x-k8s-io-jobset-v1alpha2"));
  std::vector<Value> jobset = Documents("jobset-live.yaml");
  std::vector<Value> pods = Documents("jobset-live-pods.yaml");
  Workload w(d, jobset[0]);
  PodQuerier q(d);

  auto worker = EvaluatePodGangGroup(w, q, Named(pods, "train-workers-0-1-klmno"));
  ASSERT_TRUE(worker.ok()) << worker.error().message;
  ASSERT_TRUE(worker->has_value());
  EXPECT_EQ((*worker)->pod_group, "job");
  EXPECT_EQ((*worker)->member_component, 1u);
  EXPECT_EQ((*worker)->keys, std::vector<std::string>{"workers"});
  EXPECT_EQ((*worker)->instance_id, "workers");
  EXPECT_EQ((*worker)->min_available, 4);  // this instance only: 2 Jobs x parallelism 2

  auto leader = EvaluatePodGangGroup(w, q, Named(pods, "train-leader-0-0-abcde"));
  ASSERT_TRUE(leader.ok());
  EXPECT_EQ((*leader)->keys, std::vector<std::string>{"leader"});
  EXPECT_EQ((*leader)->min_available, 1);

  // The pod's key must be there.
  auto unlabeled = EvaluatePodGangGroup(w, q, Named(pods, "debug"));
  ASSERT_FALSE(unlabeled.ok());
  EXPECT_NE(unlabeled.error().message.find("query result is empty <nil>"), std::string::npos);

  // No `podGroup`: the newer form has nothing to say.
  auto v2 = EvaluatePodGroup(w, q, Named(pods, "train-leader-0-0-abcde"));
  ASSERT_TRUE(v2.ok());
  EXPECT_FALSE(v2->has_value());
}

TEST(GangTest, DeprecatedFormLeaderWorkerSetGroupsByGroupIndex) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = Load(CatalogText("leaderworkerset-x-k8s-io-leaderworkerset-v1"));
  std::vector<Value> docs = Documents("lws-live.yaml");
  Workload w(d, docs[0]);
  PodQuerier q(d);
  auto worker = EvaluatePodGangGroup(w, q, Named(docs, "vllm-1-2"));
  ASSERT_TRUE(worker.ok()) << worker.error().message;
  EXPECT_EQ((*worker)->pod_group, "group");
  EXPECT_EQ((*worker)->member_component, static_cast<size_t>(d.FindComponent("group")));
  EXPECT_EQ((*worker)->keys, (std::vector<std::string>{"vllm", "1"}));
  EXPECT_FALSE((*worker)->instance_id.has_value());
  // Upstream's subtree scale: group size 3 x (leaders 2 + workers 2 x (3 - 1)).
  EXPECT_EQ((*worker)->min_available, 18);
  auto leader = EvaluatePodGangGroup(w, q, Named(docs, "vllm-0"));
  ASSERT_TRUE(leader.ok());
  EXPECT_EQ((*leader)->keys, (std::vector<std::string>{"vllm", "0"}));
}

constexpr const char* kLwsPodGroup = R"(    gangScheduling:
      podGroup:
        name: serving
        topology:
          topologyName: gb200
          preferredTopologyLevel: rack
          requiredTopologyLevel: zone
        subGroups:
          - componentName: leader
          - componentName: worker
            topology:
              topologyName: gb200
              preferredTopologyLevel: nvlink
              requiredTopologyLevel: rack
)";

TEST(GangTest, NewerFormFlatSubGroups) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = WithGang("leaderworkerset-x-k8s-io-leaderworkerset-v1", kLwsPodGroup);
  std::vector<Value> docs = Documents("lws-live.yaml");
  Workload w(d, docs[0]);
  PodQuerier q(d);

  auto plan = EvaluatePodGroup(w, q, Named(docs, "vllm-0-1"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  ASSERT_TRUE(plan->has_value());
  const PodGroupPlan& p = **plan;
  EXPECT_EQ(p.name, "serving");
  EXPECT_EQ(p.min_available, 0);
  EXPECT_EQ(p.min_sub_group, 2);
  ASSERT_TRUE(p.topology.has_value());
  EXPECT_EQ(p.topology->topology_name, "gb200");
  EXPECT_EQ(p.topology->preferred_topology_level, "rack");
  EXPECT_EQ(p.topology->required_topology_level, "zone");
  ASSERT_EQ(p.sub_groups.size(), 2u);
  EXPECT_EQ(p.sub_groups[0].name, "leader");
  EXPECT_EQ(p.sub_groups[0].min_available, 2);
  EXPECT_FALSE(p.sub_groups[0].contains_pod);
  EXPECT_FALSE(p.sub_groups[0].topology.has_value());
  EXPECT_EQ(p.sub_groups[1].name, "worker");
  EXPECT_EQ(p.sub_groups[1].min_available, 4);
  EXPECT_TRUE(p.sub_groups[1].contains_pod);
  EXPECT_EQ(p.sub_groups[1].topology->preferred_topology_level, "nvlink");

  auto leader = EvaluatePodGroup(w, q, Named(docs, "vllm-1"));
  ASSERT_TRUE(leader.ok());
  EXPECT_TRUE((*leader)->sub_groups[0].contains_pod);
  EXPECT_FALSE((*leader)->sub_groups[1].contains_pod);

  // Without a pod, no subgroup holds it; the sizes are the same.
  auto none = EvaluatePodGroup(w, q, Value());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE((*none)->sub_groups[1].contains_pod);
  EXPECT_EQ((*none)->sub_groups[1].min_available, 4);
}

TEST(GangTest, NewerFormParentSubGroupMatchesThroughItsChildren) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = WithGang("leaderworkerset-x-k8s-io-leaderworkerset-v1",
                          "    gangScheduling:\n      podGroup:\n        name: g\n"
                          "        subGroups:\n          - componentName: group\n");
  std::vector<Value> docs = Documents("lws-live.yaml");
  Workload w(d, docs[0]);
  PodQuerier q(d);
  auto plan = EvaluatePodGroup(w, q, Named(docs, "vllm-1-1"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  ASSERT_EQ((*plan)->sub_groups.size(), 1u);
  EXPECT_EQ((*plan)->sub_groups[0].min_available, 18);
  EXPECT_TRUE((*plan)->sub_groups[0].contains_pod);  // the worker selector, below `group`
  EXPECT_EQ((*plan)->min_sub_group, 1);
  EXPECT_FALSE((*plan)->topology.has_value());
}

TEST(GangTest, NewerFormWithoutSubGroupsSizesTheWholeWorkload) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = WithGang("jobset-x-k8s-io-jobset-v1alpha2",
                          "    gangScheduling:\n      podGroup:\n        name: all\n");
  std::vector<Value> jobset = Documents("jobset-live.yaml");
  Workload w(d, jobset[0]);
  PodQuerier q(d);
  auto plan = EvaluatePodGroup(w, q, Value());
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ((*plan)->min_available, 5);  // leader 1 + workers 4
  EXPECT_EQ((*plan)->min_sub_group, 0);
  EXPECT_TRUE((*plan)->sub_groups.empty());
}

TEST(GangTest, NewerFormErrors) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  // A subgroup whose subtree scale is 0.
  Definition d = WithGang("jobset-x-k8s-io-jobset-v1alpha2",
                          "    gangScheduling:\n      podGroup:\n        name: all\n"
                          "        subGroups:\n          - componentName: replicatedjob\n");
  Result<Value> idle = json::Parse(R"({"spec": {"replicatedJobs": [
      {"name": "w", "replicas": 0, "template": {"spec": {"parallelism": 4, "template": {}}}}]}})");
  Workload w(d, *idle);
  PodQuerier q(d);
  auto zero = EvaluatePodGroup(w, q, Value());
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "component replicatedjob must expose a replica scale definition");

  // subGroups are not checked at load (as upstream), so an unknown name fails here.
  Definition unknown = WithGang("jobset-x-k8s-io-jobset-v1alpha2",
                                "    gangScheduling:\n      podGroup:\n        name: all\n"
                                "        subGroups:\n          - componentName: replicatedJob\n");
  Workload u(unknown, Documents("jobset-live.yaml")[0]);
  auto missing = EvaluatePodGroup(u, PodQuerier(unknown), Value());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "subgroup component replicatedJob not found in the definition");
}

}  // namespace
}  // namespace wmap
