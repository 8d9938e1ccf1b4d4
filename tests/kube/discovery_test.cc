// TYPE resolution over recorded discovery documents.
#include <gtest/gtest.h>

#include "kube_test_support.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

using testing::JsonFixture;

Discovery Aggregated() {
  Result<Discovery> d = Discovery::FromAggregated(JsonFixture("discovery_api.json"),
                                                  JsonFixture("discovery_apis.json"));
  EXPECT_TRUE(d.ok());
  return d.ok() ? *d : Discovery();
}

std::string Resolved(const Discovery& d, std::string_view type) {
  const ApiResource* r = d.Resolve(type);
  return r == nullptr ? "<none>" : r->ApiVersion() + " " + r->resource;
}

TEST(DiscoveryTest, AggregatedDocumentsGiveEveryResource) {
  Discovery d = Aggregated();
  EXPECT_EQ(d.resources().size(), 11u);
  const ApiResource* pods = d.Resolve("pods");
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(pods->kind, "Pod");
  EXPECT_TRUE(pods->namespaced);
  EXPECT_EQ(pods->CollectionPath("ml"), "/api/v1/namespaces/ml/pods");
  const ApiResource* widgets = d.Resolve("widgets");
  ASSERT_NE(widgets, nullptr);
  EXPECT_FALSE(widgets->namespaced);
  EXPECT_EQ(widgets->CollectionPath("ml"), "/apis/example.com/v1/widgets");
  EXPECT_EQ(d.Resolve("jobsets")->CollectionPath(""), "/apis/jobset.x-k8s.io/v1alpha2/jobsets");
}

TEST(DiscoveryTest, TypesResolveAsKubectlResolvesThem) {
  Discovery d = Aggregated();
  EXPECT_EQ(Resolved(d, "jobsets"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_EQ(Resolved(d, "jobset"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_EQ(Resolved(d, "JobSet"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_EQ(Resolved(d, "JOBSETS"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_EQ(Resolved(d, "JobSet.v1alpha2.jobset.x-k8s.io"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_EQ(Resolved(d, "jobsets.jobset.x-k8s.io"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_EQ(Resolved(d, "deploy"), "apps/v1 deployments");
  EXPECT_EQ(Resolved(d, "po"), "v1 pods");
  EXPECT_EQ(Resolved(d, "cj"), "batch/v1 cronjobs");
  // The first group in discovery order wins an ambiguous name; a group picks another.
  EXPECT_EQ(Resolved(d, "jobs"), "batch/v1 jobs");
  EXPECT_EQ(Resolved(d, "jobs.example.com"), "example.com/v1 jobs");
  EXPECT_EQ(Resolved(d, "job.v1.example.com"), "example.com/v1 jobs");
  // The preferred (first listed) version, unless one is named.
  EXPECT_EQ(Resolved(d, "dgd"), "nvidia.com/v1beta1 dynamographdeployments");
  EXPECT_EQ(Resolved(d, "dynamographdeployments.v1alpha1.nvidia.com"),
            "nvidia.com/v1alpha1 dynamographdeployments");
  // Short names do not combine with a group; unknown names resolve to nothing.
  EXPECT_EQ(Resolved(d, "deploy.apps"), "<none>");
  EXPECT_EQ(Resolved(d, "gizmos"), "<none>");
  EXPECT_EQ(Resolved(d, "jobsets.apps"), "<none>");
}

TEST(DiscoveryTest, FindKindPrefersTheVersionAsked) {
  Discovery d = Aggregated();
  EXPECT_EQ(d.FindKind("nvidia.com", "v1alpha1", "DynamoGraphDeployment")->version, "v1alpha1");
  EXPECT_EQ(d.FindKind("nvidia.com", "v2", "DynamoGraphDeployment")->version, "v1beta1");
  EXPECT_EQ(d.FindKind("batch", "v1", "Job")->group, "batch");
  EXPECT_EQ(d.FindKind("ray.io", "v1", "RayCluster"), nullptr);
}

TEST(DiscoveryTest, LegacyResourceListsLeaveSubresourcesOut) {
  Value lists[] = {JsonFixture("discovery_v1.json"), JsonFixture("discovery_batch_v1.json")};
  Discovery d = Discovery::FromResourceLists(lists, {{"batch", "v1"}});
  EXPECT_EQ(d.resources().size(), 3u);
  EXPECT_EQ(Resolved(d, "no"), "v1 nodes");
  EXPECT_FALSE(d.Resolve("nodes")->namespaced);
  EXPECT_EQ(Resolved(d, "job"), "batch/v1 jobs");
}

TEST(DiscoveryTest, NotAnAggregatedDocument) {
  Value api = Value::Object({{"kind", Value::String("APIVersions")}});
  EXPECT_FALSE(Discovery::FromAggregated(api, api).ok());
}

TEST(TypeArgumentsTest, KubectlForms) {
  std::vector<std::string> args = {"jobsets,rayclusters", "a", "b"};
  Result<std::vector<TypeRequest>> r = ParseTypeArguments(args);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[1].type, "rayclusters");
  EXPECT_EQ((*r)[1].names, (std::vector<std::string>{"a", "b"}));

  args = {"jobset/a", "raycluster/b", "jobset/c"};
  r = ParseTypeArguments(args);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].names, (std::vector<std::string>{"a", "c"}));

  args = {"jobsets", "jobset/a"};
  EXPECT_FALSE(ParseTypeArguments(args).ok());
  args = {"jobset/a", "b"};
  EXPECT_EQ(ParseTypeArguments(args).error().code, ErrorCode::kUsage);
}

TEST(QueryEscapeTest, SelectorsAreEncoded) {
  EXPECT_EQ(QueryEscape("team in (a,b),!x"), "team%20in%20%28a%2Cb%29%2C%21x");
  EXPECT_EQ(QueryEscape("metadata.name=x"), "metadata.name%3Dx");
}

}  // namespace
}  // namespace wmap::kube
