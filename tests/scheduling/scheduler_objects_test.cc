// Scheduler objects from a gang plan shaped like KAI Scheduler's JobSet grouping (one gang, a
// parent subgroup per replicated job, a leaf per job index), for every scheduler; every object
// is validated against its project's real schema.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "scheduling_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/scheduling.h"
#include "wmap/schema.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

using test_support::ExpectValid;
using test_support::ReadFile;

Value Yaml(std::string_view text) {
  Result<Value> v = yaml::Parse(text);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().ToString());
  return v.ok() ? *v : Value();
}

// Upstream's JobSet definition. Without the shared data the tests skip (WMAP_NEEDS_SHARED), but
// the fixture is built first, so it falls back to the catalog's copy to have a definition at all.
Definition JobSetDefinition() {
  const char* kFile = "jobset-x-k8s-io-jobset-v1alpha2.yaml";
  fs::path path = ::wmap::test_files::SharedDir() / "conformance/upstream/catalog" / kFile;
  if (!fs::exists(path)) path = fs::path(WMAP_SOURCE_DIR) / "catalog/karta" / kFile;
  LoadResult r = LoadDefinitions(ReadFile(path), path.string());
  EXPECT_TRUE(r.ok());
  return r.definitions.at(0);
}

constexpr std::string_view kJobSet = R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
  namespace: ml
  uid: 0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f
  labels: {kueue.x-k8s.io/queue-name: team-a}
spec:
  replicatedJobs:
    - name: driver
      replicas: 1
      template:
        spec:
          parallelism: 1
          template:
            spec:
              containers:
                - name: driver
                  image: ghcr.io/example/train:1.4
                  resources: {requests: {cpu: "2", memory: 4Gi}}
    - name: workers
      replicas: 2
      template:
        spec:
          parallelism: 4
          template:
            spec:
              containers:
                - name: worker
                  image: ghcr.io/example/train:1.4
                  resources:
                    requests: {cpu: "16", memory: 64Gi}
                    limits: {nvidia.com/gpu: "8"}
)";

SubGroupPlan Sub(std::string name, std::string parent, int32_t min_member, int32_t min_sub_group,
                 std::string instance, int32_t pods, const Value& pod_template) {
  SubGroupPlan s;
  s.name = std::move(name);
  s.parent = std::move(parent);
  s.min_member = min_member;
  s.min_sub_group = min_sub_group;
  s.component = 1;
  s.instance_id = std::move(instance);
  s.pods = pods;
  s.pod_template = pod_template;
  return s;
}

// The plan KAI's JobSet plugin makes for kJobSet (ecosystem section 2.3).
GangPlans JobSetPlan(const Value& object) {
  const Value& jobs = *object.find("spec")->find("replicatedJobs");
  const Value driver_template = *jobs.items()[0].find("template")->find("spec")->find("template");
  const Value worker_template = *jobs.items()[1].find("template")->find("spec")->find("template");
  GangPlan g;
  g.name = "pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f";
  g.definition_gang = "jobset";
  g.min_member = 0;
  g.min_sub_group = 2;
  g.pods = 9;
  g.priority_class_name = "training";
  g.topology = Topology{.topology_name = "gpu-topology",
                        .preferred_topology_level = "kubernetes.io/hostname",
                        .required_topology_level = ""};
  g.sub_groups = {Sub("driver", "", 0, 1, "driver", 1, Value()),
                  Sub("driver-replica-0", "driver", 1, 0, "driver", 1, driver_template),
                  Sub("workers", "", 0, 2, "workers", 8, Value()),
                  Sub("workers-replica-0", "workers", 4, 0, "workers", 4, worker_template),
                  Sub("workers-replica-1", "workers", 4, 0, "workers", 4, worker_template)};
  g.sub_groups[4].topology = Topology{.topology_name = "gpu-topology",
                                      .preferred_topology_level = "",
                                      .required_topology_level = "nvidia.com/gpu-clique"};
  g.min_resources = {{"cpu", 66000}, {"memory", 132LL << 30}, {"nvidia.com/gpu", 64}};
  g.resources = g.min_resources;
  GangPlans plans;
  plans.gangs.push_back(g);
  plans.pods = {{"train-driver-0-0-abcde", "u1", g.name, "driver-replica-0", ""},
                {"train-workers-1-2-fghij", "u2", g.name, "workers-replica-1", ""},
                {"stray", "u3", "", "", "no component matches the pod"}};
  return plans;
}

class SchedulerObjectsTest : public testing::Test {
 protected:
  SchedulerObjectsTest()
      : object_(Yaml(kJobSet)),
        workload_(JobSetDefinition(), object_),
        plans_(JobSetPlan(object_)) {}

