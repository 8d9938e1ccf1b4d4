// Attribution of live pods (reference section 2.5): the controller ownership walk, the pod's
// component, instance and replica, and what happens to pods that cannot be attributed.
#include <gtest/gtest.h>

#include "resource_brief.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "resolve/resolve_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/tree.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

using test_support::Catalog;
using test_support::Json;
using test_support::ReadFile;

namespace fs = std::filesystem;

Definition Inline(const std::string& text) {
  LoadResult r = LoadDefinitions(text, "inline");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].ToString());
  return r.definitions.at(0);
}

// A live workload: the first document is the workload, Pods are pods, the rest are children.
struct Live {
  Value workload;
  std::vector<Value> children;
  std::vector<Value> pods;
};

Live LoadLive(std::initializer_list<std::string> files) {
  Live live;
  for (const std::string& file : files) {
    Result<std::vector<yaml::Document>> docs =
        yaml::ParseStream(ReadFile(fs::path(WMAP_SOURCE_DIR) / "tests/resolve/testdata" / file));
    EXPECT_TRUE(docs.ok()) << file;
    for (const yaml::Document& d : *docs) {
      const Value* kind = d.value.find("kind");
      if (live.workload.is_null()) {
        live.workload = d.value;
      } else if (kind && kind->as_string() == "Pod") {
        live.pods.push_back(d.value);
      } else {
        live.children.push_back(d.value);
      }
    }
  }
  return live;
}

const ComponentNode* Find(const ComponentNode& node, const std::string& name) {
  if (node.name == name) return &node;
  for (const ComponentNode& child : node.children) {
    if (const ComponentNode* found = Find(child, name)) return found;
  }
  return nullptr;
}

std::vector<std::string> PodNames(const InstanceNode& instance) {
  std::vector<std::string> names;
  for (const PodNode& p : instance.pods) names.push_back(p.name);
  return names;
}

TEST(AttributionTest, JobSetPodsGoToTheirReplicatedJob) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Live live = LoadLive({"jobset-live.yaml", "jobset-live-pods.yaml"});
  ASSERT_EQ(live.children.size(), 3u);
  ASSERT_EQ(live.pods.size(), 6u);
  Result<WorkloadTree> tree = BuildTree(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), live.workload,
                                        live.children, live.pods);
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  EXPECT_EQ(tree->name, "train");
  EXPECT_EQ(tree->namespace_name, "ml");
  EXPECT_EQ(tree->kind.kind, "JobSet");
  EXPECT_EQ(tree->totals_source, TotalsSource::kPods);
  EXPECT_EQ(*tree->root.statuses, std::vector<ResourceStatus>{ResourceStatus::kRunning});

  const ComponentNode* rj = Find(tree->root, "replicatedjob");
  ASSERT_NE(rj, nullptr);
  ASSERT_EQ(rj->instances.size(), 2u);
  const InstanceNode& leader = rj->instances[0];
  const InstanceNode& workers = rj->instances[1];
  EXPECT_EQ(leader.id, "leader");
  EXPECT_EQ(leader.desired, 1);
  EXPECT_EQ(leader.current, 1);
  EXPECT_EQ(leader.ready, 1);
  EXPECT_EQ(workers.id, "workers");
  EXPECT_EQ(workers.desired, 4);  // replicas 2 x parallelism 2
  EXPECT_EQ(workers.current, 3);
  EXPECT_EQ(workers.ready, 1);
  EXPECT_EQ(PodNames(workers),
            (std::vector<std::string>{"train-workers-0-0-fghij", "train-workers-0-1-klmno",
                                      "train-workers-1-0-pqrst"}));
  EXPECT_EQ(workers.pods[0].node_name, "node-b");
  EXPECT_EQ(workers.pods[0].phase, "Running");
  EXPECT_TRUE(workers.pods[0].ready);
  EXPECT_FALSE(workers.pods[1].ready);
  EXPECT_EQ(workers.pods[2].node_name, "");
  EXPECT_EQ(workers.pods[2].phase, "Pending");
  EXPECT_FALSE(workers.pods[2].replica_key.has_value());  // the JobSet has no replicaSelector

  // Requests from the pods: the leader 500m/1Gi, each worker 2 + 0.1 cores, 8Gi + 128Mi, 1 GPU.
  EXPECT_EQ(Brief(workers.pods[0].requests),
            (ResourceBrief{2100, 8LL * 1024 * 1024 * 1024 + 128LL * 1024 * 1024, 1}));
  EXPECT_EQ(AmountOf(tree->requests, "cpu"), 500 + 3 * 2100);
  EXPECT_EQ(GpuCount(tree->requests), 3);
  EXPECT_EQ(AmountOf(tree->requests, "memory"), (1LL << 30) + 3 * ((8LL << 30) + (128LL << 20)));
  EXPECT_EQ(tree->desired, 5);
  EXPECT_EQ(tree->current, 4);
  EXPECT_EQ(tree->ready, 2);
  EXPECT_EQ(rj->requests, tree->requests);

  // The other Job's pod and the bare pod are listed, with why, in input order.
  ASSERT_EQ(tree->unattributed.size(), 2u);
  EXPECT_EQ(tree->unattributed[0].name, "other-job-0-zzzzz");
  EXPECT_EQ(tree->unattributed[0].reason,
            "owner Job other-job is neither the workload nor one of its objects");
  EXPECT_EQ(tree->unattributed[1].name, "debug");
  EXPECT_EQ(tree->unattributed[1].reason, "no controller owner reference leads to the workload");
}

