// Pod template changes through definition paths: every change lands where the definition reads
// it back, and the rest of the object is structurally unchanged (same members, same order).
#include "wmap/mutate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "resolve/resolve_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/workload.h"

namespace wmap {
namespace {

using test_support::Catalog;
using test_support::Json;

std::vector<std::string> Keys(const Value& object) {
  std::vector<std::string> out;
  for (const Member& m : object.members()) out.emplace_back(m.key.as_string());
  return out;
}

// Structural equality that also requires the same member order at every level.
::testing::AssertionResult SameDocument(const Value& a, const Value& b,
                                        const std::string& at = "") {
  if (a.type() != b.type() || (!a.is_object() && !a.is_array() && a != b)) {
    return ::testing::AssertionFailure() << "at '" << at << "': " << json::ToCompactString(a)
                                         << " vs " << json::ToCompactString(b);
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return ::testing::AssertionFailure() << "length at '" << at << "'";
    for (size_t i = 0; i < a.size(); ++i) {
      auto r = SameDocument(a[i], b[i], at + "/" + std::to_string(i));
      if (!r) return r;
    }
  }
  if (a.is_object()) {
    if (Keys(a) != Keys(b)) {
      return ::testing::AssertionFailure()
             << "members at '" << at << "': " << json::ToCompactString(a) << " vs "
             << json::ToCompactString(b);
    }
    for (const Member& m : a.members()) {
      auto r = SameDocument(m.value, *b.find(m.key.as_string()),
                            at + "/" + std::string(m.key.as_string()));
      if (!r) return r;
    }
  }
  return ::testing::AssertionSuccess();
}

const char* kJobSet = R"({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
  "metadata": {"name": "js", "labels": {"team": "a"}},
  "spec": {"replicatedJobs": [
      {"name": "driver", "replicas": 1, "template": {"spec": {"parallelism": 1, "template": {
        "metadata": {"labels": {"role": "driver"}},
        "spec": {"restartPolicy": "Never", "containers": [{"name": "rdzv", "image": "img:1"}]}}}}},
      {"name": "workers", "replicas": 2, "template": {"spec": {"parallelism": 4, "template": {
        "spec": {"containers": [{"name": "trainer", "image": "img:1"},
                                {"name": "sidecar", "image": "log:1"}],
                 "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists",
                                  "effect": "NoSchedule"}]}}}}}],
    "suspend": false},
  "status": {"restarts": 0}})";

// The per-instance values of one read (templates, specs, metadata) of `object`; a failed or
// undefined read fails the test and gives no values.
std::vector<Value> Read(const Definition& d, const Value& object, size_t component,
                        Result<std::optional<std::vector<Value>>> (Workload::*read)(size_t) const) {
  Workload w(d, object);
  Result<std::optional<std::vector<Value>>> r = (w.*read)(component);
  EXPECT_TRUE(r.ok() && r.value().has_value());
  if (!r.ok() || !r.value().has_value()) return {};
  return *r.value();
}

std::vector<Value> Templates(const Definition& d, const Value& object, size_t component) {
  return Read(d, object, component, &Workload::PodTemplateSpecs);
}

MutateResult Mutate(const Workload& w, const PodChanges& changes, MutateScope scope = {}) {
  return MutateWorkload(w, scope, changes);
}

// The object with component `c`'s pod templates put back to those of `original`.
Value PutTemplatesBack(const Workload& original, size_t c, const Value& mutated) {
  Workload after(original.definition(), mutated);
  Result<std::vector<std::string>> ids = original.InstanceIds(c);
  EXPECT_TRUE(ids.ok());
  if (!ids.ok()) return Value();
  std::vector<Value> templates = Templates(original.definition(), original.object(), c);
  EXPECT_EQ(templates.size(), ids.value().size());
  Workload::InstanceValues values;
  for (size_t i = 0; i < ids.value().size() && i < templates.size(); ++i) {
    values[ids.value()[i]] = templates[i];
  }
  Result<Value> restored = after.UpdatePodTemplateSpecs(c, values);
  EXPECT_TRUE(restored.ok()) << restored.error().message;
  return restored.ok() ? *restored : Value();
}

