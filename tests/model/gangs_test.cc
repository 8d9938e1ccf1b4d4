// The WorkloadDefinition format: a superset of Karta with podsPerReplicaPath and the `gangs`
// form; a Karta refuses the extensions; the rules of the gangs form with positions and hints.
#include <gtest/gtest.h>

#include <algorithm>
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

fs::path Source() { return fs::path(WMAP_SOURCE_DIR); }
fs::path Upstream() { return ::wmap::test_files::SharedDir() / "conformance" / "upstream"; }

std::vector<std::string> Findings(const LoadResult& r) {
  std::vector<std::string> out;
  for (const Error& e : r.errors) {
    out.push_back(std::to_string(e.position.line) + ":" + std::to_string(e.position.column) + ": " +
                  e.message);
  }
  return out;
}

std::string Replace(std::string text, const std::string& find, const std::string& with) {
  size_t at = text.find(find);
  EXPECT_NE(at, std::string::npos) << find;
  if (at != std::string::npos) text.replace(at, find.size(), with);
  return text;
}

std::string AsWorkloadDefinition(const std::string& karta) {
  std::string text =
      Replace(karta, "apiVersion: run.ai/v1alpha1", "apiVersion: workloadmap.dev/v1alpha1");
  return Replace(text, "kind: Karta", "kind: WorkloadDefinition");
}

const char* const kGangDefinitions[] = {"jobset", "lws", "raycluster", "pytorchjob", "mpijob"};

TEST(WorkloadDefinitionTest, GangDefinitionsLoad) {
  for (const char* name : kGangDefinitions) {
    std::string file = std::string(name) + ".yaml";
    LoadResult r =
        LoadDefinitions(ReadFile(Source() / "tests/resolve/testdata/gangs" / file), file);
    ASSERT_TRUE(r.ok()) << file << ": " << r.errors[0].ToString();
    EXPECT_EQ(r.definitions[0].format(), DefinitionFormat::kWorkloadDefinition);
    ASSERT_TRUE(r.definitions[0].gang_scheduling().has_value()) << file;
    EXPECT_EQ(r.definitions[0].gang_scheduling()->gangs.size(), 1u) << file;
  }
}

TEST(WorkloadDefinitionTest, PartialAdmissionIsAnExpressionOfTheGang) {
  LoadResult r = LoadDefinitions(ReadFile(Source() / "catalog/batch-job-v1.yaml"), "job.yaml");
  ASSERT_TRUE(r.ok()) << r.errors[0].ToString();
  const GangDefinition& g = r.definitions[0].gang_scheduling()->gangs.at(0);
  ASSERT_TRUE(g.partial_admission.has_value());
  EXPECT_EQ(g.partial_admission->text,
            ".metadata.annotations[\"kueue.x-k8s.io/job-min-parallelism\"]");
  EXPECT_EQ(g.partial_admission->field,
            "spec.optimizationInstructions.gangScheduling.gangs[0].partialAdmission.expression");
  EXPECT_TRUE(g.partial_admission->program.has_value());
  // Absent elsewhere.
  LoadResult lws =
      LoadDefinitions(ReadFile(Source() / "tests/resolve/testdata/gangs/lws.yaml"), "lws.yaml");
  ASSERT_TRUE(lws.ok());
  EXPECT_FALSE(lws.definitions[0].gang_scheduling()->gangs.at(0).partial_admission.has_value());
}