  // Kueue integrates JobSets itself; the prebuilt form is what a cluster without that
  // integration needs.
  static SchedulingOptions Prebuilt() {
    SchedulingOptions options;
    options.kueue_prebuilt = true;
    return options;
  }

  SchedulerObjects Build(Scheduler scheduler, SchedulingOptions options = {}) {
    Result<SchedulerObjects> r = BuildSchedulerObjects(scheduler, workload_, plans_, options);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    if (!r.ok()) return {};
    for (const Value& o : r->objects) ExpectValid(o);
    return *r;
  }

  Value object_;
  Workload workload_;
  GangPlans plans_;
};

TEST_F(SchedulerObjectsTest, KaiPodGroupKeepsTheSubgroupTree) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulerObjects out = Build(Scheduler::kKai);
  ASSERT_EQ(out.objects.size(), 1u);
  const Value& pg = out.objects[0];
  EXPECT_EQ(json::ToCompactString(*pg.find("metadata")),
            R"({"name":"pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f","namespace":"ml",)"
            R"("ownerReferences":[{"apiVersion":"jobset.x-k8s.io/v1alpha2","blockOwnerDeletion":)"
            R"(true,"controller":true,"kind":"JobSet","name":"train","uid":)"
            R"("0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f"}]})");
  EXPECT_EQ(json::ToCompactString(*pg.find("spec")),
            R"({"minSubGroup":2,"priorityClassName":"training","subGroups":[)"
            R"({"minSubGroup":1,"name":"driver"},)"
            R"({"minMember":1,"name":"driver-replica-0","parent":"driver"},)"
            R"({"minSubGroup":2,"name":"workers"},)"
            R"({"minMember":4,"name":"workers-replica-0","parent":"workers"},)"
            R"({"minMember":4,"name":"workers-replica-1","parent":"workers",)"
            R"("topologyConstraint":{"requiredTopologyLevel":"nvidia.com/gpu-clique",)"
            R"("topology":"gpu-topology"}}],)"
            R"("topologyConstraint":{"preferredTopologyLevel":"kubernetes.io/hostname",)"
            R"("topology":"gpu-topology"}})");
  ASSERT_EQ(out.pod_patches.size(), 2u);  // the stray pod joins nothing
  EXPECT_EQ(json::ToCompactString(out.pod_patches[1]),
            R"({"metadata":{"annotations":{"kai.scheduler/skip-podgrouper":"true",)"
            R"("pod-group-name":"pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f"},)"
            R"("labels":{"kai.scheduler/subgroup-name":"workers-replica-1"},)"
            R"("name":"train-workers-1-2-fghij","namespace":"ml"}})");
  // No queue: the definition's gang gives none and the workload has no kai.scheduler/queue.
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("no queue"), std::string::npos) << out.warnings[0];
}

// KAI's admission rules (scheduler-rules.md, section 1) as checks on every catalog gang plan:
// the root never has minMember beside minSubGroup, a leaf has minMember only, a parent
// minSubGroup only, and every pod patch carries skip-podgrouper "true" beside pod-group-name.
TEST_F(SchedulerObjectsTest, KaiObjectsFollowTheWebhookRules) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulerObjects out = Build(Scheduler::kKai);
  for (const Value& pg : out.objects) {
    const Value& spec = *pg.find("spec");
    EXPECT_FALSE(spec.find("minMember") != nullptr && spec.find("minSubGroup") != nullptr)
        << json::ToString(spec);
    std::set<std::string> parents;
    if (const Value* subs = spec.find("subGroups")) {
      for (const Value& s : subs->items()) {
        if (const Value* p = s.find("parent")) parents.insert(std::string(p->as_string()));
      }
      for (const Value& s : subs->items()) {
        bool parent = parents.count(std::string(s.find("name")->as_string())) > 0;
        EXPECT_EQ(s.find("minMember") != nullptr, !parent) << json::ToString(s);
        EXPECT_EQ(s.find("minSubGroup") != nullptr, parent) << json::ToString(s);
      }
    }
  }
  ASSERT_FALSE(out.pod_patches.empty());
  for (const Value& patch : out.pod_patches) {
    const Value* annotations = patch.find("metadata")->find("annotations");
    ASSERT_NE(annotations, nullptr);
    EXPECT_NE(annotations->find("pod-group-name"), nullptr);
    const Value* skip = annotations->find("kai.scheduler/skip-podgrouper");
    ASSERT_NE(skip, nullptr);
    EXPECT_EQ(*skip, Value::String("true"));
  }
}

