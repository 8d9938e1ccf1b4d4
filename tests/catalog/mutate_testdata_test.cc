// MutateWorkload against every object of every built-in definition's test data, one change at a
// time (scheduler name, priority class, a label, an annotation, a node selector). Either the
// change lands in every pod template the object has, and the JSON patch from the input to the
// result holds nothing but the asked field (inside new holders only where the framework's API
// keeps pod settings in an optional object); or the definition is refused as not writable, and
// the refusal is one of those listed below. An optional component the object leaves out is never
// created: no patch operation adds a component's spec, template or worker section.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "catalog_test_support.h"
#include "wmap/catalog.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/mutate.h"
#include "wmap/patch.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;
using test_support::CatalogDir;
using test_support::ReadFile;

// One change and the leaf it writes: `key` holding `value`, inside an object called `parent`
// ("" when the leaf sits directly in the pod spec or the fragment's holder).
struct Change {
  std::string name;
  PodChanges changes;
  std::string parent;
  std::string key;
  std::string value;
};

std::vector<Change> Changes() {
  std::vector<Change> out;
  Change c;
  c = {"scheduler-name", {}, "", "schedulerName", "wmap-test-scheduler"};
  c.changes.scheduler_name = c.value;
  out.push_back(c);
  c = {"priority-class", {}, "", "priorityClassName", "wmap-test-priority"};
  c.changes.priority_class_name = c.value;
  out.push_back(c);
  c = {"label", {}, "labels", "wmap.test/label", "yes"};
  c.changes.labels = {{c.key, c.value}};
  out.push_back(c);
  c = {"annotation", {}, "annotations", "wmap.test/annotation", "yes"};
  c.changes.annotations = {{c.key, c.value}};
  out.push_back(c);
  c = {"node-selector", {}, "nodeSelector", "wmap.test/node", "yes"};
  c.changes.node_selector = {{c.key, c.value}};
  out.push_back(c);
  return out;
}

// Objects a write may create because the API defines them as optional holders of pod settings
// of a component that exists: a pod template's metadata; Tekton's podTemplate
// (TaskRunSpec.podTemplate, PipelineTaskRunSpec.podTemplate) and PipelineRunSpec.taskRunTemplate;
// Dynamo's extraPodSpec; Spark's batchSchedulerOptions (the application's priority class, which
// the definition writes when the driver or executor has none of its own). Never a component's own
// section (an explainer, a workerSpec, a worker, a prefill, a submitterPodTemplate, a
// rayClusterSpec, a router's scheduler template).
bool IsHolder(std::string_view key) {
  static const std::set<std::string_view> kHolders = {"metadata", "podTemplate", "taskRunTemplate",
                                                      "extraPodSpec", "batchSchedulerOptions"};
  return kHolders.contains(key);
}

// JSON pointer tokens, unescaped.
std::vector<std::string> Tokens(std::string_view pointer) {
  std::vector<std::string> out;
  size_t at = 1;
  while (at <= pointer.size()) {
    size_t end = pointer.find('/', at);
    if (end == std::string_view::npos) end = pointer.size();
    std::string token(pointer.substr(at, end - at));
    for (size_t p = 0; (p = token.find("~1", p)) != std::string::npos; ++p)
      token.replace(p, 2, "/");
    for (size_t p = 0; (p = token.find("~0", p)) != std::string::npos; ++p)
      token.replace(p, 2, "~");
    out.push_back(std::move(token));
    at = end + 1;
  }
  return out;
}

