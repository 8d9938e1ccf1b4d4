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
            "failed to extract instance id from path "
            "\".metadata.labels[\\\"jobset.sigs.k8s.io/replicatedjob-name\\\"]\": query result is "
            "empty <nil>");
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

// Without any scaleDefinition, upstream counts the pods the pod-bearing components make: one
// per instance of a component with an instanceIdPath, one for a component without; components
// with no pod definition count nothing.
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
      - {name: a, ownerRef: r, specDefinition: {podSpecPath: .spec.a}}
      - {name: b, ownerRef: r}
      - {name: c, ownerRef: b, specDefinition: {podSpecPath: .spec.c}}
      - {name: d, ownerRef: b}
)",
                                 "x");
  ASSERT_TRUE(r.ok());
  Workload w(r.definitions[0], Json("{}"));
  EXPECT_EQ(*w.SubtreeScale(0), 2);
  EXPECT_EQ(*w.SubtreeScale(2), 1);
  EXPECT_EQ(*w.SubtreeScale(4), 0);
}

TEST(GangTest, LeafCountCountsTheInstancesOfAPodBearingLeaf) {
  LoadResult r = LoadDefinitions(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
    childComponents:
      - name: job
        ownerRef: r
        instanceIdPath: .spec.jobs[].name
        specDefinition:
          podSpecPath: .spec.jobs[].spec
        podSelector:
          componentInstanceSelector:
            idPath: '.metadata.labels["job"]'
)",
                                 "x");
  ASSERT_TRUE(r.ok()) << r.errors[0].message;
  Workload w(r.definitions[0],
             Json(R"({"spec": {"jobs": [{"name": "x", "spec": {}}, {"name": "y", "spec": {}}]}})"));
  EXPECT_EQ(*w.SubtreeScale(0), 2);
  EXPECT_EQ(*w.SubtreeScale(1), 2);
  EXPECT_EQ(*w.SubtreeScale(1, std::string("x")), 1);
  Result<int32_t> missing = w.SubtreeScale(1, std::string("z"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "instance id z not found");
}

}  // namespace
// A podGroups filter must yield exactly one non-empty result (upstream's PassesFilters): several
// results or an empty one are errors, never "false"; any single result but true fails the filter.
TEST(PodsTest, FiltersNeedExactlyOneResult) {
  LoadResult r = LoadDefinitions(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
      specDefinition:
        podSpecPath: .spec.pod
  optimizationInstructions:
    gangScheduling:
      podGroups:
        - name: g
          members:
            - componentName: r
              filters:
                - .metadata.labels.role
)",
                                 "x");
  ASSERT_TRUE(r.ok()) << r.errors[0].message;
  PodQuerier q(r.definitions[0]);
  auto pod = [](std::string_view role) {
    return Json(R"({"metadata": {"name": "p0", "labels": {"role": )" + std::string(role) + "}}}");
  };
  auto passing = q.PodGangGroup(pod("true"));
  ASSERT_TRUE(passing.ok());
  EXPECT_TRUE(passing->has_value());
  auto failing = q.PodGangGroup(pod("false"));
  ASSERT_TRUE(failing.ok());
  EXPECT_FALSE(failing->has_value());
  auto other = q.PodGangGroup(pod("\"yes\""));
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->has_value());
  auto empty = q.PodGangGroup(pod("\"\""));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message,
            "failed to evaluate filters for component r in group g: failed to evaluate filter "
            "\".metadata.labels.role\": query result is empty ");

  LoadResult multi = LoadDefinitions(std::string(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
      specDefinition:
        podSpecPath: .spec.pod
  optimizationInstructions:
    gangScheduling:
      podGroups:
        - name: g
          members:
            - componentName: r
              filters:
                - .metadata.labels[] == "a"
)"),
                                     "x");
  ASSERT_TRUE(multi.ok()) << multi.errors[0].message;
  PodQuerier mq(multi.definitions[0]);
  auto two = mq.PodGangGroup(Json(R"({"metadata": {"labels": {"x": "a", "y": "a"}}})"));
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().message,
            "failed to evaluate filters for component r in group g: failed to evaluate filter "
            "\".metadata.labels[] == \\\"a\\\"\": expected single query result, got 2");
}

// A pod no component type selector matches is upstream's error, naming the pod.
TEST(PodsTest, NoComponentFoundNamesThePod) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition lws = Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1");
  PodQuerier q(lws);
  auto g = q.PodGangGroup(Json(R"({"metadata": {"name": "stray", "labels": {}}})"));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().message, "no component found for pod stray");
}

}  // namespace wmap