TEST_F(SchedulerObjectsTest, KaiRefusesAnUnknownPreemptibility) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  plans_.gangs[0].preemptibility = "sometimes";
  Result<SchedulerObjects> r = BuildSchedulerObjects(Scheduler::kKai, workload_, plans_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("\"sometimes\""), std::string::npos);
  plans_.gangs[0].preemptibility = "non-preemptible";
  SchedulerObjects out = Build(Scheduler::kKai);
  EXPECT_EQ(out.objects[0].find("spec")->find("preemptibility")->as_string(), "non-preemptible");
}

TEST_F(SchedulerObjectsTest, VolcanoHasASubGroupPolicyPerParent) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulingOptions options;
  options.volcano_tier_names = {{"kubernetes.io/hostname", "node"},
                                {"nvidia.com/gpu-clique", "nvlink"}};
  SchedulerObjects out = Build(Scheduler::kVolcano, options);
  ASSERT_EQ(out.objects.size(), 1u);
  // The gang needs both parents, and each needs all its replicas: every subgroup is required,
  // and minMember covers them. Topology levels become the tier names given for them.
  EXPECT_EQ(json::ToCompactString(*out.objects[0].find("spec")),
            R"({"minMember":9,"minResources":{"cpu":"66","memory":"132Gi",)"
            R"("nvidia.com/gpu":"64"},"networkTopology":{"highestTierName":"node",)"
            R"("mode":"soft"},"priorityClassName":"training","subGroupPolicy":[)"
            R"({"labelSelector":{"matchLabels":{"workloadmap.dev/subgroup-policy":"driver"}},)"
            R"("matchLabelKeys":["workloadmap.dev/subgroup"],"minSubGroups":1,"name":"driver",)"
            R"("subGroupSize":1},)"
            R"({"labelSelector":{"matchLabels":{"workloadmap.dev/subgroup-policy":"workers"}},)"
            R"("matchLabelKeys":["workloadmap.dev/subgroup"],"minSubGroups":2,"name":"workers",)"
            R"("networkTopology":{"highestTierName":"nvlink","mode":"hard"},"subGroupSize":4}]})");
  EXPECT_TRUE(out.warnings.empty());
  ASSERT_EQ(out.pod_patches.size(), 2u);
  EXPECT_EQ(json::ToCompactString(*out.pod_patches[1].find("metadata")),
            R"({"annotations":{)"
            R"("scheduling.k8s.io/group-name":"pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f",)"
            R"("volcano.sh/task-spec":"workers-replica-1"},"labels":{)"
            R"("workloadmap.dev/subgroup":"workers-replica-1",)"
            R"("workloadmap.dev/subgroup-policy":"workers"},"name":"train-workers-1-2-fghij",)"
            R"("namespace":"ml"})");
}

TEST_F(SchedulerObjectsTest, VolcanoTopologyNeedsAHyperNodeTierName) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  // A node label is not a tier name: without one the level is left out, and said so.
  SchedulerObjects out = Build(Scheduler::kVolcano);
  const Value& spec = *out.objects[0].find("spec");
  EXPECT_EQ(spec.find("networkTopology"), nullptr);
  for (const Value& policy : spec.find("subGroupPolicy")->items()) {
    EXPECT_EQ(policy.find("networkTopology"), nullptr);
  }
  ASSERT_EQ(out.warnings.size(), 2u);
  EXPECT_EQ(out.warnings[0],
            "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f policy workers: topology level "
            "nvidia.com/gpu-clique left out: Volcano's networkTopology names a HyperNode tier, "
            "not a node label (give its tier name with --volcano-tier "
            "nvidia.com/gpu-clique=TIER)");
}

TEST_F(SchedulerObjectsTest, VolcanoOptionalSubgroupsBindNothingAtTheGang) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  // One of the two workers replicas will do: Volcano cannot say "one of", so the workers'
  // policy requires none of its subgroups (each still needs its size), the driver's stays
  // required, and a warning says what is lost.
  plans_.gangs[0].sub_groups[2].min_sub_group = 1;
  SchedulerObjects out = Build(Scheduler::kVolcano);
  const Value& spec = *out.objects[0].find("spec");
  const Value& policies = *spec.find("subGroupPolicy");
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies.items()[0].find("minSubGroups")->as_int(), 1);
  EXPECT_EQ(policies.items()[1].find("minSubGroups")->as_int(), 0);
  EXPECT_EQ(policies.items()[1].find("subGroupSize")->as_int(), 4);
  EXPECT_NE(std::find(out.warnings.begin(), out.warnings.end(),
                      "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f: it can start without "
                      "some of its subgroups, and Volcano cannot say which; only minMember and "
                      "the size of each subgroup bind"),
            out.warnings.end());
}

