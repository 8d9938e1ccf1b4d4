// docs/catalog.md is the output of `wmap definitions -o markdown` for the built-in catalog; this
// test fails when the catalog changed and the page was not regenerated.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "test_files.h"
#include "wmap/json.h"
#include "workload_golden.h"

namespace wmap::cli {
namespace {

// "line N: page has '...', catalog gives '...'" for the first line that differs.
std::string FirstDifference(const std::string& page, const std::string& generated) {
  std::istringstream a(page), b(generated);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool more_a = static_cast<bool>(std::getline(a, la));
    bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "only line endings differ";
    if (!more_a) la = "<end of file>";
    if (!more_b) lb = "<end of output>";
    if (la != lb || !more_a || !more_b) {
      return "line " + std::to_string(line) + ": the page has '" + la.substr(0, 200) +
             "', the catalog gives '" + lb.substr(0, 200) + "'";
    }
  }
}

TEST(CatalogDocTest, DocsCatalogMatchesTheBuiltInCatalog) {
  workload_golden::Outcome o = workload_golden::Run({"definitions", "-o", "markdown"});
  ASSERT_EQ(o.code, 0) << o.err;
  std::string page =
      test_files::ReadFile(std::filesystem::path(WMAP_SOURCE_DIR) / "docs" / "catalog.md");
  if (page != o.out) {
    ADD_FAILURE() << "docs/catalog.md differs from the built-in catalog ("
                  << FirstDifference(page, o.out) << "); regenerate it with\n"
                  << "  ./build/wmap definitions -o markdown > docs/catalog.md\n"
                  << "after rebuilding wmap, and commit the result";
  }
  // The page has a section for every built-in definition.
  workload_golden::Outcome list = workload_golden::Run({"definitions", "-o", "json"});
  ASSERT_EQ(list.code, 0);
  Result<Value> doc = json::Parse(list.out);
  ASSERT_TRUE(doc.ok());
  const Value* items = doc->find("items");
  ASSERT_NE(items, nullptr);
  ASSERT_GT(items->size(), 0u);
  for (const Value& item : items->items()) {
    std::string name(item.find("name")->as_string());
    EXPECT_NE(o.out.find("Definition `" + name + "`"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace wmap::cli
