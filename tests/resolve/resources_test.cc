// Resource needs: exact quantities, effective pod requests and limits as Kubernetes counts them,
// and per-component totals at full size and at the minimum. Expectations are computed by hand.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "resolve_test_support.h"
#include "shared_data.h"
#include "wmap/json.h"
#include "wmap/resources.h"
#include "wmap/tree.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

using test_support::Catalog;
using test_support::Json;

constexpr int64_t kMi = 1024 * 1024;
constexpr int64_t kGi = 1024 * kMi;

int64_t Amount(std::string_view resource, std::string_view text) {
  Result<int64_t> r = QuantityAmount(resource, Value::String(text));
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : -12345;
}

TEST(Quantity, ParsesExactlyAndRoundsUpToTheUnit) {
  EXPECT_EQ(Amount("cpu", "500m"), 500);
  EXPECT_EQ(Amount("cpu", "1"), 1000);
  EXPECT_EQ(Amount("cpu", "0.1"), 100);
  EXPECT_EQ(Amount("cpu", ".25"), 250);
  EXPECT_EQ(Amount("cpu", "1.0001"), 1001);  // 1000.1 millicores round up
  EXPECT_EQ(Amount("cpu", "100u"), 1);
  EXPECT_EQ(Amount("cpu", "2e3"), 2000000);
  EXPECT_EQ(Amount("memory", "1.5Gi"), 3 * kGi / 2);
  EXPECT_EQ(Amount("memory", "100Mi"), 100 * kMi);
  EXPECT_EQ(Amount("memory", "1e3"), 1000);
  EXPECT_EQ(Amount("memory", "1k"), 1000);
  EXPECT_EQ(Amount("memory", "1Ki"), 1024);
  EXPECT_EQ(Amount("memory", "0.5"), 1);
  EXPECT_EQ(Amount("memory", "128974848"), 128974848);
  EXPECT_EQ(Amount("memory", "129e6"), 129000000);
  EXPECT_EQ(Amount("memory", "123Mi"), 128974848);
  EXPECT_EQ(Amount("nvidia.com/gpu", "8"), 8);
  EXPECT_EQ(Amount("memory", "0"), 0);
  EXPECT_EQ(Amount("memory", "000.000"), 0);
}

TEST(Quantity, RejectsMalformedAndHugeQuantities) {
  for (const char* bad : {"", "abc", "1Zi", "1.2.3", "1 Gi", "Gi", "1e", "1e99999", "9Ei",
                          "12345678901234567890", "1234567890123456789012345678901234"}) {
    Result<int64_t> r = QuantityAmount("memory", Value::String(bad));
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.error().message.find("invalid quantity"), std::string::npos);
    }
  }
  EXPECT_FALSE(QuantityAmount("cpu", Json("true")).ok());
  EXPECT_FALSE(QuantityAmount("cpu", Json("{}")).ok());
}

