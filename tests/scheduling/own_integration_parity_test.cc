// The built-in catalog's gangs against the objects the scheduler's own integration makes for
// the same workload: Volcano's job controller (the PodGroup of a Volcano Job: minMember
// spec.minAvailable, else the tasks' minima; minTaskMember per task) and Kueue's job framework
// (a pod set's minCount only with partial admission: the batch/v1 Job annotation
// kueue.x-k8s.io/job-min-parallelism; every other integration gives counts only).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "scheduling_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
#include "wmap/scheduling.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

using test_support::CatalogDefinition;
using test_support::ExpectValid;
using test_support::ReadFile;

Value Yaml(const std::string& text) {
  Result<Value> v = yaml::Parse(text);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().ToString());
  return v.ok() ? *v : Value();
}

// The objects `scheduler` gets for the workload, each checked against its project's schema.
Result<SchedulerObjects> Emit(Scheduler scheduler, const std::string& stem,
                              const std::string& workload_yaml) {
  const Definition d = CatalogDefinition(stem);
  const Value object = Yaml(workload_yaml);
  Workload w(d, object);
  Result<GangPlans> plans = PlanGangs(w);
  if (!plans.ok()) return plans.error();
  // Kueue's own pod sets for the kind are compared through the prebuilt form, which holds them.
  SchedulingOptions options;
  options.kueue_prebuilt = true;
  Result<SchedulerObjects> out = BuildSchedulerObjects(scheduler, w, *plans, options);
  if (out.ok()) {
    for (const Value& o : out->objects) ExpectValid(o);
  }
  return out;
}

Value OnlySpec(const Result<SchedulerObjects>& out) {
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message);
  if (!out.ok() || out->objects.size() != 1) {
    ADD_FAILURE() << "want one object";
    return Value();
  }
  return *out->objects[0].find("spec");
}

void ExpectSpec(const Value& got, const std::string& want_yaml) {
  const Value want = Yaml(want_yaml);
  EXPECT_EQ(got, want) << "got:\n" << json::ToString(got) << "\nwant:\n" << json::ToString(want);
}

constexpr const char* kVolcanoJob = "batch-volcano-sh-job-v1alpha1";

TEST(VolcanoJobParity, MinMemberIsSpecMinAvailable) {
  WMAP_NEEDS_SHARED("schemas");
  Result<SchedulerObjects> out = Emit(Scheduler::kVolcano, kVolcanoJob, R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: train, namespace: ml, uid: 4c1d-vj}
spec:
  minAvailable: 3
  queue: research
  priorityClassName: high
  tasks:
    - name: worker
      replicas: 6
      template: {spec: {containers: [{name: w, image: x, resources: {requests: {cpu: "2"}}}]}}
)");
  // Volcano: minMember = spec.minAvailable; minTaskMember = the task's replicas (no task
  // minAvailable); the Job's queue and priority class.
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(json::ToCompactString(*out->objects[0].find("metadata")->find("name")),
            "\"pg-4c1d-vj-job\"");
  ExpectSpec(OnlySpec(out), R"(
minMember: 3
minTaskMember: {worker: 6}
queue: research
priorityClassName: high
minResources: {cpu: "6"}
)");
}

TEST(VolcanoJobParity, WithoutMinAvailableTheTasksMinimaAddUp) {
  WMAP_NEEDS_SHARED("schemas");
  // Volcano's webhook writes minAvailable = Σ (task minAvailable, else replicas) = 1 + 2.
  ExpectSpec(OnlySpec(Emit(Scheduler::kVolcano, kVolcanoJob, R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: eval, namespace: ml, uid: 9e2a-vj}
spec:
  tasks:
    - name: ps
      replicas: 1
      template: {spec: {containers: [{name: ps, image: x}]}}
    - replicas: 4
      minAvailable: 2
      template: {spec: {containers: [{name: w, image: x}]}}
)")),
             R"(
minMember: 3
minTaskMember: {ps: 1, default1: 2}
)");
}

