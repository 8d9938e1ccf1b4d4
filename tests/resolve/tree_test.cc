// The workload tree: quantities, request totals (from pods and from templates), nesting and
// counts, and concurrent building from one Definition.
#include <gtest/gtest.h>

#include "resource_brief.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "resolve/gang_karta.h"
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

std::vector<Value> Documents(const fs::path& path) {
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(ReadFile(path));
  EXPECT_TRUE(docs.ok()) << path;
  std::vector<Value> out;
  for (const yaml::Document& d : *docs) out.push_back(d.value);
  return out;
}

fs::path TestData(const std::string& name) {
  return fs::path(WMAP_SOURCE_DIR) / "tests/resolve/testdata" / name;
}

TEST(QuantityTest, EffectiveRequestsRoundUpAndFallBackToLimits) {
  Result<PodResources> r = EffectivePodResources(Json(R"({"containers": [
      {"name": "a", "resources": {"requests": {"cpu": "0.1", "memory": "1.5Ki"},
                                  "limits": {"cpu": "4", "nvidia.com/gpu": "2"}}},
      {"name": "b", "resources": {"limits": {"cpu": "1m", "memory": "1G", "gpu.intel.com/xe": 1}}},
      {"name": "c"},
      {"name": "d", "resources": {"requests": {"cpu": "1u", "ephemeral-storage": "1Gi"}}}]})"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // cpu: 100m + 1m + 1u rounded up to 1m; memory: 1536 + 1e9; gpus: 2 + 1.
  EXPECT_EQ(Brief(r->requests), (ResourceBrief{102, 1536 + 1000000000LL, 3}));
  EXPECT_EQ(Brief(EffectivePodResources(Json("{}"))->requests), ResourceBrief{});
  Result<PodResources> bad =
      EffectivePodResources(Json(R"({"containers": [{"resources": {"requests": {"cpu": "x"}}}]})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "containers[0]: resource cpu: invalid quantity \"x\": no digits");
}

TEST(QuantityTest, EffectiveRequestsCountInitContainersSidecarsAndOverhead) {
  // A regular init container larger than the app containers sets the peak.
  EXPECT_EQ(Brief(EffectivePodResources(Json(R"({"containers": [
      {"resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}],
      "initContainers": [{"resources": {"requests": {"cpu": "4", "memory": "100Mi"}}}]})"))
                      ->requests),
            (ResourceBrief{4000, 1024LL * 1024 * 1024, 0}));
  // A sidecar (restartPolicy: Always) adds to the app containers and to every later init
  // container: apps 1 + sidecar 2 = 3 cpu; init after the sidecar 2 + 2 = 4 cpu.
  EXPECT_EQ(Brief(EffectivePodResources(
                      Json(R"({"containers": [{"resources": {"requests": {"cpu": "1"}}}],
      "initContainers": [
        {"name": "setup", "resources": {"requests": {"cpu": "3500m"}}},
        {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "2"}}},
        {"name": "late", "resources": {"requests": {"cpu": "2"}}}]})"))
                      ->requests),
            (ResourceBrief{4000, 0, 0}));
  // Overhead (RuntimeClass) is added on top.
  EXPECT_EQ(Brief(EffectivePodResources(Json(R"({"containers": [
      {"resources": {"limits": {"nvidia.com/gpu": 8}, "requests": {"cpu": "2"}}}],
      "overhead": {"cpu": "250m", "memory": "120Mi"}})"))
                      ->requests),
            (ResourceBrief{2250, 120LL * 1024 * 1024, 8}));
}

TEST(TreeTest, TotalsFromTemplatesWhenNoPodsAreGiven) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::vector<Value> docs = Documents(TestData("jobset-live.yaml"));
  Result<WorkloadTree> tree =
      BuildTree(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), docs[0], {}, {});
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  EXPECT_EQ(tree->totals_source, TotalsSource::kTemplates);
  EXPECT_EQ(tree->desired, 5);
  EXPECT_EQ(tree->current, 0);
  // leader: 1 x (500m, 1Gi); workers: 4 x (2100m, 8Gi + 128Mi, the GPU from limits).
  const InstanceNode& workers = tree->root.children[0].instances[1];
  EXPECT_EQ(Brief(workers.requests), (ResourceBrief{8400, 4 * ((8LL << 30) + (128LL << 20)), 4}));
  EXPECT_EQ(Brief(tree->requests),
            (ResourceBrief{500 + 8400, (1LL << 30) + 4 * ((8LL << 30) + (128LL << 20)), 4}));

  // The same figures as the live pods would give if every desired pod existed: the LWS.
  std::vector<Value> lws = Documents(TestData("lws-live.yaml"));
  Result<WorkloadTree> l =
      BuildTree(Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1"), lws[0], {}, {});
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(l->desired, 6);
  EXPECT_EQ(Brief(l->requests), (ResourceBrief{24000, 6 * (16LL << 30), 6}));
  // A grouping component has no template: only its children contribute.
  EXPECT_EQ(Brief(l->root.children[0].instances[0].requests), ResourceBrief{});
}