TEST(Quantity, AcceptsJsonNumbers) {
  Result<int64_t> r = QuantityAmount("cpu", Json("2"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 2000);
  r = QuantityAmount("cpu", Json("0.5"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 500);
  r = QuantityAmount("memory", Json("1e21"));
  EXPECT_FALSE(r.ok());
}

TEST(Quantity, FormatsCanonically) {
  EXPECT_EQ(FormatAmount("cpu", 1500), "1500m");
  EXPECT_EQ(FormatAmount("cpu", 2000), "2");
  EXPECT_EQ(FormatAmount("cpu", 0), "0");
  EXPECT_EQ(FormatAmount("memory", kGi), "1Gi");
  EXPECT_EQ(FormatAmount("memory", 1536 * kMi), "1536Mi");
  EXPECT_EQ(FormatAmount("memory", 1000), "1000");
  EXPECT_EQ(FormatAmount("ephemeral-storage", 20 * kGi), "20Gi");
  EXPECT_EQ(FormatAmount("hugepages-2Mi", 4 * kMi), "4Mi");
  EXPECT_EQ(FormatAmount("nvidia.com/gpu", 8), "8");
  // Round trip.
  for (int64_t v : {int64_t{1}, 999 * kMi, 3 * kGi / 2, int64_t{123456789}}) {
    EXPECT_EQ(Amount("memory", FormatAmount("memory", v)), v);
  }
}

TEST(Quantity, ListsSaturateInsteadOfWrapping) {
  ResourceList a{{"memory", std::numeric_limits<int64_t>::max() - 1}};
  AddTo(&a, ResourceList{{"memory", 5}, {"cpu", 1}});
  EXPECT_EQ(a["memory"], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(a["cpu"], 1);
  EXPECT_EQ(Times(ResourceList{{"memory", 1LL << 62}}, 4)["memory"],
            std::numeric_limits<int64_t>::max());
}

Value Yaml(const std::string& text) {
  Result<Value> v = yaml::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : Value();
}

TEST(EffectivePodResources, CountsInitContainersSidecarsAndOverhead) {
  const Value spec = Yaml(R"(
initContainers:
  - name: proxy            # a sidecar: restartPolicy Always
    restartPolicy: Always
    resources: {requests: {cpu: 100m, memory: 128Mi}}
  - name: fetch-weights    # runs alone with the proxy
    resources: {requests: {cpu: "2", memory: 256Mi}}
containers:
  - name: trainer
    resources:
      requests: {cpu: "1", memory: 1Gi}
      limits: {cpu: "2", memory: 2Gi, nvidia.com/gpu: "4"}
  - name: logger
    resources:
      requests: {cpu: 500m, memory: 512Mi}
      limits: {memory: 512Mi}
overhead: {cpu: 250m, memory: 120Mi}
resourceClaims:
  - name: gpus
    resourceClaimTemplateName: a100-pair
)");
  Result<PodResources> r = EffectivePodResources(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // apps 1500m + sidecar 100m = 1600m < fetch-weights 2000m + 100m = 2100m; + 250m overhead.
  EXPECT_EQ(r->requests.at("cpu"), 2350);
  // apps 1536Mi + 128Mi = 1664Mi > 256Mi + 128Mi; + 120Mi overhead.
  EXPECT_EQ(r->requests.at("memory"), 1784 * kMi);
  // Requested at its limit (API server defaulting).
  EXPECT_EQ(r->requests.at("nvidia.com/gpu"), 4);
  EXPECT_EQ(r->limits.at("cpu"), 2250);
  EXPECT_EQ(r->limits.at("memory"), 2680 * kMi);
  EXPECT_EQ(r->limits.at("nvidia.com/gpu"), 4);
  ASSERT_EQ(r->claims.size(), 1u);
  EXPECT_EQ(json::ToCompactString(r->claims[0]),
            R"({"name":"gpus","resourceClaimTemplateName":"a100-pair"})");
  EXPECT_EQ(json::ToCompactString(ResourceListToValue(r->requests)),
            R"({"cpu":"2350m","memory":"1784Mi","nvidia.com/gpu":"4"})");
}

TEST(EffectivePodResources, InitContainerCanDominate) {
  const Value spec = Yaml(R"(
initContainers:
  - name: warmup
    resources: {requests: {cpu: "8", memory: 16Gi}}
containers:
  - name: app
    resources: {requests: {cpu: "1", memory: 1Gi}}
)");
  Result<PodResources> r = EffectivePodResources(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->requests.at("cpu"), 8000);
  EXPECT_EQ(r->requests.at("memory"), 16 * kGi);
}

TEST(EffectivePodResources, PodLevelResourcesReplaceTheContainerSum) {
  const Value spec = Yaml(R"(
resources:
  requests: {cpu: "4"}
  limits: {cpu: "6", memory: 8Gi}
containers:
  - name: a
    resources: {requests: {cpu: "1", memory: 1Gi, example.com/foo: "3"}}
  - name: b
)");
  Result<PodResources> r = EffectivePodResources(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->requests.at("cpu"), 4000);
  EXPECT_EQ(r->requests.at("memory"), 8 * kGi);  // pod-level request defaulted from its limit
  EXPECT_EQ(r->requests.at("example.com/foo"), 3);
  EXPECT_EQ(r->limits.at("cpu"), 6000);
}

TEST(EffectivePodResources, EmptyAndMalformedSpecs) {
  Result<PodResources> r = EffectivePodResources(Value());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->requests.empty());
  r = EffectivePodResources(Yaml("containers: [{name: a, resources: {requests: {cpu: lots}}}]"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("resource cpu"), std::string::npos);
  EXPECT_NE(r.error().message.find("\"lots\""), std::string::npos);
}

TEST(EffectivePodResources, NegativeQuantitiesAreErrorsNamingTheContainer) {
  // The API server refuses them; a total must not subtract them.
  Result<PodResources> r = EffectivePodResources(
      Yaml("containers: [{name: a}, {name: b, resources: {requests: {memory: -1Gi}}}]"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "containers[1]: resource memory: quantity -1Gi is negative");
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  r = EffectivePodResources(
      Yaml("initContainers: [{name: i, resources: {limits: {nvidia.com/gpu: -8}}}]"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "initContainers[0]: resource nvidia.com/gpu: quantity -8 is negative");
  EXPECT_TRUE(EffectivePodResources(Yaml("containers: [{resources: {requests: {cpu: 0}}}]")).ok());
}

TEST(ResourceNeeds, NegativeReplicasAreErrorsNamingTheField) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  const Value job = Yaml(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: neg, namespace: x}
spec:
  parallelism: -5
  template:
    spec:
      containers: [{name: a, resources: {limits: {nvidia.com/gpu: 8}}}]
)");
  Workload w(Catalog("batch-job-v1"), job);
  Result<WorkloadResourceNeeds> needs = ComputeResourceNeeds(w);
  ASSERT_FALSE(needs.ok());
  EXPECT_EQ(needs.error().message, "component job instance \"\": replicas -5 is negative");
  EXPECT_EQ(needs.error().field,
            "spec.structureDefinition.rootComponent.scaleDefinition.replicasPath");
  EXPECT_NE(needs.error().detail.find(".spec.parallelism"), std::string::npos);
  Result<WorkloadTree> tree = BuildTree(w.definition(), job, {}, {});
  ASSERT_FALSE(tree.ok());
  EXPECT_NE(tree.error().message.find("replicas -5 is negative"), std::string::npos);
}

TEST(ResourceNeeds, JobSetTotalsAreTemplatesTimesReplicas) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  const Value jobset = Yaml(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: train, namespace: ml}
spec:
  replicatedJobs:
    - name: driver
      replicas: 1
      template:
        spec:
          parallelism: 1
          template:
            spec:
              containers:
                - name: driver
                  resources: {requests: {cpu: "2", memory: 4Gi}}
    - name: workers
      replicas: 2
      template:
        spec:
          parallelism: 4
          template:
            spec:
              containers:
                - name: worker
                  resources:
                    requests: {cpu: "16", memory: 64Gi}
                    limits: {nvidia.com/gpu: "8"}
)");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), jobset);
  Result<WorkloadResourceNeeds> needs = ComputeResourceNeeds(w);
  ASSERT_TRUE(needs.ok()) << needs.error().message;
  ASSERT_EQ(needs->components.size(), 1u);
  const ComponentResourceNeeds& c = needs->components[0];
  EXPECT_EQ(c.name, "replicatedjob");
  ASSERT_EQ(c.instances.size(), 2u);
  EXPECT_EQ(c.instances[0].id, "driver");
  EXPECT_EQ(c.instances[0].pods, 1);
  EXPECT_EQ(c.instances[1].id, "workers");
  EXPECT_EQ(c.instances[1].pods, 8);  // replicas × parallelism
  EXPECT_EQ(needs->pods, 9);
  EXPECT_EQ(needs->min_pods, 9);
  EXPECT_EQ(needs->requests.at("cpu"), (2 + 8 * 16) * 1000);
  EXPECT_EQ(needs->requests.at("memory"), (4 + 8 * 64) * kGi);
  EXPECT_EQ(needs->requests.at("nvidia.com/gpu"), 64);
  EXPECT_EQ(json::ToCompactString(*ResourceNeedsToValue(*needs).find("requests")),
            R"({"cpu":"130","memory":"516Gi","nvidia.com/gpu":"64"})");
}

TEST(ResourceNeeds, MinimumUsesMinReplicas) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  const Value ray = Yaml(R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc}
spec:
  headGroupSpec:
    template:
      spec:
        containers: [{name: head, resources: {requests: {cpu: "4", memory: 16Gi}}}]
  workerGroupSpecs:
    - groupName: gpu
      replicas: 4
      minReplicas: 1
      maxReplicas: 8
      template:
        spec:
          containers:
            - name: worker
              resources: {limits: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "1"}}
)");
  Workload w(Catalog("ray-io-raycluster-v1"), ray);
  Result<WorkloadResourceNeeds> needs = ComputeResourceNeeds(w);
  ASSERT_TRUE(needs.ok()) << needs.error().message;
  EXPECT_EQ(needs->pods, 5);
  EXPECT_EQ(needs->min_pods, 2);
  EXPECT_EQ(needs->requests.at("nvidia.com/gpu"), 4);
  EXPECT_EQ(needs->min_requests.at("nvidia.com/gpu"), 1);
  EXPECT_EQ(needs->min_requests.at("cpu"), 12000);
  EXPECT_EQ(needs->min_requests.at("memory"), 48 * kGi);
}

}  // namespace
}  // namespace wmap

