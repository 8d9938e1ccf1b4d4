// `wmap suspend`, `wmap resume` and `wmap mutate --apply` on objects in a real kube-apiserver,
// and `wmap` run by the real kubectl as its plugin kubectl-wmap: what the server stores after each
// change (read back with kubectl), dry runs storing nothing, a type that cannot be suspended
// refused before any read, a stale read refused by the server rather than overwriting a newer
// change, and the verb a user without write rights is missing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli/live_write.h"
#include "live/live_harness.h"
#include "wmap/catalog.h"
#include "wmap/json.h"

namespace wmap::live {
namespace {

constexpr const char* kJobSet = "llama-finetune";

Value Get(const Cluster& c, const std::string& type, const std::string& name,
          const std::string& ns) {
  Result<Value> v = json::Parse(c.MustKubectl({"get", type, name, "-n", ns, "-o", "json"}));
  EXPECT_TRUE(v.ok());
  return v.ok() ? *v : Value();
}

// .spec.suspend of the JobSet as the server has it: "true", "false" or "" when absent.
std::string Suspended(const Cluster& c, const std::string& ns) {
  Value v = Get(c, "jobset", kJobSet, ns);
  const Value* spec = v.find("spec");
  const Value* s = spec != nullptr ? spec->find("suspend") : nullptr;
  if (s == nullptr || !s->is_bool()) return "";
  return s->as_bool() ? "true" : "false";
}

// The schedulerName of every pod template of the JobSet (one per replicatedJob).
std::vector<std::string> SchedulerNames(const Value& jobset) {
  std::vector<std::string> names;
  for (const Value& job : jobset.find("spec")->find("replicatedJobs")->items()) {
    names.push_back(Str(job, {"template", "spec", "template", "spec", "schedulerName"}));
  }
  return names;
}

TEST(LiveWritesTest, SuspendAndResumeChangeTheServersObject) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("suspend");
  CreateExample(*cluster, "jobset-training", ns);
  ASSERT_NE(Suspended(*cluster, ns), "true");

  Outcome o = Live(*cluster, {"suspend", "jobset/llama-finetune", "-n", ns});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune suspended\n");
  EXPECT_EQ(Suspended(*cluster, ns), "true");
  // Again: nothing to change, and the output says so.
  o = Live(*cluster, {"suspend", "jobset/llama-finetune", "-n", ns});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune suspended (no change)\n");

  // A server dry run answers with the resumed object and stores nothing.
  const std::string version =
      Str(Get(*cluster, "jobset", kJobSet, ns), {"metadata", "resourceVersion"});
  o = Live(*cluster, {"resume", "jobsets", kJobSet, "-n", ns, "--dry-run=server", "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  Result<Value> answered = json::Parse(o.out);
  ASSERT_TRUE(answered.ok()) << o.out;
  EXPECT_FALSE(answered->find("spec")->find("suspend")->as_bool());
  EXPECT_EQ(Suspended(*cluster, ns), "true");
  Value stored = Get(*cluster, "jobset", kJobSet, ns);
  EXPECT_EQ(Str(stored, {"metadata", "resourceVersion"}), version);
  o = Live(*cluster, {"resume", "jobset/llama-finetune", "-n", ns, "--dry-run=server"});
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune resumed (server dry run)\n") << o.err;

  // Resumed, by another field manager, printed as the server stored it.
  o = Live(*cluster, {"resume", "jobset/llama-finetune", "-n", ns, "--field-manager", "ops-tool",
                      "-o", "yaml"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("kind: JobSet"), std::string::npos) << o.out;
  EXPECT_EQ(Suspended(*cluster, ns), "false");
  bool by_tool = false;
  std::string show = cluster->MustKubectl(
      {"get", "jobset", kJobSet, "-n", ns, "--show-managed-fields", "-o", "json"});
  Result<Value> with_fields = json::Parse(show);
  ASSERT_TRUE(with_fields.ok());
  for (const Value& m : with_fields->find("metadata")->find("managedFields")->items()) {
    by_tool = by_tool || (Str(m, {"manager"}) == "ops-tool" && Str(m, {"operation"}) == "Update");
  }
  EXPECT_TRUE(by_tool) << show;
}

TEST(LiveWritesTest, TypeWithoutSuspendActionsIsRefusedBeforeAnyRead) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("nosuspend");
  cluster->MustKubectl({"create", "namespace", ns});
  // No such Deployment exists: the error comes from the definition, not from a read.
  Outcome o = Live(*cluster, {"suspend", "deployment/web", "-n", ns});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err,
            "wmap suspend: apps/v1 Deployment cannot be suspended: definition apps-deployment-v1 "
            "has no suspendDefinition\n"
            "hint: add a suspendDefinition with suspendActions and resumeActions to the root "
            "component of the definition and pass it with --definition FILE\n");
  o = Live(*cluster, {"resume", "deployments", "web", "-n", ns, "-o", "json"});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.out.find("\"error\": \"not_supported\""), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("cannot be resumed"), std::string::npos) << o.out;

