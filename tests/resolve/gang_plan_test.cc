// Gang plans (wmap/gang.h): the `gangs` form against KAI Scheduler's native plugin shapes
// (JobSet, LeaderWorkerSet, RayCluster, PyTorchJob, MPIJob), the Karta forms mapped as
// documented, minima from expressions and annotations, optional components, pods per replica,
// scheduling attributes, topology, nested subgroups, resources and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "resolve/resolve_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;
using test_support::CatalogText;
using test_support::ReadFile;

fs::path GangData() { return fs::path(WMAP_SOURCE_DIR) / "tests/resolve/testdata/gangs"; }

std::string GangText(const std::string& file) { return ReadFile(GangData() / file); }

Definition LoadText(const std::string& text) {
  LoadResult r = LoadDefinitions(text, "test");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].ToString());
  return r.definitions.at(0);
}

// The definition `<type>.yaml` with `replace` substituted for `find` (when given).
Definition LoadGangDefinition(const std::string& type, const std::string& find = "",
                              const std::string& replace = "") {
  std::string text = GangText(type + ".yaml");
  if (!find.empty()) {
    size_t at = text.find(find);
    EXPECT_NE(at, std::string::npos) << find;
    if (at != std::string::npos) text.replace(at, find.size(), replace);
  }
  return LoadText(text);
}

// `<type>-objects.yaml`: the workload, then its pods.
std::vector<Value> Objects(const std::string& type) {
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(GangText(type + "-objects.yaml"));
  EXPECT_TRUE(docs.ok()) << type;
  std::vector<Value> out;
  if (docs.ok()) {
    for (const yaml::Document& d : *docs) out.push_back(d.value);
  }
  return out;
}

Value WithField(Value object, const std::string& filter) {
  Result<jq::Program> p = jq::Program::Compile(filter);
  EXPECT_TRUE(p.ok()) << filter;
  Result<std::vector<Value>> r = p->RunAll(object);
  EXPECT_TRUE(r.ok() && r->size() == 1) << filter;
  return r.ok() && !r->empty() ? (*r)[0] : Value();
}

GangPlans Plan(const Definition& d, const Value& object, std::span<const Value> pods = {}) {
  Workload w(d, object);
  Result<GangPlans> plans = PlanGangs(w, pods);
  EXPECT_TRUE(plans.ok()) << (plans.ok() ? "" : plans.error().message);
  return plans.ok() ? *plans : GangPlans{};
}

std::string PlanError(const Definition& d, const Value& object) {
  Workload w(d, object);
  Result<GangPlans> plans = PlanGangs(w);
  EXPECT_FALSE(plans.ok());
  return plans.ok() ? "" : plans.error().message;
}

// "name parent=P min=M minSub=S pods=N" per subgroup.
std::vector<std::string> Shape(const GangPlan& g) {
  std::vector<std::string> out;
  for (const SubGroupPlan& s : g.sub_groups) {
    out.push_back(s.name + " parent=" + s.parent + " min=" + std::to_string(s.min_member) +
                  " minSub=" + std::to_string(s.min_sub_group) + " pods=" + std::to_string(s.pods));
  }
  return out;
}

// Compact JSON in field order.
std::string InOrder(const Value& v) {
  json::WriteOptions options;
  options.indent = 0;
  options.sort_keys = false;
  return json::ToString(v, options);
}

constexpr int64_t kGi = 1024LL * 1024 * 1024;
constexpr int64_t kMi = 1024LL * 1024;

// --- KAI Scheduler parity -----------------------------------------------------------------

