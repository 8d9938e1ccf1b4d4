// The PodSpec and Container field lists against the pod template schema of a real CRD that
// embeds core/v1 PodTemplateSpec (Kueue v0.19's Workload, generated from Kubernetes 1.37's
// types), and PodTemplateSpecOf on templates that carry more than a pod template.
#include "scheduling/pod_template_fields.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shared_data.h"
#include "test_files.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::scheduling {
namespace {

std::vector<std::string> Keys(const Value& properties) {
  std::vector<std::string> keys;
  for (const Member* m : properties.sorted_members()) keys.emplace_back(m->key.as_string());
  return keys;
}

std::vector<std::string> Strings(std::span<const std::string_view> fields) {
  return {fields.begin(), fields.end()};
}

TEST(PodTemplateFields, AreThoseOfTheEmbeddedPodTemplateSchema) {
  WMAP_NEEDS_SHARED("schemas");
  Result<Value> crd = yaml::Parse(
      test_files::ReadFile(test_files::SharedDir() / "schemas/crds/kueue.x-k8s.io_workloads.yaml"));
  ASSERT_TRUE(crd.ok());
  const Value* version = nullptr;
  for (const Value& v : crd->find("spec")->find("versions")->items()) {
    if (v.find("name")->as_string() == "v1beta2") version = &v;
  }
  ASSERT_NE(version, nullptr);
  const Value* spec = version->find("schema")->find("openAPIV3Schema")->find("properties");
  for (std::string_view key : {"spec", "properties", "podSets", "items", "properties", "template",
                               "properties", "spec", "properties"}) {
    ASSERT_NE(spec, nullptr) << key;
    spec = spec->find(key);
  }
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(Strings(PodSpecFields()), Keys(*spec));
  EXPECT_EQ(Strings(ContainerFields()),
            Keys(*spec->find("containers")->find("items")->find("properties")));
  EXPECT_EQ(Strings(ContainerFields()),
            Keys(*spec->find("initContainers")->find("items")->find("properties")));
}

TEST(PodTemplateFields, KeepOnlyWhatAPodTemplateHas) {
  // A Pod read as its own template (status-bearing metadata), a serving framework's component
  // (replica bounds and model fields beside the containers), and null labels.
  Result<Value> t = json::Parse(R"({
    "metadata": {"name": "p", "uid": "u-1", "resourceVersion": "7", "labels": {"a": "b",
      "gone": null}, "annotations": null},
    "spec": {"minReplicas": 1, "containers": [{"name": "m", "image": "i",
      "storageUri": "s3://m", "resources": {"limits": {"nvidia.com/gpu": "1"}}}],
      "schedulerName": "kai", "timeoutSeconds": 30, "volumes": null}})");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(json::ToCompactString(PodTemplateSpecOf(*t)),
            R"({"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"image":"i","name":"m",)"
            R"("resources":{"limits":{"nvidia.com/gpu":"1"}}}],"schedulerName":"kai"}})");
  EXPECT_TRUE(PodTemplateSpecOf(Value()).is_null());
}

}  // namespace
}  // namespace wmap::scheduling
