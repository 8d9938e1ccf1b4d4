// The cluster's definitions (Karta objects) merged over the catalog, `get --all-types`, and the
// discovery cache on disk, against a real kube-apiserver (live/live_harness.h).
//
// Kartas are cluster-scoped: every one a test creates is named for this run and deleted when the
// test ends, so that no other test sees it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "live/live_harness.h"
#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::live {
namespace {

// A Karta reading group/version/kind whose only status rule makes every object Degraded (or
// runs `expression`, which may not compile).
std::string Karta(const std::string& name, const std::string& group, const std::string& version,
                  const std::string& kind, const std::string& expression = "true") {
  return "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: " + name +
         "\nspec:\n  structureDefinition:\n    rootComponent:\n      name: root\n"
         "      kind: {group: \"" +
         group + "\", version: " + version + ", kind: " + kind +
         "}\n      specDefinition:\n        podTemplateSpecPath: .spec.template\n"
         "      statusDefinition:\n        statusMappings:\n          degraded:\n"
         "          - byExpression: {expression: '" +
         expression + "', expectedResult: \"true\"}\n";
}

// Kartas created for one test and deleted when it ends.
class Kartas {
 public:
  explicit Kartas(const Cluster& c) : c_(c) {}
  ~Kartas() {
    for (const std::string& n : names_) c_.Kubectl({"delete", "karta", n, "--ignore-not-found"});
  }
  Kartas(const Kartas&) = delete;
  Kartas& operator=(const Kartas&) = delete;
  void Create(const std::string& name, const std::string& yaml) {
    names_.push_back(name);
    c_.MustKubectl({"create", "-f", "-"}, yaml);
  }

 private:
  const Cluster& c_;
  std::vector<std::string> names_;
};

// The line of `table` whose first cell is `name`, "" when none.
std::string Row(const std::string& table, const std::string& name) {
  size_t start = 0;
  while (start < table.size()) {
    size_t end = table.find('\n', start);
    if (end == std::string::npos) end = table.size();
    std::string line = table.substr(start, end - start);
    if (line.starts_with(name + " ")) return line;
    start = end + 1;
  }
  return "";
}

TEST(ClusterDefinitionsTest, AKartaReplacesTheBuiltInAndWorkloadsAreReadThroughIt) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("karta");
  const std::string name = cluster->Namespace("daemons");
  cluster->MustKubectl({"create", "namespace", ns});
  cluster->MustKubectl({"create", "-n", ns, "-f", "-"},
                       "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n"
                       "  selector: {matchLabels: {app: agent}}\n  template:\n"
                       "    metadata: {labels: {app: agent}}\n"
                       "    spec: {containers: [{name: c, image: busybox}]}\n");
  // The built-in reads it first.
  Outcome before = Live(*cluster, {"get", "daemonsets", "-n", ns, "-o", "wide"});
  ASSERT_EQ(before.code, 0) << before.err;
  EXPECT_NE(Row(before.out, "agent").find("apps-daemonset-v1"), std::string::npos) << before.out;

  Kartas kartas(*cluster);
  kartas.Create(name, Karta(name, "apps", "v1", "DaemonSet"));
  Outcome defs = Live(*cluster, {"definitions"});
  ASSERT_EQ(defs.code, 0) << defs.err;
  EXPECT_NE(Row(defs.out, name).find("DaemonSet.v1.apps"), std::string::npos) << defs.out;
  EXPECT_NE(Row(defs.out, name).find(" cluster "), std::string::npos) << defs.out;
  EXPECT_EQ(Row(defs.out, "apps-daemonset-v1"), "") << defs.out;
  EXPECT_NE(Row(defs.out, "apps-deployment-v1").find(" built-in "), std::string::npos);
  // The Karta as the server has it.
  Outcome one = Live(*cluster, {"definitions", name, "-o", "json"});
  ASSERT_EQ(one.code, 0) << one.err;
  Result<Value> doc = json::Parse(one.out);
  ASSERT_TRUE(doc.ok()) << one.out;
  EXPECT_EQ(Str(*doc, {"kind"}), "Karta");
  EXPECT_FALSE(Str(*doc, {"metadata", "uid"}).empty());