TEST(AttributionTest, APodListedTwiceCountsOnce) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Live live = LoadLive({"jobset-live.yaml", "jobset-live-pods.yaml"});
  std::vector<Value> pods{live.pods[0], live.pods[0]};
  Result<WorkloadTree> tree =
      BuildTree(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), live.workload, live.children, pods);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(tree->current, 1);
  ASSERT_EQ(tree->unattributed.size(), 1u);
  EXPECT_EQ(tree->unattributed[0].reason, "the pod is listed more than once");
}

TEST(AttributionTest, JobSetPodsWithoutTheirJobsAreNotAttributed) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Live live = LoadLive({"jobset-live.yaml", "jobset-live-pods.yaml"});
  Result<WorkloadTree> tree =
      BuildTree(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), live.workload, {}, live.pods);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(tree->current, 0);
  EXPECT_EQ(tree->unattributed.size(), 6u);
  EXPECT_EQ(tree->unattributed[0].reason,
            "owner Job train-leader-0 is neither the workload nor one of its objects");
}

TEST(AttributionTest, UnknownInstanceAndBadKeysAreListed) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Live live = LoadLive({"jobset-live.yaml"});
  // Owned through a real Job, but naming a replicated job the JobSet does not have, or none.
  Value ghost = Json(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {
      "name": "train-ghost-0-0", "uid": "p1",
      "labels": {"jobset.sigs.k8s.io/replicatedjob-name": "ghost"},
      "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "train-workers-0",
        "uid": "5d0c6a3e-0002-4000-8000-000000000002", "controller": true}]}})");
  Value unlabeled = Json(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {
      "name": "train-workers-0-9", "uid": "p2",
      "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "train-workers-0",
        "uid": "5d0c6a3e-0002-4000-8000-000000000002", "controller": true}]}})");
  std::vector<Value> pods{ghost, unlabeled};
  Result<WorkloadTree> tree =
      BuildTree(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), live.workload, live.children, pods);
  ASSERT_TRUE(tree.ok());
  ASSERT_EQ(tree->unattributed.size(), 2u);
  EXPECT_EQ(tree->unattributed[0].reason,
            "could not match instance id \"ghost\". existing instance ids [leader workers] "
            "(component replicatedjob)");
  EXPECT_EQ(tree->unattributed[1].reason,
            "instance of component replicatedjob: failed to extract instance id from path "
            "\".metadata.labels[\\\"jobset.sigs.k8s.io/replicatedjob-name\\\"]\": query result is "
            "empty <nil>");
}

