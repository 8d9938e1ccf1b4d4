// Loading and validating definitions: the upstream catalog, upstream's validator rules and
// messages, the schema checks, jq rules, CRD defaults and source positions.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "shared_data.h"
#include "test_files.h"
#include "wmap/definition.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

using test_files::ReadFile;

fs::path Upstream() { return ::wmap::test_files::SharedDir() / "conformance" / "upstream"; }
fs::path TestData() { return fs::path(WMAP_SOURCE_DIR) / "tests" / "model" / "testdata"; }

// "line:col: message" for each error (the file name is checked separately).
std::vector<std::string> Findings(const LoadResult& r) {
  std::vector<std::string> out;
  for (const Error& e : r.errors) {
    out.push_back(std::to_string(e.position.line) + ":" + std::to_string(e.position.column) + ": " +
                  e.message);
  }
  return out;
}

LoadResult LoadTestData(const std::string& name, const LoadOptions& options = {}) {
  return LoadDefinitions(ReadFile(TestData() / name), name, options);
}

LoadResult LoadText(const std::string& text, const LoadOptions& options = {}) {
  return LoadDefinitions(text, "inline.yaml", options);
}

std::vector<fs::path> YamlFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CatalogTest, EveryUpstreamCatalogDefinitionLoads) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::vector<fs::path> files = YamlFiles(Upstream() / "catalog");
  ASSERT_EQ(files.size(), 23u);
  for (const fs::path& file : files) {
    LoadResult r = LoadDefinitions(ReadFile(file), file.filename().string());
    EXPECT_TRUE(r.ok()) << file << ": " << (r.errors.empty() ? "" : r.errors[0].ToString());
    ASSERT_EQ(r.definitions.size(), 1u) << file;
    // Catalog names follow <group with dots as dashes>-<kind lowercase>-<version>.
    const Definition& d = r.definitions[0];
    std::string group = d.root_kind().group.empty() ? "core" : d.root_kind().group;
    std::replace(group.begin(), group.end(), '.', '-');
    std::string kind = d.root_kind().kind;
    std::transform(kind.begin(), kind.end(), kind.begin(), ::tolower);
    EXPECT_EQ(d.name(), group + "-" + kind + "-" + d.root_kind().version);
    EXPECT_EQ(file.stem().string(), d.name());
  }
}

TEST(CatalogTest, VersionTwoSamplesLoad) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  for (const fs::path& file : YamlFiles(Upstream() / "samples" / "docs-samples")) {
    LoadResult r = LoadDefinitions(ReadFile(file), file.string());
    EXPECT_TRUE(r.ok()) << file << ": " << (r.errors.empty() ? "" : r.errors[0].ToString());
  }
}

TEST(CatalogTest, LegacySamplesWithoutLeadingDotsAreRejectedWithPositions) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  for (const fs::path& file : YamlFiles(Upstream() / "samples" / "docs-samples-legacy")) {
    LoadResult r = LoadDefinitions(ReadFile(file), file.filename().string());
    std::string name = file.filename().string();
    if (name != "argo-workflow.yaml" && name != "kubevirt-vmi.yaml") {
      EXPECT_TRUE(r.ok()) << name << ": " << (r.errors.empty() ? "" : r.errors[0].ToString());
      continue;
    }
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_TRUE(r.definitions.empty());
    for (const Error& e : r.errors) {
      EXPECT_NE(e.message.find("failed to compile JQ expression '"), std::string::npos)
          << e.message;
      EXPECT_NE(e.message.find("function not defined: "), std::string::npos) << e.message;
      EXPECT_EQ(e.file, name);
      EXPECT_TRUE(e.position.known());
    }
  }
  LoadResult argo = LoadDefinitions(
      ReadFile(Upstream() / "samples" / "docs-samples-legacy" / "argo-workflow.yaml"), "argo");
  ASSERT_FALSE(argo.errors.empty());
  // `metadataPath: spec.workflowMetadata` on line 16: the column is the expression's first byte.
  EXPECT_EQ(Findings(argo)[0],
            "16:23: failed to compile JQ expression 'spec.workflowMetadata' at "
            "'Spec.StructureDefinition.RootComponent.SpecDefinition.MetadataPath': function not "
            "defined: spec/0");
}