TEST(GangPlanKaiParityTest, JobSetOneGangParentPerReplicatedJobLeafPerJobIndex) {
  std::vector<Value> objects = Objects("jobset");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  GangPlans plans = Plan(LoadGangDefinition("jobset"), objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  EXPECT_EQ(g.name, "pg-train-7b1e2c3d-0001-4000-8000-00000000a001");
  EXPECT_EQ(g.definition_gang, "jobset");
  EXPECT_EQ(g.min_sub_group, 2);  // AnyOrder: every replicatedJob
  EXPECT_EQ(g.min_member, 5);
  EXPECT_EQ(g.pods, 5);
  EXPECT_EQ(Shape(g), (std::vector<std::string>{
                          "leader parent= min=0 minSub=1 pods=1",
                          "leader-replica-0 parent=leader min=1 minSub=0 pods=1",
                          "workers parent= min=0 minSub=2 pods=4",
                          "workers-replica-0 parent=workers min=2 minSub=0 pods=2",
                          "workers-replica-1 parent=workers min=2 minSub=0 pods=2",
                      }));
  EXPECT_EQ(g.sub_groups[4].instance_id, "workers");
  EXPECT_EQ(g.sub_groups[4].replica, "1");
  ASSERT_EQ(plans.pods.size(), 4u);
  EXPECT_EQ(plans.pods[0].gang, g.name);
  EXPECT_EQ(plans.pods[0].sub_group, "leader-replica-0");
  EXPECT_EQ(plans.pods[0].uid, "7b1e2c3d-0003-4000-8000-00000000b001");
  EXPECT_EQ(plans.pods[1].sub_group, "workers-replica-0");
  EXPECT_EQ(plans.pods[2].sub_group, "workers-replica-1");
  // A job index the workload does not have: in the gang, in no leaf.
  EXPECT_EQ(plans.pods[3].gang, g.name);
  EXPECT_EQ(plans.pods[3].sub_group, "");
}

TEST(GangPlanKaiParityTest, JobSetInOrderNeedsOneReplicatedJob) {
  std::vector<Value> objects = Objects("jobset");
  Value in_order =
      WithField(objects[0], ".spec.startupPolicy = {\"startupPolicyOrder\": \"InOrder\"}");
  GangPlans plans = Plan(LoadGangDefinition("jobset"), in_order);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(plans.gangs[0].min_sub_group, 1);
  // The smallest replicatedJob that satisfies the gang: the leader's one pod.
  EXPECT_EQ(plans.gangs[0].min_member, 1);
  EXPECT_EQ(plans.gangs[0].min_resources, (ResourceList{{"cpu", 500}, {"memory", kGi}}));
}

TEST(GangPlanKaiParityTest, LeaderWorkerSetOneGangPerGroup) {
  std::vector<Value> objects = Objects("lws");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  GangPlans plans = Plan(LoadGangDefinition("lws"), objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const GangPlan& g = plans.gangs[i];
    EXPECT_EQ(g.name, "pg-vllm-3f9a6c2e-0001-4000-8000-00000000c001-group-" + std::to_string(i));
    EXPECT_EQ(g.instance_id, std::to_string(i));
    EXPECT_EQ(g.min_member, 3);  // size
    EXPECT_EQ(g.pods, 3);
    EXPECT_EQ(g.min_sub_group, 2);
    EXPECT_EQ(Shape(g), (std::vector<std::string>{"leader parent= min=1 minSub=0 pods=1",
                                                  "workers parent= min=2 minSub=0 pods=2"}));
  }
  // Per group: the leader's template and two workers with 8 GPUs each.
  EXPECT_EQ(plans.gangs[1].resources,
            (ResourceList{{"cpu", 20000}, {"memory", 144 * kGi}, {"nvidia.com/gpu", 16}}));
  EXPECT_EQ(plans.gangs[0].sub_groups[1].per_pod_requests,
            (ResourceList{{"cpu", 8000}, {"memory", 64 * kGi}, {"nvidia.com/gpu", 8}}));
  ASSERT_EQ(plans.pods.size(), 2u);
  EXPECT_EQ(plans.pods[0].gang, plans.gangs[1].name);
  EXPECT_EQ(plans.pods[0].sub_group, "leader");
  EXPECT_EQ(plans.pods[1].gang, plans.gangs[1].name);
  EXPECT_EQ(plans.pods[1].sub_group, "workers");
}

TEST(GangPlanKaiParityTest, RayClusterAutoscalingUsesMinReplicasTimesHosts) {
  std::vector<Value> objects = Objects("raycluster");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  GangPlans plans = Plan(LoadGangDefinition("raycluster"), objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  EXPECT_EQ(g.name, "pg-rc-91d2e0aa-0001-4000-8000-00000000e001");
  // Head 1 + GPU workers 1 replica x 2 hosts + CPU workers 0 (may scale to zero).
  EXPECT_EQ(g.min_member, 3);
  EXPECT_EQ(g.pods, 1 + 6 + 2);
  EXPECT_EQ(Shape(g), (std::vector<std::string>{"headgroup parent= min=1 minSub=0 pods=1",
                                                "gpu-workers parent= min=2 minSub=0 pods=6",
                                                "cpu-workers parent= min=0 minSub=0 pods=2"}));
  EXPECT_EQ(g.priority_class_name, "inference");
  EXPECT_EQ(g.min_resources,
            (ResourceList{{"cpu", 10000}, {"memory", 72 * kGi}, {"nvidia.com/gpu", 8}}));
  ASSERT_EQ(plans.pods.size(), 2u);
  EXPECT_EQ(plans.pods[0].sub_group, "headgroup");
  EXPECT_EQ(plans.pods[1].sub_group, "gpu-workers");
}

TEST(GangPlanKaiParityTest, RayClusterWithoutAutoscalingUsesReplicasTimesHosts) {
  std::vector<Value> objects = Objects("raycluster");
  Value fixed = WithField(objects[0], ".spec.enableInTreeAutoscaling = false");
  GangPlans plans = Plan(LoadGangDefinition("raycluster"), fixed);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(plans.gangs[0].min_member, 9);
  EXPECT_EQ(Shape(plans.gangs[0]),
            (std::vector<std::string>{"headgroup parent= min=1 minSub=0 pods=1",
                                      "gpu-workers parent= min=6 minSub=0 pods=6",
                                      "cpu-workers parent= min=2 minSub=0 pods=2"}));
}

TEST(GangPlanKaiParityTest, PyTorchJobSumOfReplicasWithMasterAndWorkerSubGroups) {
  std::vector<Value> objects = Objects("pytorchjob");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  GangPlans plans = Plan(LoadGangDefinition("pytorchjob"), objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  EXPECT_EQ(g.name, "pg-bert-0c4d8e2f-0001-4000-8000-00000000a101");
  EXPECT_EQ(g.min_member, 5);
  EXPECT_EQ(Shape(g), (std::vector<std::string>{"master parent= min=1 minSub=0 pods=1",
                                                "worker parent= min=4 minSub=0 pods=4"}));
  EXPECT_EQ(g.queue, "team-a");
  EXPECT_EQ(g.priority_class_name, "high");
  EXPECT_EQ(g.preemptibility, "");
  // The workers' init container (8 CPUs, 4Gi) runs alone: 8 CPUs and 16Gi per worker.
  EXPECT_EQ(g.resources,
            (ResourceList{{"cpu", 36000}, {"memory", 80 * kGi}, {"nvidia.com/gpu", 5}}));
  EXPECT_EQ(plans.pods[0].sub_group, "master");
  EXPECT_EQ(plans.pods[1].sub_group, "worker");
}

TEST(GangPlanKaiParityTest, PyTorchJobMinAvailableAndElasticMinReplicas) {
  std::vector<Value> objects = Objects("pytorchjob");
  Value min_available = WithField(objects[0], ".spec.runPolicy.schedulingPolicy.minAvailable = 3");
  GangPlans plans = Plan(LoadGangDefinition("pytorchjob"), min_available);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(plans.gangs[0].min_member, 3);

  Value elastic = WithField(objects[0], ".spec.elasticPolicy = {minReplicas: 2, maxReplicas: 4}");
  plans = Plan(LoadGangDefinition("pytorchjob"), elastic);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(plans.gangs[0].min_member, 3);
  EXPECT_EQ(Shape(plans.gangs[0]),
            (std::vector<std::string>{"master parent= min=1 minSub=0 pods=1",
                                      "worker parent= min=2 minSub=0 pods=4"}));
}

TEST(GangPlanKaiParityTest, MpiJobLauncherAndWorkers) {
  std::vector<Value> objects = Objects("mpijob");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  GangPlans plans = Plan(LoadGangDefinition("mpijob"), objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  EXPECT_EQ(g.name, "pg-allreduce-5e6f7a8b-0001-4000-8000-00000000b101");
  EXPECT_EQ(g.min_member, 4);  // launcher + 3 workers
  EXPECT_EQ(g.min_sub_group, 0);
  EXPECT_TRUE(g.sub_groups.empty());
  // Workers carry pod overhead (250m, 120Mi) and an extended resource.
  EXPECT_EQ(g.resources, (ResourceList{{"cpu", 500 + 3 * 16250},
                                       {"memory", 512 * kMi + 3 * (64 * kGi + 120 * kMi)},
                                       {"rdma/hca", 3}}));
  EXPECT_EQ(g.min_resources, g.resources);
  ASSERT_EQ(plans.pods.size(), 2u);
  EXPECT_EQ(plans.pods[0].gang, g.name);
  EXPECT_EQ(plans.pods[1].gang, g.name);
  EXPECT_EQ(plans.pods[1].sub_group, "");

  Value min_available =
      WithField(objects[0], ".spec.runPolicy.schedulingPolicy = {minAvailable: 2, queue: \"hpc\"}");
  plans = Plan(LoadGangDefinition("mpijob"), min_available);
  EXPECT_EQ(plans.gangs.at(0).min_member, 2);
  EXPECT_EQ(plans.gangs.at(0).queue, "hpc");
  // Two pods counted at the largest pod of the gang.
  EXPECT_EQ(
      plans.gangs.at(0).min_resources,
      (ResourceList{{"cpu", 2 * 16250}, {"memory", 2 * (64 * kGi + 120 * kMi)}, {"rdma/hca", 2}}));
}

// --- Resources, pods per replica, scheduling attributes, topology --------------------------

TEST(GangPlanTest, JobSetResourcesAndAttributes) {
  std::vector<Value> objects = Objects("jobset");
  GangPlans plans = Plan(LoadGangDefinition("jobset"), objects[0]);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  // Leader 500m/1Gi; 4 workers of 2.1 CPU, 8Gi + 128Mi and one GPU (a limit-only resource).
  ResourceList expected = {
      {"cpu", 500 + 4 * 2100}, {"memory", kGi + 4 * (8 * kGi + 128 * kMi)}, {"nvidia.com/gpu", 4}};
  EXPECT_EQ(g.resources, expected);
  EXPECT_EQ(g.min_resources, expected);
  EXPECT_EQ(g.queue, "research");
  EXPECT_EQ(g.priority_class_name, "train");
  EXPECT_EQ(g.preemptibility, "preemptible");
  ASSERT_TRUE(g.topology.has_value());
  EXPECT_EQ(g.topology->topology_name, "cluster-topology");
  EXPECT_EQ(g.topology->required_topology_level, "topology.kubernetes.io/zone");
  EXPECT_EQ(g.topology->preferred_topology_level, "");
  EXPECT_FALSE(g.sub_groups[0].topology.has_value());
  ASSERT_TRUE(g.sub_groups[1].topology.has_value());
  EXPECT_EQ(g.sub_groups[1].topology->preferred_topology_level, "kubernetes.io/hostname");
  EXPECT_EQ(g.sub_groups[1].topology->required_topology_level, "");
  // A leaf keeps its pod template.
  EXPECT_EQ(InOrder(*g.sub_groups[1].pod_template.find("spec")->find("containers")),
            "[{\"name\":\"leader\",\"image\":\"trainer:1.0\",\"resources\":{\"requests\":{\"cpu\":"
            "\"500m\",\"memory\":\"1Gi\"}}}]");
}

TEST(GangPlanTest, PodsPerReplicaIsZippedPerInstance) {
  std::vector<Value> objects = Objects("jobset");
  Definition d = LoadGangDefinition("jobset");
  Workload w(d, objects[0]);
  auto ppr = w.PodsPerReplica(1);
  ASSERT_TRUE(ppr.ok()) << ppr.error().message;
  ASSERT_TRUE(ppr->has_value());
  EXPECT_EQ(**ppr, (std::vector<int32_t>{1, 2}));
  // Not defined on the root.
  auto root = w.PodsPerReplica(0);
  ASSERT_TRUE(root.ok());
  EXPECT_FALSE(root->has_value());
  // Null reads as 1; a negative count is an error.
  Workload unset(d,
                 WithField(objects[0], "del(.spec.replicatedJobs[1].template.spec.parallelism)"));
  EXPECT_EQ(**unset.PodsPerReplica(1), (std::vector<int32_t>{1, 1}));
  Workload negative(
      d, WithField(objects[0], ".spec.replicatedJobs[1].template.spec.parallelism = -2"));
  auto bad = negative.PodsPerReplica(1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "failed to extract pods per replica: value -2 at index 1 is negative");
  // The upstream subtree scale is not changed by the multiplier.
  EXPECT_EQ(*w.SubtreeScale(1), 3);
}

TEST(GangPlanTest, PodsPerReplicaWithoutReplicaCount) {
  // Every replicatedJob then has one Job of `parallelism` pods.
  Definition d =
      LoadGangDefinition("jobset", "          replicasPath: .spec.replicatedJobs[].replicas\n", "");
  std::vector<Value> objects = Objects("jobset");
  Workload w(d, objects[0]);
  auto scales = w.Scales(1);
  ASSERT_TRUE(scales.ok()) << scales.error().message;
  EXPECT_FALSE(scales->has_value());
  GangPlans plans = Plan(d, objects[0]);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(Shape(plans.gangs[0]), (std::vector<std::string>{
                                       "leader parent= min=0 minSub=1 pods=1",
                                       "leader-replica-0 parent=leader min=1 minSub=0 pods=1",
                                       "workers parent= min=0 minSub=1 pods=2",
                                       "workers-replica-0 parent=workers min=2 minSub=0 pods=2",
                                   }));
  EXPECT_EQ(plans.gangs[0].pods, 3);
}

TEST(GangPlanTest, ExpressionsSeeTheInstanceAndReplica) {
  std::vector<Value> objects = Objects("lws");
  Definition d =
      LoadGangDefinition("lws", "          nameTemplate:",
                         "          minMember: {expression: '$replica + 1'}\n"
                         "          queue: {expression: '\"q-\\($instance)-\\($replica)\"'}\n"
                         "          nameTemplate:");
  GangPlans plans = Plan(d, objects[0]);
  ASSERT_EQ(plans.gangs.size(), 2u);
  EXPECT_EQ(plans.gangs[0].min_member, 1);
  EXPECT_EQ(plans.gangs[1].min_member, 2);
  EXPECT_EQ(plans.gangs[1].queue, "q--1");
  // Per-replica subgroups of a component without instance ids are named by the component.
  Definition per_replica = LoadGangDefinition(
      "lws", "            - componentName: leader\n",
      "            - componentName: leader\n              forEachReplica: true\n");
  plans = Plan(per_replica, objects[0]);
  ASSERT_EQ(plans.gangs.size(), 2u);
  EXPECT_EQ(Shape(plans.gangs[1]), (std::vector<std::string>{
                                       "leader-1 parent= min=1 minSub=0 pods=1",
                                       "workers parent= min=2 minSub=0 pods=2",
                                   }));
  // The replicas are the group's (the owner of the replicaSelector): pods join by group index.
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  plans = Plan(per_replica, objects[0], pods);
  EXPECT_EQ(plans.pods.at(0).sub_group, "leader-1");
  // In one gang for the whole workload, one leader subgroup per group.
  Definition one_gang =
      LoadGangDefinition("lws",
                         "          forEachInstanceOf: group\n          forEachReplica: true\n"
                         "          nameTemplate: \"pg-{workload}-{uid}-group-{replica}\"\n"
                         "          subGroups:\n            - componentName: leader\n",
                         "          subGroups:\n            - componentName: leader\n              "
                         "forEachReplica: true\n");
  plans = Plan(one_gang, objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(Shape(plans.gangs[0]), (std::vector<std::string>{
                                       "leader-0 parent= min=1 minSub=0 pods=1",
                                       "leader-1 parent= min=1 minSub=0 pods=1",
                                       "workers parent= min=4 minSub=0 pods=4",
                                   }));
  EXPECT_EQ(plans.gangs[0].min_member, 6);
  EXPECT_EQ(plans.pods.at(0).sub_group, "leader-1");
  EXPECT_EQ(plans.pods.at(1).sub_group, "workers");
}

TEST(GangPlanTest, OverrideAnnotationReplacesTheGangMinimum) {
  std::vector<Value> objects = Objects("pytorchjob");
  Value annotated =
      WithField(objects[0], ".metadata.annotations = {\"kai.scheduler/batch-min-member\": \"2\"}");
  GangPlans plans = Plan(LoadGangDefinition("pytorchjob"), annotated);
  EXPECT_EQ(plans.gangs.at(0).min_member, 2);
  // The default key when the definition names none.
  std::vector<Value> lws = Objects("lws");
  Value lws_annotated =
      WithField(lws[0], ".metadata.annotations = {\"workloadmap.dev/min-member\": \"1\"}");
  plans = Plan(LoadGangDefinition("lws"), lws_annotated);
  ASSERT_EQ(plans.gangs.size(), 2u);
  EXPECT_EQ(plans.gangs[0].min_member, 1);
  EXPECT_EQ(plans.gangs[1].min_member, 1);
  // Subgroup minima are unchanged.
  EXPECT_EQ(plans.gangs[0].sub_groups[1].min_member, 2);

  for (const char* bad : {"\"0\"", "\"two\"", "\"-1\"", "\"99999999999\"", "3"}) {
    Value v = WithField(objects[0], std::string(".metadata.annotations = "
                                                "{\"kai.scheduler/batch-min-member\": ") +
                                        bad + "}");
    EXPECT_EQ(PlanError(LoadGangDefinition("pytorchjob"), v),
              std::string("gang job: annotation kai.scheduler/batch-min-member is ") + bad +
                  ", want an integer from 1 to 2147483647");
  }
}

TEST(GangPlanTest, OptionalComponentHasMinimumZero) {
  std::vector<Value> objects = Objects("pytorchjob");
  Definition d =
      LoadGangDefinition("pytorchjob", "            - componentName: master\n",
                         "            - componentName: master\n              optional: true\n");
  GangPlans plans = Plan(d, objects[0]);
  ASSERT_EQ(plans.gangs.size(), 1u);
  EXPECT_EQ(Shape(plans.gangs[0]),
            (std::vector<std::string>{"master parent= min=0 minSub=0 pods=1",
                                      "worker parent= min=4 minSub=0 pods=4"}));
  EXPECT_EQ(plans.gangs[0].min_member, 4);
  EXPECT_EQ(plans.gangs[0].min_resources,
            (ResourceList{{"cpu", 32000}, {"memory", 64 * kGi}, {"nvidia.com/gpu", 4}}));
}

TEST(GangPlanTest, NestedGroupingSubGroupsAndExpressionMinima) {
  std::vector<Value> objects = Objects("raycluster");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  Definition d =
      LoadGangDefinition("raycluster",
                         "            - componentName: worker\n"
                         "              forEachInstance: true\n",
                         "            - name: workers\n"
                         "              minSubGroup: {expression: '1'}\n"
                         "              topology: {topologyName: t, requiredTopologyLevel: "
                         "rack}\n"
                         "              subGroups:\n"
                         "                - componentName: worker\n"
                         "                  forEachInstance: true\n"
                         "                  name: '{gang}-{instance}'\n"
                         "                  minMember:\n"
                         "                    expression: >-\n"
                         "                      .spec.workerGroupSpecs[] | select(.groupName"
                         " == $instance) | .maxReplicas\n");
  GangPlans plans = Plan(d, objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  EXPECT_EQ(Shape(g), (std::vector<std::string>{
                          "headgroup parent= min=1 minSub=0 pods=1",
                          "workers parent= min=0 minSub=1 pods=8",
                          "cluster-gpu-workers parent=workers min=4 minSub=0 pods=6",
                          "cluster-cpu-workers parent=workers min=10 minSub=0 pods=2",
                      }));
  EXPECT_EQ(g.min_sub_group, 2);
  // Head 1 + the smaller of the worker groups' minima (4).
  EXPECT_EQ(g.min_member, 5);
  ASSERT_TRUE(g.sub_groups[1].topology.has_value());
  EXPECT_EQ(g.sub_groups[1].topology->required_topology_level, "rack");
  EXPECT_EQ(plans.pods.at(1).sub_group, "cluster-gpu-workers");

  Value v = GangPlansToValue(d, plans);
  EXPECT_EQ(InOrder(*(*v.find("gangs"))[0].find("subGroups")),
            "[{\"name\":\"headgroup\",\"minMember\":1,\"minSubGroup\":0,\"component\":\"head\","
            "\"pods\":1},{\"name\":\"workers\",\"minMember\":0,\"minSubGroup\":1,\"pods\":8,"
            "\"topology\":{\"topologyName\":\"t\",\"requiredTopologyLevel\":\"rack\"}},{\"name\":"
            "\"cluster-gpu-workers\",\"parent\":\"workers\",\"minMember\":4,\"minSubGroup\":0,"
            "\"component\":\"worker\",\"instance\":\"gpu-workers\",\"pods\":6},{\"name\":"
            "\"cluster-cpu-workers\",\"parent\":\"workers\",\"minMember\":10,\"minSubGroup\":0,"
            "\"component\":\"worker\",\"instance\":\"cpu-workers\",\"pods\":2}]");
  EXPECT_EQ(InOrder(*v.find("pods")),
            "[{\"pod\":\"rc-head-x7k2p\",\"uid\":\"91d2e0aa-0003-4000-8000-00000000f001\","
            "\"gang\":\"pg-rc-91d2e0aa-0001-4000-8000-00000000e001\",\"subGroup\":\"headgroup\"},"
            "{\"pod\":\"rc-gpu-workers-worker-9fz4c\",\"uid\":\"91d2e0aa-0003-4000-8000-"
            "00000000f002\",\"gang\":\"pg-rc-91d2e0aa-0001-4000-8000-00000000e001\",\"subGroup\":"
            "\"cluster-gpu-workers\"}]");
}

TEST(GangPlanTest, NameWithoutUidDropsItsSeparator) {
  std::vector<Value> objects = Objects("mpijob");
  GangPlans plans = Plan(LoadGangDefinition("mpijob"), WithField(objects[0], "del(.metadata.uid)"));
  EXPECT_EQ(plans.gangs.at(0).name, "pg-allreduce");
}

// A Karta with one podGroup (the v2 form) and one podGroups entry (the alpha form), for names.
constexpr const char* kKartaTrainer = R"(
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: trainer}
spec:
  structureDefinition:
    rootComponent:
      name: trainer
      kind: {group: example.com, version: v1, kind: Trainer}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: .spec.replicas}
      statusDefinition: {statusMappings: {running: [{byPhase: Running}]}}
  optimizationInstructions:
    gangScheduling:
      podGroup: {name: job}
)";

Value Trainer(const std::string& metadata, int replicas = 2) {
  return yaml::Parse("apiVersion: example.com/v1\nkind: Trainer\nmetadata: " + metadata +
                     "\nspec: {replicas: " + std::to_string(replicas) +
                     ", template: {spec: {containers: [{name: c, image: x}]}}}\n")
      .value();
}

TEST(GangPlanTest, KartaNamesKeepTheUidElseTakeTheWorkloadName) {
  Definition d = LoadText(kKartaTrainer);
  EXPECT_EQ(Plan(d, Trainer("{name: a, namespace: ml, uid: 5e1f}")).gangs.at(0).name,
            "pg-5e1f-job");
  // Without a uid (a manifest not yet created) two workloads of one namespace keep two gangs.
  EXPECT_EQ(Plan(d, Trainer("{name: a, namespace: ml}")).gangs.at(0).name, "pg-a-job");
  EXPECT_EQ(Plan(d, Trainer("{name: b, namespace: ml}")).gangs.at(0).name, "pg-b-job");

  std::string alpha = kKartaTrainer;
  alpha.replace(alpha.find("podGroup: {name: job}"), 21,
                "podGroups: [{name: all, members: [{componentName: trainer, "
                "groupByKeyPaths: [.metadata.labels.slice]}]}]");
  const Value pod = yaml::Parse("metadata: {name: p, labels: {slice: s0}}").value();
  const std::vector<Value> pods = {pod};
  EXPECT_EQ(Plan(LoadText(alpha), Trainer("{name: a, uid: 5e1f}"), pods).gangs.at(0).name,
            "pg-5e1f-s0");
  EXPECT_EQ(Plan(LoadText(alpha), Trainer("{name: a}"), pods).gangs.at(0).name, "pg-a-s0");
}

TEST(GangPlanTest, GenerateNameGivesEachWorkloadItsOwnStableDnsName) {
  Definition karta = LoadText(kKartaTrainer);
  Definition gangs = LoadGangDefinition("mpijob");
  const Value a = Trainer("{generateName: train-, namespace: ml}", 2);
  const Value b = Trainer("{generateName: train-, namespace: ml}", 3);
  const std::regex dns("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  std::string name = Plan(karta, a).gangs.at(0).name;
  EXPECT_TRUE(std::regex_match(name, std::regex("pg-train-[a-z0-9]{5}-job"))) << name;
  EXPECT_EQ(Plan(karta, a).gangs.at(0).name, name);  // stable
  EXPECT_NE(Plan(karta, b).gangs.at(0).name, name);  // another workload, another gang

  std::vector<Value> objects = Objects("mpijob");
  Value generated = WithField(
      objects[0], "del(.metadata.uid) | del(.metadata.name) | .metadata.generateName = \"mpi-\"");
  std::string from_gangs = Plan(gangs, generated).gangs.at(0).name;
  EXPECT_TRUE(std::regex_match(from_gangs, std::regex("pg-mpi-[a-z0-9]{5}"))) << from_gangs;
  EXPECT_TRUE(std::regex_match(from_gangs, dns)) << from_gangs;
}

TEST(GangPlanTest, PodsOutsideEveryGang) {
  std::vector<Value> objects = Objects("lws");
  std::vector<Value> pods = {
      WithField(objects[1],
                ".metadata.labels[\"leaderworkerset.sigs.k8s.io/group-index\"] = \"5\""),
      WithField(objects[2],
                "del(.metadata.annotations) | .metadata.labels[\"leaderworkerset."
                "sigs.k8s.io/worker-index\"] = \"2\""),
  };
  GangPlans plans = Plan(LoadGangDefinition("lws"), objects[0], pods);
  ASSERT_EQ(plans.pods.size(), 2u);
  EXPECT_EQ(plans.pods[0].gang, "");
  EXPECT_EQ(plans.pods[0].reason,
            "no gang of the definition takes pods of component leader with this instance and "
            "replica");
  EXPECT_EQ(plans.pods[1].gang, "");
  EXPECT_EQ(plans.pods[1].reason, "no component of the definition matches the pod");
}

// --- Bad input ----------------------------------------------------------------------------

TEST(GangPlanTest, MinMemberExpressionResultsMustBeCounts) {
  std::vector<Value> objects = Objects("pytorchjob");
  Definition d = LoadGangDefinition("pytorchjob");
  const std::string prefix =
      "gang job minMember: expression '.spec.runPolicy.schedulingPolicy.minAvailable' "
      "(spec.optimizationInstructions.gangScheduling.gangs[0].minMember.expression) gave ";
  const std::string want = ", want one integer from 0 to 2147483647";
  struct Case {
    std::string value;
    std::string shown;
  };
  for (const Case& c : std::vector<Case>{{"2.5", "2.5"},
                                         {"-1", "-1"},
                                         {"1e12", "1000000000000"},
                                         {"\"three\"", "\"three\""},
                                         {"[3]", "[3]"}}) {
    Value v = WithField(objects[0], ".spec.runPolicy.schedulingPolicy.minAvailable = " + c.value);
    EXPECT_EQ(PlanError(d, v), prefix + c.shown + want) << c.value;
  }
  // A numeric string is a count.
  Value text = WithField(objects[0], ".spec.runPolicy.schedulingPolicy.minAvailable = \"2\"");
  EXPECT_EQ(Plan(d, text).gangs.at(0).min_member, 2);
}

TEST(GangPlanTest, BadSubGroupMinimaAndAttributes) {
  std::vector<Value> objects = Objects("raycluster");
  Definition many = LoadGangDefinition("raycluster", "              forEachInstance: true\n",
                                       "              forEachInstance: true\n"
                                       "              minMember: {expression: '1, 2'}\n");
  EXPECT_EQ(PlanError(many, objects[0]),
            "gang cluster: subgroup gpu-workers minMember: expression '1, 2' (spec."
            "optimizationInstructions.gangScheduling.gangs[0].subGroups[1].minMember.expression) "
            "gave 2 results, want one integer from 0 to 2147483647");
  Definition too_many_groups = LoadGangDefinition("raycluster", "        - name: cluster\n",
                                                  "        - name: cluster\n"
                                                  "          minSubGroup: {expression: '4'}\n");
  EXPECT_EQ(PlanError(too_many_groups, objects[0]),
            "gang cluster: minSubGroup 4 is more than its 3 subgroups");
  Value numeric = WithField(objects[0], ".metadata.labels[\"ray.io/priority-class-name\"] = 7");
  Workload w(LoadGangDefinition("raycluster"), numeric);
  auto plans = PlanGangs(w);
  ASSERT_FALSE(plans.ok());
  EXPECT_EQ(plans.error().message,
            "gang cluster priorityClassName: expression '.metadata.labels[\"ray.io/priority-class-"
            "name\"]' (spec.optimizationInstructions.gangScheduling.gangs[0].priorityClassName."
            "expression) gave 7, want one string");
  Value huge = WithField(objects[0],
                         ".spec.workerGroupSpecs[0].replicas = 2000000000 | "
                         ".spec.workerGroupSpecs[0].numOfHosts = 4");
  EXPECT_EQ(PlanError(LoadGangDefinition("raycluster"), huge),
            "gang cluster: subgroup gpu-workers: 8000000000 pods is more than a pod group can "
            "count (2147483647)");
  Value many_jobs = WithField(Objects("jobset")[0], ".spec.replicatedJobs[1].replicas = 1000000");
  EXPECT_EQ(PlanError(LoadGangDefinition("jobset"), many_jobs),
            "gang jobset: the plan needs more than 100000 gangs and subgroups; check the replica "
            "counts");
  Value negative = WithField(objects[0], ".spec.workerGroupSpecs[1].replicas = -1");
  EXPECT_EQ(PlanError(LoadGangDefinition("raycluster"), negative),
            "gang cluster: component worker instance \"cpu-workers\": replicas -1 is negative");
}

// --- Karta forms ----------------------------------------------------------------------------

TEST(GangPlanKartaTest, PodGroupsAlphaOneGangPerKeyTuple) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = test_support::Catalog("jobset-x-k8s-io-jobset-v1alpha2");
  std::vector<Value> objects = Objects("jobset");
  std::vector<Value> pods(objects.begin() + 1, objects.end() - 1);
  Value orphan = WithField(objects[1], "del(.metadata.labels)");
  pods.push_back(orphan);
  GangPlans plans = Plan(d, objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 2u);
  EXPECT_EQ(plans.gangs[0].name, "pg-7b1e2c3d-0001-4000-8000-00000000a001-leader");
  EXPECT_EQ(plans.gangs[0].definition_gang, "job");
  EXPECT_EQ(plans.gangs[0].instance_id, "leader");
  EXPECT_EQ(plans.gangs[0].min_member, 1);
  EXPECT_EQ(plans.gangs[1].name, "pg-7b1e2c3d-0001-4000-8000-00000000a001-workers");
  // Upstream's catalog counts pods as replicas x parallelism in its replicasPath.
  EXPECT_EQ(plans.gangs[1].min_member, 4);
  EXPECT_TRUE(plans.gangs[1].sub_groups.empty());
  ASSERT_EQ(plans.pods.size(), 4u);
  EXPECT_EQ(plans.pods[1].gang, plans.gangs[1].name);
  EXPECT_EQ(plans.pods[2].gang, plans.gangs[1].name);
  EXPECT_EQ(plans.pods[3].gang, "");
  EXPECT_NE(plans.pods[3].reason.find("query result is empty <nil>"), std::string::npos)
      << plans.pods[3].reason;
  // No pods, no gangs: the alpha form names gangs by the pods' keys.
  EXPECT_TRUE(Plan(d, objects[0]).gangs.empty());
}

TEST(GangPlanKartaTest, PodGroupV2FlatSubGroups) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::string text = CatalogText("ray-io-raycluster-v1");
  size_t at = text.find("  optimizationInstructions:");
  ASSERT_NE(at, std::string::npos);
  text = text.substr(0, at) +
         "  optimizationInstructions:\n"
         "    gangScheduling:\n"
         "      podGroup:\n"
         "        name: cluster\n"
         "        topology: {topologyName: t, requiredTopologyLevel: rack,"
         " preferredTopologyLevel: node}\n"
         "        subGroups:\n"
         "          - componentName: head\n"
         "          - componentName: worker\n";
  Definition d = LoadText(text);
  std::vector<Value> objects = Objects("raycluster");
  std::vector<Value> pods(objects.begin() + 1, objects.end());
  GangPlans plans = Plan(d, objects[0], pods);
  ASSERT_EQ(plans.gangs.size(), 1u);
  const GangPlan& g = plans.gangs[0];
  EXPECT_EQ(g.name, "pg-91d2e0aa-0001-4000-8000-00000000e001-cluster");
  EXPECT_EQ(g.min_member, 0);
  EXPECT_EQ(g.min_sub_group, 2);
  ASSERT_TRUE(g.topology.has_value());
  EXPECT_EQ(g.topology->preferred_topology_level, "node");
  // Upstream's subtree scale: minReplicas when > 0, else replicas (cpu-workers: 2), summed over
  // the worker groups; no numOfHosts multiplier in a Karta.
  EXPECT_EQ(Shape(g), (std::vector<std::string>{"head parent= min=1 minSub=0 pods=1",
                                                "worker parent= min=3 minSub=0 pods=5"}));
  EXPECT_EQ(g.queue, "");
  ASSERT_EQ(plans.pods.size(), 2u);
  EXPECT_EQ(plans.pods[0].sub_group, "head");
  EXPECT_EQ(plans.pods[1].sub_group, "worker");
  EXPECT_EQ(plans.pods[1].gang, g.name);
}

TEST(GangPlanKartaTest, PodGroupV2SubGroupMustNameAComponent) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::string text = CatalogText("ray-io-raycluster-v1");
  size_t at = text.find("  optimizationInstructions:");
  ASSERT_NE(at, std::string::npos);
  Definition d = LoadText(text.substr(0, at) +
                          "  optimizationInstructions:\n"
                          "    gangScheduling:\n"
                          "      podGroup:\n"
                          "        name: cluster\n"
                          "        subGroups:\n"
                          "          - componentName: ghost\n");
  EXPECT_EQ(PlanError(d, Objects("raycluster")[0]),
            "subgroup component ghost not found in the definition");
}

TEST(GangPlanKartaTest, NoGangInstructionsNoGangs) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition d = test_support::Catalog("apps-deployment-v1");
  Value deployment = test_support::Json(
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
          "spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"c"}]}}}})");
  Value pod = test_support::Json(R"({"metadata":{"name":"web-1"}})");
  std::vector<Value> pods = {pod};
  GangPlans plans = Plan(d, deployment, pods);
  EXPECT_TRUE(plans.gangs.empty());
  ASSERT_EQ(plans.pods.size(), 1u);
  EXPECT_EQ(plans.pods[0].reason, "the definition has no gang scheduling instructions");
}