TEST(AttributionTest, LeaderWorkerSetWalksThroughLeaderPods) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Live live = LoadLive({"lws-live.yaml"});
  ASSERT_EQ(live.children.size(), 3u);  // leader StatefulSet, two worker StatefulSets
  ASSERT_EQ(live.pods.size(), 6u);
  Result<WorkloadTree> tree = BuildTree(Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1"),
                                        live.workload, live.children, live.pods);
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  EXPECT_TRUE(tree->unattributed.empty())
      << tree->unattributed[0].name << ": " << tree->unattributed[0].reason;
  // Nested by parent: leaderworkerset -> group -> {leader, worker}.
  ASSERT_EQ(tree->root.children.size(), 1u);
  const ComponentNode& group = tree->root.children[0];
  EXPECT_EQ(group.name, "group");
  ASSERT_EQ(group.children.size(), 2u);
  const ComponentNode& leader = group.children[0];
  const ComponentNode& worker = group.children[1];
  EXPECT_EQ(leader.name, "leader");
  EXPECT_EQ(worker.name, "worker");
  ASSERT_EQ(leader.instances.size(), 1u);
  EXPECT_EQ(leader.instances[0].id, "");
  EXPECT_EQ(leader.desired, 2);
  EXPECT_EQ(leader.current, 2);
  EXPECT_EQ(leader.ready, 2);
  EXPECT_EQ(worker.desired, 4);  // 2 groups x (size 3 - 1)
  EXPECT_EQ(worker.current, 4);
  EXPECT_EQ(worker.ready, 2);
  // The group's replicas (its size) are not pods; its subtree figures are its children's.
  EXPECT_FALSE(group.has_pod_definition);
  EXPECT_EQ(group.instances[0].desired, 3);
  EXPECT_EQ(group.desired, 6);
  EXPECT_EQ(group.current, 6);
  EXPECT_EQ(tree->ready, 4);
  EXPECT_EQ(GpuCount(tree->requests), 6);
  EXPECT_EQ(AmountOf(tree->requests, "cpu"), 24000);
  EXPECT_EQ(AmountOf(tree->requests, "memory"), 6 * (16LL << 30));

  // Replica keys come from the group's replicaSelector (the pods' nearest one).
  const std::vector<PodNode>& workers = worker.instances[0].pods;
  ASSERT_EQ(workers.size(), 4u);
  EXPECT_EQ(workers[0].name, "vllm-0-1");
  EXPECT_EQ(workers[0].replica_key, "0");
  EXPECT_EQ(workers[3].name, "vllm-1-2");
  EXPECT_EQ(workers[3].replica_key, "1");
  EXPECT_EQ(workers[3].phase, "Pending");
  EXPECT_EQ(leader.instances[0].pods[1].node_name, "gpu-node-3");
  EXPECT_EQ(*tree->root.statuses, std::vector<ResourceStatus>{ResourceStatus::kInitializing});
}

TEST(AttributionTest, WorkersAreLostWithoutTheirStatefulSet) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Live live = LoadLive({"lws-live.yaml"});
  std::vector<Value> children;
  for (const Value& c : live.children) {
    if (c.find("metadata")->find("name")->as_string() != "vllm-1") children.push_back(c);
  }
  Result<WorkloadTree> tree = BuildTree(Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1"),
                                        live.workload, children, live.pods);
  ASSERT_TRUE(tree.ok());
  ASSERT_EQ(tree->unattributed.size(), 2u);
  EXPECT_EQ(tree->unattributed[0].name, "vllm-1-1");
  EXPECT_EQ(tree->unattributed[0].reason,
            "owner StatefulSet vllm-1 is neither the workload nor one of its objects");
  EXPECT_EQ(tree->current, 4);
}

// A chain of `links` Link objects between the pod and the workload.
struct Chain {
  Value workload;
  std::vector<Value> children;
  std::vector<Value> pods;
};

Value Owned(const std::string& kind, const std::string& api, const std::string& uid,
            const std::string& owner_kind, const std::string& owner_api,
            const std::string& owner_uid) {
  return Json(R"({"apiVersion": ")" + api + R"(", "kind": ")" + kind +
              R"(", "metadata": {"name": ")" + uid + R"(", "uid": ")" + uid +
              R"(", "ownerReferences": [
      {"apiVersion": "g.io/v1", "kind": "Other", "name": "x", "uid": "not-the-controller"},
      {"apiVersion": ")" +
              owner_api + R"(", "kind": ")" + owner_kind + R"(", "name": ")" + owner_uid +
              R"(", "uid": ")" + owner_uid + R"(", "controller": true}]}})");
}

