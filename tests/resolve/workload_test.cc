// Evaluation semantics of upstream's library (sections 1.4 and 2.2-2.3 of the reference):
// results become items, pairing with instance ids, scale and fragment zipping, status matching,
// errors that propagate, and concurrent reads.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "resolve/resolve_test_support.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/workload.h"

namespace wmap {
namespace {

using test_support::Json;

// A definition whose root is `root_extra` (YAML lines at the component's indentation) plus an
// optional child component.
Definition Make(const std::string& root_extra, const std::string& child = "",
                const LoadOptions& options = {}) {
  std::string text =
      "apiVersion: run.ai/v1alpha1\n"
      "kind: Karta\n"
      "metadata: {name: test}\n"
      "spec:\n"
      "  structureDefinition:\n"
      "    rootComponent:\n"
      "      name: root\n"
      "      kind: {group: example.com, version: v1, kind: Thing}\n" +
      root_extra;
  if (!child.empty())
    text += "    childComponents:\n      - name: child\n        ownerRef: root\n" + child;
  LoadResult r = LoadDefinitions(text, "test.yaml", options);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].ToString()) << "\n" << text;
  return r.definitions.at(0);
}

const std::string kNoStatus = "      statusDefinition: {statusMappings: {}}\n";

std::vector<std::string> Matched(const Definition& d, const std::string& object) {
  Result<std::optional<WorkloadStatus>> s = Workload(d, Json(object)).Status();
  EXPECT_TRUE(s.ok()) << s.error().message;
  std::vector<std::string> out;
  if (!s.ok()) return out;
  for (ResourceStatus r : (*s)->matched) out.emplace_back(ResourceStatusName(r));
  return out;
}

TEST(ItemsTest, MissingPathIsOneEmptyItem) {
  Definition d = Make(kNoStatus + "      specDefinition: {podTemplateSpecPath: .spec.template}\n");
  auto t = Workload(d, Json("{}")).PodTemplateSpecs(0);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t->has_value());
  ASSERT_EQ((*t)->size(), 1u);
  EXPECT_TRUE((**t)[0].is_null());
}

TEST(ItemsTest, IteratingNullIsAnErrorAndOptionalIterationIsZeroItems) {
  Definition strict =
      Make(kNoStatus, R"(        specDefinition: {podTemplateSpecPath: '.spec.groups[].template'}
        instanceIdPath: '.spec.groups[].name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  auto t = Workload(strict, Json("{\"spec\": {}}")).PodTemplateSpecs(1);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message,
            "failed to extract pod template specs: JQ execution error for expression "
            "'.spec.groups[].template': cannot iterate over: null");

  Definition optional =
      Make(kNoStatus, R"(        specDefinition: {podTemplateSpecPath: '.spec.groups[]?.template'}
        instanceIdPath: '.spec.groups[]?.name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  Workload w(optional, Json("{\"spec\": {}}"));
  auto ids = w.InstanceIds(1);
  ASSERT_TRUE(ids.ok());
  EXPECT_TRUE(ids->empty());
  auto templates = w.PodTemplateSpecs(1);
  ASSERT_TRUE(templates.ok());
  EXPECT_TRUE((*templates)->empty());
}

TEST(PairingTest, InstanceIdsZipByPositionAndCountsMustMatch) {
  Definition d =
      Make(kNoStatus, R"(        specDefinition: {podTemplateSpecPath: '.spec.jobs[].template'}
        scaleDefinition: {replicasPath: '.spec.jobs[0].replicas'}
        instanceIdPath: '.spec.jobs[].name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  Workload w(d, Json(R"({"spec": {"jobs": [{"name": "a", "replicas": 2, "template": {"x": 1}},
                                          {"name": "b", "replicas": 3, "template": {"x": 2}}]}})"));
  auto ids = w.InstanceIds(1);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<std::string>{"a", "b"}));
  auto t = w.PodTemplateSpecs(1);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((**t)[1], Json("{\"x\": 2}"));
  auto scales = w.Scales(1);
  ASSERT_FALSE(scales.ok());
  EXPECT_EQ(scales.error().message, "instance ids count (2) does not match results count (1)");
}

