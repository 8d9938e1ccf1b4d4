// Loading: OpenAPI v3 and Swagger 2.0 documents with `$ref`s, recursive definitions, built-in
// Quantity and IntOrString, CRDs with several versions, and load errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "schema_test_support.h"

namespace wmap::schema {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Messages;

// An OpenAPI v3 document in the shape Kubernetes publishes: allOf-wrapped `$ref`s, kinds from
// x-kubernetes-group-version-kind, a self-referencing definition.
constexpr std::string_view kOpenApi = R"({
  "openapi": "3.0.0",
  "components": {"schemas": {
    "io.example.v1.Box": {
      "type": "object",
      "required": ["spec"],
      "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.ObjectMeta"}], "default": {}},
        "spec": {"allOf": [{"$ref": "#/components/schemas/io.example.v1.BoxSpec"}], "default": {}}
      },
      "x-kubernetes-group-version-kind": [{"group": "example.io", "version": "v1", "kind": "Box"}]
    },
    "io.k8s.ObjectMeta": {
      "type": "object",
      "properties": {"name": {"type": "string"},
                     "labels": {"type": "object", "additionalProperties": {"type": "string"}}}
    },
    "io.example.v1.BoxSpec": {
      "type": "object",
      "properties": {
        "size": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"},
        "port": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
        "count": {"type": "integer", "format": "int32"},
        "raw": {"type": "object"},
        "inner": {"allOf": [{"$ref": "#/components/schemas/io.example.v1.Tree"}]},
        "loop": {"$ref": "#/components/schemas/io.example.v1.LoopA"}
      }
    },
    "io.example.v1.Tree": {
      "type": "object",
      "properties": {
        "label": {"type": "string"},
        "children": {"type": "array",
                     "items": {"allOf": [{"$ref": "#/components/schemas/io.example.v1.Tree"}]}},
        "first": {"$ref": "#/components/schemas/io.example.v1.Tree"}
      }
    },
    "io.example.v1.LoopA": {"$ref": "#/components/schemas/io.example.v1.LoopB"},
    "io.example.v1.LoopB": {"$ref": "#/components/schemas/io.example.v1.LoopA"},
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {
      "oneOf": [{"type": "string"}, {"type": "number"}]
    },
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {
      "format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]
    }
  }}
})";

SchemaSet OpenApiSet() {
  SchemaSet set;
  Result<size_t> added = set.AddDocument(kOpenApi, "box.json");
  EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().ToString());
  EXPECT_EQ(added.ok() ? *added : 0, 1u);
  return set;
}

std::string Box(std::string_view spec) {
  return "apiVersion: example.io/v1\nkind: Box\nmetadata: {name: b}\nspec: " + std::string(spec) +
         "\n";
}

TEST(OpenApiTest, RefsResolveAndBuiltinRulesApply) {
  SchemaSet set = OpenApiSet();
  EXPECT_THAT(set.Kinds(), ElementsAre(GroupVersionKind{"example.io", "v1", "Box"}));
  EXPECT_THAT(Messages(set, Box("{size: 2Gi, port: http, count: 3, raw: {any: [1]}}")), IsEmpty());
  // Quantities may be numbers; null is the zero value of a built-in field.
  EXPECT_THAT(Messages(set, Box("{size: 1.5, port: 8080, count: null}")), IsEmpty());
  EXPECT_THAT(Messages(set, Box("{size: 2 GB, port: true, colour: red}")),
              ElementsAre("spec.size: Invalid value: \"2 GB\": quantities must match the regular "
                          "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                          "spec.port: Invalid value: \"boolean\": spec.port in body must be of "
                          "type integer or string: \"boolean\"",
                          ".spec.colour: field not declared in schema"));
  EXPECT_THAT(Messages(set, "apiVersion: example.io/v1\nkind: Box\nmetadata: {name: b}\n"),
              ElementsAre("spec: Required value"));
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.io/v1\nkind: Box\n"
                       "metadata: {name: b, labels: {a: 1}, extra: 2}\nspec: {}\n"),
              ElementsAre("metadata.labels[a]: Invalid value: \"integer\": metadata.labels[a] in "
                          "body must be of type string: \"integer\"",
                          ".metadata.extra: field not declared in schema"));
}

