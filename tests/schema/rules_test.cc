// Each validation rule on a small hand-written custom resource schema.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schema_test_support.h"

namespace wmap::schema {
namespace {

using ::testing::ElementsAre;
using testing::Fields;
using ::testing::IsEmpty;
using testing::Messages;
using testing::WidgetSet;

std::string Indent(std::string_view text, int spaces) {
  std::string pad(spaces, ' ');
  std::string out = pad;
  for (char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

// A Widget whose spec has the given schema.
SchemaSet SpecSet(std::string_view spec_schema) {
  return WidgetSet(
      "type: object\n"
      "properties:\n"
      "  apiVersion: {type: string}\n"
      "  kind: {type: string}\n"
      "  metadata: {type: object}\n"
      "  spec:\n" +
      Indent(spec_schema, 4) + "\n");
}

// A Widget object with the given spec.
std::string Widget(std::string_view spec) {
  return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n" +
         Indent(spec, 2) + "\n";
}

TEST(RulesTest, TypesAreCheckedWithTheApiServerWording) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  replicas: {type: integer}\n"
      "  ratio: {type: number}\n"
      "  name: {type: string}\n"
      "  enabled: {type: boolean}\n"
      "  list: {type: array, items: {type: string}}\n"
      "  map: {type: object, x-kubernetes-preserve-unknown-fields: true}");
  EXPECT_THAT(Messages(set, Widget("replicas: 2\nratio: 0.5\nname: x\nenabled: true\nlist: [a]\n"
                                   "map: {a: 1}")),
              IsEmpty());
  EXPECT_THAT(Messages(set, Widget("replicas: two")),
              ElementsAre("spec.replicas: Invalid value: \"string\": spec.replicas in body must "
                          "be of type integer: \"string\""));
  EXPECT_THAT(
      Messages(set, Widget("replicas: 1.5\nratio: '1'\nname: 3\nenabled: yes-please\n"
                           "list: {}\nmap: []")),
      ElementsAre("spec.replicas: Invalid value: \"number\": spec.replicas in body must "
                  "be of type integer: \"number\"",
                  "spec.ratio: Invalid value: \"string\": spec.ratio in body must be of "
                  "type number: \"string\"",
                  "spec.name: Invalid value: \"integer\": spec.name in body must be of "
                  "type string: \"integer\"",
                  "spec.enabled: Invalid value: \"string\": spec.enabled in body must be of type "
                  "boolean: \"string\"",
                  "spec.list: Invalid value: \"object\": spec.list in body must be of "
                  "type array: \"object\"",
                  "spec.map: Invalid value: \"array\": spec.map in body must be of type "
                  "object: \"array\""));
  // An integral number written as a float is an integer; an integer is a number.
  EXPECT_THAT(Messages(set, Widget("replicas: 2.0\nratio: 3")), IsEmpty());
}

TEST(RulesTest, RequiredFieldsAreReportedAtTheirPath) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "required: [image, port]\n"
      "properties:\n"
      "  image: {type: string}\n"
      "  port: {type: integer}");
  EXPECT_THAT(Messages(set, Widget("image: x")), ElementsAre("spec.port: Required value"));
  EXPECT_THAT(Fields(set, Widget("{}")), ElementsAre("spec.image", "spec.port"));
}

TEST(RulesTest, EnumListsTheSupportedValues) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  mode: {type: string, enum: [a, b]}\n"
      "  level: {type: integer, enum: [1, 2]}");
  EXPECT_THAT(Messages(set, Widget("mode: b\nlevel: 2")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("mode: x\nlevel: 3")),
              ElementsAre("spec.mode: Unsupported value: \"x\": supported values: \"a\", \"b\"",
                          "spec.level: Unsupported value: 3: supported values: 1, 2"));
}