TEST(PairingTest, EmptyInstanceIdIsAnError) {
  Definition d = Make(kNoStatus, R"(        instanceIdPath: '.spec.jobs[].name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  auto ids =
      Workload(d, Json(R"({"spec": {"jobs": [{"name": "a"}, {}, {"name": "c"}]}})")).InstanceIds(1);
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.error().message,
            "failed to extract instance ids for component child: instance id path contained "
            "empty string values [a,,c]");
  auto numbers = Workload(d, Json(R"({"spec": {"jobs": [{"name": 1}]}})")).InstanceIds(1);
  ASSERT_FALSE(numbers.ok());
  EXPECT_EQ(numbers.error().message,
            "failed to extract instance ids for component child: failed to convert object at "
            "index 0 to type string: failed to unmarshal to destination: json: cannot unmarshal "
            "number into Go value of type string");
}

TEST(PairingTest, NoDefinitionIsNotDefinedNotAnError) {
  Definition d = Make(kNoStatus);
  Workload w(d, Json("{}"));
  auto ids = w.InstanceIds(0);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, std::vector<std::string>{""});
  EXPECT_FALSE(w.Scales(0)->has_value());
  EXPECT_FALSE(w.PodTemplateSpecs(0)->has_value());
  EXPECT_FALSE(w.PodSpecs(0)->has_value());
  EXPECT_FALSE(w.PodMetadata(0)->has_value());
  EXPECT_FALSE(w.FragmentedPodSpecs(0)->has_value());
}

TEST(ScaleTest, PathsZipByIndexWithMaxLength) {
  Definition d = Make(kNoStatus, R"(        scaleDefinition:
          replicasPath: '.spec.groups[].replicas'
          minReplicasPath: '.spec.groups[0].min'
          maxReplicasPath: '.spec.groups[].max'
        instanceIdPath: '.spec.groups[].name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  Workload w(d, Json(R"({"spec": {"groups": [{"name": "a", "replicas": 2, "min": 1, "max": 4},
                                            {"name": "b", "replicas": "3"}]}})"));
  auto scales = w.Scales(1);
  ASSERT_TRUE(scales.ok()) << scales.error().message;
  ASSERT_EQ((*scales)->size(), 2u);
  EXPECT_EQ((**scales)[0].replicas, 2);
  EXPECT_EQ((**scales)[0].min_replicas, 1);
  EXPECT_EQ((**scales)[0].max_replicas, 4);
  EXPECT_EQ((**scales)[1].replicas, 3);  // a numeric string
  EXPECT_EQ((**scales)[1].min_replicas, std::nullopt);
  EXPECT_EQ((**scales)[1].max_replicas, std::nullopt);  // null
}

TEST(ScaleTest, ReplicaDecodeErrors) {
  Definition d = Make(kNoStatus + "      scaleDefinition: {replicasPath: .spec.r}\n");
  auto fraction = Workload(d, Json(R"({"spec": {"r": 1.5}})")).Scales(0);
  ASSERT_FALSE(fraction.ok());
  EXPECT_EQ(fraction.error().message,
            "failed to extract scales: failed to convert object at index 0 to type *int32: "
            "failed to unmarshal to destination: json: cannot unmarshal number 1.5 into Go value "
            "of type int32");
  auto word = Workload(d, Json(R"({"spec": {"r": "two"}})")).Scales(0);
  ASSERT_FALSE(word.ok());
  EXPECT_EQ(word.error().message,
            "failed to extract scales: replicas value \"two\" at index 0 is not a number");
  auto big = Workload(d, Json(R"({"spec": {"r": 3000000000}})")).Scales(0);
  ASSERT_FALSE(big.ok());
  auto literal = Make(kNoStatus + "      scaleDefinition: {replicasPath: '\"1\"'}\n");
  auto one = Workload(literal, Json("{}")).Scales(0);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ((**one)[0].replicas, 1);
}

TEST(FragmentTest, FieldsZipByIndexAndTypesAreChecked) {
  Definition d = Make(kNoStatus, R"(        specDefinition:
          fragmentedPodSpecDefinition:
            labelsPath: '.spec.s | .[] | .labels'
            imagePath: '.spec.s | .[] | .image'
            schedulerNamePath: '.spec.s | .[] | .scheduler'
        instanceIdPath: '.spec.s | to_entries[] | .key'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  Workload w(d, Json(R"({"spec": {"s": {"b": {"image": "i2"},
                                       "a": {"image": "i1", "labels": {"k": "v"}}}}})"));
  auto ids = w.InstanceIds(1);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<std::string>{"a", "b"}));  // sorted key order
  auto f = w.FragmentedPodSpecs(1);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((**f)[0].image, Value::String("i1"));
  EXPECT_EQ((**f)[0].labels, Json(R"({"k": "v"})"));
  EXPECT_TRUE((**f)[1].labels.is_null());
  EXPECT_TRUE((**f)[1].scheduler_name.is_null());
  EXPECT_EQ((**f)[1].ToValue(), Json(R"({"image": "i2"})"));

  auto bad =
      Workload(d, Json(R"({"spec": {"s": {"a": {"labels": {"k": 1}}}}})")).FragmentedPodSpecs(1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "failed to extract fragmented pod specs: failed to convert object at index 0 to type "
            "map[string]string: failed to unmarshal to destination: json: cannot unmarshal number "
            "into Go value of type string");
}

