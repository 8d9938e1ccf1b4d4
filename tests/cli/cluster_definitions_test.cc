// Merging a cluster's definitions over the catalog (cli/cluster_definitions.h): replacement of
// a built-in by root GVK, and upstream's warnings collision, no_crd and invalid.
#include "cli/cluster_definitions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wmap/catalog.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

// A Karta whose only status rule makes every object Degraded.
Value Karta(const std::string& name, const std::string& group, const std::string& version,
            const std::string& kind, const std::string& expression = "true") {
  std::string text = "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: " + name +
                     "\n  uid: u-" + name +
                     "\nspec:\n  structureDefinition:\n    rootComponent:\n      name: root\n"
                     "      kind: {group: \"" +
                     group + "\", version: " + version + ", kind: " + kind +
                     "}\n      specDefinition:\n        podTemplateSpecPath: .spec.template\n"
                     "      statusDefinition:\n        statusMappings:\n          degraded:\n"
                     "          - byExpression: {expression: '" +
                     expression + "', expectedResult: \"true\"}\nstatus:\n  conditions: []\n";
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(text);
  EXPECT_TRUE(docs.ok()) << text;
  return docs.ok() ? (*docs)[0].value : Value();
}

bool AllServed(const GroupVersionKind&) { return true; }

std::vector<std::string> Reasons(const ClusterDefinitions& merged) {
  std::vector<std::string> out;
  for (const DefinitionWarning& w : merged.warnings) out.push_back(w.reason);
  return out;
}

DefinitionResolver BuiltIn() {
  DefinitionResolver resolver;
  EXPECT_FALSE(DefinitionResolver::Create({}, &resolver));
  return resolver;
}

TEST(ClusterDefinitionsTest, AClusterDefinitionReplacesTheBuiltInOfItsKind) {
  DefinitionResolver resolver = BuiltIn();
  const size_t before = resolver.catalog().entries().size();
  ASSERT_NE(resolver.Find("apps/v1", "DaemonSet"), nullptr);
  std::vector<Value> objects = {Karta("team-daemons", "apps", "v1", "DaemonSet")};
  ClusterDefinitions merged = MergeClusterDefinitions(objects, AllServed, &resolver);
  EXPECT_TRUE(merged.warnings.empty());
  const CatalogEntry* entry = resolver.Find("apps/v1", "DaemonSet");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->definition.name(), "team-daemons");
  EXPECT_EQ(entry->origin, kClusterOrigin);
  EXPECT_EQ(resolver.catalog().entries().size(), before);  // replaced, not added
  EXPECT_EQ(resolver.catalog().FindByName("apps-daemonset-v1"), nullptr);
  ASSERT_EQ(merged.documents.count("team-daemons"), 1u);
  EXPECT_NE(merged.documents.at("team-daemons").find("status"), nullptr);  // as the server has it
}

TEST(ClusterDefinitionsTest, ANewKindIsAdded) {
  DefinitionResolver resolver = BuiltIn();
  const size_t before = resolver.catalog().entries().size();
  std::vector<Value> objects = {Karta("widgets", "example.com", "v1", "Widget")};
  ClusterDefinitions merged = MergeClusterDefinitions(objects, AllServed, &resolver);
  EXPECT_TRUE(merged.warnings.empty());
  EXPECT_EQ(resolver.catalog().entries().size(), before + 1);
  EXPECT_NE(resolver.Find("example.com/v1", "Widget"), nullptr);
}

TEST(ClusterDefinitionsTest, TwoClaimsOfOneKindAreACollisionAndNeitherIsUsed) {
  DefinitionResolver resolver = BuiltIn();
  std::vector<Value> objects = {Karta("b-jobs", "ray.io", "v1", "RayJob"),
                                Karta("a-jobs", "ray.io", "v1", "RayJob"),
                                Karta("widgets", "example.com", "v1", "Widget")};
  ClusterDefinitions merged = MergeClusterDefinitions(objects, AllServed, &resolver);
  ASSERT_EQ(Reasons(merged), std::vector<std::string>{"collision"});
  EXPECT_EQ(merged.warnings[0].message,
            "2 Karta definitions claim RayJob.v1.ray.io (b-jobs, a-jobs); none of them is used; "
            "remove one from the cluster");
  const CatalogEntry* entry = resolver.Find("ray.io/v1", "RayJob");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->origin, kBuiltInOrigin);
  EXPECT_NE(resolver.Find("example.com/v1", "Widget"), nullptr);  // the others still merge
}

TEST(ClusterDefinitionsTest, AKindTheClusterDoesNotServeIsNoCrdAndKept) {
  DefinitionResolver resolver = BuiltIn();
  std::vector<Value> objects = {Karta("widgets", "example.com", "v1", "Widget"),
                                Karta("team-daemons", "apps", "v1", "DaemonSet")};
  ClusterDefinitions merged = MergeClusterDefinitions(
      objects, [](const GroupVersionKind& k) { return k.group != "example.com"; }, &resolver);
  ASSERT_EQ(Reasons(merged), std::vector<std::string>{"no_crd"});
  EXPECT_EQ(merged.warnings[0].definition, "widgets");
  EXPECT_EQ(
      merged.warnings[0].message,
      "definition \"widgets\" reads Widget.v1.example.com, which this cluster does not serve");
  EXPECT_NE(resolver.Find("example.com/v1", "Widget"), nullptr);
  EXPECT_EQ(resolver.Find("apps/v1", "DaemonSet")->definition.name(), "team-daemons");
}

TEST(ClusterDefinitionsTest, AnInvalidDefinitionIsSkipped) {
  DefinitionResolver resolver = BuiltIn();
  std::vector<Value> objects = {Karta("broken", "apps", "v1", "DaemonSet", ".[[")};
  ClusterDefinitions merged = MergeClusterDefinitions(objects, AllServed, &resolver);
  ASSERT_EQ(Reasons(merged), std::vector<std::string>{"invalid"});
  EXPECT_EQ(merged.warnings[0].definition, "broken");
  EXPECT_TRUE(
      merged.warnings[0].message.starts_with("Karta \"broken\" is not valid and is skipped: "))
      << merged.warnings[0].message;
  EXPECT_EQ(resolver.Find("apps/v1", "DaemonSet")->origin, kBuiltInOrigin);
  EXPECT_TRUE(merged.documents.empty());
}

TEST(ClusterDefinitionsTest, ADefinitionFileGivenOnTheCommandLineWins) {
  DefinitionResolver resolver = BuiltIn();
  resolver.Add(resolver.Find("apps/v1", "DaemonSet")->definition, "mine.yaml");
  std::vector<Value> objects = {Karta("team-daemons", "apps", "v1", "DaemonSet")};
  ClusterDefinitions merged = MergeClusterDefinitions(objects, AllServed, &resolver);
  EXPECT_TRUE(merged.warnings.empty());
  EXPECT_EQ(resolver.Find("apps/v1", "DaemonSet")->origin, "mine.yaml");
}

TEST(ClusterDefinitionsTest, WarningLinesEndWithTheReason) {
  EXPECT_EQ(WarningLine({"no_crd", "w", "definition \"w\" reads X"}),
            "definition \"w\" reads X (no_crd)");
}

}  // namespace
}  // namespace wmap::cli
