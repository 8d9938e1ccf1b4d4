// kubeconfig files merged and resolved as kubectl does.
#include <gtest/gtest.h>

#include "kube/files.h"
#include "kube_test_support.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

using testing::Environment;
using testing::TempDir;

constexpr char kFirst[] = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev
  cluster:
    server: https://dev.example:6443
    certificate-authority: pki/ca.crt
- name: shared
  cluster:
    server: https://first.example
contexts:
- name: dev
  context: {cluster: dev, user: dev-user, namespace: team-a}
- name: shared
  context: {cluster: shared, user: dev-user}
users:
- name: dev-user
  user:
    client-certificate: pki/dev.crt
    client-key: /abs/dev.key
)";

constexpr char kSecond[] = R"(apiVersion: v1
kind: Config
current-context: prod
clusters:
- name: prod
  cluster:
    server: https://prod.example
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
    tls-server-name: api.prod.example
- name: shared
  cluster:
    server: https://second.example
contexts:
- name: prod
  context: {cluster: prod, user: prod-user}
users:
- name: prod-user
  user:
    token: s3cret
- name: dev-user
  user:
    token: never-used
- name: legacy
  user:
    auth-provider: {name: gcp}
- name: plugin
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: get-token
      args: [--cluster, prod]
      env: [{name: REGION, value: eu}]
      provideClusterInfo: true
)";

TEST(KubeconfigTest, FirstFileWinsEachNameAndCurrentContext) {
  TempDir d;
  std::string a = d.Write("a/config", kFirst), b = d.Write("b/config", kSecond);
  Result<ClientConfig> c =
      LoadClientConfig({}, Environment({{"KUBECONFIG", a + ":" + b}, {"HOME", d.path()}}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->context_name, "dev");
  EXPECT_EQ(c->server, "https://dev.example:6443");
  EXPECT_EQ(c->namespace_name, "team-a");
  // Relative paths are relative to the file that names them.
  EXPECT_EQ(c->ca_file, d.path() + "/a/pki/ca.crt");
  EXPECT_EQ(c->client_cert_file, d.path() + "/a/pki/dev.crt");
  EXPECT_EQ(c->client_key_file, "/abs/dev.key");
  EXPECT_EQ(c->token, "");  // dev-user of the second file is shadowed

  // The other order: the second file's current-context and its "shared" cluster win.
  c = LoadClientConfig({}, Environment({{"KUBECONFIG", b + ":" + a}}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->context_name, "prod");
  EXPECT_EQ(c->token, "s3cret");
  EXPECT_EQ(c->ca_data, "-----BEGIN CERTIFICATE-----\n");
  EXPECT_EQ(c->tls_server_name, "api.prod.example");
  EXPECT_EQ(c->namespace_name, "default");

  ConfigOverrides shared;
  shared.context = "shared";
  c = LoadClientConfig(shared, Environment({{"KUBECONFIG", b + ":" + a}}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->server, "https://second.example");
  EXPECT_EQ(c->token, "never-used");  // dev-user from the second file, now first
}

TEST(KubeconfigTest, MissingAndRepeatedEntriesOfTheListAreIgnored) {
  TempDir d;
  std::string a = d.Write("config", kFirst);
  Result<Value> merged = MergedKubeconfig(
      {}, Environment({{"KUBECONFIG", ":" + d.path() + "/missing:" + a + ":" + a}}));
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(merged->find("files")->size(), 1u);
  EXPECT_EQ(merged->find("clusters")->size(), 2u);
}

TEST(KubeconfigTest, FlagsOverrideTheKubeconfig) {
  TempDir d;
  std::string a = d.Write("a", kFirst), b = d.Write("b", kSecond);
  ConfigOverrides o;
  o.kubeconfig = b;  // only this file, KUBECONFIG aside
  o.context = "prod";
  o.user = "dev-user";
  o.namespace_name = "ml";
  o.server = "https://override.example:443/";
  o.certificate_authority = "/etc/ca.pem";
  o.tls_server_name = "kubernetes";
  Result<ClientConfig> c = LoadClientConfig(o, Environment({{"KUBECONFIG", a}}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->server, "https://override.example:443");
  EXPECT_EQ(c->user_name, "dev-user");
  EXPECT_EQ(c->token, "never-used");
  EXPECT_EQ(c->ca_file, "/etc/ca.pem");
  EXPECT_EQ(c->ca_data, "");
  EXPECT_EQ(c->namespace_name, "ml");
  EXPECT_TRUE(c->namespace_from_flag);
  EXPECT_EQ(c->tls_server_name, "kubernetes");

  o = {};
  o.kubeconfig = b;
  o.token = "flag-token";
  o.insecure_skip_tls_verify = true;
  c = LoadClientConfig(o, Environment({}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->token, "flag-token");
  EXPECT_TRUE(c->insecure_skip_tls_verify);
  EXPECT_EQ(c->ca_data, "");

  o.certificate_authority = "/etc/ca.pem";
  c = LoadClientConfig(o, Environment({}));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "specifying a root certificates file with the insecure flag is not allowed");
}

TEST(KubeconfigTest, ErrorsSayWhatToDo) {
  TempDir d;
  std::string b = d.Write("b", kSecond);
  ConfigOverrides o;
  o.kubeconfig = d.path() + "/nope";
  Result<ClientConfig> c = LoadClientConfig(o, Environment({}));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kNotFound);

  o.kubeconfig = b;
  o.context = "staging";
  c = LoadClientConfig(o, Environment({}));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "context was not found for specified context: staging");

  o.context = "prod";
  o.user = "legacy";
  c = LoadClientConfig(o, Environment({}));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("auth-provider \"gcp\""), std::string::npos);
  EXPECT_NE(c.error().hint.find("gke-gcloud-auth-plugin"), std::string::npos);

  c = LoadClientConfig({}, Environment({{"HOME", d.path()}}));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("no cluster configured"), std::string::npos);
}