TEST(CatalogTest, ModelHoldsEveryField) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  LoadResult r = LoadDefinitions(
      ReadFile(Upstream() / "catalog" / "nvidia-com-dynamographdeployment-v1alpha1.yaml"), "dgd");
  ASSERT_TRUE(r.ok());
  const Definition& d = r.definitions[0];
  ASSERT_EQ(d.components().size(), 2u);
  const ComponentDefinition& service = d.components()[1];
  EXPECT_EQ(service.name, "service");
  EXPECT_FALSE(service.kind.has_value());  // a virtual component
  EXPECT_EQ(d.Parent(1), 0);
  ASSERT_EQ(d.Children(0).size(), 1u);
  ASSERT_TRUE(service.spec && service.spec->fragmented);
  const FragmentedPodSpecDefinition& f = *service.spec->fragmented;
  EXPECT_EQ(f.scheduler_name->text, ".spec.services | .[] | .extraPodSpec.schedulerName");
  EXPECT_EQ(f.image->text, ".spec.services | .[] | .extraPodSpec.mainContainer.image");
  EXPECT_EQ(f.container->text, ".spec.services | .[] | .extraPodSpec.mainContainer");
  EXPECT_TRUE(f.labels && f.annotations && f.resources && f.resource_claims && f.pod_affinity &&
              f.node_affinity && f.priority_class_name);
  EXPECT_TRUE(f.scheduler_name->program.has_value());
  EXPECT_EQ(service.instance_id_path->text, ".spec.services | to_entries[] | .key");
  ASSERT_TRUE(service.pod_selector && service.pod_selector->replica_key_path);
  EXPECT_EQ(d.additional_child_kinds().size(), 6u);
  EXPECT_EQ(d.additional_child_kinds()[0].kind, "DynamoComponentDeployment");
  ASSERT_TRUE(d.gang_scheduling().has_value());
  ASSERT_EQ(d.gang_scheduling()->pod_groups.size(), 1u);
  EXPECT_EQ(d.gang_scheduling()->pod_groups[0].members[0].component_name, "service");
  EXPECT_EQ(d.gang_scheduling()->pod_groups[0].members[0].group_by_key_paths[0].text,
            ".metadata.labels[\"nvidia.com/dynamo-component\"]");

  const StatusDefinition& status = *d.root().status;
  ASSERT_EQ(status.mappings.size(), 8u);
  std::vector<std::string> order;
  for (const StatusMapping& m : status.mappings) {
    order.emplace_back(ResourceStatusName(m.status));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"Resuming", "Suspending", "Suspended", "Running",
                                             "Failed", "Completed", "Initializing", "Degraded"}));
  EXPECT_EQ(status.phase->text, ".status.state");
}

