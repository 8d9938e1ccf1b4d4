// `wmap apply` and `wmap delete` against a real kube-apiserver: submission, re-submission
// without change, conflicts with another field manager, dry runs, changes made before
// submission, a gang scheduler's objects owned by the workload, --wait, and kubectl seeing it all.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "live/live_harness.h"
#include "wmap/json.h"
#include "wmap/source.h"
#include "wmap/yaml.h"

namespace wmap::live {
namespace {

// examples/EXAMPLE.yaml without its namespace (so -n places it), written to the work folder.
std::string ExampleWithoutNamespace(const Cluster& c, const std::string& example) {
  std::vector<SourceObject> objects;
  std::optional<Error> e = ReadAllObjects(
      {std::string(WMAP_SOURCE_DIR) + "/examples/" + example + ".yaml"}, {}, &objects);
  EXPECT_FALSE(e) << e->message;
  std::string text;
  for (SourceObject& o : objects) {
    o.value.find_mutable("metadata")->erase("namespace");
    text += "---\n";
    yaml::Write(o.value, yaml::WriteOptions{}, &text);
  }
  std::string path = c.work() + "/" + example + ".no-namespace.yaml";
  std::ofstream(path) << text;
  return path;
}

Value KubectlJson(const Cluster& c, const std::vector<std::string>& args) {
  std::vector<std::string> all = args;
  all.insert(all.end(), {"-o", "json"});
  Result<Value> v = json::Parse(c.MustKubectl(all));
  EXPECT_TRUE(v.ok());
  return v.ok() ? *v : Value();
}

TEST(ApplyTest, CreatesAndReappliesWithoutChange) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("apply");
  const std::string file = ExampleWithoutNamespace(*cluster, "jobset-training");
  Outcome o = Live(*cluster, {"apply", "-f", file, "-n", ns, "--create-namespace"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "namespace/" + ns +
                       " created\njobset.jobset.x-k8s.io/llama-finetune serverside-applied\n");
  // kubectl sees what wmap made, managed by wmap, without the file's server-set fields.
  Value made =
      KubectlJson(*cluster, {"get", "jobset", "llama-finetune", "-n", ns, "--show-managed-fields"});
  const std::string version = Str(made, {"metadata", "resourceVersion"});
  EXPECT_NE(Str(made, {"metadata", "uid"}), "6f1c2b7e-8d3a-4e41-9a55-2c7d9b0e1f34");
  const Value* managers = made.find("metadata")->find("managedFields");
  ASSERT_NE(managers, nullptr);
  EXPECT_EQ(Str(managers->items()[0], {"manager"}), "wmap");
  EXPECT_EQ(Str(managers->items()[0], {"operation"}), "Apply");

  // Again, unchanged: the server stores nothing new.
  o = Live(*cluster, {"apply", "-f", file, "-n", ns});
  ASSERT_EQ(o.code, 0) << o.err;
  Value again = KubectlJson(*cluster, {"get", "jobset", "llama-finetune", "-n", ns});
  EXPECT_EQ(Str(again, {"metadata", "resourceVersion"}), version);

  // wmap reads back what it submitted.
  o = Live(*cluster, {"get", "jobsets", "-n", ns, "-o", "name"});
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune\n") << o.err;

  // Deleted, and gone once --wait returns.
  o = Live(*cluster, {"delete", "jobset/llama-finetune", "-n", ns, "--wait"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune deleted\n");
  EXPECT_NE(cluster->Kubectl({"get", "jobset", "llama-finetune", "-n", ns}).code, 0);
  o = Live(*cluster, {"delete", "jobset/llama-finetune", "-n", ns});
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_NE(o.err.find("JobSet \"llama-finetune\" not found in namespace " + ns), std::string::npos)
      << o.err;
  o = Live(*cluster, {"delete", "jobset/llama-finetune", "-n", ns, "--ignore-not-found"});
  EXPECT_EQ(o.code, 0) << o.err;
}

TEST(ApplyTest, ConflictWithAnotherManagerNamesTheField) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("conflict");
  const std::string file = ExampleWithoutNamespace(*cluster, "raycluster");
  ASSERT_EQ(Live(*cluster, {"apply", "-f", file, "-n", ns, "--create-namespace"}).code, 0);
  // Another manager takes a field over by force.
  cluster->MustKubectl({"patch", "raycluster", "ray-batch-inference", "-n", ns, "--type=merge",
                        "-p", R"({"metadata":{"labels":{"team":"other"}}})",
                        "--field-manager=someone-else"});
  Value obj = KubectlJson(*cluster, {"get", "raycluster", "ray-batch-inference", "-n", ns});
  ASSERT_EQ(Str(obj, {"metadata", "labels", "team"}), "other");
  // A file that says another value for that label conflicts.
  std::string with_team = cluster->work() + "/ray-team.yaml";
  {
    std::vector<SourceObject> objects;
    ASSERT_FALSE(ReadAllObjects({file}, {}, &objects));
    Value v = objects[0].value;
    Value* labels = v.find_mutable("metadata")->find_mutable("labels");
    if (labels == nullptr) {
      v.find_mutable("metadata")->set("labels", Value::EmptyObject());
      labels = v.find_mutable("metadata")->find_mutable("labels");
    }
    labels->set("team", Value::String("mine"));
    std::string text;
    yaml::Write(v, yaml::WriteOptions{}, &text);
    std::ofstream(with_team) << text;
  }
  Outcome o = Live(*cluster, {"apply", "-f", with_team, "-n", ns});
  EXPECT_EQ(o.code, 1) << o.out;
  EXPECT_NE(o.err.find("conflicts with 1 field another manager owns"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(".metadata.labels.team: conflict with \"someone-else\""), std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("--force-conflicts"), std::string::npos) << o.err;
  // -o json: the error is a document with code "conflict".
  o = Live(*cluster, {"apply", "-f", with_team, "-n", ns, "-o", "json"});
  EXPECT_NE(o.out.find("\"error\": \"conflict\""), std::string::npos) << o.out;
  // Forced, the field is taken over.
  o = Live(*cluster, {"apply", "-f", with_team, "-n", ns, "--force-conflicts"});
  EXPECT_EQ(o.code, 0) << o.err;
  obj = KubectlJson(*cluster, {"get", "raycluster", "ray-batch-inference", "-n", ns});
  EXPECT_EQ(Str(obj, {"metadata", "labels", "team"}), "mine");
}

TEST(ApplyTest, DryRunsStoreNothing) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("dryrun");
  cluster->MustKubectl({"create", "namespace", ns});
  const std::string file = ExampleWithoutNamespace(*cluster, "leaderworkerset-serving");
  Outcome o = Live(*cluster, {"apply", "-f", file, "-n", ns, "--dry-run=server", "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  Result<Value> answered = json::Parse(o.out);
  ASSERT_TRUE(answered.ok()) << o.out;
  EXPECT_EQ(Str(*answered, {"metadata", "namespace"}), ns);
  EXPECT_FALSE(Str(*answered, {"metadata", "uid"}).empty());  // the server made it, to answer
  EXPECT_EQ(cluster->MustKubectl({"get", "leaderworkersets", "-n", ns, "-o", "name"}), "");

  // Client: no request at all (a server that is not there is never asked).
  o = Wmap({"apply", "-f", file, "-n", ns, "--dry-run=client", "--server", "https://127.0.0.1:1"},
           {});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("serverside-applied (dry run)"), std::string::npos) << o.out;

  // An unknown type is found before anything is written.
  std::string mixed = cluster->work() + "/mixed.yaml";
  std::ofstream(mixed) << live::ReadText(file)
                       << "---\napiVersion: example.com/v1\nkind: Nothing\nmetadata: {name: x}\n";
  o = Live(*cluster, {"apply", "-f", mixed, "-n", ns});
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_NE(o.err.find("the server does not serve Nothing in example.com/v1"), std::string::npos)
      << o.err;
  EXPECT_EQ(cluster->MustKubectl({"get", "leaderworkersets", "-n", ns, "-o", "name"}), "");
}

TEST(ApplyTest, ChangesAndGangObjectsGoWithTheWorkload) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("gang");
  const std::string file = ExampleWithoutNamespace(*cluster, "jobset-training");
  Outcome o = Live(
      *cluster, {"apply", "-f", file, "-n", ns, "--create-namespace", "--scheduler-name",
                 "kai-scheduler", "--label", "kai.scheduler/queue=research", "--gang-for", "kai"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("podgroup.scheduling.run.ai/"), std::string::npos) << o.out;
  Value jobset = KubectlJson(*cluster, {"get", "jobset", "llama-finetune", "-n", ns});
  const std::string uid = Str(jobset, {"metadata", "uid"});
  // Every pod template changed, and joined to the gang.
  for (const Value& rj : jobset.find("spec")->find("replicatedJobs")->items()) {
    const Value& pod = *rj.find("template")->find("spec")->find("template");
    EXPECT_EQ(Str(pod, {"spec", "schedulerName"}), "kai-scheduler");
    EXPECT_EQ(Str(pod, {"metadata", "labels", "kai.scheduler/queue"}), "research");
    EXPECT_FALSE(Str(pod, {"metadata", "annotations", "pod-group-name"}).empty());
  }
  // The PodGroup, valid against KAI's CRD (the server checked it), owned by the JobSet.
  Value groups = KubectlJson(*cluster, {"get", "podgroups.scheduling.run.ai", "-n", ns});
  ASSERT_EQ(groups.find("items")->size(), 1U);
  const Value& group = groups.find("items")->items()[0];
  const Value& owner = group.find("metadata")->find("ownerReferences")->items()[0];
  EXPECT_EQ(Str(owner, {"uid"}), uid);
  EXPECT_EQ(Str(owner, {"kind"}), "JobSet");

  // Deleting the JobSet in the foreground takes the PodGroup with it (no garbage collector
  // runs here, so only the JobSet's deletion is asked of the server).
  o = Live(*cluster, {"delete", "-f", file, "-n", ns, "--dry-run=server"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune deleted (server dry run)\n");
  EXPECT_EQ(cluster->Kubectl({"get", "jobset", "llama-finetune", "-n", ns}).code, 0);
}

TEST(ApplyTest, WaitFollowsTheStatusAndExitsPerOutcome) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("wait");
  cluster->MustKubectl({"create", "namespace", ns});
  const std::string job = cluster->work() + "/job.yaml";
  std::ofstream(job) << "apiVersion: batch/v1\nkind: Job\nmetadata: {name: trainer}\nspec:\n"
                        "  template:\n    spec:\n      restartPolicy: Never\n      containers: "
                        "[{name: c, image: busybox}]\n";
  // Nothing moves the status: the timeout ends the wait.
  Outcome o = Live(*cluster, {"apply", "-f", job, "-n", ns, "--wait", "--timeout", "2s"});
  EXPECT_EQ(o.code, 6) << o.err;
  EXPECT_NE(o.err.find("timed out after 2s waiting for job.batch/trainer"), std::string::npos)
      << o.err;

  // The test plays the Job controller: the Job fails while wmap waits for it to complete.
  std::thread controller([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    cluster->MustKubectl(
        {"patch", "job", "trainer", "-n", ns, "--subresource=status", "--type=merge", "-p",
         R"({"status":{"startTime":"2030-01-01T00:00:00Z","failed":1,"conditions":[)"
         R"({"type":"FailureTarget","status":"True","reason":"BackoffLimitExceeded","message":"x","lastTransitionTime":"2030-01-01T00:00:00Z"},)"
         R"({"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"x","lastTransitionTime":"2030-01-01T00:00:00Z"}]}})"});
  });
  o = Live(*cluster, {"apply", "-f", job, "-n", ns, "--wait=Completed", "--timeout", "60s"});
  controller.join();
  EXPECT_EQ(o.code, 5) << o.err;
  EXPECT_NE(o.err.find("job.batch/trainer: Failed"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("failed before it was Completed"), std::string::npos) << o.err;

  // Waiting for Failed now returns at once.
  o = Live(*cluster, {"apply", "-f", job, "-n", ns, "--wait=failed"});
  EXPECT_EQ(o.code, 0) << o.err;
}

TEST(ApplyTest, DeleteWaitsForFinalizers) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("finalizer");
  cluster->MustKubectl({"create", "namespace", ns});
  cluster->MustKubectl({"create", "configmap", "held", "-n", ns});
  cluster->MustKubectl({"patch", "configmap", "held", "-n", ns, "--type=merge", "-p",
                        R"({"metadata":{"finalizers":["example.com/hold"]}})"});
  // A finalizer holds the object: --wait times out.
  Outcome o = Live(*cluster, {"delete", "configmap/held", "-n", ns, "--wait", "--timeout", "2s"});
  EXPECT_EQ(o.code, 6) << o.err;
  EXPECT_NE(o.err.find("timed out waiting for ConfigMap held to be gone"), std::string::npos)
      << o.err;
  // The test plays the controller that owns the finalizer: the wait ends once it lets go.
  std::thread controller([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    cluster->MustKubectl({"patch", "configmap", "held", "-n", ns, "--type=merge", "-p",
                          R"({"metadata":{"finalizers":null}})"});
  });
  o = Live(*cluster, {"delete", "configmap/held", "-n", ns, "--wait", "--timeout", "60s"});
  controller.join();
  EXPECT_EQ(o.code, 0) << o.err;  // not 6: the removal ended the wait, not the timeout
  EXPECT_EQ(cluster->Kubectl({"get", "configmap", "held", "-n", ns}).code, 1);
}

TEST(ApplyTest, AliceNeedsTheSubmitterRole) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("alice-apply");
  cluster->MustKubectl({"create", "namespace", ns});
  const std::string file = ExampleWithoutNamespace(*cluster, "raycluster");
  Outcome o = Live(*cluster, {"apply", "-f", file, "-n", ns, "--context", "alice"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("user \"alice\" may not patch rayclusters.ray.io \"ray-batch-inference\" "
                       "in namespace " +
                       ns),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find(R"({apiGroups: ["ray.io"], resources: ["rayclusters"], verbs: ["patch"]})"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("wmap-submitter.yaml"), std::string::npos) << o.err;

  cluster->MustKubectl({"apply", "--validate=false", "-f",
                        std::string(WMAP_SOURCE_DIR) + "/deploy/rbac/wmap-submitter.yaml"});
  cluster->MustKubectl({"create", "rolebinding", "wmap-submitter-alice",
                        "--clusterrole=wmap-submitter", "--user=alice", "-n", ns});
  for (int i = 0; i < 50; ++i) {  // the authorizer sees the binding within moments
    o = Live(*cluster, {"apply", "-f", file, "-n", ns, "--context", "alice"});
    if (o.code == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "raycluster.ray.io/ray-batch-inference serverside-applied\n");
}

TEST(ApplyTest, UsageErrors) {
  Outcome o = Wmap({"apply"}, {});
  EXPECT_EQ(o.code, 2);
  o = Wmap({"apply", "-f", "examples/raycluster.yaml", "--dry-run=maybe"}, {});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("invalid --dry-run \"maybe\""), std::string::npos) << o.err;
  o = Wmap({"apply", "-f", "examples/raycluster.yaml", "--wait=Sleeping"}, {});
  EXPECT_EQ(o.code, 2);
  o = Wmap({"apply", "-f", "examples/raycluster.yaml", "--gang-for", "nope"}, {});
  EXPECT_EQ(o.code, 2);
  o = Wmap({"apply", "-f", "examples/raycluster.yaml", "-n", "elsewhere", "--dry-run=client"}, {});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("is not the namespace \"elsewhere\" of -n"), std::string::npos) << o.err;
  o = Wmap({"delete", "--cascade", "sideways", "jobset/x"}, {});
  EXPECT_EQ(o.code, 2);
}

}  // namespace
}  // namespace wmap::live