const std::string kJobSetLikeStatus = R"(      statusDefinition:
        phaseDefinition: {path: .status.phase}
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: type
          statusFieldName: status
        statusMappings:
          running:
            - byExpression:
                expression: '(.status.jobs // []) | any(.active > 0)'
                expectedResult: "true"
          initializing:
            - byExpression:
                expression: '(.status.jobs // []) | any(.ready == 0)'
                expectedResult: "true"
          completed:
            - byConditions: [{type: Completed, status: "True"}]
          failed:
            - byConditions: [{type: Failed, status: "True", reason: BackoffLimit}]
          degraded:
            - {}
)";

TEST(StatusTest, MultipleStatusesInEvaluationOrder) {
  Definition d = Make(kJobSetLikeStatus);
  EXPECT_EQ(Matched(d, R"({"status": {"jobs": [{"active": 1, "ready": 0}]}})"),
            (std::vector<std::string>{"Running", "Initializing", "Degraded"}));
}

TEST(StatusTest, EmptyMatcherMatchesAndUndefinedWhenNothingMatches) {
  Definition d = Make(kJobSetLikeStatus);
  // degraded has an empty matcher: it always matches.
  EXPECT_EQ(Matched(d, "{}"), std::vector<std::string>{"Degraded"});
  Definition none = Make(R"(      statusDefinition:
        statusMappings:
          running: [{byPhase: Running}]
)");
  EXPECT_EQ(Matched(none, "{}"), std::vector<std::string>{"Undefined"});
}

TEST(StatusTest, LastConditionOfATypeWins) {
  Definition d = Make(kJobSetLikeStatus);
  EXPECT_EQ(Matched(d, R"({"status": {"conditions": [{"type": "Completed", "status": "True"},
                                                     {"type": "Completed", "status": "False"}]}})"),
            std::vector<std::string>{"Degraded"});
  EXPECT_EQ(Matched(d, R"({"status": {"conditions": [{"type": "Completed", "status": "False"},
                                                     {"type": "Completed", "status": "True"}]}})"),
            (std::vector<std::string>{"Completed", "Degraded"}));
}

TEST(StatusTest, ReasonIsReadOnlyWithReasonFieldName) {
  const std::string object =
      R"({"status": {"conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimit"}]}})";
  // With CRD defaults the reason field is "reason": the criterion can match.
  EXPECT_EQ(Matched(Make(kJobSetLikeStatus), object),
            (std::vector<std::string>{"Failed", "Degraded"}));
  // Without them (a file read by upstream's library), reasons are never read.
  LoadOptions offline;
  offline.apply_crd_defaults = false;
  EXPECT_EQ(Matched(Make(kJobSetLikeStatus, "", offline), object),
            std::vector<std::string>{"Degraded"});
}

TEST(StatusTest, PhaseAndConditionsAreReported) {
  Definition d = Make(kJobSetLikeStatus);
  auto s = Workload(d, Json(R"({"status": {"phase": "Pending", "conditions": [
      {"type": "Ready", "status": "False", "message": "m", "reason": "r"}, {"type": 3}]}})"))
               .Status();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->phase, "Pending");
  ASSERT_EQ((*s)->conditions.size(), 2u);
  EXPECT_EQ((*s)->conditions[0].type, "Ready");
  EXPECT_EQ((*s)->conditions[0].status, "False");
  EXPECT_EQ((*s)->conditions[0].message, "m");
  EXPECT_EQ((*s)->conditions[0].reason, "r");
  EXPECT_EQ((*s)->conditions[1].type, "");  // not a string: ignored
}

