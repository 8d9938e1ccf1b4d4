// The shared schema documents: every one loads, the kinds the catalog needs are indexed, and
// real-shaped objects are accepted or rejected as the API server would.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "schema_test_support.h"
#include "shared_data.h"

namespace wmap::schema {
namespace {

using testing::AllSchemas;
using ::testing::Contains;
using testing::CoreSchemas;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Messages;

TEST(RealSchemasTest, EveryDocumentLoadsAndKindsAreIndexed) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = AllSchemas();
  std::vector<GroupVersionKind> kinds = set.Kinds();
  EXPECT_GT(kinds.size(), 200u);
  for (const auto& [api_version, kind] : std::vector<std::pair<std::string, std::string>>{
           {"v1", "Pod"},
           {"apps/v1", "Deployment"},
           {"apps/v1", "StatefulSet"},
           {"batch/v1", "Job"},
           {"batch/v1", "CronJob"},
           {"jobset.x-k8s.io/v1alpha2", "JobSet"},
           {"kubeflow.org/v1", "PyTorchJob"},
           {"kubeflow.org/v1", "MPIJob"},
           {"kubeflow.org/v2beta1", "MPIJob"},
           {"ray.io/v1", "RayCluster"},
           {"serving.kserve.io/v1beta1", "InferenceService"},
           {"nvidia.com/v1alpha1", "DynamoGraphDeployment"},
           {"kubevirt.io/v1", "VirtualMachineInstance"},
           {"scheduling.k8s.io/v1alpha1", "Workload"},
           {"scheduling.k8s.io/v1alpha2", "PodGroup"},
           {"run.ai/v1alpha1", "Karta"},
           {"leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"},
       }) {
    EXPECT_TRUE(set.Contains(api_version, kind)) << api_version << " " << kind;
  }
}

constexpr std::string_view kJobSet = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: trainer
  namespace: ml
  labels: {kueue.x-k8s.io/queue-name: gpu}
spec:
  successPolicy:
    operator: All
  replicatedJobs:
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 4
        completions: 4
        backoffLimit: 0
        template:
          metadata:
            labels: {role: worker}
          spec:
            restartPolicy: Never
            containers:
            - name: train
              image: ghcr.io/example/train:1.0
              resources:
                limits: {nvidia.com/gpu: 8, memory: 64Gi}
              ports:
              - containerPort: 29500
status:
  conditions:
  - type: StartupPolicyCompleted
    status: "True"
    reason: AllJobsReady
    message: all replicated jobs are ready
    lastTransitionTime: "2025-03-14T09:27:10Z"
  replicatedJobsStatus:
  - {name: workers, ready: 2, succeeded: 0, failed: 0, active: 2, suspended: 0}
)";

std::string Replace(std::string_view text, std::string_view from, std::string_view to) {
  std::string out(text);
  size_t at = out.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) out.replace(at, from.size(), to);
  return out;
}

TEST(RealSchemasTest, JobSet) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  EXPECT_THAT(Messages(set, kJobSet), IsEmpty());
  EXPECT_THAT(Messages(set, Replace(kJobSet, "parallelism: 4", "parallelism: four")),
              ElementsAre("spec.replicatedJobs[0].template.spec.parallelism: Invalid value: "
                          "\"string\": spec.replicatedJobs[0].template.spec.parallelism in body "
                          "must be of type integer: \"string\""));
  EXPECT_THAT(Messages(set, Replace(kJobSet, "operator: All", "operator: Some")),
              ElementsAre("spec.successPolicy.operator: Unsupported value: \"Some\": supported "
                          "values: \"All\", \"Any\""));
  EXPECT_THAT(Messages(set, Replace(kJobSet, "  - name: workers\n    replicas: 2",
                                    "  - replicas: 2\n    workers: true")),
              ElementsAre(".spec.replicatedJobs[0].workers: field not declared in schema",
                          "spec.replicatedJobs[0].name: Required value"));
  // metav1.Condition requires a message.
  EXPECT_THAT(Messages(set, Replace(kJobSet, "    message: all replicated jobs are ready\n", "")),
              ElementsAre("status.conditions[0].message: Required value"));
}

constexpr std::string_view kPod = R"(apiVersion: v1
kind: Pod
metadata:
  name: trainer-workers-0-0-abcde
  namespace: ml
  labels: {jobset.sigs.k8s.io/jobset-name: trainer}
  ownerReferences:
  - apiVersion: batch/v1
    kind: Job
    name: trainer-workers-0
    uid: 0b7f3d1c-1111-4a2b-9c3d-123456789abc
    controller: true
    blockOwnerDeletion: true
  creationTimestamp: "2025-03-14T09:27:00Z"
spec:
  restartPolicy: Never
  schedulerName: kai-scheduler
  containers:
  - name: train
    image: ghcr.io/example/train:1.0
    imagePullPolicy: IfNotPresent
    resources:
      requests: {cpu: "4", memory: 32Gi, nvidia.com/gpu: 8}
      limits: {cpu: 4, nvidia.com/gpu: 8}
    ports:
    - {containerPort: 29500, name: c10d, protocol: TCP}
    readinessProbe:
      httpGet: {path: /healthz, port: http}
status:
  phase: Running
  podIP: 10.0.0.12
  startTime: "2025-03-14T09:27:05Z"
  conditions:
  - {type: Ready, status: "True", lastTransitionTime: "2025-03-14T09:27:30Z"}
  containerStatuses:
  - name: train
    ready: true
    restartCount: 0
    image: ghcr.io/example/train:1.0
    imageID: ""
    state:
      running: {startedAt: "2025-03-14T09:27:20Z"}
)";