TEST(ParseTest, Tolerations) {
  auto equal = ParseToleration("dedicated=gpu:NoSchedule");
  ASSERT_TRUE(equal.ok());
  EXPECT_EQ(equal->key, "dedicated");
  EXPECT_EQ(equal->op, "Equal");
  EXPECT_EQ(equal->value, "gpu");
  EXPECT_EQ(equal->effect, "NoSchedule");
  EXPECT_EQ(json::ToCompactString(equal->ToValue()),
            R"({"effect":"NoSchedule","key":"dedicated","operator":"Equal","value":"gpu"})");
  EXPECT_EQ(Keys(equal->ToValue()),
            (std::vector<std::string>{"key", "operator", "value", "effect"}));
  auto exists = ParseToleration("nvidia.com/gpu:NoExecute");
  ASSERT_TRUE(exists.ok());
  EXPECT_EQ(exists->op, "Exists");
  EXPECT_EQ(exists->key, "nvidia.com/gpu");
  EXPECT_EQ(Keys(exists->ToValue()), (std::vector<std::string>{"key", "operator", "effect"}));
  auto any_effect = ParseToleration("spot=true");
  ASSERT_TRUE(any_effect.ok());
  EXPECT_EQ(Keys(any_effect->ToValue()), (std::vector<std::string>{"key", "operator", "value"}));
  auto bare = ParseToleration("maintenance");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->op, "Exists");
  EXPECT_EQ(bare->effect, "");

  auto bad_effect = ParseToleration("a=b:Sometimes");
  ASSERT_FALSE(bad_effect.ok());
  EXPECT_EQ(bad_effect.error().message,
            "toleration \"a=b:Sometimes\": unknown effect \"Sometimes\"");
  EXPECT_FALSE(bad_effect.error().hint.empty());
  EXPECT_FALSE(ParseToleration("=b:NoSchedule").ok());
  EXPECT_FALSE(ParseToleration(":NoSchedule").ok());
}

TEST(ParseTest, ImagesAndKeyValues) {
  auto named = ParseImageChange("trainer=ghcr.io/x/y:2");
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->container, "trainer");
  EXPECT_EQ(named->image, "ghcr.io/x/y:2");
  auto all = ParseImageChange("localhost:5000/x@sha256:abc");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->container, "");
  EXPECT_EQ(all->image, "localhost:5000/x@sha256:abc");
  EXPECT_FALSE(ParseImageChange("").ok());
  EXPECT_FALSE(ParseImageChange("=x").ok());
  EXPECT_FALSE(ParseImageChange("trainer=").ok());

  auto kv = ParseKeyValue("a/b=c=d", "label");
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ(kv->first, "a/b");
  EXPECT_EQ(kv->second, "c=d");
  auto empty_value = ParseKeyValue("k=", "label");
  ASSERT_TRUE(empty_value.ok());
  EXPECT_EQ(empty_value->second, "");
  auto bad = ParseKeyValue("novalue", "label");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "label \"novalue\": expected KEY=VALUE");
  EXPECT_FALSE(ParseKeyValue("=v", "annotation").ok());
}

TEST(MutateTest, EveryInstanceChangesWhereTheDefinitionReadsAndNothingElse) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges changes;
  changes.scheduler_name = "kai-scheduler";
  changes.priority_class_name = "train";
  changes.labels = {{"kai.scheduler/queue", "research"}, {"role", "renamed"}};
  changes.annotations = {{"note", "x"}};
  changes.node_selector = {{"pool", "a100"}};
  changes.tolerations = {*ParseToleration("nvidia.com/gpu:NoSchedule"),
                         *ParseToleration("spot=true:PreferNoSchedule")};
  MutateResult r = Mutate(w, changes);
  ASSERT_TRUE(r.ok()) << r.error().message;

  std::vector<Value> templates = Templates(w.definition(), r.object(), 1);
  ASSERT_EQ(templates.size(), 2u);
  const Value& driver = templates[0];
  const Value& workers = templates[1];
  EXPECT_EQ(
      json::ToCompactString(*driver.find("metadata")),
      R"({"annotations":{"note":"x"},"labels":{"kai.scheduler/queue":"research","role":"renamed"}})");
  // Existing members keep their place; new ones follow in the order given.
  EXPECT_EQ(Keys(*driver.find("metadata")->find("labels")),
            (std::vector<std::string>{"role", "kai.scheduler/queue"}));
  EXPECT_EQ(Keys(*driver.find("spec")),
            (std::vector<std::string>{"restartPolicy", "containers", "schedulerName",
                                      "priorityClassName", "nodeSelector", "tolerations"}));
  // The toleration already present is not added twice.
  EXPECT_EQ(json::ToCompactString(*workers.find("spec")->find("tolerations")),
            R"([{"effect":"NoSchedule","key":"nvidia.com/gpu","operator":"Exists"},)"
            R"({"effect":"PreferNoSchedule","key":"spot","operator":"Equal","value":"true"}])");
  EXPECT_EQ(*workers.find("spec")->find("schedulerName"), Value::String("kai-scheduler"));
  EXPECT_EQ(*workers.find("metadata"),
            Json(R"({"labels": {"kai.scheduler/queue": "research", "role": "renamed"},
                     "annotations": {"note": "x"}})"));

  // Everything outside the templates is as it was, member order included.
  EXPECT_TRUE(SameDocument(PutTemplatesBack(w, 1, r.object()), w.object()));
  EXPECT_TRUE(SameDocument(w.object(), Json(kJobSet)));  // the input is not modified
}