  // A workload that is not there, and a type the server does not serve.
  o = Live(*cluster, {"suspend", "jobset/nothing-here", "-n", ns});
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_NE(o.err.find("JobSet \"nothing-here\" not found in namespace " + ns), std::string::npos)
      << o.err;
  o = Live(*cluster, {"suspend", "widgets/x", "-n", ns});
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_NE(o.err.find("the server doesn't have a resource type \"widgets\""), std::string::npos)
      << o.err;
}

TEST(LiveWritesTest, MutateShowsThenAppliesToEveryPodTemplate) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("mutate");
  CreateExample(*cluster, "jobset-training", ns);
  const Value before = Get(*cluster, "jobset", kJobSet, ns);

  // Without --apply: what would change, as the offline command prints it for the same object,
  // and nothing written.
  std::string dump = cluster->work() + "/mutate-dump.json";
  {
    std::string text = json::ToCompactString(before);
    FILE* f = std::fopen(dump.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  for (const char* format : {"patch", "json-patch", "yaml"}) {
    Outcome live = Live(*cluster, {"mutate", "jobset/llama-finetune", "-n", ns, "--scheduler-name",
                                   "kai-scheduler", "-o", format});
    Outcome offline =
        Wmap({"mutate", "-f", dump, "--scheduler-name", "kai-scheduler", "-o", format}, {});
    ASSERT_EQ(live.code, 0) << live.err;
    ASSERT_EQ(offline.code, 0) << offline.err;
    EXPECT_EQ(live.out, offline.out) << format;
  }
  EXPECT_EQ(Str(Get(*cluster, "jobset", kJobSet, ns), {"metadata", "resourceVersion"}),
            Str(before, {"metadata", "resourceVersion"}));

  // --dry-run=server: checked by the server, stored nowhere.
  Outcome o = Live(*cluster, {"mutate", "jobset/llama-finetune", "-n", ns, "--scheduler-name",
                              "kai-scheduler", "--apply", "--dry-run=server", "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  Result<Value> answered = json::Parse(o.out);
  ASSERT_TRUE(answered.ok()) << o.out;
  EXPECT_EQ(SchedulerNames(*answered), std::vector<std::string>(2, "kai-scheduler"));
  EXPECT_EQ(SchedulerNames(Get(*cluster, "jobset", kJobSet, ns)), SchedulerNames(before));

  o = Live(*cluster, {"mutate", "jobset/llama-finetune", "-n", ns, "--scheduler-name",
                      "kai-scheduler", "--label", "team=ml", "--apply"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune patched\n");
  Value after = Get(*cluster, "jobset", kJobSet, ns);
  const std::vector<std::string> names = SchedulerNames(after);
  ASSERT_EQ(names.size(), 2u);
  for (const std::string& n : names) EXPECT_EQ(n, "kai-scheduler");
  for (const Value& job : after.find("spec")->find("replicatedJobs")->items()) {
    EXPECT_EQ(Str(job, {"template", "spec", "template", "metadata", "labels", "team"}), "ml");
  }
  // Everything else as it was: the containers of each template, the replicas.
  Value expected = before.find("spec")->find("replicatedJobs")->items()[1];
  Value got = after.find("spec")->find("replicatedJobs")->items()[1];
  EXPECT_EQ(
      json::ToCompactString(
          *got.find("template")->find("spec")->find("template")->find("spec")->find("containers")),
      json::ToCompactString(*expected.find("template")
                                 ->find("spec")
                                 ->find("template")
                                 ->find("spec")
                                 ->find("containers")));
  EXPECT_EQ(Str(got, {"name"}), Str(expected, {"name"}));
}

// The guard of every live write: a patch made from an object that has changed since it was read
// is refused (409), and the newer change stays.
TEST(LiveWritesTest, StaleReadIsAConflictNotALostUpdate) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("stale");
  CreateExample(*cluster, "jobset-training", ns);
  kube::Client* client = AdminClient(*cluster);
  Result<kube::Discovery> discovery = kube::Discovery::Fetch(client);
  ASSERT_TRUE(discovery.ok());
  const kube::ApiResource* jobsets = discovery->Resolve("jobsets");
  ASSERT_NE(jobsets, nullptr);
  Result<Value> read = kube::GetObject(client, *jobsets, ns, kJobSet);
  ASSERT_TRUE(read.ok());
  cli::LiveWorkload stale;
  stale.resource = jobsets;
  stale.namespace_name = ns;
  stale.object.value = *read;

  // Someone else changes the object after the read.
  cluster->MustKubectl({"label", "jobset", kJobSet, "-n", ns, "owner=someone-else"});
  Value changed = *read;
  changed.find_mutable("spec")->set("suspend", Value::Bool(true));
  EXPECT_EQ(Str(cli::GuardedMergePatch(*read, changed), {"metadata", "resourceVersion"}),
            Str(*read, {"metadata", "resourceVersion"}));
  Result<Value> written = cli::WriteBack(client, stale, changed, kube::WriteOptions{});
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::kConflict);
  EXPECT_NE(written.error().message.find("was changed by someone else (409 Conflict)"),
            std::string::npos)
      << written.error().message;
  EXPECT_NE(written.error().hint.find("run the command again"), std::string::npos);
  Value now = Get(*cluster, "jobset", kJobSet, ns);
  EXPECT_EQ(Str(now, {"metadata", "labels", "owner"}), "someone-else");
  EXPECT_NE(Suspended(*cluster, ns), "true");

  // Read anew, the same change goes through and keeps the other one.
  Outcome o = Live(*cluster, {"suspend", "jobset/llama-finetune", "-n", ns});
  EXPECT_EQ(o.code, 0) << o.err;
  now = Get(*cluster, "jobset", kJobSet, ns);
  EXPECT_EQ(Str(now, {"metadata", "labels", "owner"}), "someone-else");
  EXPECT_EQ(Suspended(*cluster, ns), "true");
}

TEST(LiveWritesTest, AliceMayReadButNotPatch) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("alice-suspend");
  CreateExample(*cluster, "jobset-training", ns);
  cluster->MustKubectl({"apply", "--validate=false", "-f",
                        std::string(WMAP_SOURCE_DIR) + "/deploy/rbac/wmap-reader.yaml"});
  cluster->MustKubectl({"create", "rolebinding", "wmap-reader-alice", "--clusterrole=wmap-reader",
                        "--user=alice", "-n", ns});
  Outcome o;
  for (int i = 0; i < 50; ++i) {  // the authorizer sees the binding within moments
    o = Live(*cluster, {"suspend", "jobset/llama-finetune", "-n", ns, "--context", "alice"});
    if (o.err.find("may not get") == std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.err.find("user \"alice\" may not patch jobsets.jobset.x-k8s.io \"llama-finetune\" "
                       "in namespace " +
                       ns + " (403 Forbidden)"),
            std::string::npos)
      << o.err;
  EXPECT_NE(
      o.err.find(R"({apiGroups: ["jobset.x-k8s.io"], resources: ["jobsets"], verbs: ["patch"]})"),
      std::string::npos)
      << o.err;
  EXPECT_NE(Suspended(*cluster, ns), "true");
  o = Live(*cluster, {"mutate", "jobset/llama-finetune", "-n", ns, "--context", "alice",
                      "--scheduler-name", "kai-scheduler", "--apply"});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.err.find("may not patch"), std::string::npos) << o.err;
  // Reading is hers: without --apply the change is shown.
  o = Live(*cluster, {"mutate", "jobset/llama-finetune", "-n", ns, "--context", "alice",
                      "--scheduler-name", "kai-scheduler", "-o", "patch"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("kai-scheduler"), std::string::npos) << o.out;
}

// The real kubectl finds kubectl-wmap on PATH and runs it with the arguments after the plugin's
// name, --kubeconfig and -n included.
TEST(LiveWritesTest, KubectlRunsWmapAsItsPlugin) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("plugin");
  CreateExample(*cluster, "jobset-training", ns);
  const std::string bin = cluster->work() + "/plugin-bin";
  std::filesystem::create_directories(bin);
  std::filesystem::remove(bin + "/kubectl-wmap");
  std::filesystem::create_symlink(WMAP_BINARY, bin + "/kubectl-wmap");

  auto kubectl = [&](const std::string& args) {
    const std::string out = cluster->work() + "/plugin.out", err = cluster->work() + "/plugin.err";
    // No KUBECONFIG: the plugin gets the file from --kubeconfig alone.
    std::string cmd = "env -u KUBECONFIG HOME=" + Quote(cluster->work()) +
                      " PATH=" + Quote(bin + ":/usr/bin:/bin") + " " +
                      Quote(cluster->env("WMAP_CLUSTER_BIN") + "/kubectl") + " " + args + " >" +
                      Quote(out) + " 2>" + Quote(err);
    int status = std::system(cmd.c_str());
    return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, ReadText(out), ReadText(err)};
  };
  Outcome o = kubectl("wmap get jobsets -n " + Quote(ns) + " --kubeconfig " +
                      Quote(cluster->kubeconfig()) + " -o name");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune\n") << o.err;
  o = kubectl("wmap get jobsets -n " + Quote(ns) + " --kubeconfig " + Quote(cluster->kubeconfig()));
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("llama-finetune"), std::string::npos) << o.out;

  o = kubectl("wmap --help");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(o.out.starts_with("kubectl wmap - ")) << o.out;
  o = kubectl("wmap suspend jobset/llama-finetune -n " + Quote(ns) + " --kubeconfig " +
              Quote(cluster->kubeconfig()));
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "jobset.jobset.x-k8s.io/llama-finetune suspended\n");
  EXPECT_EQ(Suspended(*cluster, ns), "true");
  o = kubectl("wmap get --bogus");
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("kubectl wmap get: unknown flag \"--bogus\"\n"
                       "hint: run 'kubectl wmap get --help' for usage"),
            std::string::npos)
      << o.err;
  o = kubectl("plugin list");
  EXPECT_NE(o.out.find(bin + "/kubectl-wmap"), std::string::npos) << o.out << o.err;
}

}  // namespace
}  // namespace wmap::live