TEST_F(SchedulerObjectsTest, VolcanoLegacyTasksAreBoundByMinMember) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulingOptions legacy;
  legacy.volcano_min_task_member = true;
  // Volcano skips every per-task minimum when minMember is below their sum: minMember is
  // raised to it, and only required leaves are tasks.
  plans_.gangs[0].min_member = 2;
  plans_.gangs[0].sub_groups[2].min_sub_group = 1;
  SchedulerObjects out = Build(Scheduler::kVolcano, legacy);
  const Value& spec = *out.objects[0].find("spec");
  EXPECT_EQ(json::ToCompactString(*spec.find("minTaskMember")), R"({"driver-replica-0":1})");
  EXPECT_EQ(spec.find("minMember")->as_int(), 2);
  EXPECT_EQ(spec.find("subGroupPolicy"), nullptr);
  plans_.gangs[0].sub_groups[2].min_sub_group = 2;
  out = Build(Scheduler::kVolcano, legacy);
  const Value& all = *out.objects[0].find("spec");
  EXPECT_EQ(json::ToCompactString(*all.find("minTaskMember")),
            R"({"driver-replica-0":1,"workers-replica-0":4,"workers-replica-1":4})");
  EXPECT_EQ(all.find("minMember")->as_int(), 9);
  // The workers' topology has no place in minTaskMember.
  EXPECT_NE(std::find(out.warnings.begin(), out.warnings.end(),
                      "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f subgroup "
                      "workers-replica-1: topology left out (minTaskMember has none; "
                      "subGroupPolicy, the default, has)"),
            out.warnings.end());
}

TEST_F(SchedulerObjectsTest, CoschedulingKeepsTheTotalAndSaysSo) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulerObjects out = Build(Scheduler::kCoscheduling);
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(
      json::ToCompactString(*out.objects[0].find("spec")),
      R"({"minMember":9,"minResources":{"cpu":"66","memory":"132Gi","nvidia.com/gpu":"64"}})");
  EXPECT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(json::ToCompactString(*out.pod_patches[0].find("metadata")->find("labels")),
            R"({"scheduling.x-k8s.io/pod-group":"pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f"})");
}

TEST_F(SchedulerObjectsTest, KueueHasAPodSetPerComponentInstance) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulerObjects out = Build(Scheduler::kKueue, Prebuilt());
  ASSERT_EQ(out.objects.size(), 1u);
  const Value& spec = *out.objects[0].find("spec");
  EXPECT_EQ(spec.find("queueName")->as_string(), "team-a");  // from the workload's label
  const Value& sets = *spec.find("podSets");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets.items()[0].find("name")->as_string(), "driver");
  EXPECT_EQ(sets.items()[0].find("count")->as_int(), 1);
  EXPECT_EQ(sets.items()[0].find("minCount"), nullptr);
  EXPECT_EQ(sets.items()[1].find("name")->as_string(), "workers");
  EXPECT_EQ(sets.items()[1].find("count")->as_int(), 8);
  EXPECT_EQ(json::ToCompactString(*sets.items()[1].find("template")->find("spec")),
            R"({"containers":[{"image":"ghcr.io/example/train:1.4","name":"worker",)"
            R"("resources":{"limits":{"nvidia.com/gpu":"8"},"requests":{"cpu":"16",)"
            R"("memory":"64Gi"}}}]})");
  // Pods name the prebuilt Workload; Kueue reads the group name from the annotation first.
  EXPECT_EQ(json::ToCompactString(out.pod_patches[0]),
            R"({"metadata":{"annotations":{"kueue.x-k8s.io/pod-group-name":)"
            R"("pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f",)"
            R"("kueue.x-k8s.io/pod-group-total-count":"9",)"
            R"("kueue.x-k8s.io/prebuilt-workload-name":)"
            R"("pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f"},)"
            R"("labels":{"kueue.x-k8s.io/queue-name":"team-a"},)"
            R"("name":"train-driver-0-0-abcde","namespace":"ml"}})");
  // Kueue ignores a prebuilt Workload with a foreign controller: the owner is not one.
  const Value& owner = out.objects[0].find("metadata")->find("ownerReferences")->items()[0];
  EXPECT_EQ(*owner.find("controller"), Value::Bool(false));
  EXPECT_EQ(*owner.find("name"), Value::String("train"));
}

