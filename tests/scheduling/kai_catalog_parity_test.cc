// The built-in catalog's gangs against KAI Scheduler's native pod-grouper plugins: for each type
// KAI has a plugin for, the PodGroup `wmap gang --for kai` emits for a workload has the name
// scheme, minMember, subgroup tree and subgroup minimums that the plugin gives the same workload,
// and every pod joins the subgroup the plugin would put it in. One difference on purpose: where a
// plugin gives the root both minMember and minSubGroup, which KAI's PodGroup webhook refuses,
// the root has minSubGroup only. The expected PodGroups are
// written out by hand from the plugins' behaviour (JobSet: parent per replicatedJob, leaf per
// Job index; LeaderWorkerSet: one PodGroup per group; Ray: headgroup plus one per worker group;
// PyTorch: master and worker; MPI, TensorFlow, XGBoost and JAX: one flat group; Notebook and
// Pod: their one pod; Job, StatefulSet: one group needing 1 pod unless annotated; CronJob: one
// per spawned Job; ReplicaSet, SeldonDeployment, VirtualMachineInstance and Tekton runs: KAI's
// default grouper, one group needing 1 pod; Grove and Dynamo on Grove: one PodGroup per PodGang
// Grove computes, a subgroup per PodClique).
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

std::vector<Value> Documents(const std::string& text) {
  auto docs = yaml::ParseStream(text);
  EXPECT_TRUE(docs.ok()) << (docs.ok() ? "" : docs.error().message);
  std::vector<Value> values;
  if (docs.ok()) {
    for (const yaml::Document& d : *docs) values.push_back(d.value);
  }
  return values;
}

Value Yaml(const std::string& text) { return Documents(text).at(0); }

// What KAI gets: the PodGroups (validated against KAI's CRD) and, per pod, "<pod-group-name>
// <subgroup label>" as the patches set them.
struct KaiResult {
  std::vector<Value> pod_groups;
  std::vector<std::string> pods;
};

KaiResult Kai(const std::string& stem, const std::string& workload_yaml,
              const std::string& pods_yaml = "") {
  const Definition d = CatalogDefinition(stem);
  const Value object = Yaml(workload_yaml);
  const std::vector<Value> pods = pods_yaml.empty() ? std::vector<Value>{} : Documents(pods_yaml);
  Workload w(d, object);
  Result<GangPlans> plans = PlanGangs(w, pods);
  KaiResult out;
  if (!plans.ok()) {
    ADD_FAILURE() << plans.error().message;
    return out;
  }
  for (const PodGangAssignment& a : plans->pods) {
    if (a.gang.empty()) ADD_FAILURE() << a.pod << " joins no gang: " << a.reason;
  }
  Result<SchedulerObjects> objects = BuildSchedulerObjects(Scheduler::kKai, w, *plans);
  if (!objects.ok()) {
    ADD_FAILURE() << objects.error().message;
    return out;
  }
  for (const Value& o : objects->objects) {
    ExpectValid(o);
    out.pod_groups.push_back(o);
  }
  for (const Value& patch : objects->pod_patches) {
    const Value* metadata = patch.find("metadata");
    const Value* annotations = metadata->find("annotations");
    const Value* labels = metadata->find("labels");
    const Value* group = annotations ? annotations->find("pod-group-name") : nullptr;
    const Value* leaf = labels ? labels->find("kai.scheduler/subgroup-name") : nullptr;
    out.pods.push_back(std::string(metadata->find("name")->as_string()) + " -> " +
                       (group ? std::string(group->as_string()) : "") + " " +
                       (leaf ? std::string(leaf->as_string()) : ""));
  }
  return out;
}

std::string Name(const Value& pod_group) {
  return std::string(pod_group.find("metadata")->find("name")->as_string());
}

// The spec a plugin gives, compared as values (field order does not matter).
void ExpectSpec(const Value& pod_group, const std::string& spec_yaml) {
  const Value want = Yaml(spec_yaml);
  const Value* got = pod_group.find("spec");
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(*got, want) << "got:\n" << json::ToString(*got) << "\nwant:\n" << json::ToString(want);
}