// A definition whose only gang is computed by `expression` (the pods join by label).
Definition ComputedDefinition(const std::string& expression) {
  return LoadText(R"(apiVersion: workloadmap.dev/v1alpha1
kind: WorkloadDefinition
metadata: {name: computed}
spec:
  structureDefinition:
    rootComponent:
      name: app
      kind: {group: example.com, version: v1, kind: App}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running: [{byPhase: Running}]
    childComponents:
      - name: part
        kind: {group: "", version: v1, kind: Pod}
        ownerRef: app
        instanceIdPath: .spec.parts[].name
        specDefinition:
          podTemplateSpecPath: .spec.parts[].template
        podSelector:
          componentTypeSelector: {keyPath: .metadata.labels.part}
          componentInstanceSelector: {idPath: .metadata.labels.part}
  optimizationInstructions:
    gangScheduling:
      gangs:
        - name: computed
          computed:
            gangs:
              expression: ')" +
                  expression + R"('
            podGang: {expression: .metadata.labels.gang}
            podSubGroup: {expression: .metadata.labels.leaf}
)");
}

Value ComputedApp() {
  return yaml::Parse(R"(
apiVersion: example.com/v1
kind: App
metadata: {name: app, uid: u1}
spec:
  parts:
    - name: a
      template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}}
)")
      .value();
}