TEST(MutateTest, OneInstanceOnly) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges changes;
  changes.scheduler_name = "kai-scheduler";
  MutateResult r = Mutate(w, changes, {"replicatedjob", "workers"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<Value> before_templates = Templates(w.definition(), w.object(), 1);
  std::vector<Value> templates = Templates(w.definition(), r.object(), 1);
  ASSERT_EQ(templates.size(), 2u);
  EXPECT_TRUE(SameDocument(templates[0], before_templates[0]));
  EXPECT_EQ(*templates[1].find("spec")->find("schedulerName"), Value::String("kai-scheduler"));
  // Without --component the instance is looked up in every component.
  MutateResult unscoped = Mutate(w, changes, {std::nullopt, "workers"});
  ASSERT_TRUE(unscoped.ok());
  EXPECT_TRUE(SameDocument(unscoped.object(), r.object()));
}

TEST(MutateTest, ImagesByContainerNameOrEveryContainer) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges named;
  named.images = {*ParseImageChange("trainer=img:2")};
  MutateResult r = Mutate(w, named);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<Value> templates = Templates(w.definition(), r.object(), 1);
  ASSERT_EQ(templates.size(), 2u);
  EXPECT_EQ(json::ToCompactString(*templates[1].find("spec")->find("containers")),
            R"([{"image":"img:2","name":"trainer"},{"image":"log:1","name":"sidecar"}])");
  EXPECT_TRUE(SameDocument(templates[0], Templates(w.definition(), w.object(), 1)[0]));

  PodChanges all;
  all.images = {*ParseImageChange("img:3")};
  MutateResult every = Mutate(w, all);
  ASSERT_TRUE(every.ok());
  std::vector<Value> all_templates = Templates(w.definition(), every.object(), 1);
  ASSERT_EQ(all_templates.size(), 2u);
  EXPECT_EQ(json::ToCompactString(*all_templates[0].find("spec")->find("containers")),
            R"([{"image":"img:3","name":"rdzv"}])");
  EXPECT_EQ(json::ToCompactString(*all_templates[1].find("spec")->find("containers")),
            R"([{"image":"img:3","name":"trainer"},{"image":"img:3","name":"sidecar"}])");

  PodChanges missing;
  missing.images = {*ParseImageChange("nope=img:2")};
  MutateResult not_found = Mutate(w, missing);
  ASSERT_FALSE(not_found.ok());
  EXPECT_EQ(not_found.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(not_found.error().message,
            "container \"nope\" not found in the selected pod templates");
  EXPECT_EQ(not_found.error().hint, "containers: rdzv, sidecar, trainer");
}

TEST(MutateTest, UnknownComponentOrInstanceIsNotFound) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges changes;
  changes.scheduler_name = "s";
  MutateResult component = Mutate(w, changes, {"nope", std::nullopt});
  ASSERT_FALSE(component.ok());
  EXPECT_EQ(component.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(component.error().message,
            "component \"nope\" not found in definition jobset-x-k8s-io-jobset-v1alpha2");
  EXPECT_EQ(component.error().hint,
            "components of jobset-x-k8s-io-jobset-v1alpha2: jobset, replicatedjob; with pod "
            "templates: replicatedjob");
  MutateResult instance = Mutate(w, changes, {"replicatedjob", "leader"});
  ASSERT_FALSE(instance.ok());
  EXPECT_EQ(instance.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(instance.error().message, "instance \"leader\" not found in component replicatedjob");
  EXPECT_EQ(instance.error().hint,
            "instances (component/instance): replicatedjob/driver, replicatedjob/workers");
  MutateResult root = Mutate(w, changes, {"jobset", std::nullopt});
  ASSERT_FALSE(root.ok());
  EXPECT_EQ(root.error().code, ErrorCode::kNotWritable);
}

TEST(MutateTest, LeaderWorkerSetComponents) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Definition lws = Catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1");
  Value object = Json(R"({"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
    "metadata": {"name": "vllm"},
    "spec": {"replicas": 2, "leaderWorkerTemplate": {"size": 4,
      "leaderTemplate": {"spec": {"containers": [{"name": "leader", "image": "vllm:1"}]}},
      "workerTemplate": {"metadata": {"labels": {"a": "b"}},
                         "spec": {"containers": [{"name": "worker", "image": "vllm:1"}]}}}}})");
  Workload w(lws, object);
  PodChanges changes;
  changes.labels = {{"tier", "gpu"}};
  MutateResult leader = Mutate(w, changes, {"leader", std::nullopt});
  ASSERT_TRUE(leader.ok()) << leader.error().message;
  const Value& lwt = *leader.object().find("spec")->find("leaderWorkerTemplate");
  EXPECT_EQ(json::ToCompactString(*lwt.find("leaderTemplate")->find("metadata")),
            R"({"labels":{"tier":"gpu"}})");
  // A new member goes at the end of its object.
  EXPECT_EQ(Keys(*lwt.find("leaderTemplate")), (std::vector<std::string>{"spec", "metadata"}));
  EXPECT_TRUE(
      SameDocument(*lwt.find("workerTemplate"),
                   *object.find("spec")->find("leaderWorkerTemplate")->find("workerTemplate")));

  MutateResult group = Mutate(w, changes, {"group", std::nullopt});
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.error().code, ErrorCode::kNotWritable);
  EXPECT_EQ(group.error().message,
            "component \"group\" of definition leaderworkerset-x-k8s-io-leaderworkerset-v1 has no "
            "pod template (no specDefinition)");
  EXPECT_EQ(group.error().hint,
            "pass --component with one of the components that have pod templates: leader, worker");
}