TEST(KaiCatalogParity, JobSetParentPerReplicatedJobLeafPerJobIndex) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("jobset-x-k8s-io-jobset-v1alpha2", R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: train, namespace: ml, uid: 0b5e-js}
spec:
  replicatedJobs:
    - name: driver
      replicas: 1
      template: {spec: {parallelism: 1, completions: 1, template: {spec: {containers: [{name: d, image: x}]}}}}
    - name: workers
      replicas: 3
      template: {spec: {parallelism: 2, completions: 2, template: {spec: {containers: [{name: w, image: x}]}}}}
)",
                    R"(
metadata: {name: train-workers-2-1-abcde, labels: {jobset.sigs.k8s.io/replicatedjob-name: workers, jobset.sigs.k8s.io/job-index: "2"}}
---
metadata: {name: train-driver-0-0-fghij, labels: {jobset.sigs.k8s.io/replicatedjob-name: driver, jobset.sigs.k8s.io/job-index: "0"}}
)");
  ASSERT_EQ(r.pod_groups.size(), 1u);
  // KAI: root minSubGroup = the number of replicatedJobs (AnyOrder); a parent per replicatedJob
  // with minSubGroup = its replicas; leaves <rj>-replica-<index> with minMember = parallelism.
  EXPECT_EQ(Name(r.pod_groups[0]), "pg-train-0b5e-js");
  ExpectSpec(r.pod_groups[0], R"(
minSubGroup: 2
subGroups:
  - {name: driver, minSubGroup: 1}
  - {name: driver-replica-0, parent: driver, minMember: 1}
  - {name: workers, minSubGroup: 3}
  - {name: workers-replica-0, parent: workers, minMember: 2}
  - {name: workers-replica-1, parent: workers, minMember: 2}
  - {name: workers-replica-2, parent: workers, minMember: 2}
)");
  EXPECT_EQ(r.pods, (std::vector<std::string>{
                        "train-workers-2-1-abcde -> pg-train-0b5e-js workers-replica-2",
                        "train-driver-0-0-fghij -> pg-train-0b5e-js driver-replica-0"}));
}

TEST(KaiCatalogParity, JobSetInOrderStartupNeedsOneReplicatedJob) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("jobset-x-k8s-io-jobset-v1alpha2", R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: train, namespace: ml, uid: u1}
spec:
  startupPolicy: {startupPolicyOrder: InOrder}
  replicatedJobs:
    - name: a
      template: {spec: {template: {spec: {containers: [{name: a, image: x}]}}}}
    - name: b
      replicas: 2
      template: {spec: {parallelism: 4, template: {spec: {containers: [{name: b, image: x}]}}}}
)");
  ASSERT_EQ(r.pod_groups.size(), 1u);
  // One replicatedJob suffices: the smallest one (a: 1 Job of 1 pod) sets minMember.
  ExpectSpec(r.pod_groups[0], R"(
minSubGroup: 1
subGroups:
  - {name: a, minSubGroup: 1}
  - {name: a-replica-0, parent: a, minMember: 1}
  - {name: b, minSubGroup: 2}
  - {name: b-replica-0, parent: b, minMember: 4}
  - {name: b-replica-1, parent: b, minMember: 4}
)");
}

TEST(KaiCatalogParity, LeaderWorkerSetOnePodGroupPerGroup) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("leaderworkerset-x-k8s-io-leaderworkerset-v1", R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: vllm, namespace: serve, uid: 9c1d-lws}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 4
    workerTemplate: {spec: {containers: [{name: w, image: vllm}]}}
)",
                    R"(
metadata:
  name: vllm-1
  labels: {leaderworkerset.sigs.k8s.io/group-index: "1", leaderworkerset.sigs.k8s.io/worker-index: "0"}
---
metadata:
  name: vllm-1-3
  labels: {leaderworkerset.sigs.k8s.io/group-index: "1", leaderworkerset.sigs.k8s.io/worker-index: "3"}