TEST(GangPlanComputedTest, GangsSubGroupsParentsAndPods) {
  Definition d = ComputedDefinition(
      R"({name: "g1", subGroups: [{name: "top"}, {name: "l1", parent: "top", minMember: 1, pods: 3, component: "part", instance: "a"}, {name: "l2", parent: "top", pods: 2}]}, {name: "g2", minMember: 4, minSubGroup: 1, subGroups: [{name: "x", pods: 5}]})");
  const std::vector<Value> pods = {
      yaml::Parse("metadata: {name: p1, labels: {gang: g1, leaf: l2}}").value(),
      yaml::Parse("metadata: {name: p2, labels: {gang: g2, leaf: nope}}").value(),
      yaml::Parse("metadata: {name: p3, labels: {gang: g9}}").value(),
      yaml::Parse("metadata: {name: p4}").value()};
  GangPlans plans = Plan(d, ComputedApp(), pods);
  ASSERT_EQ(plans.gangs.size(), 2u);
  const GangPlan& g1 = plans.gangs[0];
  EXPECT_EQ(g1.name, "g1");
  EXPECT_EQ(g1.definition_gang, "computed");
  EXPECT_EQ(g1.min_member, 3);  // leaves' minimums: 1 + 2
  EXPECT_EQ(g1.min_sub_group, 0);
  EXPECT_EQ(g1.pods, 5);
  EXPECT_EQ(Shape(g1), (std::vector<std::string>{"top parent= min=0 minSub=2 pods=5",
                                                 "l1 parent=top min=1 minSub=0 pods=3",
                                                 "l2 parent=top min=2 minSub=0 pods=2"}));
  // Resources from the leaf that names its component instance: 3 pods of 2 CPUs, 1 at minimum.
  EXPECT_EQ(g1.resources, (ResourceList{{"cpu", 6000}}));
  EXPECT_EQ(g1.min_resources, (ResourceList{{"cpu", 2000}}));
  EXPECT_EQ(plans.gangs[1].min_member, 4);
  EXPECT_EQ(plans.gangs[1].min_sub_group, 1);
  ASSERT_EQ(plans.pods.size(), 4u);
  EXPECT_EQ(plans.pods[0].gang, "g1");
  EXPECT_EQ(plans.pods[0].sub_group, "l2");
  EXPECT_EQ(plans.pods[1].gang, "g2");
  EXPECT_EQ(plans.pods[1].sub_group, "");  // no leaf of that name
  EXPECT_EQ(plans.pods[2].gang, "");
  EXPECT_EQ(plans.pods[2].reason,
            "the pod's gang \"g9\" (computed.podGang of gang computed) is not among the planned "
            "gangs");
  EXPECT_EQ(plans.pods[3].reason, "computed.podGang of gang computed gives no gang for the pod");
}