TEST(TreeTest, UpstreamSampleWorkloads) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  fs::path samples = ::wmap::test_files::SharedDir() / "conformance/upstream/samples/workloads";
  // lws-running: 1 group of size 2, 50m/32Mi per pod.
  Result<WorkloadTree> lws = BuildTree(Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1"),
                                       Documents(samples / "lws-running.yaml")[0], {}, {});
  ASSERT_TRUE(lws.ok()) << lws.error().message;
  EXPECT_EQ(lws->name, "karta-e2e-lws");
  EXPECT_EQ(lws->desired, 2);
  EXPECT_EQ(Brief(lws->requests), (ResourceBrief{100, 64LL << 20, 0}));
  // jobset-running: one replicated job "workers" of 1 x 1 pod.
  Result<WorkloadTree> js = BuildTree(Catalog("jobset-x-k8s-io-jobset-v1alpha2"),
                                      Documents(samples / "jobset-running.yaml")[0], {}, {});
  ASSERT_TRUE(js.ok()) << js.error().message;
  ASSERT_EQ(js->root.children.size(), 1u);
  ASSERT_EQ(js->root.children[0].instances.size(), 1u);
  EXPECT_EQ(js->root.children[0].instances[0].id, "workers");
  EXPECT_EQ(js->desired, 1);
  EXPECT_EQ(Brief(js->requests), (ResourceBrief{50, 32LL << 20, 0}));

  // cli-testdata-deployment: 3 replicas, each 200m / 2Gi / 2 GPUs, all given as limits.
  Result<WorkloadTree> deploy =
      BuildTree(Catalog("apps-deployment-v1"),
                Documents(samples / "cli-testdata-deployment.yaml")[0], {}, {});
  ASSERT_TRUE(deploy.ok()) << deploy.error().message;
  EXPECT_EQ(deploy->desired, 3);
  EXPECT_EQ(Brief(deploy->requests), (ResourceBrief{600, 6LL << 30, 6}));

  // raycluster-running: the head (250m, 1Gi) and a worker group scaled to 0.
  Result<WorkloadTree> ray = BuildTree(Catalog("ray-io-raycluster-v1"),
                                       Documents(samples / "raycluster-running.yaml")[0], {}, {});
  ASSERT_TRUE(ray.ok()) << ray.error().message;
  EXPECT_EQ(ray->desired, 1);
  EXPECT_EQ(Brief(ray->requests), (ResourceBrief{250, 1LL << 30, 0}));

  // dynamo-running: two services of one replica, requests in the fragment's main container.
  Result<WorkloadTree> dynamo = BuildTree(Catalog("nvidia-com-dynamographdeployment-v1alpha1"),
                                          Documents(samples / "dynamo-running.yaml")[0], {}, {});
  ASSERT_TRUE(dynamo.ok()) << dynamo.error().message;
  ASSERT_EQ(dynamo->root.children.size(), 1u);
  ASSERT_EQ(dynamo->root.children[0].instances.size(), 2u);
  EXPECT_EQ(dynamo->root.children[0].instances[0].id, "Frontend");
  EXPECT_EQ(dynamo->root.children[0].instances[1].id, "decode");
  EXPECT_EQ(dynamo->desired, 2);
  EXPECT_EQ(Brief(dynamo->requests), (ResourceBrief{1000, 1LL << 30, 0}));
}