---
metadata:
  name: vllm-0-2
  labels: {leaderworkerset.sigs.k8s.io/group-index: "0", leaderworkerset.sigs.k8s.io/worker-index: "2"}
)");
  // KAI: one PodGroup per group index, "<default name>-group-<index>", minMember = size, with
  // the subgroups leader (1) and workers (size - 1).
  ASSERT_EQ(r.pod_groups.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(Name(r.pod_groups[i]), "pg-vllm-9c1d-lws-group-" + std::to_string(i));
    ExpectSpec(r.pod_groups[i], R"(
minSubGroup: 2
subGroups:
  - {name: leader, minMember: 1}
  - {name: workers, minMember: 3}
)");
  }
  EXPECT_EQ(r.pods, (std::vector<std::string>{"vllm-1 -> pg-vllm-9c1d-lws-group-1 leader",
                                              "vllm-1-3 -> pg-vllm-9c1d-lws-group-1 workers",
                                              "vllm-0-2 -> pg-vllm-9c1d-lws-group-0 workers"}));
}

TEST(KaiCatalogParity, RayClusterHeadGroupAndWorkerGroupsWithAutoscalingMinimums) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("ray-io-raycluster-v1", R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: rc
  namespace: ray
  uid: 77aa-rc
  labels: {ray.io/priority-class-name: inference}
spec:
  enableInTreeAutoscaling: true
  headGroupSpec: {template: {spec: {containers: [{name: head, image: ray}]}}}
  workerGroupSpecs:
    - {groupName: cpu, replicas: 4, minReplicas: 1, maxReplicas: 8,
       template: {spec: {containers: [{name: w, image: ray}]}}}
    - {groupName: tpu, replicas: 2, minReplicas: 2, maxReplicas: 2, numOfHosts: 4,
       template: {spec: {containers: [{name: w, image: ray}]}}}
)",
                    R"(
metadata: {name: rc-head-x, labels: {ray.io/node-type: head, ray.io/group: headgroup}}
---
metadata: {name: rc-tpu-worker-y, labels: {ray.io/node-type: worker, ray.io/group: tpu}}
)");
  // KAI: minimum 1 (head) + Σ minReplicas × numOfHosts with in-tree autoscaling; subgroups
  // headgroup and one per worker group; the priority class from ray.io/priority-class-name.
  ASSERT_EQ(r.pod_groups.size(), 1u);
  EXPECT_EQ(Name(r.pod_groups[0]), "pg-rc-77aa-rc");
  ExpectSpec(r.pod_groups[0], R"(
minSubGroup: 3
priorityClassName: inference
subGroups:
  - {name: headgroup, minMember: 1}
  - {name: cpu, minMember: 1}
  - {name: tpu, minMember: 8}
)");
  EXPECT_EQ(r.pods, (std::vector<std::string>{"rc-head-x -> pg-rc-77aa-rc headgroup",
                                              "rc-tpu-worker-y -> pg-rc-77aa-rc tpu"}));

  // Without autoscaling every replica counts: 1 + 4 + 2 × 4.
  KaiResult fixed = Kai("ray-io-raycluster-v1", R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc, uid: u2}
spec:
  headGroupSpec: {template: {spec: {containers: [{name: head, image: ray}]}}}
  workerGroupSpecs:
    - {groupName: cpu, replicas: 4, minReplicas: 1, template: {spec: {containers: [{name: w, image: ray}]}}}
    - {groupName: tpu, replicas: 2, numOfHosts: 4, template: {spec: {containers: [{name: w, image: ray}]}}}
)");
  ASSERT_EQ(fixed.pod_groups.size(), 1u);
  ExpectSpec(fixed.pod_groups[0], R"(
minSubGroup: 3
subGroups:
  - {name: headgroup, minMember: 1}
  - {name: cpu, minMember: 4}
  - {name: tpu, minMember: 8}
)");
}

TEST(KaiCatalogParity, PyTorchJobMasterAndWorkerSubGroups) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("kubeflow-org-pytorchjob-v1", R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: bert, namespace: train, uid: 31ab-pt}
spec:
  runPolicy: {schedulingPolicy: {queue: team-a, priorityClass: high}}
  pytorchReplicaSpecs:
    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: pt}]}}}
    Worker: {replicas: 4, template: {spec: {containers: [{name: pytorch, image: pt}]}}}
)",
                    R"(
