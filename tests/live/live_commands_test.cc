// `wmap describe`, `status`, `inspect` and `gang` reading a real kube-apiserver: each prints for
// TYPE/NAME what it prints offline for the same objects as `kubectl get -o json` dumps them.
//
// Objects are created with the cluster's own kubectl in namespaces named for this run, so the
// tests can run again against the same cluster (live/live_harness.h).
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "live/live_harness.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::live {
namespace {

// The documents of `text` (JSON or a YAML stream) without the top-level `source` of each: a file
// and line offline, an API path live.
std::string WithoutSources(const std::string& text, const std::string& format) {
  std::vector<Value> docs;
  if (format == "json") {
    Result<Value> doc = json::Parse(text);
    if (!doc.ok()) return "not JSON: " + text;
    docs.push_back(std::move(*doc));
  } else {
    Result<std::vector<yaml::Document>> stream = yaml::ParseStream(text);
    if (!stream.ok()) return "not YAML: " + text;
    for (yaml::Document& d : *stream) docs.push_back(std::move(d.value));
  }
  std::string out;
  for (Value& doc : docs) {
    if (doc.is_object()) doc.erase("source");
    out += json::ToString(doc) + "\n";
  }
  return out;
}

struct Created {
  std::string ns, type, name;  // the workload: TYPE (kind.version.group) and NAME
  std::string all_dump;        // the workload, its children and pods (kubectl get -o json)
  std::string workload_dump;   // the workload alone
};

// The example created in namespace `base` of this run and dumped as the server has it.
Created CreateAndDump(const Cluster& c, const std::string& example, const std::string& base) {
  Created out;
  out.ns = c.Namespace(base);
  std::vector<std::string> types = CreateExample(c, example, out.ns);
  EXPECT_FALSE(types.empty());
  if (types.empty()) return out;
  out.type = types[0];
  Result<Value> list = json::Parse(c.MustKubectl({"get", out.type, "-n", out.ns, "-o", "json"}));
  EXPECT_TRUE(list.ok());
  if (!list.ok() || list->find("items")->size() != 1) return out;
  out.name = Str(list->find("items")->items()[0], {"metadata", "name"});
  std::string all;
  for (const std::string& t : types) all += (all.empty() ? "" : ",") + t;
  out.all_dump = c.work() + "/" + base + ".json";
  std::ofstream(out.all_dump) << c.MustKubectl({"get", all, "-n", out.ns, "-o", "json"});
  out.workload_dump = c.work() + "/" + base + ".workload.json";
  std::ofstream(out.workload_dump)
      << c.MustKubectl({"get", out.type, out.name, "-n", out.ns, "-o", "json"});
  return out;
}

class LiveCommandsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(LiveCommandsTest, EachCommandEqualsItsOfflineRunOnTheSameObjects) {
  NEED_CLUSTER();
  const std::string example = GetParam();
  Created w = CreateAndDump(*cluster, example, "cmd-" + example.substr(0, example.find('-')));
  ASSERT_FALSE(w.name.empty());
  const std::string ref = w.type + "/" + w.name;
  struct Case {
    std::vector<std::string> command;  // before the input
    std::string format;                // -o, "" for the default
    std::string compare;               // text, json or yaml (documents without their source)
    bool whole;                        // offline input: the workload with children and pods
  };
  const std::vector<Case> cases = {
      {{"status"}, "", "text", false},
      {{"status"}, "json", "json", false},
      {{"inspect"}, "", "json", false},
      {{"describe"}, "", "text", true},
      {{"describe"}, "json", "json", true},
      {{"describe"}, "yaml", "yaml", true},
      {{"gang"}, "", "text", true},
      {{"gang"}, "json", "json", true},
      {{"gang"}, "yaml", "yaml", true},
      {{"gang", "--for", "kai"}, "", "yaml", true},
      {{"gang", "--for", "volcano"}, "json", "json", true},
      {{"gang", "--for", "kueue", "--kueue-prebuilt"}, "manifests", "yaml", true},
  };
  for (const Case& k : cases) {
    std::vector<std::string> live = k.command, offline = k.command;
    live.insert(live.end(), {ref, "-n", w.ns});
    offline.insert(offline.end(), {"-f", k.whole ? w.all_dump : w.workload_dump});
    if (!k.format.empty()) {
      for (auto* args : {&live, &offline}) args->insert(args->end(), {"-o", k.format});
    }
    std::string what;
    for (const std::string& a : live) what += a + " ";
    Outcome on = Live(*cluster, live);
    Outcome off = Wmap(offline, {});
    EXPECT_EQ(on.code, 0) << what << ": " << on.err;
    EXPECT_EQ(on.code, off.code) << what << ": " << off.err;
    EXPECT_FALSE(on.out.empty()) << what;
    if (k.compare == "text") {
      EXPECT_EQ(on.out, off.out) << what;
    } else {
      EXPECT_EQ(WithoutSources(on.out, k.compare), WithoutSources(off.out, k.compare)) << what;
    }
    EXPECT_EQ(on.err, off.err) << what;
  }
  // The whole TYPE in the namespace: the same workload, as it is the only one.
  Outcome by_type = Live(*cluster, {"describe", w.type, "-n", w.ns});
  Outcome by_name = Live(*cluster, {"describe", ref, "-n", w.ns});
  EXPECT_EQ(by_type.code, 0) << by_type.err;
  EXPECT_EQ(by_type.out, by_name.out);
}

INSTANTIATE_TEST_SUITE_P(Examples, LiveCommandsTest, ExampleNames(), ExampleTestName);

// The JobSet example with a Job of its own and that Job's pod beside it in the namespace.
const Created& JobSetWithAStrayJob(const Cluster& c) {
  static Created w;
  if (!w.ns.empty()) return w;
  w = CreateAndDump(c, "jobset-training", "cmd-beside");
  const std::string job =
      R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"stray","namespace":")" + w.ns +
      R"("},"spec":{"suspend":true,"template":{"spec":{"restartPolicy":"Never",)"
      R"("containers":[{"name":"c","image":"busybox"}]}}}})";
  Result<Value> created =
      json::Parse(c.MustKubectl({"create", "--validate=false", "-f", "-", "-o", "json"}, job));
  EXPECT_TRUE(created.ok());
  const std::string uid = created.ok() ? Str(*created, {"metadata", "uid"}) : "";
  const std::string pod =
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"stray-pod","namespace":")" + w.ns +
      R"(","ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"stray","uid":")" + uid +
      R"(","controller":true}]},"spec":{"containers":[{"name":"c","image":"busybox"}]}})";
  c.MustKubectl({"create", "-f", "-"}, pod);
  return w;
}

