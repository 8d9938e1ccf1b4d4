// Every catalog file is a valid definition named after its root kind, the root kinds are
// distinct, the compiled-in copies equal the files, and every definition has test data.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "catalog_test_support.h"
#include "wmap/catalog.h"
#include "wmap/definition.h"

namespace wmap {
namespace {

using test_support::CatalogDir;
using test_support::CatalogStems;
using test_support::ReadFile;

// "<group with dots as dashes, or core>-<kind lowercase>-<version>", the file naming rule.
std::string ExpectedStem(const GroupVersionKind& k) {
  std::string group = k.group.empty() ? "core" : k.group;
  for (char& c : group) {
    if (c == '.') c = '-';
  }
  std::string kind = k.kind;
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return group + "-" + kind + "-" + k.version;
}

class CatalogFile : public testing::TestWithParam<std::string> {};

TEST_P(CatalogFile, LoadsStrictlyAndIsNamedAfterItsRootKind) {
  const std::string stem = GetParam();
  const std::string path = (CatalogDir() / (stem + ".yaml")).string();
  LoadOptions strict;
  strict.apply_crd_defaults = false;
  LoadResult loaded = LoadDefinitions(ReadFile(path), path, strict);
  for (const Error& e : loaded.errors) ADD_FAILURE() << e.ToString();
  ASSERT_EQ(loaded.definitions.size(), 1u) << path << " must hold exactly one definition";
  const Definition& d = loaded.definitions[0];
  EXPECT_EQ(d.name(), stem) << "metadata.name must be the file name without .yaml";
  EXPECT_EQ(ExpectedStem(d.root_kind()), stem) << "the file must be named after its root kind";
  EXPECT_TRUE(std::filesystem::exists(CatalogDir() / "testdata" / stem / "manifest.yaml"))
      << "catalog/testdata/" << stem << "/manifest.yaml is missing";
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogFile, testing::ValuesIn(CatalogStems()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_support::ParamName(info.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CatalogFile);

TEST(Catalog, RootKindsAreDistinct) {
  std::map<std::string, std::string> seen;
  for (const std::string& stem : CatalogStems()) {
    LoadResult loaded = LoadDefinitions(ReadFile(CatalogDir() / (stem + ".yaml")), stem);
    if (!loaded.ok() || loaded.definitions.empty()) continue;  // reported by CatalogFile
    const std::string kind = loaded.definitions[0].root_kind().ToString();
    auto [it, inserted] = seen.emplace(kind, stem);
    EXPECT_TRUE(inserted) << stem << " and " << it->second << " both describe " << kind;
  }
}

TEST(Catalog, CompiledInFilesEqualTheSourceFiles) {
  std::set<std::string> on_disk;
  for (const std::string& stem : CatalogStems()) on_disk.insert(stem + ".yaml");
  std::set<std::string> compiled;
  for (const Catalog::File& f : Catalog::BuiltInFiles()) {
    compiled.insert(std::string(f.name));
    EXPECT_EQ(std::string(f.text), ReadFile(CatalogDir() / f.name))
        << f.name << " changed since the build: rebuild to embed the current file";
  }
  EXPECT_EQ(compiled, on_disk);
}

TEST(Catalog, BuiltInHoldsEveryFile) {
  const Catalog& built_in = Catalog::BuiltIn();
  EXPECT_EQ(built_in.entries().size(), Catalog::BuiltInFiles().size());
  for (const CatalogEntry& e : built_in.entries()) {
    EXPECT_EQ(e.origin, kBuiltInOrigin);
    EXPECT_EQ(built_in.Find(e.definition.root_kind()), &e);
    EXPECT_EQ(built_in.FindByName(e.definition.name()), &e);
  }
}

// A minimal valid definition of batch/v1 Job called `name`.
std::string JobDefinition(const std::string& name) {
  return "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: " + name + R"(
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {group: batch, version: v1, kind: Job}
      specDefinition:
        podTemplateSpecPath: .spec.template
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
        statusMappings:
          completed:
            - byConditions:
                - type: Complete
                  status: "True"
)";
}

TEST(Catalog, UserDefinitionReplacesBuiltInOfTheSameKind) {
  Catalog catalog;
  EXPECT_TRUE(catalog.AddText(JobDefinition("batch-job-v1"), "first").empty());
  ASSERT_EQ(catalog.entries().size(), 1u);
  EXPECT_TRUE(catalog.AddText(JobDefinition("my-jobs"), "mine.yaml").empty());
  ASSERT_EQ(catalog.entries().size(), 1u);
  const CatalogEntry* e = catalog.Find("batch/v1", "Job");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->definition.name(), "my-jobs");
  EXPECT_EQ(e->origin, "mine.yaml");
  EXPECT_EQ(catalog.Find("v1", "Job"), nullptr);
  EXPECT_EQ(catalog.FindByName("batch-job-v1"), nullptr);
}

TEST(Catalog, AddPathReportsUnreadableAndInvalidFiles) {
  Catalog catalog;
  std::vector<Error> errors = catalog.AddPath("/nonexistent/definitions.yaml");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].file, "/nonexistent/definitions.yaml");
  const std::filesystem::path dir = testing::TempDir() + "/wmap_catalog_add_path";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "broken.yaml") << "apiVersion: run.ai/v1alpha1\nkind: Karta\nspec: 3\n";
  std::ofstream(dir / "notes.txt") << "not a definition";
  errors = catalog.AddPath(dir.string());
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].file, (dir / "broken.yaml").string());
  EXPECT_TRUE(catalog.empty());
}

}  // namespace
}  // namespace wmap