metadata: {name: bert-worker-3, labels: {training.kubeflow.org/replica-type: worker, training.kubeflow.org/replica-index: "3"}}
---
metadata: {name: bert-master-0, labels: {training.kubeflow.org/replica-type: master, training.kubeflow.org/replica-index: "0"}}
)");
  // KAI: minMember = Σ replicas; master subgroup = master replicas, worker = the rest.
  ASSERT_EQ(r.pod_groups.size(), 1u);
  EXPECT_EQ(Name(r.pod_groups[0]), "pg-bert-31ab-pt");
  ExpectSpec(r.pod_groups[0], R"(
minSubGroup: 2
queue: team-a
priorityClassName: high
subGroups:
  - {name: master, minMember: 1}
  - {name: worker, minMember: 4}
)");
  EXPECT_EQ(r.pods, (std::vector<std::string>{"bert-worker-3 -> pg-bert-31ab-pt worker",
                                              "bert-master-0 -> pg-bert-31ab-pt master"}));
}

TEST(KaiCatalogParity, PyTorchJobElasticAndSchedulingPolicyMinimums) {
  WMAP_NEEDS_SHARED("schemas");
  // elasticPolicy.minReplicas is the whole job's minimum for KAI; the workers get the rest.
  KaiResult elastic = Kai("kubeflow-org-pytorchjob-v1", R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: el, uid: u3}
spec:
  elasticPolicy: {minReplicas: 3, maxReplicas: 8}
  pytorchReplicaSpecs:
    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: pt}]}}}
    Worker: {replicas: 6, template: {spec: {containers: [{name: pytorch, image: pt}]}}}
)");
  ASSERT_EQ(elastic.pod_groups.size(), 1u);
  ExpectSpec(elastic.pod_groups[0], R"(
minSubGroup: 2
subGroups:
  - {name: master, minMember: 1}
  - {name: worker, minMember: 2}
)");
  // schedulingPolicy.minAvailable wins; a job without a Master has no master subgroup.
  KaiResult workers_only = Kai("kubeflow-org-pytorchjob-v1", R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: wo, uid: u4}
spec:
  elasticPolicy: {minReplicas: 3}
  runPolicy: {schedulingPolicy: {minAvailable: 2}}
  pytorchReplicaSpecs:
    Worker: {replicas: 5, template: {spec: {containers: [{name: pytorch, image: pt}]}}}
)");
  ASSERT_EQ(workers_only.pod_groups.size(), 1u);
  ExpectSpec(workers_only.pod_groups[0], R"(
minSubGroup: 1
subGroups:
  - {name: worker, minMember: 2}
)");
}

TEST(KaiCatalogParity, MpiJobOneFlatGroup) {
  WMAP_NEEDS_SHARED("schemas");
  for (const char* stem : {"kubeflow-org-mpijob-v2beta1", "kubeflow-org-mpijob-v1"}) {
    SCOPED_TRACE(stem);
    const std::string version = std::string(stem).substr(std::string(stem).rfind('-') + 1);
    KaiResult r = Kai(stem, "apiVersion: kubeflow.org/" + version + R"(
kind: MPIJob
metadata: {name: allreduce, namespace: hpc, uid: 5e5e-mpi}
spec:
  mpiReplicaSpecs:
    Launcher: {replicas: 1, template: {spec: {containers: [{name: l, image: mpi}]}}}
    Worker: {replicas: 8, template: {spec: {containers: [{name: w, image: mpi}]}}}
)",
                      R"(
metadata:
  name: allreduce-worker-7
  labels: {training.kubeflow.org/job-role: worker, training.kubeflow.org/replica-type: worker}
)");
    // KAI: one PodGroup, minMember = launcher + workers, no subgroups.
    ASSERT_EQ(r.pod_groups.size(), 1u);
    EXPECT_EQ(Name(r.pod_groups[0]), "pg-allreduce-5e5e-mpi");
    ExpectSpec(r.pod_groups[0], "minMember: 9\n");
    EXPECT_EQ(r.pods, (std::vector<std::string>{"allreduce-worker-7 -> pg-allreduce-5e5e-mpi "}));
  }
  // schedulingPolicy.minAvailable wins; WaitForWorkersReady leaves the launcher out.
  KaiResult min = Kai("kubeflow-org-mpijob-v2beta1", R"(
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: a, uid: u5}
spec:
  runPolicy: {schedulingPolicy: {minAvailable: 4}}
  mpiReplicaSpecs:
    Launcher: {replicas: 1, template: {spec: {containers: [{name: l, image: mpi}]}}}
    Worker: {replicas: 8, template: {spec: {containers: [{name: w, image: mpi}]}}}
)");
  ASSERT_EQ(min.pod_groups.size(), 1u);
  ExpectSpec(min.pod_groups[0], "minMember: 4\n");
  KaiResult wait = Kai("kubeflow-org-mpijob-v2beta1", R"(
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: b, uid: u6}
spec:
  launcherCreationPolicy: WaitForWorkersReady
  mpiReplicaSpecs:
    Launcher: {replicas: 1, template: {spec: {containers: [{name: l, image: mpi}]}}}
    Worker: {replicas: 8, template: {spec: {containers: [{name: w, image: mpi}]}}}
)");
  ASSERT_EQ(wait.pod_groups.size(), 1u);
  ExpectSpec(wait.pod_groups[0], "minMember: 8\n");
}