  // get, describe and status read the DaemonSet through the Karta.
  Outcome after = Live(*cluster, {"get", "daemonsets", "-n", ns, "-o", "wide"});
  ASSERT_EQ(after.code, 0) << after.err;
  EXPECT_EQ(after.err, "");
  std::string row = Row(after.out, "agent");
  EXPECT_NE(row.find("Degraded"), std::string::npos) << after.out;
  EXPECT_NE(row.find(name), std::string::npos) << after.out;
  Outcome described = Live(*cluster, {"describe", "daemonset/agent", "-n", ns, "-o", "json"});
  ASSERT_EQ(described.code, 0) << described.err;
  EXPECT_NE(described.out.find("\"" + name + "\""), std::string::npos) << described.out;
  Outcome status = Live(*cluster, {"status", "daemonset/agent", "-n", ns, "-o", "json"});
  ASSERT_EQ(status.code, 0) << status.err;
  EXPECT_NE(status.out.find("Degraded"), std::string::npos) << status.out;
}

TEST(ClusterDefinitionsTest, WarningsCarryUpstreamsReasons) {
  NEED_CLUSTER();
  const std::string run = cluster->Namespace("w");
  Kartas kartas(*cluster);
  // Two Kartas claim RayJob: neither is used.
  kartas.Create(run + "-ray-a", Karta(run + "-ray-a", "ray.io", "v1", "RayJob"));
  kartas.Create(run + "-ray-b", Karta(run + "-ray-b", "ray.io", "v1", "RayJob"));
  // A kind the cluster does not serve.
  const std::string group = run + ".example.com";
  kartas.Create(run + "-widgets", Karta(run + "-widgets", group, "v1", "Widget"));
  // A jq expression that does not compile: the server stores it, wmap skips it.
  kartas.Create(run + "-broken", Karta(run + "-broken", group, "v1", "Gadget", ".[["));

  Outcome defs = Live(*cluster, {"definitions"});
  ASSERT_EQ(defs.code, 0) << defs.err;
  EXPECT_NE(defs.err.find("warning: 2 Karta definitions claim RayJob.v1.ray.io (" + run +
                          "-ray-a, " + run +
                          "-ray-b); none of them is used; remove one from "
                          "the cluster (collision)"),
            std::string::npos)
      << defs.err;
  EXPECT_NE(Row(defs.out, "ray-io-rayjob-v1").find(" built-in "), std::string::npos) << defs.out;
  EXPECT_EQ(Row(defs.out, run + "-ray-a"), "");
  EXPECT_NE(defs.err.find("warning: definition \"" + run + "-widgets\" reads Widget.v1." + group +
                          ", which this cluster does not serve (no_crd)"),
            std::string::npos)
      << defs.err;
  EXPECT_NE(Row(defs.out, run + "-widgets").find(" cluster "), std::string::npos) << defs.out;
  EXPECT_NE(defs.err.find("warning: Karta \"" + run + "-broken\" is not valid and is skipped: "),
            std::string::npos)
      << defs.err;
  EXPECT_NE(defs.err.find("(invalid)"), std::string::npos);
  EXPECT_EQ(Row(defs.out, run + "-broken"), "");

  // The same in the document, with the reasons as data.
  Outcome json_defs = Live(*cluster, {"definitions", "-o", "json"});
  ASSERT_EQ(json_defs.code, 0) << json_defs.err;
  Result<Value> doc = json::Parse(json_defs.out);
  ASSERT_TRUE(doc.ok());
  const Value* warnings = doc->find("warnings");
  ASSERT_NE(warnings, nullptr);
  std::vector<std::string> reasons;
  for (const Value& w : warnings->items()) {
    std::string definition = Str(w, {"definition"});
    if (definition.starts_with(run) || Str(w, {"message"}).find(run) != std::string::npos) {
      reasons.push_back(Str(w, {"reason"}));
    }
  }
  std::sort(reasons.begin(), reasons.end());
  EXPECT_EQ(reasons, (std::vector<std::string>{"collision", "invalid", "no_crd"}));

  // get names the collision for the type it reads.
  Outcome get = Live(*cluster, {"get", "rayjobs", "-A"});
  EXPECT_EQ(get.code, 0) << get.err;
  EXPECT_NE(get.err.find("(collision)"), std::string::npos) << get.err;
}