TEST(CatalogTest, SuspendActionsAndSelectors) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  LoadResult r = LoadDefinitions(
      ReadFile(Upstream() / "catalog" / "leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml"), "lws");
  ASSERT_TRUE(r.ok());
  const Definition& d = r.definitions[0];
  int leader = d.FindComponent("leader");
  ASSERT_GE(leader, 0);
  const ComponentTypeSelector& s = *d.components()[leader].pod_selector->component_type;
  EXPECT_EQ(s.value, "0");
  EXPECT_TRUE(s.value_comparison.has_value());
  EXPECT_EQ(d.components()[static_cast<size_t>(d.Parent(leader))].name, "group");
  // No reasonFieldName in this entry: the API server would default it, a file load does not.
  LoadOptions strict;
  strict.apply_crd_defaults = false;
  LoadResult offline = LoadDefinitions(
      ReadFile(Upstream() / "catalog" / "leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml"), "lws",
      strict);
  ASSERT_TRUE(offline.ok());
  EXPECT_FALSE(offline.definitions[0].root().status->conditions->reason_field_name.has_value());
  EXPECT_EQ(d.root().status->conditions->reason_field_name, "reason");

  LoadResult jobset = LoadDefinitions(
      ReadFile(Upstream() / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml"), "jobset");
  ASSERT_TRUE(jobset.ok());
  const SuspendDefinition& suspend = *jobset.definitions[0].root().suspend;
  ASSERT_EQ(suspend.suspend_actions.size(), 1u);
  EXPECT_EQ(suspend.suspend_actions[0].path.text, ".spec.suspend");
  EXPECT_EQ(suspend.suspend_actions[0].value_text, "true");
  EXPECT_EQ(*suspend.suspend_actions[0].value, Value::Bool(true));
  EXPECT_EQ(*suspend.resume_actions[0].value, Value::Bool(false));
}

TEST(ValidatorTest, StructuralRulesAllReportedInUpstreamOrder) {
  LoadResult r = LoadTestData("structure_errors.yaml");
  EXPECT_TRUE(r.definitions.empty());
  EXPECT_EQ(Findings(r),
            (std::vector<std::string>{
                "10:7: root component must have full kind (group, version, kind)",
                "14:7: root component cannot have owner ref",
                "8:5: root component must have status definition",
                "15:7: component 'root' has multiple pod spec definitions",
                "18:7: component 'root' has instance id path but no pod component instance "
                "selector",
                "20:9: child component 'orphan' has no owner ref",
                "26:9: child component 'lost' has owner ref to non-existing component 'missing'",
                "28:11: component 'lost' has pod component instance selector but no instance id "
                "path",
                "30:9: component name is empty",
                // Only the first of upstream's three selector checks is reported.
                "35:13: component '' has component type selector with empty matchLabels",
                "42:15: pod-group member component 'ghost' is not defined (should be a root or "
                "child component)",
            }));
  for (const Error& e : r.errors) {
    EXPECT_EQ(e.file, "structure_errors.yaml");
    EXPECT_FALSE(e.hint.empty()) << e.message;
  }
}

TEST(ValidatorTest, DuplicateNamesStopValidation) {
  LoadResult r = LoadTestData("duplicate_names.yaml");
  // The root has no statusDefinition and the child's jq uses del: neither is reported.
  EXPECT_EQ(Findings(r), (std::vector<std::string>{"9:7: component name app is not unique"}));
}

TEST(ValidatorTest, OwnershipCycle) {
  LoadResult r = LoadTestData("cycle.yaml");
  EXPECT_EQ(Findings(r),
            (std::vector<std::string>{"14:9: ownership cycle detected involving component a"}));
}

TEST(ValidatorTest, SelectorWithNeitherKeyPathNorLabels) {
  LoadResult r = LoadText(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
      podSelector:
        componentTypeSelector: {}
)");
  EXPECT_EQ(Findings(r),
            (std::vector<std::string>{
                "10:9: component 'r' has component type selector with neither keyPath nor "
                "matchLabels"}));
}

TEST(ValidatorTest, SelectorValueWithoutKeyPath) {
  LoadResult r = LoadText(R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
      podSelector:
        componentTypeSelector: {value: head, matchLabels: {a: b}}
)");
  EXPECT_EQ(Findings(r), (std::vector<std::string>{
                             "10:9: component 'r' has component type selector value without "
                             "keyPath"}));
}

TEST(ValidatorTest, PodMayOmitGroupOthersMayNot) {
  const char* kTemplate = R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: "", version: v1, kind: KIND}
      statusDefinition: {statusMappings: {}}
)";
  std::string pod = kTemplate;
  pod.replace(pod.find("KIND"), 4, "Pod");
  EXPECT_TRUE(LoadText(pod).ok());
  std::string service = kTemplate;
  service.replace(service.find("KIND"), 4, "Service");
  EXPECT_EQ(
      Findings(LoadText(service)),
      (std::vector<std::string>{"7:7: root component must have full kind (group, version, kind)"}));
}