TEST(KaiCatalogParity, GrovePodGroupPerPodGangWithScaledScalingGroupReplicas) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("grove-io-podcliqueset-v1alpha1", R"(
apiVersion: grove.io/v1alpha1
kind: PodCliqueSet
metadata: {name: serve, namespace: infer, uid: 4f4f-pcs}
spec:
  replicas: 1
  template:
    cliques:
      - {name: frontend, spec: {replicas: 2, minAvailable: 1, podSpec: {containers: [{name: f, image: x}]}}}
      - {name: pleader, spec: {replicas: 1, podSpec: {containers: [{name: l, image: x}]}}}
      - {name: pworker, spec: {replicas: 3, minAvailable: 2, podSpec: {containers: [{name: w, image: x}]}}}
    podCliqueScalingGroups:
      - {name: prefill, cliqueNames: [pleader, pworker], replicas: 3, minAvailable: 2}
)",
                    R"(
metadata:
  name: serve-0-prefill-2-pworker-abcde
  labels: {grove.io/podgang: serve-0-prefill-0, grove.io/podclique: serve-0-prefill-2-pworker}
---
metadata:
  name: serve-0-frontend-fghij
  labels: {grove.io/podgang: serve-0, grove.io/podclique: serve-0-frontend}
)");
  // Grove: a base PodGang per PodCliqueSet replica with the standalone cliques and the scaling
  // group replicas below minAvailable; one scaled PodGang per replica above. KAI's plugin: a
  // subgroup per PodGang podgroup with its minReplicas, minMember their sum. (KAI names the
  // PodGroup from the PodGang object, pg-<podgang>-<podgang uid>; the plan uses the PodGang name.)
  ASSERT_EQ(r.pod_groups.size(), 2u);
  EXPECT_EQ(Name(r.pod_groups[0]), "serve-0");
  ExpectSpec(r.pod_groups[0], R"(
minMember: 7
subGroups:
  - {name: serve-0-frontend, minMember: 1}
  - {name: serve-0-prefill-0-pleader, minMember: 1}
  - {name: serve-0-prefill-0-pworker, minMember: 2}
  - {name: serve-0-prefill-1-pleader, minMember: 1}
  - {name: serve-0-prefill-1-pworker, minMember: 2}
)");
  EXPECT_EQ(Name(r.pod_groups[1]), "serve-0-prefill-0");
  ExpectSpec(r.pod_groups[1], R"(
minMember: 3
subGroups:
  - {name: serve-0-prefill-2-pleader, minMember: 1}
  - {name: serve-0-prefill-2-pworker, minMember: 2}
)");
  EXPECT_EQ(r.pods,
            (std::vector<std::string>{"serve-0-prefill-2-pworker-abcde -> serve-0-prefill-0 "
                                      "serve-0-prefill-2-pworker",
                                      "serve-0-frontend-fghij -> serve-0 serve-0-frontend"}));
}

