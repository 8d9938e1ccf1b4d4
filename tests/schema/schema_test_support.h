// Fixtures for the schema tests: one-kind sets built from a schema written inline, the set of
// every shared schema document (loaded once per test binary), and message extraction.
#ifndef WMAP_TESTS_SCHEMA_SCHEMA_TEST_SUPPORT_H_
#define WMAP_TESTS_SCHEMA_SCHEMA_TEST_SUPPORT_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "shared_data.h"
#include "test_files.h"
#include "wmap/json.h"
#include "wmap/schema.h"
#include "wmap/yaml.h"

namespace wmap::schema::testing {

using test_files::ReadFile;

inline Value ParseYaml(std::string_view text) {
  Result<Value> v = yaml::Parse(text);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().ToString());
  return v.ok() ? *v : Value();
}

// A CustomResourceDefinition of example.com Widget, version v1, with the given
// openAPIV3Schema (YAML), as JSON text.
inline std::string WidgetCrd(std::string_view schema_yaml, bool served = true) {
  Value version = Value::Object({{"name", Value::String("v1")},
                                 {"served", Value::Bool(served)},
                                 {"storage", Value::Bool(true)}});
  version.set("schema", Value::Object({{"openAPIV3Schema", ParseYaml(schema_yaml)}}));
  Value spec = Value::Object(
      {{"group", Value::String("example.com")}, {"scope", Value::String("Namespaced")}});
  spec.set("names", Value::Object(
                        {{"kind", Value::String("Widget")}, {"plural", Value::String("widgets")}}));
  spec.set("versions", Value::Array({version}));
  Value crd = Value::Object({{"apiVersion", Value::String("apiextensions.k8s.io/v1")},
                             {"kind", Value::String("CustomResourceDefinition")}});
  crd.set("metadata", Value::Object({{"name", Value::String("widgets.example.com")}}));
  crd.set("spec", spec);
  return json::ToString(crd);
}

inline SchemaSet WidgetSet(std::string_view schema_yaml) {
  SchemaSet set;
  Result<size_t> added = set.AddDocument(WidgetCrd(schema_yaml), "widgets.json");
  EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().ToString());
  return set;
}

// The messages of validating one YAML object.
inline std::vector<std::string> Messages(const SchemaSet& set, std::string_view object_yaml) {
  std::vector<std::string> out;
  for (const Violation& v : set.Validate(ParseYaml(object_yaml))) out.push_back(v.message);
  return out;
}

inline std::vector<std::string> Fields(const SchemaSet& set, std::string_view object_yaml) {
  std::vector<std::string> out;
  for (const Violation& v : set.Validate(ParseYaml(object_yaml))) out.push_back(v.field);
  return out;
}

inline std::filesystem::path SharedSchemas() { return ::wmap::test_files::SharedDir() / "schemas"; }

// Every document of the shared schemas folder, loaded once.
inline const SchemaSet& AllSchemas() {
  static const SchemaSet* set = [] {
    static SchemaSet loaded;
    Result<size_t> added = loaded.AddDirectory(SharedSchemas().string());
    EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().ToString());
    return &loaded;
  }();
  return *set;
}

// The built-in kinds (kubernetes/ and openapi/ documents) and the JobSet and PyTorchJob CRDs,
// loaded once: enough for most tests, and much faster to load than every document.
inline const SchemaSet& CoreSchemas() {
  static const SchemaSet* set = [] {
    static SchemaSet loaded;
    for (std::string_view part : {"kubernetes", "openapi", "crds/jobset.x-k8s.io_jobsets.yaml",
                                  "crds/kubeflow.org_pytorchjobs.yaml"}) {
      std::filesystem::path path = SharedSchemas() / part;
      Result<size_t> added = std::filesystem::is_directory(path)
                                 ? loaded.AddDirectory(path.string())
                                 : loaded.AddFile(path.string());
      EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().ToString());
    }
    return &loaded;
  }();
  return *set;
}

}  // namespace wmap::schema::testing

#endif  // WMAP_TESTS_SCHEMA_SCHEMA_TEST_SUPPORT_H_