const char* kDynamo = R"({"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment",
  "metadata": {"name": "g"},
  "spec": {"services": {
    "Frontend": {"replicas": 1, "extraPodSpec": {"mainContainer": {"image": "dyn:1"}}},
    "Worker": {"replicas": 2, "labels": {"x": "y"}, "extraPodSpec": {"schedulerName": "",
               "mainContainer": {"name": "main", "image": "dyn:1", "args": ["serve"]}}}}}})";

TEST(MutateTest, FragmentsAreWrittenFieldByFieldWithoutCreatingNulls) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("nvidia-com-dynamographdeployment-v1alpha1"), Json(kDynamo));
  PodChanges changes;
  changes.labels = {{"tier", "gpu"}};
  changes.scheduler_name = "kai-scheduler";
  MutateResult r = Mutate(w, changes, {std::nullopt, "Worker"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Value& services = *r.object().find("spec")->find("services");
  // Frontend had no labels and keeps having none; Worker's labels and scheduler are set.
  EXPECT_TRUE(SameDocument(*services.find("Frontend"),
                           *Json(kDynamo).find("spec")->find("services")->find("Frontend")));
  EXPECT_EQ(json::ToCompactString(*services.find("Worker")->find("labels")),
            R"({"tier":"gpu","x":"y"})");
  EXPECT_EQ(*services.find("Worker")->find("extraPodSpec")->find("schedulerName"),
            Value::String("kai-scheduler"));

  // The other way round: the empty scheduler name of the untouched Worker stays "".
  MutateResult frontend = Mutate(w, changes, {std::nullopt, "Frontend"});
  ASSERT_TRUE(frontend.ok()) << frontend.error().message;
  const Value& s2 = *frontend.object().find("spec")->find("services");
  EXPECT_TRUE(SameDocument(*s2.find("Worker"),
                           *Json(kDynamo).find("spec")->find("services")->find("Worker")));
  EXPECT_EQ(
      json::ToCompactString(*s2.find("Frontend")),
      R"({"extraPodSpec":{"mainContainer":{"image":"dyn:1"},"schedulerName":"kai-scheduler"},"labels":{"tier":"gpu"},"replicas":1})");
}

TEST(MutateTest, FragmentImagesAndMissingFragmentPaths) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("nvidia-com-dynamographdeployment-v1alpha1"), Json(kDynamo));
  PodChanges all;
  all.images = {*ParseImageChange("dyn:2")};
  MutateResult r = Mutate(w, all);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Workload after(w.definition(), r.object());
  Result<std::optional<std::vector<FragmentedPodSpec>>> fragments = after.FragmentedPodSpecs(1);
  ASSERT_TRUE(fragments.ok() && fragments.value().has_value());
  ASSERT_EQ(fragments.value()->size(), 2u);
  for (const FragmentedPodSpec& f : *fragments.value()) EXPECT_EQ(f.image, Value::String("dyn:2"));
  EXPECT_EQ(json::ToCompactString(*r.object()
                                       .find("spec")
                                       ->find("services")
                                       ->find("Worker")
                                       ->find("extraPodSpec")
                                       ->find("mainContainer")),
            R"({"args":["serve"],"image":"dyn:2","name":"main"})");

  PodChanges named;
  named.images = {*ParseImageChange("main=dyn:3")};
  MutateResult by_name = Mutate(w, named);
  ASSERT_TRUE(by_name.ok()) << by_name.error().message;
  const Value& services = *by_name.object().find("spec")->find("services");
  EXPECT_EQ(*services.find("Frontend")->find("extraPodSpec")->find("mainContainer")->find("image"),
            Value::String("dyn:1"));
  EXPECT_EQ(*services.find("Worker")->find("extraPodSpec")->find("mainContainer")->find("image"),
            Value::String("dyn:3"));

  PodChanges tolerations;
  tolerations.tolerations = {*ParseToleration("a:NoSchedule")};
  MutateResult refused = Mutate(w, tolerations);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kNotWritable);
  EXPECT_EQ(refused.error().message,
            "component service of definition nvidia-com-dynamographdeployment-v1alpha1 keeps its "
            "pod spec in fragments (fragmentedPodSpecDefinition) with no tolerations path");
}