TEST(RulesTest, UnknownFieldsAreReportedUnlessPreserved) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  known: {type: string}\n"
      "  empty: {type: object}\n"
      "  free: {type: object, x-kubernetes-preserve-unknown-fields: true,\n"
      "         properties: {typed: {type: integer}}}\n"
      "  open: {type: object, additionalProperties: true}\n"
      "  closed: {type: object, additionalProperties: false, properties: {a: {type: string}}}");
  EXPECT_THAT(Messages(set, Widget("known: x\nfree: {any: [1], typed: 2}\nopen: {x: 1}\n"
                                   "closed: {a: b}\nempty: {}")),
              IsEmpty());
  EXPECT_THAT(Messages(set, Widget("bogus: 1\nempty: {x: 1}\nclosed: {b: c}\nfree: {typed: x}")),
              ElementsAre(".spec.bogus: field not declared in schema",
                          ".spec.empty.x: field not declared in schema",
                          ".spec.closed.b: field not declared in schema",
                          "spec.free.typed: Invalid value: \"string\": spec.free.typed in body "
                          "must be of type integer: \"string\""));
  // Unknown fields at the top level too.
  EXPECT_THAT(Messages(set, Widget("{}") + "extra: 1\n"),
              ElementsAre(".extra: field not declared in schema"));
}

TEST(RulesTest, AdditionalPropertiesSchemaChecksMapValues) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  limits:\n"
      "    type: object\n"
      "    additionalProperties: {type: integer, minimum: 0}");
  EXPECT_THAT(Messages(set, Widget("limits: {cpu: 1, nvidia.com/gpu: 8}")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("limits: {cpu: one, mem: -1}")),
              ElementsAre("spec.limits[cpu]: Invalid value: \"string\": spec.limits[cpu] in body "
                          "must be of type integer: \"string\"",
                          "spec.limits[mem]: Invalid value: -1: spec.limits[mem] in body should "
                          "be greater than or equal to 0"));
}

TEST(RulesTest, ItemsAreCheckedWithTheirIndex) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  jobs:\n"
      "    type: array\n"
      "    items:\n"
      "      type: object\n"
      "      required: [name]\n"
      "      properties:\n"
      "        name: {type: string}\n"
      "        replicas: {type: integer}");
  EXPECT_THAT(Messages(set, Widget("jobs: [{name: a}, {replicas: x}]")),
              ElementsAre("spec.jobs[1].replicas: Invalid value: \"string\": "
                          "spec.jobs[1].replicas in body must be of type integer: \"string\"",
                          "spec.jobs[1].name: Required value"));
}

TEST(RulesTest, NullIsAcceptedOnlyWhereNullable) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  strict: {type: string}\n"
      "  loose: {type: string, nullable: true}\n"
      "  any: {x-kubernetes-preserve-unknown-fields: true}");
  EXPECT_THAT(Messages(set, Widget("loose: null\nany: null")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("strict: null")),
              ElementsAre("spec.strict: Invalid value: \"null\": spec.strict in body must be of "
                          "type string: \"null\""));
}

TEST(RulesTest, IntOrStringAcceptsBoth) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  port:\n"
      "    anyOf: [{type: integer}, {type: string}]\n"
      "    x-kubernetes-int-or-string: true\n"
      "  memory:\n"
      "    anyOf: [{type: integer}, {type: string}]\n"
      "    pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
      "([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$\n"
      "    x-kubernetes-int-or-string: true");
  EXPECT_THAT(Messages(set, Widget("port: 8080\nmemory: 4Gi")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("port: http\nmemory: 3")), IsEmpty());
  std::vector<std::string> bad = Messages(set, Widget("port: true\nmemory: 4GB"));
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_EQ(bad[0],
            "spec.port: Invalid value: \"boolean\": spec.port in body must be of type integer or "
            "string: \"boolean\"");
  EXPECT_TRUE(
      bad[1].starts_with("spec.memory: Invalid value: \"4GB\": spec.memory in body "
                         "should match '^(\\+|-)?"))
      << bad[1];
}