Chain MakeChain(int links, int pods) {
  Chain c;
  c.workload = Json(R"({"apiVersion": "g.io/v1", "kind": "Top",
      "metadata": {"name": "top", "uid": "top"}, "spec": {"replicas": 1}})");
  std::string owner = "top", owner_kind = "Top";
  for (int i = 0; i < links; ++i) {
    std::string uid = "link" + std::to_string(i);
    c.children.push_back(Owned("Link", "g.io/v1", uid, owner_kind, "g.io/v1", owner));
    owner = uid;
    owner_kind = "Link";
  }
  for (int i = 0; i < pods; ++i) {
    c.pods.push_back(Owned("Pod", "v1", "pod" + std::to_string(i), owner_kind, "g.io/v1", owner));
  }
  return c;
}

constexpr const char* kTopDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: top}
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {group: g.io, version: v1, kind: Top}
      statusDefinition: {statusMappings: {}}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: .spec.replicas}
)";

TEST(AttributionTest, OwnerChainDepthAndAdditionalChildKinds) {
  Definition with = Inline(std::string(kTopDefinition) +
                           "    additionalChildKinds: [{group: g.io, version: v1, kind: Link}]\n");
  Definition without = Inline(kTopDefinition);

  // pod -> 5 links -> workload: 6 controller hops, the most that is followed.
  Chain six = MakeChain(5, 3);
  Result<WorkloadTree> t = BuildTree(with, six.workload, six.children, six.pods);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->unattributed.empty()) << t->unattributed[0].reason;
  EXPECT_EQ(t->current, 3);

  // One link more is too far, for every pod (the cached walk included).
  Chain seven = MakeChain(6, 2);
  t = BuildTree(with, seven.workload, seven.children, seven.pods);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->unattributed.size(), 2u);
  EXPECT_EQ(t->unattributed[1].reason, "the controller chain is longer than 6 owners");

  // A walk that ran out of hops through an object does not condemn that object: pod-b is 7 hops
  // away through pod-c, and pod-c itself is 6 hops away.
  Chain shared = MakeChain(5, 1);
  shared.pods.push_back(Owned("Pod", "v1", "pod-b", "Pod", "v1", "pod-c"));
  shared.pods.push_back(Owned("Pod", "v1", "pod-c", "Link", "g.io/v1", "link4"));
  t = BuildTree(with, shared.workload, shared.children, shared.pods);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->unattributed.size(), 1u);
  EXPECT_EQ(t->unattributed[0].name, "pod-b");
  EXPECT_EQ(t->unattributed[0].reason, "the controller chain is longer than 6 owners");
  EXPECT_EQ(t->current, 2);

  // Link is not a kind of this definition: the walk stops at it.
  t = BuildTree(without, six.workload, six.children, six.pods);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->unattributed.size(), 3u);
  EXPECT_EQ(t->unattributed[0].reason,
            "owner Link link4 is of a kind the definition does not list");
  EXPECT_EQ(t->current, 0);

  // A pod owned directly by the workload needs no listed kind.
  Chain direct = MakeChain(0, 1);
  t = BuildTree(without, direct.workload, direct.children, direct.pods);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->current, 1);
  EXPECT_EQ(t->root.instances[0].pods[0].name, "pod0");
}

TEST(AttributionTest, APodDefinitionOwnsThePodItself) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Value pod = Json(R"({"apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "solo", "namespace": "default", "uid": "u-solo"},
      "spec": {"nodeName": "n1", "containers": [{"name": "c", "resources": {
        "requests": {"cpu": "250m", "memory": "64Mi"}, "limits": {"amd.com/gpu": 2}}}]},
      "status": {"phase": "Running", "containerStatuses": [{"name": "c", "ready": true}]}})");
  std::vector<Value> pods{pod};
  Result<WorkloadTree> tree = BuildTree(Catalog("core-pod-v1"), pod, {}, pods);
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  EXPECT_TRUE(tree->unattributed.empty());
  EXPECT_EQ(tree->desired, 1);
  EXPECT_EQ(tree->current, 1);
  EXPECT_EQ(tree->ready, 1);  // no conditions: every container status is ready
  EXPECT_EQ(Brief(tree->requests), (ResourceBrief{250, 64LL << 20, 2}));
  EXPECT_EQ(*tree->root.statuses, std::vector<ResourceStatus>{ResourceStatus::kRunning});
}

}  // namespace
}  // namespace wmap
