// Pods and gang groups (reference sections 1.5 and 2.8) on upstream's catalog definitions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

TEST(PodsTest, LeaderWorkerSetSelectors) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition lws = Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1");
  PodQuerier q(lws);
  size_t leader = static_cast<size_t>(lws.FindComponent("leader"));
  size_t worker = static_cast<size_t>(lws.FindComponent("worker"));
  size_t group = static_cast<size_t>(lws.FindComponent("group"));
  Value leader_pod = Json(R"({"metadata": {"labels": {
      "leaderworkerset.sigs.k8s.io/name": "lws", "leaderworkerset.sigs.k8s.io/group-index": "1",
      "leaderworkerset.sigs.k8s.io/worker-index": "0"}}})");
  Value worker_pod = Json(R"({"metadata": {
      "labels": {"leaderworkerset.sigs.k8s.io/name": "lws",
                 "leaderworkerset.sigs.k8s.io/worker-index": "2"},
      "annotations": {"leaderworkerset.sigs.k8s.io/leader-name": "lws-0"}}})");
  EXPECT_TRUE(*q.MatchesComponentType(leader, leader_pod));
  EXPECT_FALSE(*q.MatchesComponentType(leader, worker_pod));
  EXPECT_TRUE(*q.MatchesComponentType(worker, worker_pod));
  EXPECT_FALSE(*q.MatchesComponentType(worker, leader_pod));
  EXPECT_FALSE(*q.MatchesComponentType(group, leader_pod));  // no selector: matches nothing
  EXPECT_EQ(**q.InferPodComponent(leader_pod), leader);
  EXPECT_EQ(**q.InferPodComponent(worker_pod), worker);
  EXPECT_FALSE(q.InferPodComponent(Json("{}"))->has_value());
  EXPECT_EQ(**q.ReplicaKey(group, leader_pod), "1");
  EXPECT_FALSE(q.InstanceKey(group, leader_pod)->has_value());

  // Gang: the group entry applies to leader and worker pods through their parent; the second
  // key defaults to "0".
  auto g = q.PodGangGroup(worker_pod);
  ASSERT_TRUE(g.ok()) << g.error().message;
  ASSERT_TRUE(g->has_value());
  EXPECT_EQ((*g)->member_component, group);
  EXPECT_EQ((*g)->keys, (std::vector<std::string>{"lws", "0"}));
  auto lg = q.PodGangGroup(leader_pod);
  ASSERT_TRUE(lg.ok());
  EXPECT_EQ((*lg)->keys, (std::vector<std::string>{"lws", "1"}));
}

TEST(PodsTest, SingleLeafClaimsEveryPodAndKeysNeedOneValue) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition jobset = Catalog("jobset-x-k8s-io-jobset-v1alpha2");
  PodQuerier q(jobset);
  Value pod =
      Json(R"({"metadata": {"labels": {"jobset.sigs.k8s.io/replicatedjob-name": "workers"}}})");
  EXPECT_EQ(**q.InferPodComponent(Json("{}")), 1u);
  EXPECT_EQ(**q.InstanceKey(1, pod), "workers");
  auto g = q.PodGangGroup(pod);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)->pod_group, "job");
  EXPECT_EQ((*g)->keys, std::vector<std::string>{"workers"});
  auto missing = q.InstanceKey(1, Json("{}"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "key path '.metadata.labels[\"jobset.sigs.k8s.io/replicatedjob-name\"]' yielded an "
            "empty value");
}

TEST(PodsTest, NumbersFormatAsGoDoes) {
  LoadResult r = LoadDefinitions(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
      podSelector:
        replicaSelector: {keyPath: '.spec.index'}
        componentTypeSelector: {keyPath: '.spec.role', value: "1"}
)",
                                 "x");
  ASSERT_TRUE(r.ok());
  PodQuerier q(r.definitions[0]);
  EXPECT_EQ(**q.ReplicaKey(0, Json(R"({"spec": {"index": 1.0}})")), "1");
  EXPECT_EQ(**q.ReplicaKey(0, Json(R"({"spec": {"index": true}})")), "true");
  // The value is compared as a JSON string: the number 1 is not "1".
  EXPECT_FALSE(*q.MatchesComponentType(0, Json(R"({"spec": {"role": 1}})")));
  EXPECT_TRUE(*q.MatchesComponentType(0, Json(R"({"spec": {"role": "1"}})")));
}

TEST(GangTest, SubtreeScaleMultipliesParentsByChildren) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition jobset = Catalog("jobset-x-k8s-io-jobset-v1alpha2");
  Workload w(jobset, Json(R"({"spec": {"replicatedJobs": [
      {"name": "leader", "replicas": 1, "template": {"spec": {"parallelism": 1, "template": {}}}},
      {"name": "workers", "replicas": 2, "template": {"spec": {"parallelism": 4, "template": {}}}}]}})"));
  // The root has no scale: the children's sum (1x1 + 2x4) carries over.
  EXPECT_EQ(*w.SubtreeScale(0), 9);
  EXPECT_EQ(*w.SubtreeScale(1, std::string("workers")), 8);
  EXPECT_FALSE(w.SubtreeScale(1, std::string("")).ok());

  // LWS: group (size 4) x (leader 3 + worker 3 x (4 - 1)), the catalog's documented
  // inconsistency included.
  Definition lws = Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1");
  Workload l(lws, Json(R"({"spec": {"replicas": 3, "leaderWorkerTemplate": {"size": 4}}})"));
  EXPECT_EQ(*l.SubtreeScale(static_cast<size_t>(lws.FindComponent("leader"))), 3);
  EXPECT_EQ(*l.SubtreeScale(static_cast<size_t>(lws.FindComponent("worker"))), 9);
  EXPECT_EQ(*l.SubtreeScale(static_cast<size_t>(lws.FindComponent("group"))), 48);

  // RayCluster: minReplicas wins when > 0.
  Definition ray = Catalog("ray-io-raycluster-v1");
  Workload rw(ray, Json(R"({"spec": {"headGroupSpec": {"template": {}}, "workerGroupSpecs": [
      {"groupName": "a", "replicas": 4, "minReplicas": 2, "template": {}},
      {"groupName": "b", "replicas": 3, "minReplicas": 0, "template": {}}]}})"));
  EXPECT_EQ(*rw.SubtreeScale(static_cast<size_t>(ray.FindComponent("worker"))), 5);
  EXPECT_EQ(*rw.SubtreeScale(0), 6);  // head 1 + workers 5
}

TEST(GangTest, LeafCountWhenNoScaleIsDefined) {
  LoadResult r = LoadDefinitions(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
    childComponents:
      - {name: a, ownerRef: r}
      - {name: b, ownerRef: r}
      - {name: c, ownerRef: b}
)",
                                 "x");
  ASSERT_TRUE(r.ok());
  Workload w(r.definitions[0], Json("{}"));
  EXPECT_EQ(*w.SubtreeScale(0), 2);
  EXPECT_EQ(*w.SubtreeScale(2), 1);
}

}  // namespace
}  // namespace wmap