TEST(KaiCatalogParity, DynamoOnGroveGroupsByThePodGangsOfItsPodCliqueSet) {
  WMAP_NEEDS_SHARED("schemas");
  for (const char* stem :
       {"nvidia-com-dynamographdeployment-v1beta1", "nvidia-com-dynamographdeployment-v1alpha1"}) {
    SCOPED_TRACE(stem);
    const bool beta = std::string(stem).ends_with("v1beta1");
    const std::string spec = beta ? R"(
spec:
  components:
    - {name: Frontend, componentType: frontend, replicas: 1}
    - {name: decode, componentType: worker, replicas: 3, minAvailable: 2, multinode: {nodeCount: 4}}
)"
                                  : R"(
spec:
  services:
    Frontend: {componentType: frontend, replicas: 1}
    decode: {componentType: worker, replicas: 3, minAvailable: 2, multinode: {nodeCount: 4}}
)";
    KaiResult r =
        Kai(stem,
            std::string("apiVersion: nvidia.com/") + (beta ? "v1beta1" : "v1alpha1") +
                "\nkind: DynamoGraphDeployment\nmetadata: {name: g, uid: 6d6d-dgd, annotations: "
                "{nvidia.com/enable-grove: \"true\"}}" +
                spec,
            R"(
metadata:
  name: g-0-decode-0-decode-wkr-1
  labels: {grove.io/podgang: g-0, grove.io/podclique: g-0-decode-0-decode-wkr}
)");
    // The PodCliqueSet Dynamo generates: clique <name> (lower case) per single-node component,
    // a scaling group per multi-node one with cliques <name>-ldr and <name>-wkr, every clique
    // needing 1 pod; scaling-group units below minAvailable in the base PodGang <graph>-0.
    ASSERT_EQ(r.pod_groups.size(), 2u);
    EXPECT_EQ(Name(r.pod_groups[0]), "g-0");
    ExpectSpec(r.pod_groups[0], R"(
minMember: 5
subGroups:
  - {name: g-0-frontend, minMember: 1}
  - {name: g-0-decode-0-decode-ldr, minMember: 1}
  - {name: g-0-decode-0-decode-wkr, minMember: 1}
  - {name: g-0-decode-1-decode-ldr, minMember: 1}
  - {name: g-0-decode-1-decode-wkr, minMember: 1}
)");
    EXPECT_EQ(Name(r.pod_groups[1]), "g-0-decode-0");
    ExpectSpec(r.pod_groups[1], R"(
minMember: 2
subGroups:
  - {name: g-0-decode-2-decode-ldr, minMember: 1}
  - {name: g-0-decode-2-decode-wkr, minMember: 1}
)");
    EXPECT_EQ(
        r.pods,
        (std::vector<std::string>{"g-0-decode-0-decode-wkr-1 -> g-0 g-0-decode-0-decode-wkr"}));
  }
}

TEST(KaiCatalogParity, KubeflowDistributedJobsOneFlatGroup) {
  WMAP_NEEDS_SHARED("schemas");
  struct Case {
    const char* stem;
    const char* kind;
    const char* specs;
  };
  for (const Case& c : {Case{"kubeflow-org-tfjob-v1", "TFJob", "tfReplicaSpecs"},
                        Case{"kubeflow-org-xgboostjob-v1", "XGBoostJob", "xgbReplicaSpecs"},
                        Case{"kubeflow-org-jaxjob-v1", "JAXJob", "jaxReplicaSpecs"}}) {
    SCOPED_TRACE(c.stem);
    const bool jax = std::string(c.kind) == "JAXJob";
    const std::string specs =
        std::string("  ") + c.specs + ":\n" +
        (jax ? ""
             : "    Master: {replicas: 1, template: {spec: {containers: [{name: m, image: "
               "x}]}}}\n") +
        "    Worker: {replicas: 3, template: {spec: {containers: [{name: w, image: x}]}}}\n";
    const std::string head = std::string("apiVersion: kubeflow.org/v1\nkind: ") + c.kind +
                             "\nmetadata: {name: j, uid: 1a1a-kf}\nspec:\n";
    // KAI: one PodGroup of Σ replicas; schedulingPolicy.minAvailable when set.
    KaiResult all = Kai(c.stem, head + specs);
    ASSERT_EQ(all.pod_groups.size(), 1u);
    EXPECT_EQ(Name(all.pod_groups[0]), "pg-j-1a1a-kf");
    ExpectSpec(all.pod_groups[0], jax ? "minMember: 3\n" : "minMember: 4\n");
    KaiResult min =
        Kai(c.stem, head + "  runPolicy: {schedulingPolicy: {minAvailable: 2}}\n" + specs);
    ASSERT_EQ(min.pod_groups.size(), 1u);
    ExpectSpec(min.pod_groups[0], "minMember: 2\n");
  }
}