TEST_F(SchedulerObjectsTest, KueueRefusesTooManyPodSets) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulingOptions options = Prebuilt();
  EXPECT_EQ(options.max_kueue_pod_sets, 18u);  // the Workload CRD's limit
  options.max_kueue_pod_sets = 1;
  Result<SchedulerObjects> r = BuildSchedulerObjects(Scheduler::kKueue, workload_, plans_, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f needs 2 pod sets; a Kueue "
            "Workload holds at most 1");
  EXPECT_FALSE(r.error().hint.empty());
}

TEST_F(SchedulerObjectsTest, KueueMinCountOnlyFromPartialAdmission) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  // A gang that can run smaller is still admitted whole: Kueue's integrations give counts only.
  plans_.gangs[0].sub_groups[4].min_member = 0;  // the second worker job is optional
  SchedulerObjects out = Build(Scheduler::kKueue, Prebuilt());
  for (const Value& set : out.objects[0].find("spec")->find("podSets")->items()) {
    EXPECT_EQ(set.find("minCount"), nullptr) << json::ToCompactString(set);
  }
  // Partial admission needs one pod set to apply to.
  plans_.gangs[0].partial_admission = 3;
  out = Build(Scheduler::kKueue, Prebuilt());
  for (const Value& set : out.objects[0].find("spec")->find("podSets")->items()) {
    EXPECT_EQ(set.find("minCount"), nullptr) << json::ToCompactString(set);
  }
  ASSERT_EQ(out.warnings.size(), 2u);
  EXPECT_EQ(out.warnings[0],
            "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f has 2 pod sets and its partial "
            "admission does not say which one may run smaller; no minCount");
  EXPECT_EQ(out.warnings[1],
            "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f: priority class training left out "
            "(a Workload's priorityClassRef needs the class's value in spec.priority, which only "
            "the cluster knows)");
  plans_.gangs[0].sub_groups.clear();
  plans_.gangs[0].sub_groups.push_back(JobSetPlan(object_).gangs[0].sub_groups[3]);
  plans_.gangs[0].sub_groups[0].parent.clear();
  out = Build(Scheduler::kKueue, Prebuilt());
  const Value& one = *out.objects[0].find("spec")->find("podSets");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one.items()[0].find("count")->as_int(), 4);
  EXPECT_EQ(one.items()[0].find("minCount")->as_int(), 3);
  plans_.gangs[0].partial_admission = 0;
  Result<SchedulerObjects> zero =
      BuildSchedulerObjects(Scheduler::kKueue, workload_, plans_, Prebuilt());
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message,
            "gang pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f: partial admission of 0 pods is "
            "less than 1");
}

TEST_F(SchedulerObjectsTest, KueueWithoutSubgroupsReadsTheComponents) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  plans_.gangs[0].sub_groups.clear();
  plans_.gangs[0].min_member = 9;
  SchedulerObjects out = Build(Scheduler::kKueue, Prebuilt());
  const Value& sets = *out.objects[0].find("spec")->find("podSets");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets.items()[0].find("name")->as_string(), "driver");
  EXPECT_EQ(sets.items()[1].find("count")->as_int(), 8);
}

TEST_F(SchedulerObjectsTest, WorkloadApiHasATemplatePerDefinitionGangAndAPodGroupPerGang) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulerObjects out = Build(Scheduler::kWorkloadApi);
  ASSERT_EQ(out.objects.size(), 2u);
  for (const Value& o : out.objects) {
    EXPECT_EQ(*o.find("apiVersion"), Value::String("scheduling.k8s.io/v1beta1"));
  }
  EXPECT_EQ(json::ToCompactString(*out.objects[0].find("spec")),
            R"({"controllerRef":{"apiGroup":"jobset.x-k8s.io","kind":"JobSet","name":"train"},)"
            R"("podGroupTemplates":[{"name":"jobset","priorityClassName":"training",)"
            R"("schedulingPolicy":{"gang":{"minCount":9}}}]})");
  EXPECT_EQ(*out.objects[1].find("kind"), Value::String("PodGroup"));
  EXPECT_EQ(json::ToCompactString(*out.objects[1].find("spec")),
            R"({"priorityClassName":"training","schedulingPolicy":{"gang":{"minCount":9}},)"
            R"("workloadRef":{"templateName":"jobset","workloadName":"train"}})");
  // The immutable pod field cannot be patched: no pod patches, and the losses are stated.
  EXPECT_TRUE(out.pod_patches.empty());
  std::string warnings;
  for (const std::string& w : out.warnings) warnings += w + "\n";
  EXPECT_NE(warnings.find("subgroups are flattened"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("topology left out"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("existing pods cannot join a PodGroup"), std::string::npos) << warnings;
  // The pod templates name the PodGroup instead, before the pods exist.
  EXPECT_EQ(json::ToCompactString(out.workload_patch),
            R"([{"op":"add","path":"/spec/replicatedJobs/0/template/spec/template/spec/)"
            R"(schedulingGroup","value":{"podGroupName":)"
            R"("pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f"}},)"
            R"({"op":"add","path":"/spec/replicatedJobs/1/template/spec/template/spec/)"
            R"(schedulingGroup","value":{"podGroupName":)"
            R"("pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f"}}])");
  Result<Value> patched = ApplyJsonPatch(object_, out.workload_patch);
  ASSERT_TRUE(patched.ok());
  ExpectValid(*patched);
}