namespace wmap {
namespace {

TEST(ResourceNeeds, PodsPerReplicaMultiplies) {
  const std::filesystem::path path =
      std::filesystem::path(WMAP_SOURCE_DIR) / "tests/resolve/testdata/gangs/raycluster.yaml";
  LoadResult loaded = LoadDefinitions(test_support::ReadFile(path), path.string());
  ASSERT_TRUE(loaded.ok()) << loaded.errors[0].ToString();
  const Value ray = Yaml(R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc}
spec:
  enableInTreeAutoscaling: true
  headGroupSpec:
    template:
      spec:
        containers: [{name: head, resources: {requests: {cpu: "4"}}}]
  workerGroupSpecs:
    - groupName: tpu
      replicas: 3
      minReplicas: 1
      numOfHosts: 4
      template:
        spec:
          containers: [{name: worker, resources: {limits: {google.com/tpu: "4"}}}]
)");
  Workload w(loaded.definitions[0], ray);
  Result<WorkloadResourceNeeds> needs = ComputeResourceNeeds(w);
  ASSERT_TRUE(needs.ok()) << needs.error().message;
  EXPECT_EQ(needs->pods, 1 + 3 * 4);
  EXPECT_EQ(needs->min_pods, 1 + 1 * 4);
  EXPECT_EQ(needs->requests.at("google.com/tpu"), 3 * 4 * 4);
  EXPECT_EQ(needs->min_requests.at("google.com/tpu"), 1 * 4 * 4);
}

}  // namespace
}  // namespace wmap

namespace wmap {
namespace {

// Dynamo v1alpha1 keeps a service's resources beside its main container; the main container
// without resources of its own takes them.
TEST(ResourceNeeds, FragmentResourcesGoToTheMainContainer) {
  const std::filesystem::path root(WMAP_SOURCE_DIR);
  const std::filesystem::path def = root / "catalog/nvidia-com-dynamographdeployment-v1alpha1.yaml";
  LoadResult loaded = LoadDefinitions(test_support::ReadFile(def), def.string());
  ASSERT_TRUE(loaded.ok());
  Result<Value> object = yaml::Parse(test_support::ReadFile(root / "examples/dynamo-graph.yaml"));
  ASSERT_TRUE(object.ok());
  Workload w(loaded.definitions[0], *object);
  Result<WorkloadResourceNeeds> needs = ComputeResourceNeeds(w);
  ASSERT_TRUE(needs.ok()) << needs.error().message;
  EXPECT_EQ(needs->pods, 4);
  EXPECT_EQ(needs->requests.at("nvidia.com/gpu"), 8);
}

}  // namespace
}  // namespace wmap