TEST(JqRulesTest, ForbiddenConstructsParseAndCompileErrors) {
  LoadResult r = LoadTestData("jq_errors.yaml");
  std::vector<std::string> findings = Findings(r);
  const std::string root = "Spec.StructureDefinition.RootComponent.";
  std::vector<std::string> want = {
      // The column points at the offending construct inside the expression.
      "11:23: JQ expression '.spec.replicas |= 3' at '" + root +
          "ScaleDefinition.ReplicasPath' failed validation: modifying operator '|=' is not "
          "allowed",
      "12:44: JQ expression '[.spec.items[] | del(.a)]' at '" + root +
          "ScaleDefinition.MinReplicasPath' failed validation: del function is not allowed",
      "13:28: JQ expression '[range(10)]' at '" + root +
          "ScaleDefinition.MaxReplicasPath' failed validation: function 'range' may produce "
          "excessive output and is not allowed",
      "16:27: JQ expression '.status | ..' at '" + root +
          "StatusDefinition.PhaseDefinition.Path' failed validation: recursive descent operator "
          "'..' is not allowed",
      // A literal block scalar: the end of the expression is on line 24.
      "24:19: failed to parse JQ expression '.status.ready as $r\n| ($r == true\nand "
      ".status.phase == \"Running\"\n' at '" +
          root +
          "StatusDefinition.StatusMappings.Running[0].ByExpression.Expression': "
          "unexpected EOF",
      "27:51: JQ expression '.status.failed // 0 | walk(.) > 0' at '" + root +
          "StatusDefinition.StatusMappings.Failed[0].ByExpression.Expression' failed "
          "validation: function 'walk' may produce excessive output and is not allowed",
      "29:23: failed to compile JQ expression 'spec.replicas' at '" + root +
          "InstanceIdPath': function not defined: spec/0",
  };
  EXPECT_EQ(findings, want);
}

TEST(JqRulesTest, WalkVisitsUpstreamsPlaces) {
  auto findings_for = [](const std::string& expression) {
    std::string text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition: {statusMappings: {}}
      scaleDefinition:
        replicasPath: ')" +
                       expression + "'\n";
    return LoadDefinitions(text, "x").errors.size();
  };
  // Inside function definitions, arguments, if, try, reduce, objects, interpolation, indexes.
  EXPECT_EQ(findings_for("def f: del(.a); f"), 1u);
  EXPECT_EQ(findings_for("map(.a = 1)"), 1u);
  EXPECT_EQ(findings_for("if .a then paths else 1 end"), 1u);
  EXPECT_EQ(findings_for("try recurse catch 1"), 1u);
  EXPECT_EQ(findings_for("reduce .[] as $x (0; . + ([repeat(1)] | length))"), 1u);
  EXPECT_EQ(findings_for("{a: (.b |= 1)}"), 1u);
  EXPECT_EQ(findings_for("\"\\(.a += 1)\""), 1u);
  EXPECT_EQ(findings_for(".a[range(1)]"), 1u);
  EXPECT_EQ(findings_for(".a //= 1"), 1u);
  // Read-only expressions of the catalog kind pass.
  EXPECT_EQ(findings_for(".spec.replicas // 1 | tonumber"), 0u);
  EXPECT_EQ(findings_for("[.a[]? | select(.b == \"x\")] | length"), 0u);
  EXPECT_EQ(findings_for(""), 0u);  // gojq's identity
}

TEST(SchemaTest, UnknownFieldsTypesAndRequiredFields) {
  LoadResult r = LoadTestData("schema_errors.yaml");
  const std::string root = "spec.structureDefinition.rootComponent.";
  std::vector<std::string> want = {
      "10:7: unknown field \"" + root + "specDefinitoin\"",
      "13:9: " + root + "scaleDefinition.replicasPath must be a string, got number",
      "18:11: unknown field \"" + root + "statusDefinition.statusMappings.runing\"",
      "21:15: missing required field \"" + root +
          "statusDefinition.statusMappings.failed[0].byExpression.expectedResult\"",
      "24:9: " + root + "suspendDefinition.suspendActions must have at least 1 item",
      "26:13: missing required field \"" + root + "suspendDefinition.resumeActions[0].value\"",
      "29:11: " + root +
          "podSelector.componentTypeSelector.keyPath in body should be at least 1 "
          "chars long",
      "30:11: component 'root' componentTypeSelector: matchLabels: Invalid value: \"not a valid "
      "value!\": a valid label must be an empty string or consist of alphanumeric characters, "
      "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
      "or 'my_value',  or '12345', regex used for validation is "
      "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      "30:11: component 'root' componentTypeSelector: matchLabels: Invalid value: \"bad key\": "
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
      "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
      "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  };
  EXPECT_EQ(Findings(r), want);
  EXPECT_EQ(r.errors[0].hint, "did you mean \"specDefinition\"?");
}

TEST(SchemaTest, LenientLoadingIgnoresUnknownFields) {
  std::string text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      futureField: 1
      statusDefinition: {statusMappings: {}}
)";
  EXPECT_EQ(Findings(LoadText(text)),
            (std::vector<std::string>{
                "8:7: unknown field \"spec.structureDefinition.rootComponent.futureField\""}));
  LoadOptions lenient;
  lenient.lenient = true;
  EXPECT_TRUE(LoadText(text, lenient).ok());
}