// `value` written at `chain` (the keys from the last existing object down) holds only the asked
// leaf: every object on the way is a holder or the leaf's parent, every scalar is the leaf.
bool OnlyTheLeaf(const Change& change, std::vector<std::string> chain, const Value& value) {
  if (value.is_object()) {
    if (value.size() == 0) return false;
    if (!chain.empty() && !IsHolder(chain.back()) && chain.back() != change.parent) return false;
    for (const Member& m : value.members()) {
      std::vector<std::string> next = chain;
      next.emplace_back(m.key.as_string());
      if (!OnlyTheLeaf(change, next, m.value)) return false;
    }
    return true;
  }
  if (chain.size() < 1 || chain.back() != change.key) return false;
  if (value != Value::String(change.value)) return false;
  return change.parent.empty() || (chain.size() >= 2 && chain[chain.size() - 2] == change.parent);
}

::testing::AssertionResult OnlyTheChange(const Change& change, const Value& patch) {
  for (const Value& op : patch.items()) {
    std::string_view name = op.find("op")->as_string();
    const Value* value = op.find("value");
    std::vector<std::string> tokens = Tokens(op.find("path")->as_string());
    bool ok = (name == "add" || name == "replace") && value != nullptr && !tokens.empty();
    if (ok && name == "add" && value->is_object()) {
      // A new object: its key and every key inside it are created by the write.
      ok = OnlyTheLeaf(change, {tokens.back()}, *value);
    } else if (ok) {
      ok = OnlyTheLeaf(change, tokens, *value);
    }
    if (!ok) {
      return ::testing::AssertionFailure() << "unexpected change " << json::ToCompactString(op);
    }
  }
  return ::testing::AssertionSuccess();
}

const Value* At(const Value& v, std::string_view key) {
  return v.is_object() ? v.find(key) : nullptr;
}

// The asked leaf in a pod template ({metadata, spec}): metadata for labels and annotations, the
// spec for the rest.
bool TemplateHas(const Change& change, const Value& pod_template) {
  const Value* holder =
      At(pod_template,
         change.parent == "labels" || change.parent == "annotations" ? "metadata" : "spec");
  if (holder == nullptr) return false;
  if (!change.parent.empty()) holder = At(*holder, change.parent);
  const Value* v = holder ? At(*holder, change.key) : nullptr;
  return v != nullptr && *v == Value::String(change.value);
}

bool FragmentHas(const Change& change, const FragmentedPodSpec& f) {
  const Value* v = nullptr;
  if (change.key == "schedulerName") v = &f.scheduler_name;
  if (change.key == "priorityClassName") v = &f.priority_class_name;
  if (change.parent == "labels") v = At(f.labels, change.key);
  if (change.parent == "annotations") v = At(f.annotations, change.key);
  return v != nullptr && *v == Value::String(change.value);
}

// The change is visible through the definition's read paths in every instance the object has
// (a pod template or pod spec that reads null is an instance the object leaves out).
void ExpectReadBack(const Definition& d, const Value& object, const Change& change,
                    const std::string& where) {
  Workload w(d, object);
  for (size_t c = 0; c < d.components().size(); ++c) {
    const ComponentDefinition& component = d.components()[c];
    if (!component.HasPodDefinition()) continue;
    std::string at = where + " component " + component.name;
    if (component.spec->pod_template_spec) {
      auto templates = w.PodTemplateSpecs(c);
      ASSERT_TRUE(templates.ok() && templates.value().has_value()) << at;
      for (const Value& t : *templates.value()) {
        if (t.is_null()) continue;
        EXPECT_TRUE(TemplateHas(change, t)) << at;
      }
    } else if (component.spec->pod_spec) {
      auto specs = w.PodSpecs(c);
      auto metadata = w.PodMetadata(c);
      ASSERT_TRUE(specs.ok() && specs.value().has_value() && metadata.ok()) << at;
      for (size_t i = 0; i < specs.value()->size(); ++i) {
        const Value& spec = (*specs.value())[i];
        if (spec.is_null()) continue;
        Value meta = metadata.value() ? (*metadata.value())[i] : Value();
        EXPECT_TRUE(TemplateHas(change, Value::Object({{"metadata", meta}, {"spec", spec}}))) << at;
      }
    } else {
      auto fragments = w.FragmentedPodSpecs(c);
      ASSERT_TRUE(fragments.ok() && fragments.value().has_value()) << at;
      for (const FragmentedPodSpec& f : *fragments.value()) {
        EXPECT_TRUE(FragmentHas(change, f)) << at;
      }
    }
  }
}