TEST(TreeTest, InstancesAreSortedAndEvaluationErrorsAreErrors) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Value jobset = Json(R"({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
      "metadata": {"name": "j", "uid": "u"}, "spec": {"replicatedJobs": [
        {"name": "zeta", "replicas": 1, "template": {"spec": {"parallelism": 1, "template": {}}}},
        {"name": "alpha", "replicas": 3, "template": {"spec": {"parallelism": 1, "template": {}}}}
      ]}})");
  Definition d = Catalog("jobset-x-k8s-io-jobset-v1alpha2");
  Result<WorkloadTree> tree = BuildTree(d, jobset, {}, {});
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  const ComponentNode& rj = tree->root.children[0];
  ASSERT_EQ(rj.instances.size(), 2u);
  EXPECT_EQ(rj.instances[0].id, "alpha");
  EXPECT_EQ(rj.instances[0].desired, 3);
  EXPECT_EQ(rj.instances[1].id, "zeta");
  EXPECT_EQ(Brief(tree->requests), ResourceBrief{});

  // `.spec.replicatedJobs[]` on an object without it cannot be iterated.
  Result<WorkloadTree> broken =
      BuildTree(d, Json(R"({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                            "metadata": {"name": "j"}, "spec": {}})"),
                {}, {});
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("cannot iterate over: null"), std::string::npos)
      << broken.error().message;
  EXPECT_EQ(broken.error().message.rfind("component replicatedjob: ", 0), 0u);
}

// Every figure of a tree, flattened, to compare trees built on different threads.
void Flatten(const ComponentNode& c, std::string* out) {
  *out += c.name + " " + std::to_string(c.desired) + "/" + std::to_string(c.current) + "/" +
          std::to_string(c.ready) + " " + std::to_string(AmountOf(c.requests, "cpu")) + ";";
  for (const InstanceNode& i : c.instances) {
    *out += "[" + i.id + " " + std::to_string(i.current) + " " +
            std::to_string(AmountOf(i.requests, "memory"));
    for (const PodNode& p : i.pods) {
      *out += " " + p.name + "@" + p.node_name + ":" + p.phase + (p.ready ? "+" : "-") +
              p.replica_key.value_or("");
    }
    *out += "]";
  }
  for (const ComponentNode& child : c.children) Flatten(child, out);
}

std::string Flatten(const WorkloadTree& t) {
  std::string out;
  Flatten(t.root, &out);
  for (const UnattributedPod& u : t.unattributed) out += "!" + u.name + ":" + u.reason;
  return out;
}

TEST(TreeTest, OneDefinitionManyThreads) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition jobset = Catalog("jobset-x-k8s-io-jobset-v1alpha2");
  Definition lws = Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1");
  std::vector<Value> js = Documents(TestData("jobset-live.yaml"));
  std::vector<Value> js_pods = Documents(TestData("jobset-live-pods.yaml"));
  std::vector<Value> lws_docs = Documents(TestData("lws-live.yaml"));
  std::vector<Value> lws_children, lws_pods;
  for (size_t i = 1; i < lws_docs.size(); ++i) {
    (lws_docs[i].find("kind")->as_string() == "Pod" ? lws_pods : lws_children)
        .push_back(lws_docs[i]);
  }
  std::vector<Value> js_children(js.begin() + 1, js.end());

  auto build = [&](int which) {
    Result<WorkloadTree> t = which == 0 ? BuildTree(jobset, js[0], js_children, js_pods)
                                        : BuildTree(lws, lws_docs[0], lws_children, lws_pods);
    if (!t.ok()) return "error: " + t.error().message;
    // The gang group of one pod, through the same Definition.
    const Value& pod = which == 0 ? js_pods[1] : lws_pods[2];
    Workload w(which == 0 ? jobset : lws, which == 0 ? js[0] : lws_docs[0]);
    auto gang = EvaluatePodGangGroup(w, PodQuerier(w.definition()), pod);
    if (!gang.ok() || !*gang) return std::string("gang error");
    return Flatten(*t) + " gang=" + (*gang)->pod_group + ":" +
           std::to_string((*gang)->min_available);
  };
  const std::string expected[2] = {build(0), build(1)};
  ASSERT_NE(expected[0].find("train-workers-1-0-pqrst@:Pending-"), std::string::npos)
      << expected[0];
  ASSERT_NE(expected[0].find(" gang=job:4"), std::string::npos) << expected[0];
  ASSERT_NE(expected[1].find("vllm-1-1@gpu-node-3:Running-1"), std::string::npos) << expected[1];

  std::vector<std::string> mismatches[4];
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        int which = (t + i) % 2;
        std::string got = build(which);
        if (got != expected[which]) mismatches[t].push_back(got);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    EXPECT_TRUE(mismatches[t].empty()) << "thread " << t << ": " << mismatches[t][0];
  }
}

}  // namespace
}  // namespace wmap