TEST(RulesTest, EmbeddedResourcesHaveApiVersionKindAndMetadata) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  template:\n"
      "    type: object\n"
      "    x-kubernetes-embedded-resource: true\n"
      "    x-kubernetes-preserve-unknown-fields: true");
  EXPECT_THAT(Messages(set, Widget("template:\n  apiVersion: v1\n  kind: Pod\n"
                                   "  metadata: {name: p, labels: {a: b}}\n  spec: {x: 1}")),
              IsEmpty());
  EXPECT_THAT(Messages(set, Widget("template:\n  apiVersion: v1\n"
                                   "  metadata: {labels: {a: 1}, bogus: x}")),
              ElementsAre("spec.template.metadata.labels[a]: Invalid value: \"integer\": "
                          "spec.template.metadata.labels[a] in body must be of type string: "
                          "\"integer\"",
                          ".spec.template.metadata.bogus: field not declared in schema",
                          "spec.template.kind: Required value: must not be empty"));
}

TEST(RulesTest, FormatsAreChecked) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  small: {type: integer, format: int32}\n"
      "  big: {type: integer, format: int64}\n"
      "  when: {type: string, format: date-time}\n"
      "  data: {type: string, format: byte}");
  EXPECT_THAT(Messages(set, Widget("small: 2147483647\nbig: 9000000000\n"
                                   "when: '2025-03-14T09:26:53Z'\ndata: aGVsbG8=")),
              IsEmpty());
  EXPECT_THAT(Messages(set, Widget("when: 2025-03-14T09:26:53.5+02:00")), IsEmpty());
  // Custom resources take the OpenAPI checker's looser forms: no zone, a space, no seconds.
  EXPECT_THAT(Messages(set, Widget("when: 2025-03-14T09:26:53")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("when: 2025-03-14 09:26")), IsEmpty());
  // Metadata is decoded as metav1.Time, which needs RFC 3339.
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1\nkind: Widget\n"
                       "metadata: {name: w, creationTimestamp: '2025-03-14T09:26:53'}\n"),
              ElementsAre("metadata.creationTimestamp: Invalid value: \"2025-03-14T09:26:53\": "
                          "metadata.creationTimestamp in body must be of type date-time: "
                          "\"2025-03-14T09:26:53\""));
  EXPECT_THAT(Messages(set, Widget("small: 2147483648\nwhen: yesterday\ndata: '***'")),
              ElementsAre("spec.small: Invalid value: 2147483648: spec.small in body must be of "
                          "type int32: \"2147483648\"",
                          "spec.when: Invalid value: \"yesterday\": spec.when in body must be of "
                          "type date-time: \"yesterday\"",
                          "spec.data: Invalid value: \"***\": spec.data in body must be of type "
                          "byte: \"***\""));
}

TEST(RulesTest, NumericBounds) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  count: {type: integer, minimum: 1, maximum: 10}\n"
      "  x: {type: number, minimum: 0, exclusiveMinimum: true, multipleOf: 0.5}");
  EXPECT_THAT(Messages(set, Widget("count: 10\nx: 1.5")), IsEmpty());
  EXPECT_THAT(
      Messages(set, Widget("count: 0\nx: 0")),
      ElementsAre("spec.count: Invalid value: 0: spec.count in body should be greater than or "
                  "equal to 1",
                  "spec.x: Invalid value: 0: spec.x in body should be greater than 0"));
  EXPECT_THAT(
      Messages(set, Widget("count: 11\nx: 0.7")),
      ElementsAre("spec.count: Invalid value: 11: spec.count in body should be less than or "
                  "equal to 10",
                  "spec.x: Invalid value: 0.7: spec.x in body should be a multiple of "
                  "0.5"));
}

TEST(RulesTest, SizesAndPatterns) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  list: {type: array, minItems: 1, maxItems: 2, items: {type: string}}\n"
      "  name: {type: string, minLength: 2, maxLength: 4, pattern: '^[a-z]+$'}\n"
      "  map: {type: object, minProperties: 1, additionalProperties: {type: string}}");
  EXPECT_THAT(Messages(set, Widget("list: [a]\nname: ab\nmap: {a: b}")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("list: []\nname: a\nmap: {}")),
              ElementsAre("spec.list: Invalid value: 0: spec.list in body should have at least 1 "
                          "items",
                          "spec.name: Invalid value: \"a\": spec.name in body should be at least "
                          "2 chars long",
                          "spec.map: Invalid value: 0: spec.map in body should have at least 1 "
                          "properties"));
  EXPECT_THAT(Messages(set, Widget("list: [a, b, c]\nname: abcdE")),
              ElementsAre("spec.list: Too many: 3: must have at most 2 items",
                          "spec.name: Too long: may not be more than 4 bytes",
                          "spec.name: Invalid value: \"abcdE\": spec.name in body should match "
                          "'^[a-z]+$'"));
  // Lengths count characters, not bytes.
  EXPECT_THAT(Messages(set, Widget("name: ééé")),
              ElementsAre(::testing::HasSubstr("should match")));
}

