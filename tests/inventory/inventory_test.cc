// The inventory: definitions from the catalog and from files, objects grouped into workloads by
// their controller owner references.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shared_data.h"
#include "test_files.h"
#include "wmap/inventory.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

using meta::MetadataField;

Value Obj(const std::string& yaml_text) { return *yaml::Parse(yaml_text); }

SourceObject In(const std::string& yaml_text) {
  SourceObject o;
  o.value = Obj(yaml_text);
  o.file = "objects.yaml";
  return o;
}

TEST(DefinitionResolverTest, BuiltInOverriddenByFiles) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  DefinitionSources sources;
  DefinitionResolver builtin;
  ASSERT_FALSE(DefinitionResolver::Create(sources, &builtin).has_value());
  const CatalogEntry* ray = builtin.Find("ray.io/v1", "RayCluster");
  ASSERT_NE(ray, nullptr);
  EXPECT_EQ(ray->origin, kBuiltInOrigin);

  sources.files = {test_files::SharedDir().string() +
                   "/conformance/upstream/catalog/ray-io-raycluster-v1.yaml"};
  DefinitionResolver overridden;
  ASSERT_FALSE(DefinitionResolver::Create(sources, &overridden).has_value());
  EXPECT_EQ(overridden.Find("ray.io/v1", "RayCluster")->origin, sources.files[0]);
  EXPECT_EQ(overridden.Find(Obj("apiVersion: example.com/v1\nkind: Foo\n")), nullptr);

  sources.files = {"/nonexistent/definition.yaml"};
  std::optional<Error> e = DefinitionResolver::Create(sources, &overridden);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, ErrorCode::kNotFound);
}

TEST(DefinitionResolverTest, NoDefinitionSaysWhatToDo) {
  SourceObject o = In("apiVersion: example.com/v1\nkind: Foo\n");
  o.position.line = 3;
  o.position.column = 1;
  Error e = DefinitionResolver::NoDefinition(o);
  EXPECT_EQ(e.code, ErrorCode::kNoDefinition);
  EXPECT_EQ(e.ToString(),
            "objects.yaml:3:1: no definition for example.com/v1 Foo: pass --definition FILE or "
            "add one with --definitions DIR");
}

TEST(GroupWorkloadsTest, OwnershipChainsAttributePodsAndChildren) {
  DefinitionResolver resolver;
  ASSERT_FALSE(DefinitionResolver::Create({}, &resolver).has_value());
  auto owned = [](const std::string& kind, const std::string& name, const std::string& uid,
                  const std::string& owner_uid) {
    std::string api = kind == "Pod" ? "v1" : (kind == "Job" ? "batch/v1" : "apps/v1");
    return In("apiVersion: " + api + "\nkind: " + kind + "\nmetadata:\n  name: " + name +
              "\n  uid: " + uid + "\n  ownerReferences:\n  - {apiVersion: x, kind: y, name: o, " +
              "uid: " + owner_uid + ", controller: true}\n");
  };
  std::vector<SourceObject> objects = {
      In("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, uid: js1}\n"),
      owned("Job", "js-a-0", "job1", "js1"),
      owned("Pod", "js-a-0-0", "pod1", "job1"),
      owned("Pod", "orphan", "pod2", "missing-owner"),
      In("apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: foo}\n"),
      In("apiVersion: v1\nkind: Pod\nmetadata: {name: bare, uid: bare1}\n"),
  };
  Inventory r = GroupWorkloads(objects, resolver);
  ASSERT_EQ(r.workloads.size(), 2u);
  EXPECT_EQ(r.workloads[0].workload.Name(), "js");
  ASSERT_EQ(r.workloads[0].children.size(), 1u);
  ASSERT_EQ(r.workloads[0].pods.size(), 1u);
  EXPECT_EQ(MetadataField(r.workloads[0].pods[0], "name"), "js-a-0-0");
  EXPECT_EQ(r.workloads[1].workload.Name(), "bare");
  ASSERT_EQ(r.orphans.size(), 1u);
  EXPECT_EQ(r.orphans[0].Name(), "orphan");
  ASSERT_EQ(r.undefined.size(), 1u);
  EXPECT_EQ(r.undefined[0].Kind(), "Foo");
}

}  // namespace
}  // namespace wmap