TEST(KubeconfigTest, ExecPluginIsRead) {
  TempDir d;
  ConfigOverrides o;
  o.kubeconfig = d.Write("b", kSecond);
  o.user = "plugin";
  Result<ClientConfig> c = LoadClientConfig(o, Environment({}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_TRUE(c->exec.has_value());
  EXPECT_EQ(c->exec->command, "get-token");
  EXPECT_EQ(c->exec->args, (std::vector<std::string>{"--cluster", "prod"}));
  ASSERT_EQ(c->exec->env.size(), 1u);
  EXPECT_EQ(c->exec->env[0].second, "eu");
  EXPECT_TRUE(c->exec->provide_cluster_info);
}

TEST(KubeconfigTest, HomeConfigThenInCluster) {
  TempDir d;
  d.Write(".kube/config", kSecond);
  Result<ClientConfig> c = LoadClientConfig({}, Environment({{"HOME", d.path()}}));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->context_name, "prod");

  TempDir sa;
  sa.Write("token", "pod-token\n");
  sa.Write("ca.crt", "PEM");
  sa.Write("namespace", "kube-jobs\n");
  TempDir empty_home;
  c = LoadClientConfig({}, Environment({{"HOME", empty_home.path()},
                                        {"KUBERNETES_SERVICE_HOST", "10.0.0.1"},
                                        {"KUBERNETES_SERVICE_PORT", "443"}},
                                       sa.path()));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->in_cluster);
  EXPECT_EQ(c->server, "https://10.0.0.1:443");
  EXPECT_EQ(c->token_file, sa.path() + "/token");
  EXPECT_EQ(c->ca_file, sa.path() + "/ca.crt");
  EXPECT_EQ(c->namespace_name, "kube-jobs");
}

TEST(KubeconfigTest, Base64) {
  EXPECT_EQ(DecodeBase64("aGVsbG8="), "hello");
  EXPECT_EQ(DecodeBase64("aGVsbG8"), "hello");
  EXPECT_EQ(DecodeBase64("aGVs\nbG8h"), "hello!");
  EXPECT_FALSE(DecodeBase64("a*b").has_value());
}

}  // namespace
}  // namespace wmap::kube