TEST(WorkloadDefinitionTest, ParsedGangsAndPodsPerReplica) {
  LoadResult r = LoadDefinitions(ReadFile(Source() / "tests/resolve/testdata/gangs/jobset.yaml"),
                                 "jobset.yaml");
  ASSERT_TRUE(r.ok());
  const Definition& d = r.definitions[0];
  const ComponentDefinition& job = d.components()[1];
  ASSERT_TRUE(job.scale && job.scale->pods_per_replica);
  EXPECT_EQ(job.scale->pods_per_replica->text, ".spec.replicatedJobs[].template.spec.parallelism");
  EXPECT_EQ(job.scale->pods_per_replica->field,
            "spec.structureDefinition.childComponents[0].scaleDefinition.podsPerReplicaPath");
  EXPECT_TRUE(job.scale->pods_per_replica->program.has_value());
  const GangDefinition& g = d.gang_scheduling()->gangs[0];
  EXPECT_EQ(g.name, "jobset");
  EXPECT_FALSE(g.for_each_instance_of.has_value());
  EXPECT_FALSE(g.name_template.has_value());
  EXPECT_EQ(g.min_member_override_annotation, "kai.scheduler/batch-min-member");
  ASSERT_TRUE(g.min_sub_group.has_value());
  EXPECT_TRUE(g.min_sub_group->program.has_value());
  EXPECT_EQ(g.min_sub_group->position.line, 52);
  ASSERT_TRUE(g.queue && g.priority_class_name && g.preemptibility);
  ASSERT_TRUE(g.topology.has_value());
  EXPECT_EQ(g.topology->topology_name, "cluster-topology");
  EXPECT_EQ(g.topology->required_topology_level, "topology.kubernetes.io/zone");
  EXPECT_EQ(g.topology->preferred_topology_level, "");
  ASSERT_EQ(g.sub_groups.size(), 1u);
  const GangSubGroupDefinition& parent = g.sub_groups[0];
  EXPECT_EQ(parent.component_name, "replicatedjob");
  EXPECT_TRUE(parent.for_each_instance);
  EXPECT_FALSE(parent.for_each_replica);
  ASSERT_EQ(parent.sub_groups.size(), 1u);
  const GangSubGroupDefinition& leaf = parent.sub_groups[0];
  EXPECT_TRUE(leaf.for_each_replica);
  EXPECT_EQ(leaf.name, "{instance}-replica-{replica}");
  EXPECT_EQ(leaf.field,
            "spec.optimizationInstructions.gangScheduling.gangs[0].subGroups[0].subGroups[0]");
  ASSERT_TRUE(leaf.topology.has_value());
  EXPECT_EQ(leaf.topology->preferred_topology_level, "kubernetes.io/hostname");
  // The default override annotation.
  LoadResult lws =
      LoadDefinitions(ReadFile(Source() / "tests/resolve/testdata/gangs/lws.yaml"), "lws.yaml");
  ASSERT_TRUE(lws.ok());
  const GangDefinition& per_group = lws.definitions[0].gang_scheduling()->gangs[0];
  EXPECT_EQ(per_group.min_member_override_annotation, "workloadmap.dev/min-member");
  EXPECT_EQ(per_group.for_each_instance_of, "group");
  EXPECT_TRUE(per_group.for_each_replica);
}

// Every upstream catalog definition loads unchanged as a WorkloadDefinition.
TEST(WorkloadDefinitionTest, EveryKartaIsAWorkloadDefinition) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  for (const auto& entry : fs::directory_iterator(Upstream() / "catalog")) {
    std::string text = ReadFile(entry.path());
    LoadResult karta = LoadDefinitions(text, "karta.yaml");
    LoadResult extended = LoadDefinitions(AsWorkloadDefinition(text), "extended.yaml");
    ASSERT_TRUE(karta.ok() && extended.ok()) << entry.path();
    const Definition& a = karta.definitions[0];
    const Definition& b = extended.definitions[0];
    EXPECT_EQ(a.format(), DefinitionFormat::kKarta);
    EXPECT_EQ(b.format(), DefinitionFormat::kWorkloadDefinition);
    ASSERT_EQ(a.components().size(), b.components().size());
    for (size_t i = 0; i < a.components().size(); ++i) {
      EXPECT_EQ(a.components()[i].name, b.components()[i].name);
      EXPECT_EQ(a.Parent(i), b.Parent(i));
    }
    EXPECT_EQ(a.gang_scheduling().has_value(), b.gang_scheduling().has_value());
  }
}

