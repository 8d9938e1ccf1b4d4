// yaml::ReadOptions::share_repeated: equal sequences, mappings and long strings share one node,
// with the same values as a plain read.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

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

// The number of distinct nodes among vs.
size_t DistinctNodes(const std::vector<Value>& vs) {
  std::set<std::pair<uint64_t, uint64_t>> seen;
  for (const Value& v : vs) {
    uint64_t w0, w1;
    ValueBuilder::Words(v, &w0, &w1);
    seen.insert({w0, w1});
  }
  return seen.size();
}

// The table is lossy, so which documents share is not fixed; with 200 nearly all do.
TEST(YamlSharedReadTest, RepeatedSubtreesShareAcrossDocumentsUntilForgotten) {
  std::string text = Workloads(200);
  for (bool forget : {false, true}) {
    StreamReader reader(text, {.share_repeated = true});
    std::vector<Value> specs;
    Document d;
    Error e;
    while (reader.Next(&d, &e)) {
      ASSERT_TRUE(e.message.empty()) << e.ToString();
      specs.push_back(*d.value.find("spec")->find("template")->find("spec"));
      if (forget) reader.ForgetShared();
    }
    ASSERT_EQ(specs.size(), 200u);
    if (forget) {
      EXPECT_EQ(DistinctNodes(specs), 200u);
      for (const Value& spec : specs) EXPECT_EQ(Compare(spec, specs[0]), 0);
    } else {
      EXPECT_LE(DistinctNodes(specs), 40u);
    }
  }
  auto plain = ParseStream(text);
  ASSERT_TRUE(plain.ok());
  std::vector<Value> plain_specs;
  for (const Document& d : *plain) {
    plain_specs.push_back(*d.value.find("spec")->find("template")->find("spec"));
  }
  EXPECT_EQ(DistinctNodes(plain_specs), 200u);
}

}  // namespace
}  // namespace wmap::yaml