TEST(KaiCatalogParity, RayJobAndRayServiceGroupTheirRayCluster) {
  WMAP_NEEDS_SHARED("schemas");
  const std::string cluster = R"(
    enableInTreeAutoscaling: true
    headGroupSpec: {template: {spec: {containers: [{name: head, image: ray}]}}}
    workerGroupSpecs:
      - {groupName: gpu, replicas: 3, minReplicas: 1, numOfHosts: 2,
         template: {spec: {containers: [{name: w, image: ray}]}}}
)";
  const std::string want = R"(
minSubGroup: 2
priorityClassName: batch
subGroups:
  - {name: headgroup, minMember: 1}
  - {name: gpu, minMember: 2}
)";
  KaiResult job = Kai("ray-io-rayjob-v1", R"(
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj, uid: 2b2b-rj, labels: {ray.io/priority-class-name: batch}}
spec:
  entrypoint: python train.py
  rayClusterSpec:)" + cluster,
                      R"(
metadata: {name: rj-worker-1, labels: {ray.io/node-type: worker, ray.io/group: gpu}}
)");
  // KAI: the PodGroup is the RayJob's (pg-<rayjob>-<uid>), sized from its RayCluster.
  ASSERT_EQ(job.pod_groups.size(), 1u);
  EXPECT_EQ(Name(job.pod_groups[0]), "pg-rj-2b2b-rj");
  ExpectSpec(job.pod_groups[0], want);
  EXPECT_EQ(job.pods, (std::vector<std::string>{"rj-worker-1 -> pg-rj-2b2b-rj gpu"}));
  KaiResult service = Kai("ray-io-rayservice-v1", R"(
apiVersion: ray.io/v1
kind: RayService
metadata: {name: rs, uid: 3c3c-rs, labels: {ray.io/priority-class-name: batch}}
spec:
  rayClusterConfig:)" + cluster);
  ASSERT_EQ(service.pod_groups.size(), 1u);
  EXPECT_EQ(Name(service.pod_groups[0]), "pg-rs-3c3c-rs");
  ExpectSpec(service.pod_groups[0], want);
}

TEST(KaiCatalogParity, NotebookOnePodGroupOfItsPod) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("kubeflow-org-notebook-v1", R"(
apiVersion: kubeflow.org/v1
kind: Notebook
metadata: {name: nb, namespace: lab, uid: 5d5d-nb}
spec:
  template: {spec: {containers: [{name: nb, image: jupyter}]}}
)");
  ASSERT_EQ(r.pod_groups.size(), 1u);
  EXPECT_EQ(Name(r.pod_groups[0]), "pg-nb-5d5d-nb");
  ExpectSpec(r.pod_groups[0], "minMember: 1\n");
}

TEST(KaiCatalogParity, CoreTypesOneGroupNeedingOnePodUnlessAnnotated) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult job = Kai("batch-job-v1", R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, uid: 7e7e-job}
spec:
  parallelism: 4
  template: {spec: {restartPolicy: Never, containers: [{name: t, image: x}]}}
)");
  ASSERT_EQ(job.pod_groups.size(), 1u);
  EXPECT_EQ(Name(job.pod_groups[0]), "pg-train-7e7e-job");
  ExpectSpec(job.pod_groups[0], "minMember: 1\n");
  KaiResult annotated = Kai("batch-job-v1", R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, uid: 7e7e-job, annotations: {kai.scheduler/batch-min-member: "4"}}
