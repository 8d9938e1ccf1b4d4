// yaml::ReadOptions::share_repeated: equal sequences, mappings and long strings share one node,
// with the same values as a plain read.
#include <gtest/gtest.h>

#include <string>

#include "value/value_nodes.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::yaml {
namespace {

using internal::ValueBuilder;

std::string Workloads(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text +=
        "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job-" + std::to_string(i) +
        "\n  labels: &labels\n    app.kubernetes.io/name: trainer\n"
        "spec:\n  template:\n    metadata:\n      labels: *labels\n    spec:\n"
        "      containers:\n      - name: main\n        image: registry.example.com/trainer:v1\n"
        "        args: [--epochs, '10']\n        resources: {limits: {nvidia.com/gpu: '8'}}\n"
        "  defaults: &d {backoffLimit: 3, ttl: 60}\n  merged:\n    <<: *d\n    ttl: " +
        std::to_string(i % 3) + "\n";
  }
  return text;
}

TEST(YamlSharedReadTest, SameDocumentsAsAPlainRead) {
  std::string text = Workloads(200);
  for (Schema schema : {Schema::kKubernetes, Schema::kGojq}) {
    auto plain = ParseStream(text, {.schema = schema});
    auto shared = ParseStream(text, {.schema = schema, .share_repeated = true});
    ASSERT_TRUE(plain.ok()) << plain.error().ToString();
    ASSERT_TRUE(shared.ok()) << shared.error().ToString();
    ASSERT_EQ(plain->size(), shared->size());
    for (size_t i = 0; i < plain->size(); ++i) {
      EXPECT_EQ(json::ToString((*plain)[i].value, {.indent = 0, .sort_keys = false}),
                json::ToString((*shared)[i].value, {.indent = 0, .sort_keys = false}));
    }
  }
}

TEST(YamlSharedReadTest, RepeatedSubtreesShareAcrossDocumentsUntilForgotten) {
  std::string text = Workloads(3);
  StreamReader reader(text, {.share_repeated = true});
  Document a, b, c;
  Error e;
  ASSERT_TRUE(reader.Next(&a, &e));
  ASSERT_TRUE(reader.Next(&b, &e));
  const Value& spec_a = *a.value.find("spec")->find("template")->find("spec");
  const Value& spec_b = *b.value.find("spec")->find("template")->find("spec");
  EXPECT_TRUE(ValueBuilder::SameRepresentation(spec_a, spec_b));
  reader.ForgetShared();
  ASSERT_TRUE(reader.Next(&c, &e));
  const Value& spec_c = *c.value.find("spec")->find("template")->find("spec");
  EXPECT_EQ(Compare(spec_a, spec_c), 0);
  EXPECT_FALSE(ValueBuilder::SameRepresentation(spec_a, spec_c));

  auto plain = ParseStream(text);
  ASSERT_TRUE(plain.ok());
  const Value& plain_a = *(*plain)[0].value.find("spec")->find("template")->find("spec");
  const Value& plain_b = *(*plain)[1].value.find("spec")->find("template")->find("spec");
  EXPECT_FALSE(ValueBuilder::SameRepresentation(plain_a, plain_b));
}

}  // namespace
}  // namespace wmap::yaml