TEST(GangPlanComputedTest, ObjectsThatCannotBeGangs) {
  const Value app = ComputedApp();
  EXPECT_EQ(PlanError(ComputedDefinition("1"), app),
            "gang computed (computed.gangs result 0): gave 1, want an object");
  EXPECT_EQ(PlanError(ComputedDefinition("{}"), app),
            "gang computed (computed.gangs result 0): has no name");
  EXPECT_EQ(
      PlanError(ComputedDefinition(R"({name: "g", subGroups: [{name: "a", parent: "b"}]})"), app),
      "gang computed g subgroup a: parent \"b\" is not an earlier subgroup");
  EXPECT_EQ(
      PlanError(ComputedDefinition(R"({name: "g", subGroups: [{name: "a"}, {name: "a"}]})"), app),
      "gang computed g: subgroup name \"a\" appears twice");
  EXPECT_EQ(
      PlanError(ComputedDefinition(R"({name: "g", subGroups: [{name: "a", component: "zz"}]})"),
                app),
      "gang computed g subgroup a: names unknown component \"zz\"");
  EXPECT_EQ(PlanError(ComputedDefinition(
                          R"({name: "g", subGroups: [{name: "a", minMember: 3, pods: 2}]})"),
                      app),
            "gang computed g subgroup a: minMember 3 is more than its 2 pods");
  EXPECT_EQ(
      PlanError(ComputedDefinition(R"({name: "g", subGroups: [{name: "a", pods: -1}]})"), app),
      "gang computed g subgroup a: pods is -1, want an integer from 0 to 2147483647");
  EXPECT_EQ(PlanError(ComputedDefinition(R"({name: "g"}, {name: "g"})"), app),
            "two gangs are named \"g\"");
}

}  // namespace
}  // namespace wmap