TEST(OpenApiTest, RecursiveDefinitionsAreGraphsNotExpansions) {
  SchemaSet set = OpenApiSet();
  EXPECT_THAT(
      Messages(set, Box("{inner: {label: a, children: [{label: b, children: [{label: 3}]}],"
                        " first: {first: {first: {bogus: 1}}}}}")),
      ElementsAre("spec.inner.children[0].children[0].label: Invalid value: \"integer\": "
                  "spec.inner.children[0].children[0].label in body must be of type string: "
                  "\"integer\"",
                  ".spec.inner.first.first.first.bogus: field not declared in schema"));
  // A cycle of pure references admits anything.
  EXPECT_THAT(Messages(set, Box("{loop: {anything: [1, 2]}}")), IsEmpty());
}

TEST(OpenApiTest, DeepValuesStopAtTheDepthLimit) {
  SchemaSet set = OpenApiSet();
  std::string deep = "{first: ";
  std::string close = "}";
  for (int i = 0; i < 2000; ++i) {
    deep += "{first: ";
    close += "}";
  }
  deep += "{}" + close;
  std::vector<std::string> found = Messages(set, Box("{inner: " + deep + "}"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("nesting is deeper than the validator follows"), std::string::npos);
}

// A Swagger 2.0 document without kind tags: the kind comes from the create operation's body.
constexpr std::string_view kSwagger = R"({
  "swagger": "2.0",
  "paths": {
    "/apis/virt.example.io/v1/namespaces/{namespace}/machines": {
      "post": {"parameters": [
        {"name": "body", "in": "body", "schema": {"$ref": "#/definitions/v1.Machine"}},
        {"$ref": "#/parameters/namespace"}]}
    },
    "/apis/virt.example.io/v1/namespaces/{namespace}/machines/{name}/restart": {
      "put": {"parameters": [
        {"name": "body", "in": "body", "schema": {"$ref": "#/definitions/v1.RestartOptions"}}]}
    }
  },
  "definitions": {
    "v1.Machine": {
      "type": "object",
      "required": ["spec"],
      "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"$ref": "#/definitions/k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
        "spec": {"description": "ignored sibling", "$ref": "#/definitions/v1.MachineSpec"}
      }
    },
    "v1.MachineSpec": {
      "type": "object",
      "properties": {
        "memory": {"$ref": "#/definitions/k8s.io.apimachinery.pkg.api.resource.Quantity"},
        "port": {"$ref": "#/definitions/k8s.io.apimachinery.pkg.util.intstr.IntOrString"},
        "mode": {"type": "string", "enum": ["On", "Off"]}
      }
    },
    "v1.RestartOptions": {"type": "object"},
    "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
      "type": "object", "properties": {"name": {"type": "string"}}
    },
    "k8s.io.apimachinery.pkg.api.resource.Quantity": {"type": "string"},
    "k8s.io.apimachinery.pkg.util.intstr.IntOrString": {"type": "string", "format": "int-or-string"}
  }
})";

TEST(SwaggerTest, KindsComeFromCreateOperations) {
  SchemaSet set;
  Result<size_t> added = set.AddDocument(kSwagger, "swagger.json");
  ASSERT_TRUE(added.ok()) << added.error().ToString();
  EXPECT_THAT(set.Kinds(), ElementsAre(GroupVersionKind{"virt.example.io", "v1", "Machine"}));
  std::string head = "apiVersion: virt.example.io/v1\nkind: Machine\nmetadata: {name: m}\n";
  EXPECT_THAT(Messages(set, head + "spec: {memory: 2Gi, port: 22, mode: 'On'}"), IsEmpty());
  EXPECT_THAT(Messages(set, head + "spec: {memory: 1024, port: ssh}"), IsEmpty());
  EXPECT_THAT(Messages(set, head + "spec: {mode: true, memory: 1 Gi}"),
              ElementsAre("spec.mode: Invalid value: \"boolean\": spec.mode in body must be of "
                          "type string: \"boolean\"",
                          ::testing::StartsWith("spec.memory: Invalid value: \"1 Gi\": quantities "
                                                "must match")));
}