TEST(RulesTest, ListTypesRejectDuplicates) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}\n"
      "  ports:\n"
      "    type: array\n"
      "    x-kubernetes-list-type: map\n"
      "    x-kubernetes-list-map-keys: [port, protocol]\n"
      "    items:\n"
      "      type: object\n"
      "      properties: {port: {type: integer}, protocol: {type: string},\n"
      "                   name: {type: string}}\n"
      "  raw: {type: array, x-kubernetes-list-type: atomic, items: {type: string}}");
  EXPECT_THAT(
      Messages(set, Widget("tags: [a, b]\nraw: [a, a]\n"
                           "ports: [{port: 80, protocol: TCP}, {port: 80, protocol: UDP}]")),
      IsEmpty());
  EXPECT_THAT(Messages(set, Widget("tags: [a, b, a]\n"
                                   "ports: [{port: 80, protocol: TCP, name: a},\n"
                                   "        {port: 80, protocol: TCP, name: b}]")),
              ElementsAre("spec.tags[2]: Duplicate value: \"a\"",
                          "spec.ports[1]: Duplicate value: {\"port\":80,\"protocol\":\"TCP\"}"));
}

TEST(RulesTest, DefaultsFillFieldsBeforeValidation) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "required: [order, size]\n"
      "properties:\n"
      "  order: {type: string, default: AnyOrder}\n"
      "  size: {type: integer}\n"
      "  ports:\n"
      "    type: array\n"
      "    x-kubernetes-list-type: map\n"
      "    x-kubernetes-list-map-keys: [port, protocol]\n"
      "    items:\n"
      "      type: object\n"
      "      properties: {port: {type: integer}, protocol: {type: string, default: TCP}}");
  EXPECT_THAT(Messages(set, Widget("size: 1")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("size: 1\norder: null")), IsEmpty());
  EXPECT_THAT(Messages(set, Widget("order: null")), ElementsAre("spec.size: Required value"));
  EXPECT_THAT(Messages(set, Widget("size: 1\nports: [{port: 80}, {port: 80, protocol: TCP}]")),
              ElementsAre("spec.ports[1]: Duplicate value: {\"port\":80,\"protocol\":\"TCP\"}"));
}

TEST(RulesTest, Combinators) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "properties:\n"
      "  all: {type: integer, allOf: [{minimum: 1}, {maximum: 5}]}\n"
      "  any: {type: string, anyOf: [{pattern: '^a'}, {pattern: '^b'}]}\n"
      "  one:\n"
      "    type: object\n"
      "    properties: {left: {type: string}, right: {type: string}}\n"
      "    oneOf: [{required: [left]}, {required: [right]}]\n"
      "  never: {type: string, not: {enum: [forbidden]}}");
  EXPECT_THAT(Messages(set, Widget("all: 3\nany: bee\none: {left: a}\nnever: fine")), IsEmpty());
  EXPECT_THAT(
      Messages(set, Widget("all: 7\nany: cat\none: {left: a, right: b}\nnever: forbidden")),
      ElementsAre("spec.all: Invalid value: 7: spec.all in body should be less than or "
                  "equal to 5",
                  "spec.any: Invalid value: \"cat\": spec.any in body must validate at "
                  "least one schema (anyOf)",
                  "spec.any: Invalid value: \"cat\": spec.any in body should match '^a'",
                  "spec.one: Invalid value: {\"left\":\"a\",\"right\":\"b\"}: spec.one in body "
                  "must validate one and only one schema (oneOf)",
                  "spec.never: Invalid value: \"forbidden\": spec.never in body must not "
                  "validate the schema (not)"));
  EXPECT_THAT(Messages(set, Widget("one: {}")),
              ElementsAre("spec.one: Invalid value: {}: spec.one in body must validate one and "
                          "only one schema (oneOf)",
                          "spec.one.left: Required value"));
}

