// The handwritten rules of built-in workloads, on the real Kubernetes OpenAPI documents.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "schema_test_support.h"
#include "shared_data.h"

namespace wmap::schema {
namespace {

using testing::CoreSchemas;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Messages;
using ::testing::StartsWith;

std::string Pod(std::string_view spec) {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: " + std::string(spec) + "\n";
}

TEST(BuiltinRulesTest, PodSpecs) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  EXPECT_THAT(Messages(set, Pod("{containers: [{name: main, image: busybox}]}")), IsEmpty());
  EXPECT_THAT(Messages(set, Pod("{containers: []}")),
              ElementsAre("spec.containers: Required value"));
  EXPECT_THAT(
      Messages(set, Pod("{restartPolicy: Sometimes, initContainers: [{name: main, image: a}],"
                        " containers: [{name: main}, {name: Side_Car, image: b,"
                        " imagePullPolicy: Maybe, ports: [{containerPort: 0, protocol: HTTP}]}]}")),
      ElementsAre("spec.containers[0].name: Duplicate value: \"main\"",
                  "spec.containers[0].image: Required value",
                  StartsWith("spec.containers[1].name: Invalid value: \"Side_Car\": a lowercase "
                             "RFC 1123 label must consist of"),
                  "spec.containers[1].imagePullPolicy: Unsupported value: \"Maybe\": supported "
                  "values: \"Always\", \"IfNotPresent\", \"Never\"",
                  "spec.containers[1].ports[0].containerPort: Invalid value: 0: must be between 1 "
                  "and 65535, inclusive",
                  "spec.containers[1].ports[0].protocol: Unsupported value: \"HTTP\": supported "
                  "values: \"SCTP\", \"TCP\", \"UDP\"",
                  "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: "
                  "\"Always\", \"OnFailure\", \"Never\""));
}

TEST(BuiltinRulesTest, ResourceRequestsStayWithinLimits) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  auto resources = [](std::string_view r) {
    return Pod("{containers: [{name: main, image: busybox, resources: " + std::string(r) + "}]}");
  };
  EXPECT_THAT(Messages(set, resources("{requests: {cpu: 500m, memory: 1Gi}, "
                                      "limits: {cpu: '1', memory: 1024Mi, nvidia.com/gpu: 8}}")),
              IsEmpty());
  EXPECT_THAT(Messages(set, resources("{requests: {cpu: '2', memory: 2Gi, nvidia.com/gpu: 4}, "
                                      "limits: {cpu: 1500m, memory: 2048Mi, nvidia.com/gpu: 8}}")),
              ElementsAre("spec.containers[0].resources.requests[cpu]: Invalid value: \"2\": "
                          "must be less than or equal to cpu limit of 1500m",
                          "spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "
                          "\"4\": must be equal to nvidia.com/gpu limit of 8"));
  // A GPU request needs a GPU limit.
  EXPECT_THAT(Messages(set, resources("{requests: {nvidia.com/gpu: 1, cpu: -1}}")),
              ElementsAre("spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": "
                          "must be greater than or equal to 0",
                          "spec.containers[0].resources.limits: Required value: Limit must be set "
                          "for non overcommitable resources"));
}

TEST(BuiltinRulesTest, ControllersAdmitTheirRestartPoliciesAndMatchTheirSelectors) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = CoreSchemas();
  std::string deployment =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
      "  selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: In, "
      "values: [front]}]}\n"
      "  template:\n    metadata: {labels: {app: web, tier: front}}\n"
      "    spec: {containers: [{name: web, image: nginx}]}\n";
  EXPECT_THAT(Messages(set, deployment), IsEmpty());
  EXPECT_THAT(Messages(set, deployment.replace(deployment.find("tier: front}"), 11, "tier: back")),
              ElementsAre("spec.template.metadata.labels: Invalid value: "
                          "{\"app\":\"web\",\"tier\":\"back\"}: `selector` does not match "
                          "template `labels`"));
  EXPECT_THAT(Messages(set,
                       "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\n"
                       "spec:\n  template:\n    metadata: {labels: {app: db}}\n"
                       "    spec: {restartPolicy: Never, containers: [{name: db, image: pg}]}\n"),
              ElementsAre("spec.selector: Required value",
                          "spec.template.spec.restartPolicy: Unsupported value: \"Never\": "
                          "supported values: \"Always\""));
  // A Job's pods default to restartPolicy Always, which a Job does not admit.
  EXPECT_THAT(Messages(set,
                       "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n"
                       "  template: {spec: {containers: [{name: j, image: busybox}]}}\n"),
              ElementsAre("spec.template.spec.restartPolicy: Unsupported value: \"Always\": "
                          "supported values: \"OnFailure\", \"Never\""));
  EXPECT_THAT(Messages(set,
                       "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n"
                       "  schedule: '*/5 * * * *'\n  jobTemplate:\n    spec:\n"
                       "      template: {spec: {restartPolicy: OnFailure, containers: "
                       "[{name: c}]}}\n"),
              ElementsAre("spec.jobTemplate.spec.template.spec.containers[0].image: Required "
                          "value"));
}

}  // namespace
}  // namespace wmap::schema
