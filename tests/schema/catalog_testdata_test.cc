// Every object in the catalog's test data and in the examples validates against the real schema
// of its kind (workload objects, the child objects and Pods their controllers create). A test
// object the API server would reject is a wrong test, so any violation fails, as does a kind
// with no schema in the shared documents, except the few listed below whose projects publish
// none there (their objects are still read as YAML).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "schema_test_support.h"
#include "shared_data.h"

namespace wmap::schema {
namespace {

namespace fs = std::filesystem;

// Kinds whose schemas are not among the shared schemas: Knative's Service controller creates a
// Configuration and Revisions, and only the Service CRD is published there; batch/v1beta1, removed
// in Kubernetes 1.25, has no OpenAPI document there; of Argo's CRDs only Workflow and
// CronWorkflow are there (a WorkflowTemplate's spec is the WorkflowSpec they hold); of Volcano's
// batch CRDs only Job is there (a CronJob's jobTemplate.spec is the JobSpec it holds); of the
// Spark Operator's CRDs only SparkApplication and ScheduledSparkApplication are there.
struct KindWithoutSchema {
  std::string_view api_version;
  std::string_view kind;
};
constexpr KindWithoutSchema kKindsWithoutSchema[] = {
    {"serving.knative.dev/v1", "Configuration"},
    {"serving.knative.dev/v1", "Revision"},
    {"batch/v1beta1", "CronJob"},
    {"argoproj.io/v1alpha1", "WorkflowTemplate"},
    {"batch.volcano.sh/v1alpha1", "CronJob"},
    {"sparkoperator.k8s.io/v1alpha1", "SparkConnect"},
};

bool KnownWithoutSchema(const Value& object) {
  const Value* api = object.find("apiVersion");
  const Value* kind = object.find("kind");
  if (api == nullptr || kind == nullptr || !api->is_string() || !kind->is_string()) return false;
  for (const KindWithoutSchema& k : kKindsWithoutSchema) {
    if (api->as_string() == k.api_version && kind->as_string() == k.kind) return true;
  }
  return false;
}

TEST(CatalogTestDataTest, KindsListedWithoutSchemaReallyHaveNone) {
  WMAP_NEEDS_SHARED("schemas");
  for (const KindWithoutSchema& k : kKindsWithoutSchema) {
    EXPECT_FALSE(testing::AllSchemas().Contains(k.api_version, k.kind))
        << k.api_version << " " << k.kind
        << " now has a schema: remove it from kKindsWithoutSchema";
  }
}

std::vector<fs::path> ObjectFiles() {
  fs::path source(WMAP_SOURCE_DIR);
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(source / "catalog" / "testdata", ec)) {
    for (const auto& entry : fs::recursive_directory_iterator(source / "catalog" / "testdata")) {
      if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
        files.push_back(entry.path());
      }
    }
  }
  for (const auto& entry : fs::directory_iterator(source / "examples")) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      files.push_back(entry.path());
    }
  }
  // Expected outputs are not objects.
  std::erase_if(files, [](const fs::path& p) {
    return p.filename().string().find(".golden.") != std::string::npos;
  });
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CatalogTestDataTest, EveryObjectValidatesAgainstItsSchema) {
  WMAP_NEEDS_SHARED("schemas");
  const SchemaSet& set = testing::AllSchemas();
  std::vector<fs::path> files = ObjectFiles();
  ASSERT_FALSE(files.empty());
  std::vector<std::string> failing_files;
  std::vector<std::string> problems;
  size_t objects = 0;
  for (const fs::path& file : files) {
    std::string name = fs::relative(file, WMAP_SOURCE_DIR).string();
    size_t before = problems.size();
    yaml::ReadOptions options;
    options.record_positions = true;
    std::string text = testing::ReadFile(file);
    Result<std::vector<yaml::Document>> docs = yaml::ParseStream(text, options);
    if (!docs.ok()) {
      problems.push_back(name + ": " + docs.error().ToString());
    } else {
      for (size_t i = 0; i < docs->size(); ++i) {
        const yaml::Document& doc = (*docs)[i];
        if (doc.value.is_null()) continue;
        ++objects;
        if (KnownWithoutSchema(doc.value)) continue;
        for (const Violation& v : set.Validate(doc)) {
          problems.push_back(name + ":" + std::to_string(i + 1) + ":" +
                             std::to_string(v.position.line) + ":" +
                             std::to_string(v.position.column) + ": " + v.message);
        }
      }
    }
    if (problems.size() > before) failing_files.push_back(name);
  }
  std::string report;
  for (const std::string& f : failing_files) report += "  " + f + "\n";
  report += "violations (file:document:line:column):\n";
  for (const std::string& p : problems) report += p + "\n";
  EXPECT_TRUE(problems.empty()) << problems.size() << " violations in " << objects << " objects of "
                                << files.size() << " files; failing files:\n"
                                << report;
}

}  // namespace
}  // namespace wmap::schema
