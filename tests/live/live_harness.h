// What the tests against a real kube-apiserver share: the cluster of WMAP_TEST_KUBECONFIG and
// WMAP_CLUSTER_DIR (scripts/test_cluster.sh sets both; every test skips without them), `wmap`
// run in-process, the cluster's own kubectl, and the examples created in the cluster as a
// controller would have made them.
#ifndef WMAP_TESTS_LIVE_LIVE_HARNESS_H_
#define WMAP_TESTS_LIVE_LIVE_HARNESS_H_

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/kube.h"
#include "wmap/value.h"

namespace wmap::live {

// 2030-01-01: AGE columns are reproducible.
inline constexpr const char* kEpoch = "SOURCE_DATE_EPOCH=1893456000";

std::string ReadText(const std::string& path);
// `s` single-quoted for the shell.
std::string Quote(const std::string& s);

struct Outcome {
  int code = 0;
  std::string out, err;
};

// The cluster of WMAP_TEST_KUBECONFIG and what cluster.env says about it.
class Cluster {
 public:
  // nullptr when the environment names no cluster.
  static Cluster* Get();

  const std::string& kubeconfig() const { return kubeconfig_; }
  std::string env(const std::string& key) const;
  // A scratch folder of this process.
  const std::string& work() const { return work_; }
  // A namespace name unique to this process.
  std::string Namespace(const std::string& base) const { return "wl" + run_ + "-" + base; }

  // Runs the cluster's kubectl as admin with `input` on standard input.
  Outcome Kubectl(const std::vector<std::string>& args, const std::string& input = "") const;
  // Like Kubectl, failing the test when kubectl fails.
  std::string MustKubectl(const std::vector<std::string>& args,
                          const std::string& input = "") const;

 private:
  Cluster();
  bool ok_ = false;
  std::string kubeconfig_, work_, run_;
  std::map<std::string, std::string> env_;
};

#define NEED_CLUSTER()                                                                     \
  ::wmap::live::Cluster* cluster = ::wmap::live::Cluster::Get();                           \
  if (cluster == nullptr) {                                                                \
    GTEST_SKIP() << "needs a cluster: set WMAP_TEST_KUBECONFIG and WMAP_CLUSTER_DIR (run " \
                    "scripts/test_cluster.sh)";                                            \
  }

// Runs `wmap ARGS...` in-process from the source folder with exactly `env` (plus kEpoch, a
// HOME without a kubeconfig and, with a cluster, KUBECACHEDIR in work() unless `env` sets it)
// and `input` on standard input.
Outcome Wmap(const std::vector<std::string>& args, std::vector<std::string> env,
             const std::string& input = "");
// `wmap ARGS...` as admin through the cluster's kubeconfig.
Outcome Live(const Cluster& c, const std::vector<std::string>& args, const std::string& input = "");
// A client of the admin user (one per process).
kube::Client* AdminClient(const Cluster& c);

// The string at `path` in v, "" when absent or not a string.
std::string Str(const Value& v, std::initializer_list<std::string_view> path);

// Drops what the server sets on create (uid, resourceVersion, status...) and puts the object in
// namespace ns; a Job also loses the selector and labels the server makes from its uid.
void ForCreate(Value* object, const std::string& ns);
// kind.version.group, as kubectl names a type exactly.
std::string ResourceOf(const Value& object);
// Creates examples/EXAMPLE.yaml and .pods.yaml in namespace ns (created here): owners first,
// ownerReferences to the live uids, with the status the files give; returns the types created,
// the workload's first.
std::vector<std::string> CreateExample(const Cluster& c, const std::string& example,
                                       const std::string& ns);

// The four examples every live comparison runs on, and a test name for each.
inline auto ExampleNames() {
  return ::testing::Values("jobset-training", "leaderworkerset-serving", "raycluster",
                           "dynamo-graph");
}
std::string ExampleTestName(const ::testing::TestParamInfo<const char*>& info);

}  // namespace wmap::live

#endif  // WMAP_TESTS_LIVE_LIVE_HARNESS_H_
