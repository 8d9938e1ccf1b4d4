// For each workload type whose KAI Scheduler plugin shape is reproduced by a workloadmap.dev
// definition (tests/resolve/testdata/gangs), plan its gangs with its pods and emit the objects
// of every scheduler: each object validates against its project's real schema, and every pod
// that joins a gang gets a patch.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "scheduling_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/scheduling.h"
#include "wmap/schema.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

using test_support::ExpectValid;
using test_support::ReadFile;

class GangTypes : public testing::TestWithParam<std::string> {};

TEST_P(GangTypes, EveryEmittedObjectValidates) {
  WMAP_NEEDS_SHARED("schemas");
  const fs::path dir = fs::path(WMAP_SOURCE_DIR) / "tests/resolve/testdata/gangs";
  LoadResult loaded = LoadDefinitions(ReadFile(dir / (GetParam() + ".yaml")), GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.errors[0].ToString();
  Result<std::vector<yaml::Document>> docs =
      yaml::ParseStream(ReadFile(dir / (GetParam() + "-objects.yaml")));
  ASSERT_TRUE(docs.ok());
  ASSERT_FALSE(docs->empty());
  std::vector<Value> pods;
  for (size_t i = 1; i < docs->size(); ++i) {
    const Value* kind = (*docs)[i].value.find("kind");
    if (kind && kind->is_string() && kind->as_string() == "Pod") pods.push_back((*docs)[i].value);
  }
  Workload w(loaded.definitions[0], (*docs)[0].value);
  Result<GangPlans> plans = PlanGangs(w, pods);
  ASSERT_TRUE(plans.ok()) << plans.error().message;
  ASSERT_FALSE(plans->gangs.empty());
  size_t joined = 0;
  for (const PodGangAssignment& p : plans->pods) joined += p.gang.empty() ? 0 : 1;
  for (Scheduler s : {Scheduler::kKai, Scheduler::kVolcano, Scheduler::kCoscheduling,
                      Scheduler::kKueue, Scheduler::kWorkloadApi}) {
    SCOPED_TRACE(std::string(SchedulerName(s)));
    Result<SchedulerObjects> out = BuildSchedulerObjects(s, w, *plans);
    ASSERT_TRUE(out.ok()) << out.error().message;
    for (const Value& o : out->objects) ExpectValid(o);
    // The workload as patched is still valid for its own CRD, except that a CRD whose pod
    // template schema predates Kubernetes 1.36 (mpi-operator v0.8.0's MPIJob) does not declare
    // spec.schedulingGroup, and the API server would prune it (docs/scheduling.md says so).
    Result<Value> patched = ApplyJsonPatch(w.object(), out->workload_patch);
    ASSERT_TRUE(patched.ok()) << patched.error().message;
    for (const schema::Violation& v : test_support::SchedulerSchemas().Validate(*patched)) {
      const bool pruned = GetParam() == "mpijob" && s == Scheduler::kWorkloadApi &&
                          v.message.ends_with(".schedulingGroup: field not declared in schema");
      EXPECT_TRUE(pruned) << v.message;
    }
    if (s == Scheduler::kKueue) {
      // Kueue integrates each of these kinds itself: no object, no pod patch.
      EXPECT_TRUE(out->objects.empty());
      EXPECT_TRUE(out->pod_patches.empty());
      continue;
    }
    ASSERT_FALSE(out->objects.empty());
    // The Workload API's pod field is set in the pod template, never patched.
    EXPECT_EQ(out->pod_patches.size(), s == Scheduler::kWorkloadApi ? 0 : joined);
    if (s != Scheduler::kWorkloadApi) continue;
    // Every pod template names a PodGroup of the objects, unless it makes pods of several.
    std::set<std::string> groups;
    for (const Value& o : out->objects) {
      if (o.find("kind")->as_string() == "PodGroup") {
        groups.insert(std::string(o.find("metadata")->find("name")->as_string()));
      }
    }
    std::string warnings;
    for (const std::string& text : out->warnings) warnings += text + "\n";
    Workload after(w.definition(), *patched);
    for (size_t i = 0; i < w.definition().components().size(); ++i) {
      Result<std::optional<std::vector<Value>>> templates = after.EffectivePodTemplates(i);
      ASSERT_TRUE(templates.ok());
      if (!*templates) continue;
      for (const Value& t : **templates) {
        const Value* group = t.find("spec") ? t.find("spec")->find("schedulingGroup") : nullptr;
        if (group == nullptr) {
          EXPECT_NE(warnings.find("makes pods of several PodGroups"), std::string::npos)
              << json::ToCompactString(t);
          continue;
        }
        EXPECT_EQ(groups.count(std::string(group->find("podGroupName")->as_string())), 1u)
            << json::ToCompactString(*group);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, GangTypes,
                         testing::Values("jobset", "lws", "raycluster", "pytorchjob", "mpijob"));

}  // namespace
}  // namespace wmap