TEST(CrdTest, EveryVersionHasItsOwnSchema) {
  std::string crd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: string}}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
---
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: olds.example.com}
spec:
  group: example.com
  version: v1beta1
  names: {kind: Old, plural: olds}
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec: {type: object, required: [a], properties: {a: {type: string}}}
)";
  SchemaSet set;
  Result<size_t> added = set.AddDocument(crd, "gadgets.yaml");
  ASSERT_TRUE(added.ok()) << added.error().ToString();
  EXPECT_EQ(*added, 3u);
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1alpha1\nkind: Gadget\nmetadata: {name: g}\n"
                       "spec: {size: large}\n"),
              IsEmpty());
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n"
                       "spec: {size: large}\n"),
              ElementsAre("spec.size: Invalid value: \"string\": spec.size in body must be of "
                          "type integer: \"string\""));
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1beta1\nkind: Old\nmetadata: {name: o}\n"
                       "spec: {}\n"),
              ElementsAre("spec.a: Required value"));
}

TEST(LoadTest, TheFirstDocumentOfAKindWins) {
  SchemaSet set;
  ASSERT_TRUE(set.AddDocument(testing::WidgetCrd("type: object\nproperties:\n"
                                                 "  spec: {type: string}"),
                              "first.json")
                  .ok());
  Result<size_t> again = set.AddDocument(
      testing::WidgetCrd("type: object\nproperties:\n  spec: {type: integer}"), "second.json");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0u);
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
                       "spec: text\n"),
              IsEmpty());
}

TEST(LoadTest, ErrorsNameTheDocument) {
  SchemaSet set;
  Result<size_t> r = set.AddDocument("kind: ConfigMap\n", "cm.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().ToString(),
            "cm.yaml:1:1: not a CustomResourceDefinition, OpenAPI v3 or Swagger 2.0 document");
  r = set.AddDocument("{\"openapi\": ", "broken.json");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().ToString().starts_with("broken.json:")) << r.error().ToString();
  r = set.AddFile("/nonexistent/schema.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot read the file");
  EXPECT_TRUE(set.Kinds().empty());
}

TEST(LoadTest, DirectoriesLoadEveryDocumentAndReportTheFirstFailure) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("wmap_schema_dir_test_" + std::to_string(getpid()));
  fs::create_directories(dir / "nested");
  std::ofstream(dir / "a_widgets.json") << testing::WidgetCrd("type: object");
  std::ofstream(dir / "nested" / "box.json") << kOpenApi;
  std::ofstream(dir / "b_broken.yaml") << "kind: [unclosed\n";
  std::ofstream(dir / "notes.txt") << "not a schema";
  SchemaSet set;
  Result<size_t> r = set.AddDirectory(dir.string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, (dir / "b_broken.yaml").string());
  EXPECT_TRUE(set.Contains("example.com/v1", "Widget"));
  EXPECT_TRUE(set.Contains("example.io/v1", "Box"));
  fs::remove(dir / "b_broken.yaml");
  SchemaSet clean;
  r = clean.AddDirectory(dir.string());
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(*r, 2u);
  fs::remove_all(dir);
  EXPECT_FALSE(SchemaSet().AddDirectory((dir / "missing").string()).ok());
}

TEST(LoadTest, ValidationIsSafeFromManyThreads) {
  SchemaSet set = OpenApiSet();
  std::string good = Box("{size: 1Gi, inner: {children: [{label: a}]}}");
  std::string bad = Box("{size: 1 G, inner: {children: [{label: 1}]}}");
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        if (!Messages(set, good).empty()) ++failures;
        if (Messages(set, bad).size() != 2) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace wmap::schema