// The same findings, positions and messages for the Karta part.
TEST(WorkloadDefinitionTest, KartaRulesAreUnchanged) {
  for (const char* file : {"structure_errors.yaml", "schema_errors.yaml", "jq_errors.yaml"}) {
    std::string text = ReadFile(Source() / "tests/model/testdata" / file);
    LoadResult karta = LoadDefinitions(text, file);
    LoadResult extended = LoadDefinitions(AsWorkloadDefinition(text), file);
    EXPECT_FALSE(karta.ok()) << file;
    EXPECT_EQ(Findings(karta), Findings(extended)) << file;
  }
}

TEST(WorkloadDefinitionTest, KartaRefusesTheExtensions) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::string text = ReadFile(Upstream() / "catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml");
  std::string with_ppr = Replace(
      text,
      "          replicasPath: .spec.replicatedJobs[] | .replicas * .template.spec.parallelism\n",
      "          replicasPath: .spec.replicatedJobs[].replicas\n"
      "          podsPerReplicaPath: .spec.replicatedJobs[].template.spec.parallelism\n");
  LoadResult r = LoadDefinitions(with_ppr, "jobset.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message,
            "unknown field "
            "\"spec.structureDefinition.childComponents[0].scaleDefinition.podsPerReplicaPath\"");
  EXPECT_EQ(r.errors[0].position.line, 61);
  EXPECT_EQ(r.errors[0].position.column, 11);
  EXPECT_NE(r.errors[0].hint.find("this field needs apiVersion workloadmap.dev/v1alpha1"),
            std::string::npos);
  // Accepted, and read, under the extended apiVersion.
  LoadResult extended = LoadDefinitions(AsWorkloadDefinition(with_ppr), "jobset.yaml");
  ASSERT_TRUE(extended.ok()) << extended.errors[0].ToString();
  EXPECT_TRUE(extended.definitions[0].components()[1].scale->pods_per_replica.has_value());

  std::string with_gangs =
      Replace(text, "      podGroups:\n", "      gangs:\n        - name: all\n      podGroups:\n");
  r = LoadDefinitions(with_gangs, "jobset.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message,
            "unknown field \"spec.optimizationInstructions.gangScheduling.gangs\"");
  EXPECT_NE(r.errors[0].hint.find("workloadmap.dev/v1alpha1"), std::string::npos);
  // Lenient loading ignores them, as it ignores every unknown field.
  LoadOptions lenient;
  lenient.lenient = true;
  LoadResult ignored = LoadDefinitions(with_gangs, "jobset.yaml", lenient);
  ASSERT_TRUE(ignored.ok());
  EXPECT_TRUE(ignored.definitions[0].gang_scheduling()->gangs.empty());
  // Combining the forms is an error of its own in the extended format.
  r = LoadDefinitions(AsWorkloadDefinition(with_gangs), "jobset.yaml");
  EXPECT_EQ(
      Findings(r),
      (std::vector<std::string>{"67:7: gangScheduling.gangs cannot be combined with podGroups"}));
}

TEST(WorkloadDefinitionTest, ApiVersionAndKindGoTogether) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::string text = ReadFile(Upstream() / "catalog/batch-job-v1.yaml");
  LoadResult r = LoadDefinitions(
      Replace(text, "apiVersion: run.ai/v1alpha1", "apiVersion: workloadmap.dev/v1alpha1"), "x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors[0].message,
            "not a definition: apiVersion \"workloadmap.dev/v1alpha1\", kind \"Karta\"");
  EXPECT_NE(r.errors[0].hint.find("kind: WorkloadDefinition"), std::string::npos);
}

