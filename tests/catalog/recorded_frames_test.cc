// The built-in catalog against upstream's recorded end-to-end answers: every STATE frame of the
// recordings in the shared conformance folder replays through our definition of its type with
// the recorded state among the statuses we match (Undefined: nothing matched).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "catalog_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;
using test_support::CatalogDir;
using test_support::ReadFile;

// Where the built-in catalog answers differently from upstream's catalog on purpose: the file,
// the recorded state and ours.
struct DeliberateDifference {
  std::string_view file;
  std::string_view recorded;
  std::string_view ours;
};
// A DynamoGraphDeployment v1alpha1 whose controller has not reported a state yet is
// Initializing, as v1beta1 and the other kinds say (upstream leaves it Undefined).
constexpr DeliberateDifference kDeliberate[] = {
    {"dynamo-v1.34.0-nvidia-com-dynamographdeployment-v1alpha1-running.yaml", "Undefined",
     "Initializing"},
};

std::string ExpectedState(const std::string& file, const std::string& recorded) {
  for (const DeliberateDifference& d : kDeliberate) {
    if (d.file == file && d.recorded == recorded) return std::string(d.ours);
  }
  return recorded;
}

TEST(RecordedFrames, ReplayThroughTheBuiltInCatalog) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  const fs::path dir = ::wmap::test_files::SharedDir() / "conformance/upstream/samples/recorded";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  size_t frames = 0;
  for (const fs::path& file : files) {
    Result<Value> doc = yaml::Parse(ReadFile(file));
    ASSERT_TRUE(doc.ok()) << file;
    const std::string karta(doc->find("kartaName")->as_string());
    const fs::path definition_path = CatalogDir() / (karta + ".yaml");
    ASSERT_TRUE(fs::exists(definition_path)) << "no built-in definition " << karta;
    LoadResult loaded = LoadDefinitions(ReadFile(definition_path), definition_path.string());
    ASSERT_TRUE(loaded.ok()) << karta;
    size_t index = 0;
    for (const Value& event : doc->find("events")->items()) {
      if (event.find("kind")->as_string() != "STATE") continue;
      const std::string recorded(event.find("state")->as_string());
      const std::string state = ExpectedState(file.filename().string(), recorded);
      Workload w(loaded.definitions[0], *event.find("object"));
      Result<std::optional<WorkloadStatus>> status = w.Status();
      ASSERT_TRUE(status.ok()) << file.filename() << "#" << index << ": " << status.error().message;
      std::vector<std::string> matched;
      for (ResourceStatus s : (*status)->matched) matched.emplace_back(ResourceStatusName(s));
      EXPECT_NE(std::find(matched.begin(), matched.end(), state), matched.end())
          << file.filename().string() << " STATE frame #" << index << ": recorded " << recorded
          << ", expected " << state << ", matched " << testing::PrintToString(matched);
      ++index;
      ++frames;
    }
  }
  EXPECT_EQ(frames, 22u);
}

}  // namespace
}  // namespace wmap