TEST(ClusterDefinitionsTest, ForbiddenAndUnreachableFallBackToTheCatalog) {
  NEED_CLUSTER();
  const std::string name = cluster->Namespace("seen");
  Kartas kartas(*cluster);
  kartas.Create(name, Karta(name, "apps", "v1", "StatefulSet"));
  // alice may not list kartas: a warning, and the catalog alone.
  Outcome alice = Live(*cluster, {"definitions", "--context", "alice"});
  ASSERT_EQ(alice.code, 0) << alice.err;
  EXPECT_NE(alice.err.find("warning: user \"alice\" may not list kartas.run.ai"), std::string::npos)
      << alice.err;
  EXPECT_NE(alice.err.find("(forbidden)"), std::string::npos) << alice.err;
  EXPECT_EQ(Row(alice.out, name), "") << alice.out;
  EXPECT_NE(Row(alice.out, "apps-statefulset-v1").find(" built-in "), std::string::npos);
  Outcome admin = Live(*cluster, {"definitions"});
  EXPECT_NE(Row(admin.out, name).find(" cluster "), std::string::npos) << admin.out;

  // A server that does not answer: a warning, and the catalog alone.
  Outcome closed = Wmap({"definitions", "--server", "https://127.0.0.1:1",
                         "--insecure-skip-tls-verify", "--token", "x"},
                        {});
  ASSERT_EQ(closed.code, 0) << closed.err;
  EXPECT_NE(closed.err.find("cannot connect to the API server https://127.0.0.1:1"),
            std::string::npos)
      << closed.err;
  EXPECT_NE(closed.err.find("(unreachable)"), std::string::npos) << closed.err;
  EXPECT_NE(Row(closed.out, "apps-statefulset-v1").find(" built-in "), std::string::npos);
}

TEST(GetAllTypesTest, ListsTheWorkloadsOfEveryServedType) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("alltypes");
  CreateExample(*cluster, "jobset-training", ns);
  CreateExample(*cluster, "raycluster", ns + "-ray");
  cluster->MustKubectl({"create", "job", "standalone", "--image=busybox", "-n", ns});

  Outcome all = Live(*cluster, {"get", "--all-types", "-n", ns});
  ASSERT_EQ(all.code, 0) << all.err;
  // The JobSet and the standalone Job; the JobSet's Jobs count in its PODS, not as rows.
  EXPECT_NE(Row(all.out, "standalone").find(" Job "), std::string::npos) << all.out;
  EXPECT_NE(all.out.find(" JobSet "), std::string::npos) << all.out;
  size_t rows = std::count(all.out.begin(), all.out.end(), '\n') - 1;
  EXPECT_EQ(rows, 2u) << all.out;
  // As `get -f` prints the same objects, in the same order (newest first, then name).
  std::string dump = cluster->work() + "/alltypes.json";
  std::ofstream(dump) << cluster->MustKubectl(
      {"get", "jobsets.jobset.x-k8s.io,jobs,pods", "-n", ns, "-o", "json"});
  Outcome offline = Wmap({"get", "-f", dump}, {});
  EXPECT_EQ(offline.code, 0) << offline.err;
  std::string live_rows = all.out, offline_rows = offline.out;
  EXPECT_EQ(all.out.substr(0, all.out.find('\n')), offline.out.substr(0, offline.out.find('\n')));
  Outcome all_wide = Live(*cluster, {"get", "--all-types", "-n", ns, "-o", "name"});
  Outcome off_name = Wmap({"get", "-f", dump, "-o", "name"}, {});
  EXPECT_EQ(all_wide.out, off_name.out);

  // Across namespaces: the RayCluster of the other namespace too.
  Outcome everywhere = Live(*cluster, {"get", "--all-types", "-A", "-o", "name"});
  ASSERT_EQ(everywhere.code, 0) << everywhere.err;
  EXPECT_NE(everywhere.out.find("job.batch/standalone\n"), std::string::npos);
  EXPECT_NE(everywhere.out.find("raycluster.ray.io/"), std::string::npos) << everywhere.out;
  EXPECT_NE(everywhere.out.find("jobset.jobset.x-k8s.io/"), std::string::npos);

  // With a TYPE it is a usage error; with -f it reads the files as without it.
  EXPECT_EQ(Live(*cluster, {"get", "--all-types", "jobs"}).code, 2);
  Outcome files = Wmap({"get", "--all-types", "-f", dump, "-o", "name"}, {});
  EXPECT_EQ(files.out, off_name.out);
}

