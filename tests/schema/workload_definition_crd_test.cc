// The WorkloadDefinition CRD in deploy/crds/ accepts every WorkloadDefinition the project ships
// (the built-in catalog and the gang test definitions): an API server with that CRD installed
// would store them without pruning a field.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_files.h"
#include "wmap/json.h"
#include "wmap/schema.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

using test_files::ReadFile;

TEST(WorkloadDefinitionCrd, AcceptsEveryShippedWorkloadDefinition) {
  const fs::path source(WMAP_SOURCE_DIR);
  schema::SchemaSet schemas;
  Result<size_t> added =
      schemas.AddFile((source / "deploy/crds/workloadmap.dev_workloaddefinitions.yaml").string());
  ASSERT_TRUE(added.ok()) << added.error().ToString();
  size_t checked = 0;
  for (const fs::path& dir : {source / "catalog", source / "tests/resolve/testdata/gangs"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".yaml") continue;
      auto docs = yaml::ParseStream(ReadFile(e.path()));
      ASSERT_TRUE(docs.ok()) << e.path();
      for (const yaml::Document& d : *docs) {
        const Value* kind = d.value.find("kind");
        if (kind == nullptr || !kind->is_string() || kind->as_string() != "WorkloadDefinition") {
          continue;
        }
        ++checked;
        for (const schema::Violation& v : schemas.Validate(d.value)) {
          ADD_FAILURE() << e.path().filename() << ": " << v.message;
        }
      }
    }
  }
  // Eight catalog definitions use the format, and the five gang test definitions.
  EXPECT_GE(checked, 13u);
}

}  // namespace
}  // namespace wmap
