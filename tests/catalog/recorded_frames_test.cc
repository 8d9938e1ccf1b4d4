// The built-in catalog against upstream's recorded end-to-end answers: every STATE frame of the
// recordings in the shared conformance folder replays through our definition of its type with
// the recorded state among the statuses we match (Undefined: nothing matched).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
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
      const std::string state(event.find("state")->as_string());
      Workload w(loaded.definitions[0], *event.find("object"));
      Result<std::optional<WorkloadStatus>> status = w.Status();
      ASSERT_TRUE(status.ok()) << file.filename() << "#" << index << ": " << status.error().message;
      std::vector<std::string> matched;
      for (ResourceStatus s : (*status)->matched) matched.emplace_back(ResourceStatusName(s));
      EXPECT_NE(std::find(matched.begin(), matched.end(), state), matched.end())
          << file.filename().string() << " STATE frame #" << index << ": recorded " << state
          << ", matched " << testing::PrintToString(matched);
      ++index;
      ++frames;
    }
  }
  EXPECT_EQ(frames, 22u);
}

}  // namespace
}  // namespace wmap
