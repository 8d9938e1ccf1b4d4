// For each workload type whose KAI Scheduler plugin shape is reproduced by a workloadmap.dev
// definition (tests/resolve/testdata/gangs), plan its gangs with its pods and emit the objects
// of every scheduler: each object validates against its project's real schema, and every pod
// that joins a gang gets a patch.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scheduling_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
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
    ASSERT_FALSE(out->objects.empty());
    for (const Value& o : out->objects) ExpectValid(o);
    // The Workload API's pod field is set in the pod template, never patched.
    EXPECT_EQ(out->pod_patches.size(), s == Scheduler::kWorkloadApi ? 0 : joined);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, GangTypes,
                         testing::Values("jobset", "lws", "raycluster", "pytorchjob", "mpijob"));

}  // namespace
}  // namespace wmap