const char* kSpecDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: split}
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {group: example.com, version: v1, kind: Split}
      statusDefinition: {statusMappings: {}}
    childComponents:
      - name: worker
        ownerRef: root
        specDefinition:
          podSpecPath: .spec.workers[].pod
          metadataPath: .spec.workers[].meta
        instanceIdPath: .spec.workers[].name
        podSelector: {componentInstanceSelector: {idPath: .metadata.labels.w}}
      - name: plain
        ownerRef: root
        specDefinition:
          podSpecPath: .spec.plain
)";

TEST(MutateTest, PodSpecWithMetadataPath) {
  LoadResult loaded = LoadDefinitions(kSpecDefinition, "split.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.errors[0].ToString();
  Value object =
      Json(R"({"apiVersion": "example.com/v1", "kind": "Split", "metadata": {"name": "s"},
    "spec": {"workers": [{"name": "a", "pod": {"containers": []}, "meta": {"labels": {"w": "a"}}},
                         {"name": "b", "pod": {"containers": []}}],
             "plain": {"containers": [{"name": "c", "image": "i"}]}}})");
  Workload w(loaded.definitions[0], object);
  PodChanges changes;
  changes.labels = {{"k", "v"}};
  changes.node_selector = {{"zone", "z1"}};
  MutateResult r = Mutate(w, changes, {"worker", std::nullopt});
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<Value> meta = Read(w.definition(), r.object(), 1, &Workload::PodMetadata);
  ASSERT_EQ(meta.size(), 2u);
  EXPECT_EQ(json::ToCompactString(meta[0]), R"({"labels":{"k":"v","w":"a"}})");
  EXPECT_EQ(json::ToCompactString(meta[1]), R"({"labels":{"k":"v"}})");
  std::vector<Value> specs = Read(w.definition(), r.object(), 1, &Workload::PodSpecs);
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(json::ToCompactString(specs[1]), R"({"containers":[],"nodeSelector":{"zone":"z1"}})");
  EXPECT_TRUE(
      SameDocument(*r.object().find("spec")->find("plain"), *object.find("spec")->find("plain")));

  // Without metadataPath, labels cannot be written.
  MutateResult plain = Mutate(w, changes, {"plain", std::nullopt});
  ASSERT_FALSE(plain.ok());
  EXPECT_EQ(plain.error().code, ErrorCode::kNotWritable);
  EXPECT_EQ(plain.error().message,
            "component plain of definition split has a podSpecPath but no metadataPath: labels "
            "and annotations cannot be set");
  PodChanges spec_only;
  spec_only.priority_class_name = "high";
  MutateResult plain_ok = Mutate(w, spec_only, {"plain", std::nullopt});
  ASSERT_TRUE(plain_ok.ok()) << plain_ok.error().message;
  EXPECT_EQ(*plain_ok.object().find("spec")->find("plain")->find("priorityClassName"),
            Value::String("high"));
}

