// catalog/karta/: the upstream-format (run.ai/v1alpha1 Karta) copy of every built-in
// WorkloadDefinition whose type upstream's catalog also covers, for clusters whose tools read
// Kartas only. Each copy must load as a Karta, be the copy of a WorkloadDefinition of the same
// name and root kind, and read every test object of that type as the richer definition does:
// the same matched statuses, the same component for every pod and the same instances.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "catalog_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;
using test_support::CatalogDir;
using test_support::ReadFile;

std::vector<std::string> KartaStems() {
  std::vector<std::string> stems;
  for (const auto& e : fs::directory_iterator(CatalogDir() / "karta")) {
    if (e.path().extension() == ".yaml") stems.push_back(e.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

Definition Load(const fs::path& path) {
  LoadResult loaded = LoadDefinitions(ReadFile(path), path.string());
  EXPECT_TRUE(loaded.ok()) << path << ": "
                           << (loaded.errors.empty() ? "" : loaded.errors[0].ToString());
  EXPECT_EQ(loaded.definitions.size(), 1u) << path;
  return loaded.definitions.at(0);
}

// Component name -> instance ids, for the components both definitions have.
std::map<std::string, std::vector<std::string>> Instances(const Workload& w) {
  std::map<std::string, std::vector<std::string>> out;
  const Definition& d = w.definition();
  for (size_t i = 0; i < d.components().size(); ++i) {
    auto ids = w.InstanceIds(i);
    EXPECT_TRUE(ids.ok()) << d.components()[i].name;
    if (ids.ok()) out[d.components()[i].name] = *ids;
  }
  return out;
}

std::string PodComponent(const PodQuerier& q, const Definition& d, const Value& pod) {
  auto c = q.InferPodComponent(pod);
  EXPECT_TRUE(c.ok());
  return c.ok() && *c ? d.components()[**c].name : std::string("(none)");
}

TEST(KartaCopies, TheFolderHoldsTheCopiesOfTheConvertedTypes) {
  const std::vector<std::string> stems = KartaStems();
  EXPECT_EQ(stems, (std::vector<std::string>{
                       "apps-statefulset-v1", "batch-cronjob-v1", "batch-job-v1", "core-pod-v1",
                       "grove-io-podcliqueset-v1alpha1", "jobset-x-k8s-io-jobset-v1alpha2",
                       "kubeflow-org-mpijob-v2beta1", "kubeflow-org-pytorchjob-v1",
                       "leaderworkerset-x-k8s-io-leaderworkerset-v1",
                       "nvidia-com-dynamographdeployment-v1alpha1",
                       "nvidia-com-dynamographdeployment-v1beta1", "ray-io-raycluster-v1",
                       "ray-io-rayjob-v1", "ray-io-rayservice-v1"}));
  // Every built-in WorkloadDefinition of a type upstream covers has its copy.
  const fs::path upstream = ::wmap::test_files::SharedDir() / "conformance/upstream/catalog";
  for (const std::string& stem : test_support::CatalogStems()) {
    const Definition d = Load(CatalogDir() / (stem + ".yaml"));
    if (d.format() != DefinitionFormat::kWorkloadDefinition) continue;
    if (!fs::exists(upstream / (stem + ".yaml"))) continue;
    EXPECT_TRUE(fs::exists(CatalogDir() / "karta" / (stem + ".yaml")))
        << stem << " is covered by upstream and has no catalog/karta copy";
  }
}

class KartaCopy : public testing::TestWithParam<std::string> {};

TEST_P(KartaCopy, ReadsEveryTestObjectAsTheRicherDefinition) {
  const std::string stem = GetParam();
  const Definition karta = Load(CatalogDir() / "karta" / (stem + ".yaml"));
  const Definition rich = Load(CatalogDir() / (stem + ".yaml"));
  EXPECT_EQ(karta.format(), DefinitionFormat::kKarta);
  EXPECT_EQ(rich.format(), DefinitionFormat::kWorkloadDefinition);
  EXPECT_EQ(karta.name(), stem);
  EXPECT_EQ(karta.root_kind().ToString(), rich.root_kind().ToString());

  PodQuerier karta_pods(karta);
  PodQuerier rich_pods(rich);
  size_t objects = 0;
  size_t pods = 0;
  for (const auto& e : fs::directory_iterator(CatalogDir() / "testdata" / stem)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".yaml") continue;
    auto docs = yaml::ParseStream(ReadFile(e.path()));
    ASSERT_TRUE(docs.ok()) << name;
    for (const yaml::Document& doc : *docs) {
      const Value* kind = doc.value.find("kind");
      if (kind == nullptr || !kind->is_string()) continue;
      const bool root = kind->as_string() == rich.root_kind().kind;
      if (!root && kind->as_string() == "Pod") {
        ++pods;
        EXPECT_EQ(PodComponent(karta_pods, karta, doc.value),
                  PodComponent(rich_pods, rich, doc.value))
            << name;
        continue;
      }
      if (!root) continue;
      ++objects;
      Workload a(karta, doc.value);
      Workload b(rich, doc.value);
      auto sa = a.Status(0);
      auto sb = b.Status(0);
      ASSERT_TRUE(sa.ok() && sb.ok()) << name;
      ASSERT_EQ(sa->has_value(), sb->has_value()) << name;
      if (*sa) {
        EXPECT_EQ((*sa)->matched, (*sb)->matched) << name;
      }
      std::map<std::string, std::vector<std::string>> ia = Instances(a);
      std::map<std::string, std::vector<std::string>> ib = Instances(b);
      for (const auto& [component, ids] : ia) {
        if (ib.count(component)) {
          EXPECT_EQ(ids, ib[component]) << name << " " << component;
        }
      }
    }
  }
  EXPECT_GT(objects, 0u);
  if (rich.root_kind().kind != "Pod") {
    EXPECT_GT(pods, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, KartaCopy, testing::ValuesIn(KartaStems()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace wmap