TEST(GangRulesTest, EveryFindingWithItsPosition) {
  LoadResult r = LoadDefinitions(ReadFile(Source() / "tests/model/testdata/gang_errors.yaml"),
                                 "gang_errors.yaml");
  EXPECT_TRUE(r.definitions.empty());
  const std::string g = "spec.optimizationInstructions.gangScheduling.gangs";
  EXPECT_EQ(
      Findings(r),
      (std::vector<std::string>{
          "58:11: " + g + "[2].topology needs requiredTopologyLevel or preferredTopologyLevel",
          "33:11: gang name 'Shards' is not a DNS label",
          "34:11: gang 'Shards' forEachInstanceOf names unknown component 'shards'",
          "35:11: gang 'Shards' nameTemplate has unknown placeholder {pod}",
          "38:15: subgroup forEachReplica needs a replicaSelector on component 'server' or "
          "an ancestor",
          "40:15: minSubGroup applies to subgroups with subGroups",
          "43:11: gang 'per-shard' is made per instance of 'shard' but its nameTemplate has "
          "no {instance}: the PodGroup names collide",
          "45:15: subgroup component 'sidecar' is not 'shard' or one of its descendants, so "
          "its pods are not in the enclosing group",
          "47:15: optional applies to leaf subgroups",
          "54:15: subgroup needs componentName (or subGroups to group)",
          "54:15: a subgroup without componentName needs a name",
          "53:19: subgroup names can collide in gang 'per-shard': " + g +
              "[1].subGroups[1].subGroups[0] and " + g +
              "[1].subGroups[1].subGroups[1] are both named \"server\"",
          "55:11: gang name 'per-shard' is not unique",
          "61:15: subgroup name: unclosed '{' at offset 0",
          "55:11: gang 'per-shard' can have the same PodGroup name as " + g +
              "[1] (\"pg-{workload}-{uid}\")",
          "56:47: failed to compile JQ expression '.spec.min | $count' at "
          "'Spec.Instructions.GangScheduling.Gangs[2].MinMember.Expression': variable not "
          "defined: $count",
      }));
  for (const Error& e : r.errors) {
    EXPECT_EQ(e.file, "gang_errors.yaml");
    EXPECT_FALSE(e.hint.empty()) << e.message;
  }
}

// A minimal WorkloadDefinition around `gangs` (text indented under `gangScheduling:`).
LoadResult WithGangs(const std::string& gangs) {
  return LoadDefinitions(R"(apiVersion: workloadmap.dev/v1alpha1
kind: WorkloadDefinition
metadata: {name: t}
spec:
  structureDefinition:
    rootComponent:
      name: app
      kind: {group: example.com, version: v1, kind: App}
      statusDefinition: {statusMappings: {}}
    childComponents:
      - name: worker
        ownerRef: app
        specDefinition: {podTemplateSpecPath: .spec.template}
        scaleDefinition:
          replicasPath: .spec.replicas
          podsPerReplicaPath: .spec.hosts
        instanceIdPath: .spec.groups[].name
        podSelector:
          componentInstanceSelector: {idPath: .metadata.labels.group}
          replicaSelector: {keyPath: .metadata.labels.index}
  optimizationInstructions:
    gangScheduling:
)" + gangs,
                         "t.yaml");
}

TEST(GangRulesTest, ExpressionsSeeInstanceAndReplica) {
  LoadResult r = WithGangs(R"(      gangs:
        - name: g
          forEachInstanceOf: worker
          forEachReplica: true
          minMember: {expression: '[$instance, $replica] | length'}
          subGroups:
            - componentName: worker
              minMember: {expression: '.spec.groups[] | select(.name == $instance) | .min'}
)");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].ToString());
}

TEST(GangRulesTest, OverrideAnnotationMustBeAnAnnotationKey) {
  LoadResult r = WithGangs(R"(      gangs:
        - name: g
          minMemberOverrideAnnotation: "min member"
)");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].position.line, 25);
  EXPECT_EQ(r.errors[0].message.rfind(
                "gang 'g' minMemberOverrideAnnotation Invalid value: \"min member\": name part "
                "must consist of alphanumeric characters",
                0),
            0u)
      << r.errors[0].message;
}