TEST(MutateTest, PathsThatCannotBeWrittenAreRefused) {
  std::string text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: computed}
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {group: example.com, version: v1, kind: Computed}
      statusDefinition: {statusMappings: {}}
      specDefinition:
        podTemplateSpecPath: '{metadata: .spec.meta, spec: .spec.pod}'
)";
  LoadResult loaded = LoadDefinitions(text, "computed.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.errors[0].ToString();
  Workload w(loaded.definitions[0], Json(R"({"spec": {"meta": {}, "pod": {}}})"));
  PodChanges changes;
  changes.scheduler_name = "s";
  MutateResult r = Mutate(w, changes);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotWritable);
  EXPECT_EQ(r.error().message,
            "component root: cannot update through "
            "spec.structureDefinition.rootComponent.specDefinition.podTemplateSpecPath: the "
            "expression yields values, not a jq path that can be written");
  EXPECT_EQ(r.error().detail.rfind("expression '{metadata: .spec.meta, spec: .spec.pod}': ", 0), 0u)
      << r.error().detail;
  EXPECT_FALSE(r.error().hint.empty());
}

TEST(MutateTest, CorePodThroughIdentityPathAndIdempotence) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("core-pod-v1"), Json(R"({"apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "n"},
    "spec": {"containers": [{"name": "c", "image": "i"}]}, "status": {"phase": "Pending"}})"));
  PodChanges changes;
  changes.labels = {{"a", "b"}};
  changes.tolerations = {*ParseToleration("x=y:NoExecute")};
  changes.images = {*ParseImageChange("c=i:2")};
  MutateResult once = Mutate(w, changes);
  ASSERT_TRUE(once.ok()) << once.error().message;
  EXPECT_EQ(json::ToCompactString(once.object()),
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"},"name":"p",)"
            R"("namespace":"n"},"spec":{"containers":[{"image":"i:2","name":"c"}],"tolerations":)"
            R"([{"effect":"NoExecute","key":"x","operator":"Equal","value":"y"}]},)"
            R"("status":{"phase":"Pending"}})");
  MutateResult twice = Mutate(Workload(w.definition(), once.object()), changes);
  ASSERT_TRUE(twice.ok());
  EXPECT_TRUE(SameDocument(twice.object(), once.object()));
}

TEST(MutateTest, EmptyChangesLeaveTheObjectAsItIs) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges none;
  EXPECT_TRUE(none.empty());
  MutateResult r = Mutate(w, none);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(SameDocument(r.object(), w.object()));
}