TEST(RulesTest, MetadataIsObjectMetaWhateverTheSchemaSays) {
  SchemaSet set = SpecSet("type: object");
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1\nkind: Widget\n"
                       "metadata:\n"
                       "  name: w\n  namespace: ns\n  uid: u\n  generation: 2\n"
                       "  creationTimestamp: '2025-01-01T00:00:00Z'\n"
                       "  labels: {app.kubernetes.io/name: w}\n"
                       "  annotations: {note: text}\n"
                       "  finalizers: [example.com/cleanup]\n"
                       "  ownerReferences:\n"
                       "  - {apiVersion: v1, kind: Pod, name: p, uid: abc, controller: true}\n"),
              IsEmpty());
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1\nkind: Widget\n"
                       "metadata:\n"
                       "  name: Bad_Name\n"
                       "  labels: {app: 1, 'bad key': x, ok: 'bad value'}\n"
                       "  ownerReferences: [{apiVersion: v1, kind: Pod, name: p}]\n"
                       "  colour: red\n"),
              ElementsAre("metadata.labels[app]: Invalid value: \"integer\": "
                          "metadata.labels[app] in body must be of type string: \"integer\"",
                          "metadata.ownerReferences[0].uid: Required value",
                          ".metadata.colour: field not declared in schema",
                          ::testing::StartsWith("metadata.name: Invalid value: \"Bad_Name\": a "
                                                "lowercase RFC 1123 subdomain"),
                          ::testing::StartsWith("metadata.labels: Invalid value: \"bad key\": "
                                                "name part must consist"),
                          ::testing::StartsWith("metadata.labels: Invalid value: \"bad value\": "
                                                "a valid label must be")));
  EXPECT_THAT(Messages(set, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {}\n"),
              ElementsAre("metadata.name: Required value: name or generateName is required"));
  EXPECT_THAT(Messages(set,
                       "apiVersion: example.com/v1\nkind: Widget\n"
                       "metadata: {generateName: w-, creationTimestamp: null}\n"),
              IsEmpty());
}

TEST(RulesTest, UnknownKindsAndVersionsAreViolations) {
  SchemaSet set = SpecSet("type: object");
  EXPECT_THAT(Messages(set, "apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w}\n"),
              ElementsAre("no matches for kind \"Widget\" in version \"example.com/v2\": no "
                          "schema for this kind"));
  EXPECT_THAT(Messages(set, "kind: Widget\n"), ElementsAre("apiVersion: Required value"));
  EXPECT_THAT(Messages(set, "[1]\n"), ElementsAre(::testing::HasSubstr("must be a mapping")));
  EXPECT_TRUE(set.Contains("example.com/v1", "Widget"));
  EXPECT_FALSE(set.Contains("example.com/v1", "Gadget"));

  SchemaSet unserved;
  ASSERT_TRUE(unserved.AddDocument(testing::WidgetCrd("type: object", false), "w.json").ok());
  EXPECT_THAT(Messages(unserved, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"),
              ElementsAre("no matches for kind \"Widget\" in version \"example.com/v1\": the "
                          "version is defined but not served"));
}

TEST(RulesTest, PositionsComeFromTheDocument) {
  SchemaSet set = SpecSet(
      "type: object\n"
      "required: [image]\n"
      "properties:\n"
      "  replicas: {type: integer}\n"
      "  image: {type: string}");
  yaml::ReadOptions options;
  options.record_positions = true;
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(
      "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
      "spec:\n  replicas: two\n",
      options);
  ASSERT_TRUE(docs.ok());
  std::vector<Violation> found = set.Validate((*docs)[0]);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].field, "spec.replicas");
  EXPECT_EQ(found[0].position.line, 6);
  EXPECT_EQ(found[0].position.column, 3);
  // A missing field is placed at its parent.
  EXPECT_EQ(found[1].field, "spec.image");
  EXPECT_EQ(found[1].position.line, 5);
  EXPECT_EQ(found[1].position.column, 1);
}

}  // namespace
}  // namespace wmap::schema