TEST(SchemaTest, NotADefinition) {
  LoadResult r = LoadText("apiVersion: apps/v1\nkind: Deployment\nspec: {}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors[0].message, "not a definition: apiVersion \"apps/v1\", kind \"Deployment\"");
  LoadResult empty = LoadText("");
  ASSERT_FALSE(empty.ok());
}

TEST(SchemaTest, YamlSyntaxErrorHasPosition) {
  LoadResult r = LoadText("apiVersion: run.ai/v1alpha1\nkind: [\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_TRUE(r.errors[0].position.known());
  EXPECT_EQ(r.errors[0].file, "inline.yaml");
}

TEST(DefaultsTest, CrdDefaultsForConditionFieldNames) {
  std::string text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
spec:
  structureDefinition:
    rootComponent:
      name: r
      kind: {group: g.io, version: v1, kind: K}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
        statusMappings: {}
)";
  LoadResult with = LoadText(text);
  ASSERT_TRUE(with.ok());
  const ConditionsDefinition& c = *with.definitions[0].root().status->conditions;
  EXPECT_EQ(c.type_field_name, "type");
  EXPECT_EQ(c.status_field_name, "status");
  EXPECT_EQ(c.message_field_name, "message");
  EXPECT_EQ(c.reason_field_name, "reason");
  LoadOptions off;
  off.apply_crd_defaults = false;
  LoadResult without = LoadText(text, off);
  ASSERT_TRUE(without.ok());
  const ConditionsDefinition& d = *without.definitions[0].root().status->conditions;
  EXPECT_EQ(d.type_field_name, "");
  EXPECT_EQ(d.status_field_name, "");
  EXPECT_FALSE(d.message_field_name.has_value());
  EXPECT_FALSE(d.reason_field_name.has_value());
}

TEST(LoadTest, MultiDocumentAndJson) {
  LoadResult r = LoadTestData("two_definitions.yaml");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.definitions.size(), 2u);
  EXPECT_EQ(r.definitions[0].name(), "first");
  EXPECT_EQ(r.definitions[1].root_kind().ToString(), "v1, Kind=Pod");
  EXPECT_EQ(r.definitions[0].root_kind().ToString(), "batch/v1, Kind=Job");

  LoadResult json = LoadText(
      "{\"apiVersion\": \"run.ai/v1alpha1\", \"kind\": \"Karta\", \"spec\": "
      "{\"structureDefinition\": {\"rootComponent\": {\"name\": \"r\", \"kind\": {\"group\": "
      "\"g.io\", \"version\": \"v1\", \"kind\": \"K\"}, \"statusDefinition\": "
      "{\"statusMappings\": {}}, \"instanceIdPath\": \".a[\"}}}}");
  ASSERT_EQ(json.errors.size(), 2u);
  EXPECT_EQ(json.errors[0].message,
            "component 'r' has instance id path but no pod component instance selector");
  // The parse error points into the JSON string: column of the end of ".a[" plus its quote.
  EXPECT_EQ(json.errors[1].position.line, 1);
  EXPECT_EQ(json.errors[1].position.column, 239);
}

TEST(LoadTest, DefinitionIsSharedOnCopy) {
  LoadResult r = LoadTestData("two_definitions.yaml");
  ASSERT_TRUE(r.ok());
  Definition copy = r.definitions[0];
  EXPECT_EQ(&copy.components()[0], &r.definitions[0].components()[0]);
}

}  // namespace
}  // namespace wmap
