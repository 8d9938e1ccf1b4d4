// The discovery cache on disk: kubectl's folder names, a round trip that resolves as the fetched
// discovery does, and every cache that must not be trusted (stale, corrupt, another server).
// A server on a closed port shows whether the network was used: a trusted cache makes no
// request, and an untrusted one fails to connect.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "kube_test_support.h"
#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

using testing::JsonFixture;

constexpr std::string_view kServer = "https://127.0.0.1:1";

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

class DiscoveryCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/wmap-discovery-cache-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    file_ = DiscoveryCacheFolder(dir_, kServer) + "/wmap-discovery.json";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(file_).parent_path());
    std::ofstream(file_) << text;
  }
  std::unique_ptr<Client> Unreachable() {
    ClientConfig config;
    config.server = std::string(kServer);
    config.insecure_skip_tls_verify = true;
    ClientOptions options;
    options.max_attempts = 1;
    Result<std::unique_ptr<Client>> c = Client::Create(config, options);
    EXPECT_TRUE(c.ok());
    return c.ok() ? std::move(*c) : nullptr;
  }

  std::string dir_, file_;
};

TEST(DiscoveryCacheFolderTest, NamesTheServerAsKubectlDoes) {
  EXPECT_EQ(DiscoveryCacheFolder("/h/.kube/cache", "https://127.0.0.1:6443"),
            "/h/.kube/cache/discovery/127.0.0.1_6443");
  EXPECT_EQ(DiscoveryCacheFolder("/c", "https://api.example.com:443/prefix"),
            "/c/discovery/api.example.com_443/prefix");
  EXPECT_EQ(DiscoveryCacheFolder("/c", "http://a-b.local"), "/c/discovery/a_b.local");
}

TEST(DiscoveryCacheDocumentTest, RoundTripResolvesAsTheFetchedDiscovery) {
  Discovery d = Aggregated();
  Value doc = DiscoveryCacheDocument(d, kServer);
  Result<Value> reparsed = json::Parse(json::ToString(doc));
  ASSERT_TRUE(reparsed.ok());
  std::optional<Discovery> back = DiscoveryFromCacheDocument(*reparsed, kServer);
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->resources().size(), d.resources().size());
  for (size_t i = 0; i < d.resources().size(); ++i) {
    const ApiResource& a = d.resources()[i];
    const ApiResource& b = back->resources()[i];
    EXPECT_EQ(a.ApiVersion() + " " + a.resource + " " + a.kind + " " + a.singular,
              b.ApiVersion() + " " + b.resource + " " + b.kind + " " + b.singular);
    EXPECT_EQ(a.namespaced, b.namespaced);
    EXPECT_EQ(a.short_names, b.short_names);
    EXPECT_EQ(a.verbs, b.verbs);
  }
  EXPECT_EQ(back->preferred_versions(), d.preferred_versions());
  for (std::string_view type :
       {"pods", "jobsets", "js", "widgets", "JobSet.v1alpha2.jobset.x-k8s.io"}) {
    EXPECT_EQ(Resolved(*back, type), Resolved(d, type)) << type;
  }
  // Another server's cache is not this one's.
  EXPECT_FALSE(DiscoveryFromCacheDocument(*reparsed, "https://127.0.0.1:2").has_value());
}

TEST_F(DiscoveryCacheTest, AFreshCacheIsReadWithoutARequest) {
  Write(json::ToString(DiscoveryCacheDocument(Aggregated(), kServer)));
  std::unique_ptr<Client> client = Unreachable();
  CachedDiscovery cached(client.get(), {dir_, std::chrono::hours(6)});
  Result<const Discovery*> d = cached.Get();
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(Resolved(**d, "jobsets"), "jobset.x-k8s.io/v1alpha2 jobsets");
  EXPECT_FALSE(cached.fetched());
  EXPECT_EQ(client->requests(), 0);
  // Refresh goes to the server (here: fails to connect).
  EXPECT_FALSE(cached.Refresh().ok());
  EXPECT_GT(client->requests(), 0);
}

TEST_F(DiscoveryCacheTest, StaleCorruptOrForeignCachesAreNotTrusted) {
  const std::string good = json::ToString(DiscoveryCacheDocument(Aggregated(), kServer));
  const std::string foreign =
      json::ToString(DiscoveryCacheDocument(Aggregated(), "https://127.0.0.1:2"));
  for (const std::string& text :
       {good.substr(0, good.size() / 2), std::string("{}"), std::string("null"), foreign,
        std::string(
            R"({"format":"wmap.discovery/v1","server":"https://127.0.0.1:1",)"
            R"("preferred":{},"lists":[{"groupVersion":"v1","resources":[{"name":3}]}]})")}) {
    Write(text);
    std::unique_ptr<Client> client = Unreachable();
    CachedDiscovery cached(client.get(), {dir_, std::chrono::hours(6)});
    Result<const Discovery*> d = cached.Get();
    EXPECT_FALSE(d.ok()) << text;
    EXPECT_EQ(d.error().code, ErrorCode::kUnreachable) << text;
  }
  // Older than the TTL.
  Write(good);
  struct utimbuf old {};
  old.actime = old.modtime = std::time(nullptr) - 7 * 3600;
  ASSERT_EQ(::utime(file_.c_str(), &old), 0);
  std::unique_ptr<Client> client = Unreachable();
  CachedDiscovery stale(client.get(), {dir_, std::chrono::hours(6)});
  EXPECT_FALSE(stale.Get().ok());
  CachedDiscovery longer(client.get(), {dir_, std::chrono::hours(8)});
  EXPECT_TRUE(longer.Get().ok());
  // No folder: nothing on disk is read.
  CachedDiscovery none(client.get(), {"", std::chrono::hours(6)});
  EXPECT_FALSE(none.Get().ok());
}

}  // namespace
}  // namespace wmap::kube