// "definition change": the refusals of changes to a component the object has, because the
// definition has no path for the change or its path cannot be written.
const std::set<std::string>& ExpectedRefusals() {
  static const std::set<std::string> kRefusals = {
      // A component keeps its pod settings in fragments without a path for the change.
      "apps-nvidia-com-nimcache-v1alpha1 annotation",
      "apps-nvidia-com-nimcache-v1alpha1 label",
      "apps-nvidia-com-nimcache-v1alpha1 node-selector",
      "apps-nvidia-com-nimcache-v1alpha1 priority-class",
      "apps-nvidia-com-nimcache-v1alpha1 scheduler-name",
      "apps-nvidia-com-nimservice-v1alpha1 node-selector",
      "argoproj-io-cronworkflow-v1alpha1 node-selector",
      "argoproj-io-workflow-v1alpha1 node-selector",
      "argoproj-io-workflowtemplate-v1alpha1 node-selector",
      "kubevirt-io-virtualmachineinstance-v1 annotation",
      "kubevirt-io-virtualmachineinstance-v1 node-selector",
      "machinelearning-seldon-io-seldondeployment-v1 annotation",
      "machinelearning-seldon-io-seldondeployment-v1 label",
      "machinelearning-seldon-io-seldondeployment-v1 node-selector",
      "machinelearning-seldon-io-seldondeployment-v1 priority-class",
      "machinelearning-seldon-io-seldondeployment-v1 scheduler-name",
      "milvus-io-milvus-v1beta1 annotation",
      "milvus-io-milvus-v1beta1 label",
      "milvus-io-milvus-v1beta1 node-selector",
      "milvus-io-milvus-v1beta1 priority-class",
      "milvus-io-milvus-v1beta1 scheduler-name",
      "nvidia-com-dynamographdeployment-v1alpha1 node-selector",
      "serving-kserve-io-inferenceservice-v1beta1 node-selector",
      "sparkoperator-k8s-io-sparkapplication-v1beta2 node-selector",
      "tekton-dev-pipelinerun-v1 annotation",
      "tekton-dev-pipelinerun-v1 label",
      "tekton-dev-pipelinerun-v1 node-selector",
      "tekton-dev-pipelinerun-v1 priority-class",
      "tekton-dev-pipelinerun-v1 scheduler-name",
      "tekton-dev-taskrun-v1 annotation",
      "tekton-dev-taskrun-v1 label",
      "tekton-dev-taskrun-v1 node-selector",
      "trainer-kubeflow-org-trainjob-v1alpha1 annotation",
      "trainer-kubeflow-org-trainjob-v1alpha1 label",
      "trainer-kubeflow-org-trainjob-v1alpha1 node-selector",
      "trainer-kubeflow-org-trainjob-v1alpha1 priority-class",
      "trainer-kubeflow-org-trainjob-v1alpha1 scheduler-name",
      // A podSpecPath without a metadataPath (the LLMInferenceService templates), metadata
      // read through a computed object, or no metadata of its own (KServe's workerSpec takes
      // the predictor's).
      "grove-io-podcliqueset-v1alpha1 annotation",
      "grove-io-podcliqueset-v1alpha1 label",
      "serving-kserve-io-inferenceservice-v1beta1 annotation",
      "serving-kserve-io-inferenceservice-v1beta1 label",
      "serving-kserve-io-llminferenceservice-v1alpha1 annotation",
      "serving-kserve-io-llminferenceservice-v1alpha1 label",
      "serving-kserve-io-llminferenceservice-v1alpha2 annotation",
      "serving-kserve-io-llminferenceservice-v1alpha2 label",
      // A pod template assembled from several fields (not a jq path).
      "slinky-slurm-net-nodeset-v1beta1 annotation",
      "slinky-slurm-net-nodeset-v1beta1 label",
      "slinky-slurm-net-nodeset-v1beta1 node-selector",
      "slinky-slurm-net-nodeset-v1beta1 priority-class",
      "slinky-slurm-net-nodeset-v1beta1 scheduler-name",
  };
  return kRefusals;
}