TEST_F(SchedulerObjectsTest, KueueIntegratedKindsGetTheQueueLabelAndTopologyAnnotations) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  // Kueue builds a JobSet's Workload itself and never gates its pods as a pod group: nothing is
  // created and no pod patched; the JobSet already carries its queue label.
  SchedulerObjects out = Build(Scheduler::kKueue);
  EXPECT_TRUE(out.objects.empty());
  EXPECT_TRUE(out.pod_patches.empty());
  // Topology goes to each pod set's template as Kueue's annotation: the driver takes the
  // gang's preferred level; the workers' template is shared by a replica that requires a level
  // and one that prefers the gang's, and the required one is kept, with a warning.
  EXPECT_EQ(json::ToCompactString(out.workload_patch),
            R"([{"op":"add","path":"/spec/replicatedJobs/0/template/spec/template/metadata",)"
            R"("value":{"annotations":{"kueue.x-k8s.io/podset-preferred-topology":)"
            R"("kubernetes.io/hostname"}}},)"
            R"({"op":"add","path":"/spec/replicatedJobs/1/template/spec/template/metadata",)"
            R"("value":{"annotations":{"kueue.x-k8s.io/podset-required-topology":)"
            R"("nvidia.com/gpu-clique"}}}])");
  std::string warnings;
  for (const std::string& w : out.warnings) warnings += w + "\n";
  EXPECT_NE(warnings.find("subgroup workers-replica-0: its pods share a pod template with "
                          "subgroup workers-replica-1, and Kueue takes one topology per pod set: "
                          "nvidia.com/gpu-clique (required) is kept"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("Kueue builds the Workload of a JobSet itself"), std::string::npos)
      << warnings;
  Result<Value> patched = ApplyJsonPatch(object_, out.workload_patch);
  ASSERT_TRUE(patched.ok());
  ExpectValid(*patched);

  // Without the label, the gang's queue becomes it; without any queue, a warning says so.
  Value unlabelled = object_;
  unlabelled.find_mutable("metadata")->find_mutable("labels")->erase("kueue.x-k8s.io/queue-name");
  Workload w(JobSetDefinition(), unlabelled);
  GangPlans plans = plans_;
  plans.gangs[0].topology.reset();
  plans.gangs[0].sub_groups[4].topology.reset();
  plans.gangs[0].queue = "research";
  Result<SchedulerObjects> labelled = BuildSchedulerObjects(Scheduler::kKueue, w, plans);
  ASSERT_TRUE(labelled.ok());
  EXPECT_EQ(json::ToCompactString(labelled->workload_patch),
            R"([{"op":"add","path":"/metadata/labels/kueue.x-k8s.io~1queue-name",)"
            R"("value":"research"}])");
  plans.gangs[0].queue.clear();
  Result<SchedulerObjects> none = BuildSchedulerObjects(Scheduler::kKueue, w, plans);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(json::ToCompactString(none->workload_patch), "[]");
  EXPECT_EQ(none->warnings.front(),
            "no queue: Kueue admits a JobSet only through a LocalQueue (label the workload "
            "kueue.x-k8s.io/queue-name=QUEUE)");
}