// RFC 7386, appendix A.
TEST(MergePatchTest, RfcExamples) {
  struct Case {
    const char* target;
    const char* patch;
    const char* result;
  };
  const Case cases[] = {
      {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {R"({"a":"b"})", R"({"a":null})", R"({})"},
      {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
      {R"({"a":"b"})", R"(["c"])", R"(["c"])"},
      {R"({"a":"foo"})", "null", "null"},
      {R"({"a":"foo"})", R"("bar")", R"("bar")"},
      {R"({"e":null})", R"({"a":1})", R"({"a":1,"e":null})"},
      {R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(json::ToCompactString(ApplyMergePatch(Json(c.target), Json(c.patch))), c.result)
        << c.target << " + " << c.patch;
  }
}

TEST(MergePatchTest, SmallestPatchAndRoundTrip) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Value from = Json(R"({"a": 1, "b": {"c": [1, 2], "d": "x", "e": {"f": 1}}, "g": true})");
  Value to = Json(R"({"a": 1, "b": {"c": [1, 3], "d": "x", "e": {"f": 1, "h": 2}}, "i": "new"})");
  Value patch = MergePatch(from, to);
  EXPECT_EQ(json::ToString(patch, {.indent = 0, .sort_keys = false}),
            R"({"b":{"c":[1,3],"e":{"h":2}},"i":"new","g":null})");
  EXPECT_EQ(ApplyMergePatch(from, patch), to);
  EXPECT_EQ(MergePatch(from, from), Value::EmptyObject());
  EXPECT_EQ(MergePatch(from, Json("[1]")), Json("[1]"));

  // The patch of a mutation applies back onto the original.
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges changes;
  changes.labels = {{"q", "r"}};
  MutateResult r = Mutate(w, changes);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(
      SameDocument(ApplyMergePatch(w.object(), MergePatch(w.object(), r.object())), r.object()));
}

TEST(JsonPatchTest, OperationsAndRoundTrip) {
  Value from = Json(R"({"a": 1, "b": {"c": [1, 2], "d": "x"}, "g": true, "l": [{"k": 1}],
                        "s/t": {"u~v": 1}})");
  Value to = Json(R"({"a": 1, "b": {"c": [1, 2, 3], "d": "y"}, "i": "new", "l": [{"k": 2}],
                      "s/t": {"u~v": 2}})");
  Value patch = JsonPatch(from, to);
  EXPECT_EQ(
      json::ToString(patch, {.indent = 0, .sort_keys = false}),
      R"([{"op":"remove","path":"/g"},{"op":"add","path":"/b/c/2","value":3},)"
      R"({"op":"replace","path":"/b/d","value":"y"},{"op":"add","path":"/i","value":"new"},)"
      R"({"op":"replace","path":"/l/0/k","value":2},{"op":"replace","path":"/s~1t/u~0v","value":2}])");
  Result<Value> applied = ApplyJsonPatch(from, patch);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(*applied, to);
  EXPECT_EQ(JsonPatch(from, from), Value::EmptyArray());
  // Arrays that shrink or change in the middle are replaced whole.
  EXPECT_EQ(json::ToCompactString(JsonPatch(Json(R"({"a": [1, 2, 3]})"), Json(R"({"a": [1]})"))),
            R"([{"op":"replace","path":"/a","value":[1]}])");
  EXPECT_EQ(json::ToCompactString(JsonPatch(Json("1"), Json("2"))),
            R"([{"op":"replace","path":"","value":2}])");
}

TEST(JsonPatchTest, ApplyErrors) {
  Value doc = Json(R"({"a": [1]})");
  auto error = [&](const char* patch) {
    Result<Value> r = ApplyJsonPatch(doc, Json(patch));
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(error(R"([{"op": "move", "path": "/a", "from": "/b"}])"),
            "operation 0: unsupported op \"move\"");
  EXPECT_EQ(error(R"([{"op": "replace", "path": "/b", "value": 1}])"),
            "operation 0: no member \"b\" to replace");
  EXPECT_EQ(error(R"([{"op": "add", "path": "/a/3", "value": 1}])"),
            "operation 0: array index 3 out of range");
  EXPECT_EQ(error(R"([{"op": "add", "path": "a", "value": 1}])"),
            "operation 0: JSON pointer does not start with '/'");
  EXPECT_EQ(
      error(R"([{"op": "add", "path": "/a/-", "value": 2}, {"op": "remove", "path": "/a/0"}])"),
      "ok");
  Result<Value> appended =
      ApplyJsonPatch(doc, Json(R"([{"op": "add", "path": "/a/-", "value": 2}])"));
  ASSERT_TRUE(appended.ok());
  EXPECT_EQ(*appended, Json(R"({"a": [1, 2]})"));
}

// A mutation's JSON patch names exactly the changed fields of the pod templates.
TEST(JsonPatchTest, MutationPatchIsPrecise) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  Workload w(Catalog("jobset-x-k8s-io-jobset-v1alpha2"), Json(kJobSet));
  PodChanges changes;
  changes.tolerations = {*ParseToleration("spot=true:NoSchedule")};
  MutateResult r = Mutate(w, changes, {std::nullopt, "workers"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(
      json::ToCompactString(JsonPatch(w.object(), r.object())),
      R"([{"op":"add","path":"/spec/replicatedJobs/1/template/spec/template/spec/tolerations/1",)"
      R"("value":{"effect":"NoSchedule","key":"spot","operator":"Equal","value":"true"}}])");
}

}  // namespace
}  // namespace wmap