TEST(MutateTestdataTest, EveryObjectChangesOnlyWhereItHasPodTemplates) {
  std::set<std::string> refused;
  std::map<std::string, std::string> unexpected;  // refusal -> the first object and message
  int written = 0;
  for (const CatalogEntry& entry : Catalog::BuiltIn().entries()) {
    const Definition& d = entry.definition;
    fs::path folder = CatalogDir() / "testdata" / d.name();
    if (!fs::is_directory(folder)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder)) {
      std::string file = e.path().filename().string();
      if (file.ends_with(".yaml") && !file.ends_with(".pods.yaml")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      Result<std::vector<yaml::Document>> docs = yaml::ParseStream(ReadFile(file));
      ASSERT_TRUE(docs.ok()) << file;
      for (const yaml::Document& doc : *docs) {
        const Value* kind = doc.value.find("kind");
        if (kind == nullptr || *kind != Value::String(d.root_kind().kind)) continue;
        for (const Change& change : Changes()) {
          std::string where = file.filename().string() + " (" + change.name + ")";
          Workload w(d, doc.value);
          MutateResult r = MutateWorkload(w, {}, change.changes);
          if (!r.ok()) {
            EXPECT_EQ(r.error().code, ErrorCode::kNotWritable)
                << d.name() << " " << where << ": " << r.error().message;
            std::string key = d.name() + " " + change.name;
            if (!ExpectedRefusals().contains(key)) {
              unexpected.emplace(key, file.filename().string() + ": " + r.error().message);
            }
            refused.insert(key);
            continue;
          }
          ++written;
          ExpectReadBack(d, r.object(), change, d.name() + " " + where);
          EXPECT_TRUE(OnlyTheChange(change, JsonPatch(doc.value, r.object())))
              << d.name() << " " << where;
          MutateResult again = MutateWorkload(Workload(d, r.object()), {}, change.changes);
          ASSERT_TRUE(again.ok()) << d.name() << " " << where;
          EXPECT_EQ(JsonPatch(r.object(), again.object()), Value::EmptyArray())
              << d.name() << " " << where;
        }
      }
    }
  }
  for (const auto& [key, message] : unexpected) {
    ADD_FAILURE() << "refused: " << key << " (" << message.substr(0, 400) << ")";
  }
  for (const std::string& key : ExpectedRefusals()) {
    EXPECT_TRUE(refused.contains(key)) << "no longer refused: " << key;
  }
  EXPECT_GE(written, 200);
}

const Definition& BuiltIn(std::string_view name) {
  const CatalogEntry* entry = Catalog::BuiltIn().FindByName(name);
  EXPECT_NE(entry, nullptr) << name;
  return entry->definition;
}

Value Yaml(std::string_view text) {
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(std::string(text));
  EXPECT_TRUE(docs.ok() && docs->size() == 1);
  return (*docs)[0].value;
}

// The paths of a JSON patch's operations.
std::vector<std::string> Paths(const Value& patch) {
  std::vector<std::string> out;
  for (const Value& op : patch.items()) out.emplace_back(op.find("path")->as_string());
  return out;
}

constexpr std::string_view kPredictorOnly = R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: sklearn-iris, namespace: models}
spec:
  predictor:
    model:
      modelFormat: {name: sklearn}
      storageUri: gs://kfserving-examples/models/sklearn/1.0/model
)";