TEST_F(SchedulerObjectsTest, WorkloadApiV1alpha3KeepsTheSubgroupTree) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  SchedulingOptions options;
  options.api_version = "v1alpha3";
  // The leaves are made per replica, as the JobSet definition makes them.
  plans_.gangs[0].sub_groups[1].replica = "0";
  plans_.gangs[0].sub_groups[3].replica = "0";
  plans_.gangs[0].sub_groups[4].replica = "1";
  SchedulerObjects out = Build(Scheduler::kWorkloadApi, options);  // validated on v1alpha3
  // Templates are shapes: the two workers replicas share one pod group template.
  ASSERT_EQ(out.objects.size(), 7u);
  EXPECT_EQ(json::ToCompactString(*out.objects[0].find("spec")->find("compositePodGroupTemplates")),
            R"([{"compositePodGroupTemplates":[)"
            R"({"name":"driver","podGroupTemplates":[{"name":"driver-replica",)"
            R"("priorityClassName":"training","schedulingPolicy":{"basic":{}}}],)"
            R"("priorityClassName":"training","schedulingPolicy":{"gang":{"minGroupCount":1}}},)"
            R"({"name":"workers","podGroupTemplates":[{"name":"workers-replica",)"
            R"("priorityClassName":"training","schedulingPolicy":{"gang":{"minCount":4}}}],)"
            R"("priorityClassName":"training","schedulingPolicy":{"gang":{"minGroupCount":2}}}],)"
            R"("name":"jobset","priorityClassName":"training",)"
            R"("schedulingPolicy":{"gang":{"minGroupCount":2}}}])");
  // Objects are instances: the root, a CompositePodGroup per parent, a PodGroup per leaf, each
  // below its parent.
  std::vector<std::string> objects;
  for (const Value& o : out.objects) {
    const Value* parent = o.find("spec")->find("parentCompositePodGroupName");
    const Value* ref = o.find("spec")->find("workloadRef");
    objects.push_back(
        std::string(o.find("kind")->as_string()) + " " +
        std::string(o.find("metadata")->find("name")->as_string()) +
        (ref ? " template=" + std::string(ref->find("templateName")->as_string()) : "") +
        (parent ? " parent=" + std::string(parent->as_string()) : ""));
  }
  const std::string g = "pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f";
  EXPECT_EQ(
      objects,
      (std::vector<std::string>{
          "Workload train", "CompositePodGroup " + g + " template=jobset",
          "CompositePodGroup " + g + "-driver template=driver parent=" + g,
          "PodGroup " + g + "-driver-replica-0 template=driver-replica parent=" + g + "-driver",
          "CompositePodGroup " + g + "-workers template=workers parent=" + g,
          "PodGroup " + g + "-workers-replica-0 template=workers-replica parent=" + g + "-workers",
          "PodGroup " + g + "-workers-replica-1 template=workers-replica parent=" + g +
              "-workers"}));
  // The driver's template makes pods of one PodGroup and names it; the workers' template makes
  // pods of two, and cannot.
  EXPECT_EQ(json::ToCompactString(out.workload_patch),
            R"([{"op":"add","path":"/spec/replicatedJobs/0/template/spec/template/spec/)"
            R"(schedulingGroup","value":{"podGroupName":")" +
                g + R"(-driver-replica-0"}}])");
  std::string warnings;
  for (const std::string& w : out.warnings) warnings += w + "\n";
  EXPECT_NE(warnings.find("instance workers makes pods of several PodGroups"), std::string::npos)
      << warnings;
  EXPECT_EQ(warnings.find("flattened"), std::string::npos) << warnings;
}

TEST_F(SchedulerObjectsTest, WorkloadApiGangsPerInstanceShareATemplate) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  GangPlan first = plans_.gangs[0];
  first.sub_groups.clear();
  first.topology.reset();
  first.min_member = 4;
  first.name = "pg-serve-group-0";
  first.definition_gang = "group";
  first.instance_id = "0";
  GangPlan second = first;
  second.name = "pg-serve-group-1";
  second.instance_id = "1";
  second.min_member = 3;
  plans_.gangs = {first, second};
  plans_.pods = {};
  SchedulerObjects out = Build(Scheduler::kWorkloadApi);
  ASSERT_EQ(out.objects.size(), 3u);
  EXPECT_EQ(json::ToCompactString(*out.objects[0].find("spec")->find("podGroupTemplates")),
            R"([{"name":"group","priorityClassName":"training",)"
            R"("schedulingPolicy":{"gang":{"minCount":4}}}])");
  EXPECT_EQ(*out.objects[2].find("metadata")->find("name"), Value::String("pg-serve-group-1"));
  EXPECT_EQ(*out.objects[2].find("spec")->find("schedulingPolicy"),
            Value::Object({{"gang", Value::Object({{"minCount", Value::Int(3)}})}}));
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("different minimums"), std::string::npos);
}