// What the owner walk brings beside the workloads asked for neither shows nor warns.
TEST(LiveCommandsTest, OnlyTheTypesAskedForShow) {
  NEED_CLUSTER();
  const Created& w = JobSetWithAStrayJob(*cluster);
  ASSERT_FALSE(w.name.empty());
  for (const char* command : {"describe", "gang", "status", "inspect"}) {
    // status's text names no workload: its documents do.
    Outcome o = Live(*cluster, {command, "jobsets", "-n", w.ns, "-o",
                                std::string(command) == "describe" ? "tree" : "json"});
    EXPECT_EQ(o.code, 0) << command << ": " << o.err;
    EXPECT_EQ(o.err, "") << command;
    EXPECT_NE(o.out.find(w.name), std::string::npos) << command << ": " << o.out;
    EXPECT_EQ(o.out.find("stray"), std::string::npos) << command << ": " << o.out;
  }
  // The stray Job is a workload of its own when Jobs are asked for.
  Outcome o = Live(*cluster, {"status", "jobs", "-n", w.ns, "-o", "json"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\"stray\""), std::string::npos) << o.out;
  o = Live(*cluster, {"describe", "job/stray", "-n", w.ns});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("stray-pod"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find(w.name + "-"), std::string::npos) << o.out;
}

TEST(LiveCommandsTest, NamedObjectNotFoundIsExit3) {
  NEED_CLUSTER();
  const Created& w = JobSetWithAStrayJob(*cluster);
  for (const char* command : {"describe", "status", "inspect", "gang"}) {
    Outcome o = Live(*cluster, {command, "jobset/nope", "-n", w.ns});
    EXPECT_EQ(o.code, 3) << command;
    // inspect reports errors as JSON documents on stdout.
    const std::string said = o.out + o.err;
    EXPECT_NE(said.find("nope"), std::string::npos) << command << ": " << said;
    EXPECT_NE(said.find("not found in namespace " + w.ns), std::string::npos)
        << command << ": " << said;
  }
  Outcome o = Live(*cluster, {"describe", "jobset", "nope", "-n", w.ns, "-o", "json"});
  EXPECT_EQ(o.code, 3);
  EXPECT_NE(o.out.find(R"("error": "not_found")"), std::string::npos) << o.out;
  // An empty namespace is no error.
  const std::string empty = cluster->Namespace("cmd-empty");
  cluster->MustKubectl({"create", "namespace", empty});
  o = Live(*cluster, {"describe", "jobsets", "-n", empty});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err, "No workloads found.\n");
}