TEST(GangRulesTest, SchemaOfTheGangsForm) {
  LoadResult r = WithGangs(R"(      gangs:
        - name: g
          forEachInstanceOf: worker
          nameTemplat: x
          queue: {expresion: .q}
          subGroups:
            - componentName: worker
              forEachInstance: "yes"
              minMember: {expression: 'del(.a)'}
        - forEachInstanceOf: worker
          topology: {requiredTopologyLevel: rack}
)");
  EXPECT_EQ(Findings(r),
            (std::vector<std::string>{
                "26:11: unknown field "
                "\"spec.optimizationInstructions.gangScheduling.gangs[0].nameTemplat\"",
                "27:19: unknown field "
                "\"spec.optimizationInstructions.gangScheduling.gangs[0].queue.expresion\"",
                "27:11: missing required field "
                "\"spec.optimizationInstructions.gangScheduling.gangs[0].queue.expression\"",
                "30:15: spec.optimizationInstructions.gangScheduling.gangs[0].subGroups[0]."
                "forEachInstance must be a boolean, got string",
                "32:11: missing required field "
                "\"spec.optimizationInstructions.gangScheduling.gangs[1].name\"",
                "33:11: missing required field "
                "\"spec.optimizationInstructions.gangScheduling.gangs[1].topology.topologyName\"",
                "32:11: gang '' can have the same PodGroup name as "
                "spec.optimizationInstructions.gangScheduling.gangs[0] "
                "(\"pg-{workload}-{uid}-{instance}\")",
                "31:40: JQ expression 'del(.a)' at "
                "'Spec.Instructions.GangScheduling.Gangs[0].SubGroups[0].MinMember.Expression' "
                "failed validation: del function is not allowed",
            }));
  EXPECT_EQ(r.errors[0].hint, "did you mean \"nameTemplate\"?");
}

TEST(GangRulesTest, ComputedGangsLoad) {
  LoadResult r = WithGangs(R"(      gangs:
        - name: podgang
          computed:
            gangs: {expression: '{name: .metadata.name, subGroups: [{name: "all", pods: 2}]}'}
            podGang: {expression: '.metadata.labels["grove.io/podgang"]'}
            podSubGroup: {expression: '.metadata.labels["grove.io/podclique"]'}
          queue: {expression: .metadata.labels.queue}
)");
  ASSERT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].ToString());
  const GangDefinition& g = r.definitions[0].gang_scheduling()->gangs[0];
  ASSERT_TRUE(g.computed.has_value());
  EXPECT_EQ(g.computed->pod_gang.text, ".metadata.labels[\"grove.io/podgang\"]");
  ASSERT_TRUE(g.computed->pod_sub_group.has_value());
  EXPECT_TRUE(g.queue.has_value());
}

TEST(GangRulesTest, ComputedGangsTakeNoShapeFieldsAndNeedTheirExpressions) {
  LoadResult r = WithGangs(R"(      gangs:
        - name: a
          computed:
            gangs: {expression: '{name: "x"}'}
            podGang: {expression: .metadata.name}
          forEachInstanceOf: worker
          subGroups:
            - componentName: worker
        - name: b
          computed:
            podSubGroup: {expression: .metadata.name}
)");
  std::vector<std::string> findings = Findings(r);
  auto has = [&](const std::string& text) {
    return std::any_of(findings.begin(), findings.end(),
                       [&](const std::string& f) { return f.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("gang 'a' has both computed and forEachInstanceOf")) << findings.size();
  EXPECT_TRUE(has("gang 'a' has both computed and subGroups"));
  EXPECT_TRUE(has("gangs[1].computed.gangs is required"));
  EXPECT_TRUE(has("gangs[1].computed.podGang is required"));
}

}  // namespace
}  // namespace wmap