TEST(KueueParity, BatchJobMinCountOnlyWithPartialAdmission) {
  WMAP_NEEDS_SHARED("schemas");
  const std::string job = R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: sample
  namespace: default
  uid: 71f0-job
  labels: {kueue.x-k8s.io/queue-name: user-queue}
  ANNOTATIONS
spec:
  parallelism: 20
  completions: 20
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}
)";
  auto with = [&](const std::string& annotations) {
    std::string text = job;
    text.replace(text.find("ANNOTATIONS"), 11, annotations);
    return text;
  };
  // Kueue's batch/job integration: one pod set, count = min(parallelism, completions), minCount
  // from kueue.x-k8s.io/job-min-parallelism (Kueue names the pod set "main", wmap after the
  // component).
  Value partial = OnlySpec(Emit(Scheduler::kKueue, "batch-job-v1",
                                with("annotations: {kueue.x-k8s.io/job-min-parallelism: \"5\"}")));
  const Value& set = partial.find("podSets")->items()[0];
  EXPECT_EQ(set.find("count")->as_int(), 20);
  ASSERT_NE(set.find("minCount"), nullptr);
  EXPECT_EQ(set.find("minCount")->as_int(), 5);

  // Without the annotation the pod set has a count only (all 20 pods or none), also when the
  // Job says how many pods KAI's gang needs.
  for (const std::string& annotations :
       {std::string("annotations: {}"),
        std::string("annotations: {kai.scheduler/batch-min-member: \"4\"}")}) {
    Value whole = OnlySpec(Emit(Scheduler::kKueue, "batch-job-v1", with(annotations)));
    const Value& s = whole.find("podSets")->items()[0];
    EXPECT_EQ(s.find("count")->as_int(), 20) << annotations;
    EXPECT_EQ(s.find("minCount"), nullptr) << annotations;
  }

  // An annotation Kueue's webhook rejects is an error here too.
  Result<SchedulerObjects> bad =
      Emit(Scheduler::kKueue, "batch-job-v1",
           with("annotations: {kueue.x-k8s.io/job-min-parallelism: NaN}"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("partialAdmission"), std::string::npos) << bad.error().message;
  Result<SchedulerObjects> too_many =
      Emit(Scheduler::kKueue, "batch-job-v1",
           with("annotations: {kueue.x-k8s.io/job-min-parallelism: \"21\"}"));
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().message,
            "gang pg-sample-71f0-job: partial admission of 21 pods is more than the 20 of pod set "
            "job");
}

TEST(KueueParity, StatefulSetAndLeaderWorkerSetHaveCountsOnly) {
  WMAP_NEEDS_SHARED("schemas");
  // Kueue's StatefulSet integration: one pod group of replicas pods, no minCount.
  Value sts = OnlySpec(Emit(Scheduler::kKueue, "apps-statefulset-v1", R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default, uid: 5d2e-sts, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  replicas: 3
  template: {spec: {containers: [{name: c, image: x}]}}
)"));
  ASSERT_EQ(sts.find("podSets")->size(), 1u);
  EXPECT_EQ(sts.find("podSets")->items()[0].find("count")->as_int(), 3);
  EXPECT_EQ(sts.find("podSets")->items()[0].find("minCount"), nullptr);

  // Kueue's LeaderWorkerSet integration: one Workload per group, pod sets leader (1) and
  // workers (size - 1), no minCount.
  Result<SchedulerObjects> lws =
      Emit(Scheduler::kKueue, "leaderworkerset-x-k8s-io-leaderworkerset-v1", R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: vllm, namespace: default, uid: 8a1b-lws, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 4
    workerTemplate: {spec: {containers: [{name: c, image: x}]}}
)");
  ASSERT_TRUE(lws.ok()) << lws.error().message;
  ASSERT_EQ(lws->objects.size(), 2u);
  for (const Value& o : lws->objects) {
    const Value& sets = *o.find("spec")->find("podSets");
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets.items()[0].find("count")->as_int(), 1);
    EXPECT_EQ(sets.items()[1].find("count")->as_int(), 3);
    for (const Value& s : sets.items()) EXPECT_EQ(s.find("minCount"), nullptr);
  }
}

}  // namespace
}  // namespace wmap