TEST(LiveCommandsTest, AliceIsForbiddenWithTheRuleNamed) {
  NEED_CLUSTER();
  const Created& w = JobSetWithAStrayJob(*cluster);
  Outcome o = Live(*cluster, {"describe", "jobsets", "-n", w.ns, "--context", "alice"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(
      o.err.find("may not list jobsets.jobset.x-k8s.io in namespace " + w.ns + " (403 Forbidden)"),
      std::string::npos)
      << o.err;
  EXPECT_NE(
      o.err.find(R"(apiGroups: ["jobset.x-k8s.io"], resources: ["jobsets"], verbs: ["list"])"),
      std::string::npos)
      << o.err;
  o = Live(*cluster,
           {"status", "jobset/" + w.name, "-n", w.ns, "--context", "alice", "-o", "json"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.out.find(R"("error": "forbidden")"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(R"(verbs: [\"get\"])"), std::string::npos) << o.out;
}

// get's rows, live and offline: newest first (upstream's order), not the server's name order.
TEST(LiveCommandsTest, GetRowsAreNewestFirst) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("cmd-order");
  cluster->MustKubectl({"create", "namespace", ns});
  auto job = [&](const std::string& name) {
    return R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":")" + name +
           R"(","namespace":")" + ns +
           R"("},"spec":{"suspend":true,"template":{"spec":{"restartPolicy":"Never",)"
           R"("containers":[{"name":"c","image":"busybox"}]}}}})";
  };
  cluster->MustKubectl({"create", "--validate=false", "-f", "-"}, job("a-old"));
  ::usleep(1100000);  // creation times count whole seconds
  cluster->MustKubectl({"create", "--validate=false", "-f", "-"}, job("b-new"));
  Outcome live = Live(*cluster, {"get", "jobs", "-n", ns, "-o", "name"});
  EXPECT_EQ(live.code, 0) << live.err;
  EXPECT_EQ(live.out, "job.batch/b-new\njob.batch/a-old\n");
  const std::string dump = cluster->work() + "/cmd-order.json";
  std::ofstream(dump) << cluster->MustKubectl({"get", "jobs", "-n", ns, "-o", "json"});
  Outcome offline = Wmap({"get", "-f", dump, "-o", "name"}, {});
  EXPECT_EQ(offline.out, live.out);
}

// alice's context with the namespace where she may read.
std::string AliceInNamespace(const Cluster& c, const std::string& ns) {
  Result<Value> config = yaml::Parse(ReadText(c.kubeconfig()));
  EXPECT_TRUE(config.ok());
  for (Value& context : config->find_mutable("contexts")->mutable_items()) {
    if (Str(context, {"name"}) == "alice") {
      context.find_mutable("context")->set("namespace", Value::String(ns));
    }
  }
  config->set("current-context", Value::String("alice"));
  std::string path = c.work() + "/alice-" + ns + ".yaml";
  std::ofstream(path) << json::ToString(*config);
  return path;
}

TEST(LiveCommandsTest, AllNamespacesForbiddenListsTheContextsNamespace) {
  NEED_CLUSTER();
  const Created& w = JobSetWithAStrayJob(*cluster);
  cluster->MustKubectl({"apply", "--validate=false", "-f",
                        std::string(WMAP_SOURCE_DIR) + "/deploy/rbac/wmap-reader.yaml"});
  cluster->MustKubectl({"create", "rolebinding", "wmap-reader-alice", "--clusterrole=wmap-reader",
                        "--user=alice", "-n", w.ns});
  const std::string kubeconfig = AliceInNamespace(*cluster, w.ns);
  Outcome o;
  for (int i = 0; i < 50; ++i) {  // the authorizer sees the binding within moments
    o = Wmap({"status", "jobsets", "--kubeconfig", kubeconfig}, {});
    if (o.code == 0) break;
    ::usleep(200000);
  }
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string warning =
      "warning: user \"alice\" may not list jobsets.jobset.x-k8s.io at the cluster scope";
  for (const char* command : {"status", "describe", "gang", "inspect", "get"}) {
    Outcome all = Wmap({command, "jobsets", "-A", "--kubeconfig", kubeconfig, "-o", "json"}, {});
    Outcome one = Wmap({command, "jobsets", "--kubeconfig", kubeconfig, "-o", "json"}, {});
    EXPECT_EQ(all.code, 0) << command << ": " << all.err;
    EXPECT_NE(all.err.find(warning), std::string::npos) << command << ": " << all.err;
    EXPECT_NE(all.err.find("; listing namespace " + w.ns + " instead"), std::string::npos)
        << all.err;
    EXPECT_EQ(all.out, one.out) << command;
    EXPECT_NE(all.out.find(w.name), std::string::npos) << command << ": " << all.out;
  }
}

}  // namespace
}  // namespace wmap::live