TEST(StatusTest, NullPhaseIsEmptyAndNoResultIsAbsent) {
  Definition d = Make(R"(      statusDefinition:
        phaseDefinition: {path: '.status.phase'}
        statusMappings: {}
)");
  auto s = Workload(d, Json("{}")).Status();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->phase, "");
  Definition empty = Make(R"(      statusDefinition:
        phaseDefinition: {path: 'empty'}
        statusMappings: {}
)");
  auto none = Workload(empty, Json("{}")).Status();
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE((*none)->phase.has_value());
}

TEST(StatusTest, DecodeAndRuntimeErrorsPropagate) {
  Definition d = Make(kJobSetLikeStatus);
  auto phase = Workload(d, Json(R"({"status": {"phase": 3}})")).Status();
  ASSERT_FALSE(phase.ok());
  EXPECT_EQ(phase.error().message,
            "failed to extract status: failed to extract phase: failed to convert object at index "
            "0 to type string: failed to unmarshal to destination: json: cannot unmarshal number "
            "into Go value of type string");
  auto conditions = Workload(d, Json(R"({"status": {"conditions": {"type": "x"}}})")).Status();
  ASSERT_FALSE(conditions.ok());
  EXPECT_EQ(conditions.error().message,
            "failed to extract status: failed to extract conditions: failed to convert object at "
            "index 0 to type []map[string]interface {}: failed to unmarshal to destination: json: "
            "cannot unmarshal object into Go value of type []map[string]interface {}");
  // `null | any(...)` fails: the error is the operation's result, not "false".
  Definition unguarded = Make(R"(      statusDefinition:
        statusMappings:
          running:
            - byExpression: {expression: '.status.jobs | any(.active > 0)', expectedResult: "true"}
)");
  auto runtime = Workload(unguarded, Json("{}")).Status();
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.error().message,
            "failed to extract status: failed to match status: failed to evaluate matcher: failed "
            "to evaluate ByExpression: JQ execution error for expression '(.status.jobs | "
            "any(.active > 0)) | tostring': cannot iterate over: null");
}

TEST(StatusTest, ExpressionComparesFirstResultAsString) {
  Definition d = Make(R"(      statusDefinition:
        statusMappings:
          running:
            - byExpression: {expression: '.a[]', expectedResult: "1"}
          failed:
            - byExpression: {expression: '.b', expectedResult: "null"}
          completed:
            - byExpression: {expression: 'empty', expectedResult: ""}
)");
  EXPECT_EQ(Matched(d, R"({"a": [1.0, 2]})"), (std::vector<std::string>{"Running", "Failed"}));
  EXPECT_EQ(Matched(d, R"({"a": [2, 1], "b": false})"), std::vector<std::string>{"Undefined"});
}

TEST(BudgetTest, TooManyResultsIsAnError) {
  Definition d = Make(kNoStatus + "      specDefinition: {podSpecPath: '.a[]'}\n");
  std::string items = "[";
  for (int i = 0; i < 1000; ++i) items += (i ? ",{}" : "{}");
  items += "]";
  auto specs = Workload(d, Json("{\"a\": " + items + "}")).PodSpecs(0);
  ASSERT_FALSE(specs.ok());
  EXPECT_EQ(specs.error().message,
            "failed to extract pod specs: query results exceed the allowed number 1000");
}

TEST(ThreadsTest, OneDefinitionManyObjectsManyThreads) {
  Definition d = Make(kJobSetLikeStatus,
                      R"(        specDefinition: {podTemplateSpecPath: '.spec.jobs[].template'}
        scaleDefinition: {replicasPath: '.spec.jobs[].replicas'}
        instanceIdPath: '.spec.jobs[].name'
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.g}}
)");
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        int n = (i + t) % 5 + 1;
        std::string jobs;
        for (int k = 0; k < n; ++k) {
          jobs += (k ? "," : "") + std::string("{\"name\": \"j") + std::to_string(k) +
                  "\", \"replicas\": " + std::to_string(k) + ", \"template\": {}}";
        }
        Result<Value> object =
            json::Parse("{\"spec\": {\"jobs\": [" + jobs +
                        "]}, \"status\": {\"jobs\": [{\"active\": " + std::to_string(i % 2) +
                        ", \"ready\": 1}]}}");
        Workload w(d, *object);
        auto scales = w.Scales(1);
        auto status = w.Status();
        bool ok = scales.ok() && (*scales)->size() == static_cast<size_t>(n) &&
                  (**scales)[n - 1].replicas == n - 1 && status.ok() &&
                  (*status)->matched.front() ==
                      (i % 2 ? ResourceStatus::kRunning : ResourceStatus::kDegraded);
        if (!ok) ++failures[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace wmap