spec:
  parallelism: 4
  template: {spec: {restartPolicy: Never, containers: [{name: t, image: x}]}}
)");
  ASSERT_EQ(annotated.pod_groups.size(), 1u);
  ExpectSpec(annotated.pod_groups[0], "minMember: 4\n");

  KaiResult sts = Kai("apps-statefulset-v1", R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, uid: 8f8f-sts, annotations: {kai.scheduler/min-member: "3"}}
spec:
  replicas: 3
  podManagementPolicy: Parallel
  selector: {matchLabels: {app: db}}
  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: d, image: x}]}}
)");
  ASSERT_EQ(sts.pod_groups.size(), 1u);
  EXPECT_EQ(Name(sts.pod_groups[0]), "pg-db-8f8f-sts");
  ExpectSpec(sts.pod_groups[0], "minMember: 3\n");

  KaiResult pod = Kai("core-pod-v1", R"(
apiVersion: v1
kind: Pod
metadata: {name: solo, uid: 9a9a-pod}
spec: {containers: [{name: s, image: x}]}
)");
  ASSERT_EQ(pod.pod_groups.size(), 1u);
  EXPECT_EQ(Name(pod.pod_groups[0]), "pg-solo-9a9a-pod");
  ExpectSpec(pod.pod_groups[0], "minMember: 1\n");
}

TEST(KaiCatalogParity, CronJobOneGroupPerSpawnedJob) {
  WMAP_NEEDS_SHARED("schemas");
  KaiResult r = Kai("batch-cronjob-v1", R"(
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, uid: 0c0c-cj}
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    metadata: {annotations: {kai.scheduler/batch-min-member: "2"}}
    spec:
      parallelism: 2
      template: {spec: {restartPolicy: Never, containers: [{name: n, image: x}]}}
status:
  active:
    - {apiVersion: batch/v1, kind: Job, name: nightly-29000000, uid: j1}
    - {apiVersion: batch/v1, kind: Job, name: nightly-29001440, uid: j2}
)",
                    R"(
metadata:
  name: nightly-29001440-abcde
  labels: {batch.kubernetes.io/job-name: nightly-29001440, batch.kubernetes.io/controller-uid: j2}
)");
  // KAI: the cronjob plugin applies the default grouper to the pod's Job: pg-<job>-<job uid>,
  // minimum 1 or the Job's kai.scheduler/batch-min-member.
  ASSERT_EQ(r.pod_groups.size(), 2u);
  EXPECT_EQ(Name(r.pod_groups[0]), "pg-nightly-29000000-j1");
  EXPECT_EQ(Name(r.pod_groups[1]), "pg-nightly-29001440-j2");
  ExpectSpec(r.pod_groups[1], "minMember: 2\n");
  EXPECT_EQ(r.pods,
            (std::vector<std::string>{"nightly-29001440-abcde -> pg-nightly-29001440-j2 "}));
}

TEST(KaiCatalogParity, DefaultGrouperTypesOneGroupNeedingOnePod) {
  WMAP_NEEDS_SHARED("schemas");
  for (const char* stem : {"apps-replicaset-v1", "machinelearning-seldon-io-seldondeployment-v1",
                           "kubevirt-io-virtualmachineinstance-v1", "tekton-dev-pipelinerun-v1",
                           "tekton-dev-taskrun-v1"}) {
    SCOPED_TRACE(stem);
    const std::filesystem::path manifest =
        std::filesystem::path(WMAP_SOURCE_DIR) / "catalog" / "testdata" / stem / "manifest.yaml";
    const std::string text = ReadFile(manifest);
    const Value object = Yaml(text);
    const Value* metadata = object.find("metadata");
    ASSERT_NE(metadata, nullptr);
    const Value* uid = metadata->find("uid");
    const std::string name = std::string(metadata->find("name")->as_string());
    KaiResult r = Kai(stem, text);
    ASSERT_EQ(r.pod_groups.size(), 1u);
    EXPECT_EQ(Name(r.pod_groups[0]),
              "pg-" + name + (uid ? "-" + std::string(uid->as_string()) : std::string()));
    EXPECT_EQ(*r.pod_groups[0].find("spec")->find("minMember"), Value::Int(1));
  }
}

}  // namespace
}  // namespace wmap
