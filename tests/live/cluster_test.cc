// `wmap get` and the client layer against a real kube-apiserver (scripts/dev-cluster.sh).
//
// Objects are created with the cluster's own kubectl in namespaces named for this run, so the
// tests can run again against the same cluster (live/live_harness.h).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "live/live_harness.h"
#include "wmap/json.h"
#include "wmap/kube.h"
#include "wmap/yaml.h"

namespace wmap::live {
namespace {

namespace fs = std::filesystem;

// The lines of `text` in name order: `get` sorts rows newest first, and Jobs created by one
// command may straddle a second.
std::string SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    lines.push_back(text.substr(start, nl + 1 - start));
    start = nl + 1;
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& l : lines) out += l;
  return out;
}

// ---- paging and selectors ----

// Seven Jobs in their own namespace, labelled tier=a (job-0..3) or tier=b (job-4..6).
const std::string& PagingNamespace(const Cluster& c) {
  static std::string ns;
  if (!ns.empty()) return ns;
  ns = c.Namespace("paging");
  c.MustKubectl({"create", "namespace", ns});
  std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (int i = 0; i < 7; ++i) {
    if (i > 0) list += ",";
    list += R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"job-)" +
            std::to_string(i) + R"(","namespace":")" + ns + R"(","labels":{"tier":")" +
            (i < 4 ? "a" : "b") +
            R"("}},"spec":{"suspend":true,"template":{"spec":{"restartPolicy":"Never",)"
            R"("containers":[{"name":"c","image":"busybox"}]}}}})";
  }
  list += "]}";
  c.MustKubectl({"create", "--validate=false", "-f", "-"}, list);
  return ns;
}

TEST(ClusterTest, ListsPageByPage) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  kube::Client* client = AdminClient(*cluster);
  Result<kube::Discovery> discovery = kube::Discovery::Fetch(client);
  ASSERT_TRUE(discovery.ok()) << discovery.error().message;
  const kube::ApiResource* jobs = discovery->Resolve("jobs");
  ASSERT_NE(jobs, nullptr);
  EXPECT_EQ(jobs->ApiVersion(), "batch/v1");
  kube::ListOptions options;
  options.namespace_name = ns;
  options.chunk_size = 2;
  std::vector<std::string> names;
  int pages = 0;
  std::optional<Error> e = kube::List(
      client, *jobs, options,
      [&](Value item) {
        EXPECT_EQ(Str(item, {"kind"}), "Job");
        EXPECT_EQ(Str(item, {"apiVersion"}), "batch/v1");
        names.push_back(Str(item, {"metadata", "name"}));
        return true;
      },
      &pages);
  ASSERT_FALSE(e) << e->message;
  EXPECT_EQ(names, (std::vector<std::string>{"job-0", "job-1", "job-2", "job-3", "job-4", "job-5",
                                             "job-6"}));
  EXPECT_EQ(pages, 4);  // 2 + 2 + 2 + 1

  // The same through the command: every row.
  Outcome o = Live(*cluster, {"get", "jobs", "-n", ns, "--chunk-size", "2", "-o", "name"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(SortedLines(o.out),
            "job.batch/job-0\njob.batch/job-1\njob.batch/job-2\njob.batch/job-3\n"
            "job.batch/job-4\njob.batch/job-5\njob.batch/job-6\n");
  o = Live(*cluster, {"get", "jobs", "-n", ns, "--chunk-size", "0", "-o", "name"});
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 7);
}

TEST(ClusterTest, SelectorsAreSentToTheServer) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  kube::Client* client = AdminClient(*cluster);
  Result<kube::Discovery> discovery = kube::Discovery::Fetch(client);
  ASSERT_TRUE(discovery.ok());
  const kube::ApiResource* jobs = discovery->Resolve("job.v1.batch");
  ASSERT_NE(jobs, nullptr);
  // List filters nothing itself: what comes back is what the server selected.
  auto names = [&](std::string labels, std::string fields) {
    kube::ListOptions options;
    options.namespace_name = ns;
    options.label_selector = std::move(labels);
    options.field_selector = std::move(fields);
    options.chunk_size = 2;
    std::string out;
    std::optional<Error> e = kube::List(client, *jobs, options, [&](Value item) {
      out += Str(item, {"metadata", "name"}) + " ";
      return true;
    });
    EXPECT_FALSE(e) << e->message;
    return out;
  };
  EXPECT_EQ(names("tier=b", ""), "job-4 job-5 job-6 ");
  EXPECT_EQ(names("tier in (a),tier!=b", "metadata.name!=job-1"), "job-0 job-2 job-3 ");
  EXPECT_EQ(names("", "metadata.name=job-5"), "job-5 ");

  Outcome o = Live(*cluster, {"get", "jobs", "-n", ns, "-l", "tier=a", "--field-selector",
                              "metadata.name!=job-0", "-o", "name"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(SortedLines(o.out), "job.batch/job-1\njob.batch/job-2\njob.batch/job-3\n");
  // A field selector the server does not support is the server's error.
  o = Live(*cluster, {"get", "jobs", "-n", ns, "--field-selector", "spec.nope=1"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("field label \"spec.nope\" not supported"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("400 BadRequest"), std::string::npos) << o.err;
}

TEST(ClusterTest, TypesAndNames) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  Outcome o = Live(*cluster, {"get", "job/job-2", "job/job-5", "-n", ns, "-o", "name"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(SortedLines(o.out), "job.batch/job-2\njob.batch/job-5\n");
  o = Live(*cluster, {"get", "Job.v1.batch", "job-1", "-n", ns, "-o", "name"});
  EXPECT_EQ(o.out, "job.batch/job-1\n") << o.err;
  o = Live(*cluster, {"get", "job", "job-9", "-n", ns});
  EXPECT_EQ(o.code, 3);
  EXPECT_NE(o.err.find("Job \"job-9\" not found in namespace " + ns), std::string::npos) << o.err;
  o = Live(*cluster, {"get", "gizmos", "-n", ns});
  EXPECT_EQ(o.code, 3);
  EXPECT_NE(o.err.find("the server doesn't have a resource type \"gizmos\""), std::string::npos)
      << o.err;
  // A served type no definition reads.
  o = Live(*cluster, {"get", "configmaps", "-n", ns});
  EXPECT_EQ(o.code, 4) << o.err;
}

// ---- the examples, live and offline ----

// Drops the `source` of every item: a file and line offline, an API path live.
std::string WithoutSources(const std::string& document) {
  Result<Value> doc = json::Parse(document);
  if (!doc.ok()) return "not JSON: " + document;
  Value* items = doc->find_mutable("items");
  if (items != nullptr) {
    for (Value& item : items->mutable_items()) item.erase("source");
  }
  return json::ToString(*doc);
}

class ExamplesTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ExamplesTest, LiveGetEqualsOfflineGetOfTheSameObjects) {
  NEED_CLUSTER();
  const std::string example = GetParam();
  const std::string ns = cluster->Namespace(example.substr(0, example.find('-')));
  std::vector<std::string> types = CreateExample(*cluster, example, ns);
  ASSERT_FALSE(types.empty());
  // The objects as the server has them, for the offline command.
  std::string all;
  for (const std::string& t : types) all += (all.empty() ? "" : ",") + t;
  std::string dump = cluster->work() + "/" + example + ".json";
  std::ofstream(dump) << cluster->MustKubectl({"get", all, "-n", ns, "-o", "json"});

  for (const char* format : {"table", "name", "json"}) {
    Outcome live = Live(*cluster, {"get", types[0], "-n", ns, "-o", format});
    Outcome offline = Wmap({"get", "-f", dump, "-o", format}, {});
    EXPECT_EQ(live.code, 0) << live.err;
    EXPECT_EQ(offline.code, 0) << offline.err;
    if (std::string(format) == "json") {
      EXPECT_EQ(WithoutSources(live.out), WithoutSources(offline.out)) << format;
    } else {
      EXPECT_EQ(live.out, offline.out) << format;
    }
    EXPECT_EQ(live.err, offline.err) << format;
    EXPECT_NE(live.out.find(example == "raycluster" ? "raycluster" : ""), std::string::npos);
  }
  // Pods were read: the table shows ready/desired.
  Outcome table = Live(*cluster, {"get", types[0], "-n", ns});
  EXPECT_NE(table.out.find("/"), std::string::npos) << table.out;
  // Wide: the same but the SOURCE column, which holds the object's API path.
  Outcome wide = Live(*cluster, {"get", types[0], "-n", ns, "-o", "wide"});
  EXPECT_EQ(wide.code, 0) << wide.err;
  EXPECT_NE(wide.out.find("/namespaces/" + ns + "/"), std::string::npos) << wide.out;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExamplesTest, ExampleNames(), ExampleTestName);

// ---- users, credentials, TLS ----

TEST(ClusterTest, TokenUser) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  Outcome o = Live(*cluster, {"get", "jobs", "-n", ns, "--context", "token", "-o", "name"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 7);
  // No kubeconfig at all: the flags alone.
  const std::vector<std::string> flags = {"--server", cluster->env("WMAP_CLUSTER_SERVER"),
                                          "--certificate-authority",
                                          cluster->env("WMAP_CLUSTER_CA")};
  std::vector<std::string> args = {"get", "jobs", "-n",      ns,
                                   "-o",  "name", "--token", cluster->env("WMAP_CLUSTER_TOKEN")};
  args.insert(args.end(), flags.begin(), flags.end());
  o = Wmap(args, {});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 7);
  args[7] = "wrong-token";
  o = Wmap(args, {});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("rejected the credentials"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("401 Unauthorized"), std::string::npos) << o.err;
}

TEST(ClusterTest, AliceIsForbiddenWithTheRuleNamed) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  Outcome o = Live(*cluster, {"get", "jobs", "-n", ns, "--context", "alice"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("may not list jobs.batch in namespace " + ns + " (403 Forbidden)"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find(R"(verbs: ["list"])"), std::string::npos) << o.err;
  // As a document with -o json.
  o = Live(*cluster, {"get", "jobs", "-n", ns, "--context", "alice", "-o", "json"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.out.find(R"("error": "forbidden")"), std::string::npos) << o.out;

  // deploy/rbac/wmap-reader.yaml bound in the namespace: alice reads it, and no other.
  cluster->MustKubectl({"apply", "--validate=false", "-f",
                        std::string(WMAP_SOURCE_DIR) + "/deploy/rbac/wmap-reader.yaml"});
  cluster->MustKubectl({"create", "rolebinding", "wmap-reader-alice", "--clusterrole=wmap-reader",
                        "--user=alice", "-n", ns});
  for (int i = 0; i < 50; ++i) {  // the authorizer sees the binding within moments
    o = Live(*cluster, {"get", "jobs", "-n", ns, "--context", "alice", "-o", "name"});
    if (o.code == 0) break;
    ::usleep(200000);
  }
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 7);
  o = Live(*cluster, {"get", "jobs", "-A", "--context", "alice"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("may not list jobs.batch at the cluster scope"), std::string::npos) << o.err;
}

TEST(ClusterTest, WrongCaIsAClearTlsError) {
  NEED_CLUSTER();
  // alice's certificate is no CA of the server's certificate.
  Outcome o = Live(*cluster, {"get", "jobs", "--certificate-authority",
                              cluster->env("WMAP_CLUSTER_ALICE_CERT")});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("TLS verification of the API server " + cluster->env("WMAP_CLUSTER_SERVER") +
                       " failed"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("certificate-authority"), std::string::npos) << o.err;
  // A host name the certificate does not hold.
  o = Live(*cluster, {"get", "jobs", "--tls-server-name", "wrong.example"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("--tls-server-name"), std::string::npos) << o.err;
  // The right one ("localhost" is in the certificate) works.
  o = Live(*cluster, {"get", "jobs", "-A", "--tls-server-name", "localhost", "-o", "name"});
  EXPECT_EQ(o.code, 0) << o.err;
  // Nothing listens: the connect step fails and says so.
  o = Live(*cluster, {"get", "jobs", "--server", "https://127.0.0.1:1"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("cannot connect to the API server https://127.0.0.1:1"), std::string::npos)
      << o.err;
}

// Splits the cluster's kubeconfig into two files: the first has the admin context (current),
// the second the token and alice contexts.
TEST(ClusterTest, KubeconfigListMergingAndContext) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  Result<Value> config = yaml::Parse(ReadText(cluster->kubeconfig()));
  ASSERT_TRUE(config.ok());
  auto only = [&](const char* list, std::set<std::string> names) {
    Value out = Value::EmptyArray();
    for (const Value& item : config->find(list)->items()) {
      if (names.count(Str(item, {"name"})) > 0) out.push_back(item);
    }
    return out;
  };
  Value first = Value::Object({{"apiVersion", Value::String("v1")},
                               {"kind", Value::String("Config")},
                               {"current-context", Value::String("admin")},
                               {"clusters", *config->find("clusters")},
                               {"contexts", only("contexts", {"admin"})},
                               {"users", only("users", {"admin"})}});
  Value second = Value::Object({{"apiVersion", Value::String("v1")},
                                {"kind", Value::String("Config")},
                                {"current-context", Value::String("alice")},
                                {"clusters", *config->find("clusters")},
                                {"contexts", only("contexts", {"token", "alice"})},
                                {"users", only("users", {"tester", "token", "alice"})}});
  std::string a = cluster->work() + "/first.yaml", b = cluster->work() + "/second.yaml";
  std::ofstream(a) << json::ToString(first);
  std::ofstream(b) << json::ToString(second);
  const std::string list = "KUBECONFIG=" + a + ":" + cluster->work() + "/missing.yaml:" + b;
  // The first file's current-context (admin) wins over the second's (alice).
  Outcome o = Wmap({"get", "jobs", "-n", ns, "-o", "name"}, {list});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 7);
  // --context reaches the second file's contexts and users.
  o = Wmap({"get", "jobs", "-n", ns, "-o", "name", "--context", "token"}, {list});
  EXPECT_EQ(o.code, 0) << o.err;
  // alice (who may read at most the paging namespace) cannot list every namespace.
  o = Wmap({"get", "jobs", "-A", "--context", "alice"}, {list});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("user \"alice\" may not list jobs.batch at the cluster scope"),
            std::string::npos)
      << o.err;
  o = Wmap({"get", "jobs", "--context", "nope"}, {list});
  EXPECT_EQ(o.code, 3);
  EXPECT_NE(o.err.find("context was not found for specified context: nope"), std::string::npos);
  // --kubeconfig names the only file.
  o = Wmap({"get", "jobs", "-A", "--kubeconfig", b, "-o", "name"}, {list});
  EXPECT_EQ(o.code, 1) << o.err;  // the second file's current context is alice's
  EXPECT_NE(o.err.find("user \"alice\""), std::string::npos) << o.err;
}

// An exec credential plugin that counts its runs: one run serves every request of a command.
TEST(ClusterTest, ExecCredentialPluginIsCached) {
  NEED_CLUSTER();
  const std::string& ns = PagingNamespace(*cluster);
  const std::string count = cluster->work() + "/exec-runs";
  const std::string script = cluster->work() + "/token-plugin.sh";
  std::ofstream(script) << "#!/bin/sh\n"
                           "echo run >> \"$COUNT_FILE\"\n"
                           "case \"$KUBERNETES_EXEC_INFO\" in *ExecCredential*) ;; *) exit 3;; "
                           "esac\n"
                           "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
                           "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%s\","
                           "\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}}' \"$1\"\n";
  ::chmod(script.c_str(), 0755);
  Result<Value> config = yaml::Parse(ReadText(cluster->kubeconfig()));
  ASSERT_TRUE(config.ok());
  Value user = Value::Object(
      {{"name", Value::String("plugin")},
       {"user",
        Value::Object(
            {{"exec",
              Value::Object(
                  {{"apiVersion", Value::String("client.authentication.k8s.io/v1")},
                   {"command", Value::String(script)},
                   {"args", Value::Array({Value::String(cluster->env("WMAP_CLUSTER_TOKEN"))})},
                   {"env", Value::Array({Value::Object({{"name", Value::String("COUNT_FILE")},
                                                        {"value", Value::String(count)}})})},
                   {"interactiveMode", Value::String("Never")}})}})}});
  Value with_plugin = *config;
  with_plugin.find_mutable("users")->push_back(user);
  std::string path = cluster->work() + "/plugin.yaml";
  std::ofstream(path) << json::ToString(with_plugin);
  Outcome o = Wmap({"get", "jobs", "-n", ns, "-o", "name", "--user", "plugin"},
                   {"KUBECONFIG=" + path, "PATH=/usr/bin:/bin"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 7);
  std::string runs = ReadText(count);
  EXPECT_EQ(runs, "run\n") << "the plugin ran " << std::count(runs.begin(), runs.end(), '\n')
                           << " times for one command";
}

}  // namespace
}  // namespace wmap::live