// Seconds since the epoch of the file's last write, -1 when absent.
int64_t Written(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

TEST(DiscoveryCacheTest, ASecondReadUsesTheCacheAndANewCrdIsStillFound) {
  NEED_CLUSTER();
  const std::string dir = cluster->work() + "/cache";
  std::filesystem::remove_all(dir);
  kube::Client* admin = AdminClient(*cluster);
  const std::string file =
      kube::DiscoveryCacheFolder(dir, admin->config().server) + "/wmap-discovery.json";

  // In the library: the first discovery asks the server, the second reads the disk.
  {
    const int64_t start = admin->requests();
    kube::CachedDiscovery first(admin, {dir, std::chrono::hours(6)});
    ASSERT_TRUE(first.Get().ok());
    EXPECT_TRUE(first.fetched());
    const int64_t fetched = admin->requests() - start;
    EXPECT_GE(fetched, 2);  // /api and /apis
    kube::CachedDiscovery second(admin, {dir, std::chrono::hours(6)});
    Result<const kube::Discovery*> cached = second.Get();
    ASSERT_TRUE(cached.ok());
    EXPECT_FALSE(second.fetched());
    EXPECT_EQ(admin->requests() - start, fetched);  // no request at all
    EXPECT_NE((*cached)->Resolve("jobsets"), nullptr);
  }

  // The commands: the second one reads the cache and leaves it as it was.
  const std::string ns = cluster->Namespace("cache");
  cluster->MustKubectl({"create", "namespace", ns});
  std::filesystem::remove_all(dir);
  Outcome one = Live(*cluster, {"get", "jobs", "-n", ns, "--cache-dir", dir});
  ASSERT_EQ(one.code, 0) << one.err;
  const int64_t written = Written(file);
  ASSERT_GT(written, 0);
  Outcome two = Live(*cluster, {"get", "jobs", "-n", ns, "--cache-dir", dir});
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(Written(file), written);

  // A CRD installed after the cache was written, with a Karta for it: the TYPE is not in the
  // cache, which is read again once, and found.
  const std::string group = cluster->Namespace("c") + ".example.com";
  const std::string crd =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
      "  name: gizmos." +
      group + "\nspec:\n  group: " + group +
      "\n  names: {kind: Gizmo, plural: gizmos, singular: gizmo, listKind: GizmoList}\n"
      "  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n"
      "    schema:\n      openAPIV3Schema:\n        type: object\n"
      "        x-kubernetes-preserve-unknown-fields: true\n";
  cluster->MustKubectl({"create", "-f", "-"}, crd);
  cluster->MustKubectl({"wait", "--for=condition=Established", "crd/gizmos." + group});
  Kartas kartas(*cluster);
  const std::string karta = cluster->Namespace("gizmos");
  kartas.Create(karta, Karta(karta, group, "v1", "Gizmo"));
  cluster->MustKubectl({"create", "-n", ns, "-f", "-"},
                       "apiVersion: " + group + "/v1\nkind: Gizmo\nmetadata: {name: g1}\n");
  Outcome found = Live(*cluster, {"get", "gizmos", "-n", ns, "--cache-dir", dir, "-o", "wide"});
  EXPECT_EQ(found.code, 0) << found.err;
  EXPECT_EQ(found.err, "");
  EXPECT_NE(Row(found.out, "g1").find(karta), std::string::npos) << found.out;
  EXPECT_NE(Written(file), written);  // fetched again and rewritten
  // And the next command reads the new cache: the type is there without a refetch.
  const int64_t rewritten = Written(file);
  Outcome again = Live(*cluster, {"get", "gizmos", "-n", ns, "--cache-dir", dir});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(Written(file), rewritten);
  cluster->Kubectl({"delete", "crd", "gizmos." + group, "--wait=false"});

  // A corrupt cache is not trusted: the server is asked and the file replaced.
  std::ofstream(file) << "{\"format\": \"wmap.discovery/v1\", \"serv";
  Outcome repaired = Live(*cluster, {"get", "jobs", "-n", ns, "--cache-dir", dir});
  EXPECT_EQ(repaired.code, 0) << repaired.err;
  Result<Value> doc = json::Parse(ReadText(file));
  EXPECT_TRUE(doc.ok());
}

}  // namespace
}  // namespace wmap::live