TEST(MutateAbsentComponentsTest, InferenceServiceChangesOnlyItsPredictor) {
  const Definition& d = BuiltIn("serving-kserve-io-inferenceservice-v1beta1");
  Value isvc = Yaml(kPredictorOnly);
  PodChanges scheduler;
  scheduler.scheduler_name = "kai-scheduler";
  MutateResult r = MutateWorkload(Workload(d, isvc), {}, scheduler);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(Paths(JsonPatch(isvc, r.object())),
            std::vector<std::string>{"/spec/predictor/schedulerName"});
  // The absent worker has no labelsPath, and that is no reason to refuse.
  PodChanges label;
  label.labels = {{"team", "ml"}};
  r = MutateWorkload(Workload(d, isvc), {}, label);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(json::ToCompactString(JsonPatch(isvc, r.object())),
            R"([{"op":"add","path":"/spec/predictor/labels","value":{"team":"ml"}}])");
}

TEST(MutateAbsentComponentsTest, NamingAnAbsentComponentIsNotFound) {
  const Definition& d = BuiltIn("serving-kserve-io-inferenceservice-v1beta1");
  PodChanges scheduler;
  scheduler.scheduler_name = "kai-scheduler";
  for (std::string component : {"explainer", "predictor-worker"}) {
    MutateScope scope;
    scope.component = component;
    MutateResult r = MutateWorkload(Workload(d, Yaml(kPredictorOnly)), scope, scheduler);
    ASSERT_FALSE(r.ok()) << component;
    EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
    EXPECT_EQ(r.error().message, "component " + component +
                                     " of definition serving-kserve-io-inferenceservice-v1beta1 "
                                     "is not in the object: it has no pod template there");
  }
}

TEST(MutateAbsentComponentsTest, MultiNodePredictorChangesItsWorkers) {
  const Definition& d = BuiltIn("serving-kserve-io-inferenceservice-v1beta1");
  Value isvc = Yaml(R"(apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: llama}
spec:
  predictor:
    model:
      modelFormat: {name: huggingface}
      storageUri: hf://meta-llama/Llama-3.1-70B
    workerSpec:
      pipelineParallelSize: 2
)");
  PodChanges scheduler;
  scheduler.scheduler_name = "kai-scheduler";
  MutateResult r = MutateWorkload(Workload(d, isvc), {}, scheduler);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(Paths(JsonPatch(isvc, r.object())),
            (std::vector<std::string>{"/spec/predictor/workerSpec/schedulerName",
                                      "/spec/predictor/schedulerName"}));
}

