// Shared pieces of the scheduling tests: files, and the schedulers' real schemas (read from the
// shared folder at run time) that every emitted object must satisfy.
#ifndef WMAP_TESTS_SCHEDULING_SCHEDULING_TEST_SUPPORT_H_
#define WMAP_TESTS_SCHEDULING_SCHEDULING_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "shared_data.h"
#include "test_files.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/schema.h"
#include "wmap/value.h"

namespace wmap::test_support {

using test_files::ReadFile;

// KAI, Volcano and scheduler-plugins PodGroups, Kueue Workloads, scheduling.k8s.io Workloads,
// and the workload kinds the tests patch (JobSet, LeaderWorkerSet, RayCluster, PyTorchJob,
// mpi-operator's MPIJob), so a workload patch is judged by the workload's own CRD.
inline const schema::SchemaSet& SchedulerSchemas() {
  static const schema::SchemaSet* set = [] {
    auto* s = new schema::SchemaSet();
    const std::filesystem::path dir = ::wmap::test_files::SharedDir() / "schemas";
    for (const char* f :
         {"crds/scheduling.run.ai_podgroups.yaml", "crds/scheduling.volcano.sh_podgroups.yaml",
          "crds/scheduling.x-k8s.io_podgroups.yaml", "crds/kueue.x-k8s.io_workloads.yaml",
          "kubernetes/apis__scheduling.k8s.io__v1beta1_openapi.json",
          "kubernetes/apis__scheduling.k8s.io__v1alpha3_openapi.json",
          "crds/jobset.x-k8s.io_jobsets.yaml",
          "crds/leaderworkerset.x-k8s.io_leaderworkersets.yaml", "crds/ray.io_rayclusters.yaml",
          "crds/kubeflow.org_pytorchjobs.yaml",
          "crds/kubeflow.org_mpijobs.mpi-operator-v2beta1.yaml"}) {
      Result<size_t> added = s->AddFile((dir / f).string());
      EXPECT_TRUE(added.ok()) << f << ": " << added.error().ToString();
    }
    return s;
  }();
  return *set;
}

// Fails the test with every violation of `object` against its schema.
inline void ExpectValid(const Value& object) {
  for (const schema::Violation& v : SchedulerSchemas().Validate(object)) {
    ADD_FAILURE() << v.message << "\n" << json::ToString(object);
  }
}

// The built-in catalog's definition `stem` (catalog/<stem>.yaml), read from the source tree.
inline Definition CatalogDefinition(const std::string& stem) {
  const std::filesystem::path path =
      std::filesystem::path(WMAP_SOURCE_DIR) / "catalog" / (stem + ".yaml");
  LoadResult loaded = LoadDefinitions(ReadFile(path), path.string());
  EXPECT_TRUE(loaded.ok()) << (loaded.errors.empty() ? "" : loaded.errors[0].ToString());
  EXPECT_EQ(loaded.definitions.size(), 1u);
  return loaded.definitions.at(0);
}

}  // namespace wmap::test_support

#endif  // WMAP_TESTS_SCHEDULING_SCHEDULING_TEST_SUPPORT_H_