TEST(RealSchemasTest, Pod) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  EXPECT_THAT(Messages(set, kPod), IsEmpty());
  EXPECT_THAT(
      Messages(set, Replace(kPod, "imagePullPolicy: IfNotPresent", "imagePulPolicy: IfNotPresent")),
      ElementsAre(".spec.containers[0].imagePulPolicy: field not declared in schema"));
  EXPECT_THAT(Messages(set, Replace(kPod, "  - name: train\n    image:", "  - image:")),
              ElementsAre("spec.containers[0].name: Required value"));
  EXPECT_THAT(Messages(set, Replace(kPod, "restartCount: 0", "restartCount: none")),
              ElementsAre("status.containerStatuses[0].restartCount: Invalid value: \"string\": "
                          "status.containerStatuses[0].restartCount in body must be of type "
                          "integer: \"string\""));
  EXPECT_THAT(Messages(set, Replace(kPod, "startedAt: \"2025-03-14T09:27:20Z\"",
                                    "startedAt: \"2025-03-14T09:27:20\"")),
              ElementsAre("status.containerStatuses[0].state.running.startedAt: Invalid value: "
                          "\"2025-03-14T09:27:20\": status.containerStatuses[0].state.running."
                          "startedAt in body must be of type date-time: \"2025-03-14T09:27:20\""));
  EXPECT_THAT(Messages(set, Replace(kPod, "memory: 32Gi", "memory: 32 gigs")),
              ElementsAre(::testing::StartsWith(
                  "spec.containers[0].resources.requests[memory]: Invalid value: \"32 gigs\": "
                  "quantities must match")));
  EXPECT_THAT(Messages(set, Replace(kPod, "    uid: 0b7f3d1c-1111-4a2b-9c3d-123456789abc\n", "")),
              ElementsAre("metadata.ownerReferences[0].uid: Required value"));
}

constexpr std::string_view kPyTorchJob = R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: mnist
  namespace: ml
spec:
  runPolicy:
    cleanPodPolicy: None
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers:
          - name: pytorch
            image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
            resources:
              limits: {nvidia.com/gpu: 1}
    Worker:
      replicas: 3
      restartPolicy: OnFailure
      template:
        spec:
          containers:
          - name: pytorch
            image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
status:
  conditions:
  - type: Running
    status: "True"
    reason: PyTorchJobRunning
    lastTransitionTime: "2025-03-14T09:27:10Z"
  replicaStatuses:
    Master: {active: 1}
    Worker: {active: 3}
)";

TEST(RealSchemasTest, PyTorchJob) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  EXPECT_THAT(Messages(set, kPyTorchJob), IsEmpty());
  EXPECT_THAT(Messages(set, Replace(kPyTorchJob, "replicas: 3", "replicas: \"3\"")),
              ElementsAre("spec.pytorchReplicaSpecs[Worker].replicas: Invalid value: \"string\": "
                          "spec.pytorchReplicaSpecs[Worker].replicas in body must be of type "
                          "integer: \"string\""));
  EXPECT_THAT(Messages(set, Replace(kPyTorchJob, "runPolicy:", "runPolicyy:")),
              ElementsAre(".spec.runPolicyy: field not declared in schema"));
  EXPECT_THAT(Messages(set, Replace(kPyTorchJob,
                                    "          - name: pytorch\n            image: "
                                    "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-"
                                    "45c5727\n            resources",
                                    "          - image: x\n            resources")),
              ElementsAre("spec.pytorchReplicaSpecs[Master].template.spec.containers[0].name: "
                          "Required value"));
}

TEST(RealSchemasTest, BuiltinListsOnlyWarnAboutDuplicates) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  // The API server accepts duplicate container ports (with a warning).
  EXPECT_THAT(Messages(set, Replace(kPod, "- {containerPort: 29500, name: c10d, protocol: TCP}",
                                    "- {containerPort: 29500, name: c10d, protocol: TCP}\n"
                                    "    - {containerPort: 29500, name: metrics}")),
              IsEmpty());
  EXPECT_THAT(Messages(set, Replace(kPod, "    blockOwnerDeletion: true\n",
                                    "    blockOwnerDeletion: true\n"
                                    "  - {apiVersion: v1, kind: Node, name: node-1, uid: u2, "
                                    "controller: true}\n")),
              ElementsAre("metadata.ownerReferences: Invalid value: 2 references: Only one "
                          "reference can have Controller set to true. Found \"true\" in "
                          "references for Job/trainer-workers-0 and Node/node-1"));
}

TEST(RealSchemasTest, DeploymentAndVirtualMachineInstance) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  EXPECT_THAT(Messages(set, R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
)"),
              IsEmpty());
  EXPECT_THAT(Messages(set, R"(apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: vm}
spec:
  domain:
    resources: {requests: {memory: 1Gi, cpu: 1}}
    devices:
      disks: [{name: root, disk: {bus: virtio}}]
  volumes:
  - name: root
    containerDisk: {image: quay.io/containerdisks/fedora:40}
)"),
              IsEmpty());
  EXPECT_THAT(Messages(set,
                       "apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\n"
                       "metadata: {name: vm}\nspec: {domain: {devices: {}, cpus: 2}}\n"),
              ElementsAre(".spec.domain.cpus: field not declared in schema"));
}

}  // namespace
}  // namespace wmap::schema