TEST(MutateAbsentComponentsTest, LlmInferenceServiceWithoutWorkerOrPrefill) {
  const Definition& d = BuiltIn("serving-kserve-io-llminferenceservice-v1alpha1");
  Value llm = Yaml(R"(apiVersion: serving.kserve.io/v1alpha1
kind: LLMInferenceService
metadata: {name: llama-8b}
spec:
  model: {uri: hf://meta-llama/Llama-3.1-8B-Instruct}
  template:
    containers: [{name: main, image: ghcr.io/llm-d/llm-d:v0.3.0}]
  router:
    scheduler: {}
)");
  PodChanges scheduler;
  scheduler.scheduler_name = "kai-scheduler";
  MutateResult r = MutateWorkload(Workload(d, llm), {}, scheduler);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // The router's scheduler runs the preset's template: there is none here to change.
  EXPECT_EQ(Paths(JsonPatch(llm, r.object())),
            std::vector<std::string>{"/spec/template/schedulerName"});
}

TEST(MutateAbsentComponentsTest, RayJobOnAnExistingClusterAndWithoutSubmitterTemplate) {
  const Definition& d = BuiltIn("ray-io-rayjob-v1");
  Value selector = Yaml(R"(apiVersion: ray.io/v1
kind: RayJob
metadata: {name: eval}
spec:
  entrypoint: python eval.py
  clusterSelector: {ray.io/cluster: shared}
)");
  PodChanges scheduler;
  scheduler.scheduler_name = "kai-scheduler";
  MutateResult r = MutateWorkload(Workload(d, selector), {}, scheduler);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(JsonPatch(selector, r.object()), Value::EmptyArray());

  Value own = Yaml(R"(apiVersion: ray.io/v1
kind: RayJob
metadata: {name: train}
spec:
  entrypoint: python train.py
  rayClusterSpec:
    headGroupSpec:
      template:
        spec:
          containers: [{name: ray-head, image: rayproject/ray:2.46.0}]
)");
  r = MutateWorkload(Workload(d, own), {}, scheduler);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(
      Paths(JsonPatch(own, r.object())),
      std::vector<std::string>{"/spec/rayClusterSpec/headGroupSpec/template/spec/schedulerName"});
}

TEST(MutateArgoWorkflowTest, HelloWorldGetsItsTemplateChanged) {
  const Definition& d = BuiltIn("argoproj-io-workflow-v1alpha1");
  Value wf = Yaml(R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: hello-world-}
spec:
  entrypoint: hello-world
  templates:
    - name: hello-world
      container:
        image: busybox
        command: [echo]
        args: ["hello world"]
)");
  PodChanges changes;
  changes.scheduler_name = "kai-scheduler";
  changes.labels = {{"team", "ml"}};
  MutateResult r = MutateWorkload(Workload(d, wf), {}, changes);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(
      json::ToCompactString(JsonPatch(wf, r.object())),
      R"([{"op":"add","path":"/spec/templates/0/schedulerName","value":"kai-scheduler"},)"
      R"({"op":"add","path":"/spec/templates/0/metadata","value":{"labels":{"team":"ml"}}}])");
}

// KubeRay's ValidateRayJobSpec: "the ClusterSelector mode doesn't support the suspend
// operation". The definition refuses it in its own words; a RayJob with its own cluster suspends.
TEST(RayJobSuspendTest, ClusterSelectorModeIsRefused) {
  const Definition& d = BuiltIn("ray-io-rayjob-v1");
  // The Karta copy refuses the same way, so upstream's library and KAI Scheduler's Karta
  // fallback do too.
  fs::path karta_file = CatalogDir() / "karta" / "ray-io-rayjob-v1.yaml";
  LoadResult karta = LoadDefinitions(ReadFile(karta_file), karta_file.string());
  ASSERT_TRUE(karta.ok() && karta.definitions.size() == 1);
  for (const Definition* def : std::vector<const Definition*>{&d, &karta.definitions[0]}) {
    Workload selector(*def, Yaml(R"(apiVersion: ray.io/v1
kind: RayJob
metadata: {name: eval}
spec:
  entrypoint: python eval.py
  clusterSelector: {ray.io/cluster: shared}
)"));
    Result<Value> refused = selector.ApplySuspendActions(0);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
    EXPECT_EQ(refused.error().message,
              "suspendActions[0]: a RayJob with spec.clusterSelector runs on an existing "
              "RayCluster and cannot be suspended: KubeRay rejects spec.suspend in that mode");
    // Resuming sets spec.suspend to false, which KubeRay accepts in every mode.
    EXPECT_TRUE(selector.ApplyResumeActions(0).ok());
  }
  Workload own(d, Yaml(R"(apiVersion: ray.io/v1
kind: RayJob
metadata: {name: train}
spec:
  entrypoint: python train.py
  clusterSelector: {}
  rayClusterSpec:
    headGroupSpec:
      template:
        spec:
          containers: [{name: ray-head, image: rayproject/ray:2.46.0}]
)"));
  Result<Value> suspended = own.ApplySuspendActions(0);
  ASSERT_TRUE(suspended.ok()) << suspended.error().message;
  EXPECT_EQ(*suspended->find("spec")->find("suspend"), Value::Bool(true));
}

}  // namespace
}  // namespace wmap