// Label values hold at most 63 characters: a longer gang name is shortened with a stable hash
// suffix, the same in the object's name and in every pod's label (scheduler-rules.md 6).
TEST_F(SchedulerObjectsTest, LongGangNamesFitLabelValuesAndStayConsistent) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  const std::string long_name =
      "pg-llama-405b-serving-11699814-9a9d-5735-9075-eda59da0f54f-group-0";
  ASSERT_GT(long_name.size(), 63u);
  for (GangPlan& g : plans_.gangs) g.name = long_name;
  for (PodGangAssignment& p : plans_.pods) {
    if (!p.gang.empty()) p.gang = long_name;
  }
  struct Case {
    Scheduler scheduler;
    std::string field;  // "labels" or "annotations"
    std::string key;
  };
  for (const Case& k : {Case{Scheduler::kCoscheduling, "labels", "scheduling.x-k8s.io/pod-group"},
                        Case{Scheduler::kKueue, "annotations", "kueue.x-k8s.io/pod-group-name"}}) {
    // Kueue's pod group form: the one a JobSet gets where Kueue's JobSet integration is off.
    const SchedulingOptions options =
        k.scheduler == Scheduler::kKueue ? Prebuilt() : SchedulingOptions{};
    SchedulerObjects out = Build(k.scheduler, options);
    ASSERT_FALSE(out.objects.empty());
    const std::string name(out.objects[0].find("metadata")->find("name")->as_string());
    EXPECT_LE(name.size(), 63u);
    EXPECT_EQ(name.substr(0, 20), long_name.substr(0, 20));
    EXPECT_EQ(
        name,
        std::string(
            Build(k.scheduler, options).objects[0].find("metadata")->find("name")->as_string()));
    ASSERT_FALSE(out.pod_patches.empty());
    for (const Value& patch : out.pod_patches) {
      EXPECT_EQ(*patch.find("metadata")->find(k.field)->find(k.key), Value::String(name));
    }
  }
}

TEST_F(SchedulerObjectsTest, GangNamesOfAnyLengthMakeValidObjectNames) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  // A podGroups key read from a pod label can be anything: a 400-character name, with upper case.
  const std::string long_name = "pg-train-" + std::string(400, 'K');
  for (GangPlan& g : plans_.gangs) g.name = long_name;
  for (PodGangAssignment& p : plans_.pods) {
    if (!p.gang.empty()) p.gang = long_name;
  }
  for (const auto& [scheduler, key] :
       {std::pair{Scheduler::kKai, "pod-group-name"},
        std::pair{Scheduler::kVolcano, "scheduling.k8s.io/group-name"}}) {
    SchedulerObjects out = Build(scheduler);
    ASSERT_FALSE(out.objects.empty());
    const std::string name(out.objects[0].find("metadata")->find("name")->as_string());
    EXPECT_LE(name.size(), 253u);
    EXPECT_EQ(name.substr(0, 9), "pg-train-");
    EXPECT_EQ(name.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << name;
    ASSERT_FALSE(out.pod_patches.empty());
    for (const Value& patch : out.pod_patches) {
      EXPECT_EQ(patch.find("metadata")->find("annotations")->find(key)->as_string(), name);
    }
  }
  // A valid name is kept as it is.
  plans_ = JobSetPlan(object_);
  EXPECT_EQ(Build(Scheduler::kKai).objects[0].find("metadata")->find("name")->as_string(),
            "pg-train-0b7c3a52-8d1e-4d7c-9f3e-2a1b5c6d7e8f");
}

TEST(SchedulerObjects, WithoutUidThereIsNoOwnerReferenceAndAWarning) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  WMAP_NEEDS_SHARED("schemas");
  Value object = Yaml(kJobSet);
  Value meta = *object.find("metadata");
  Value stripped = Value::EmptyObject();
  for (const Member& m : meta.members()) {
    if (m.key.as_string() != "uid") stripped.set(m.key.as_string(), m.value);
  }
  object.set("metadata", stripped);
  Workload w(JobSetDefinition(), object);
  GangPlans plans = JobSetPlan(object);
  Result<SchedulerObjects> r = BuildSchedulerObjects(Scheduler::kCoscheduling, w, plans);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->objects[0].find("metadata")->find("ownerReferences"), nullptr);
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_NE(r->warnings[1].find("no metadata.uid"), std::string::npos);
}

TEST(SchedulerObjects, ParsesSchedulerNames) {
  for (std::string_view name : {"kai", "volcano", "coscheduling", "kueue", "k8s-workload"}) {
    std::optional<Scheduler> s = ParseScheduler(name);
    ASSERT_TRUE(s.has_value()) << name;
    EXPECT_EQ(SchedulerName(*s), name);
    EXPECT_NE(SchedulerNames().find(name), std::string_view::npos);
  }
  EXPECT_FALSE(ParseScheduler("yunikorn").has_value());
}

}  // namespace
}  // namespace wmap
