// Loading stays linear in the size of what is loaded: many documents in one file, long chains of
// components. Each case took minutes when a step rescanned what came before it.
#include <gtest/gtest.h>

#include <string>

#include "wmap/definition.h"

namespace wmap {
namespace {

std::string Definition(int i, std::string_view extra = "") {
  return "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: d" + std::to_string(i) +
         "\nspec:\n  structureDefinition:\n    rootComponent:\n      name: job\n"
         "      kind: {group: g" +
         std::to_string(i) + ".example.com, version: v1, kind: K}\n" + std::string(extra);
}

TEST(LoaderScalingTest, ManyDocumentsInOneFile) {
  // Every document misses its status definition: each error keeps its own line and column.
  constexpr int kDocuments = 40000;
  std::string text;
  for (int i = 0; i < kDocuments; ++i) text += "---\n" + Definition(i);
  LoadResult r = LoadDefinitions(text, "many.yaml", {});
  ASSERT_EQ(r.errors.size(), static_cast<size_t>(kDocuments));
  EXPECT_EQ(r.errors.back().position.line, (kDocuments - 1) * 10 + 8);
  EXPECT_EQ(r.errors.back().position.column, 5);
  EXPECT_NE(r.errors.back().message.find("status definition"), std::string::npos);
}

TEST(LoaderScalingTest, LongChainOfComponents) {
  constexpr int kComponents = 20000;
  std::string text = Definition(0,
                                "      statusDefinition:\n        statusMappings:\n"
                                "          running:\n            - byExpression: {expression: "
                                "'true', expectedResult: 'true'}\n    childComponents:\n");
  for (int i = 1; i < kComponents; ++i) {
    text += "      - name: c" + std::to_string(i) +
            "\n        ownerRef: " + (i == 1 ? std::string("job") : "c" + std::to_string(i - 1)) +
            "\n        kind: {group: g.example.com, version: v1, kind: C" + std::to_string(i) +
            "}\n";
  }
  LoadResult r = LoadDefinitions(text, "chain.yaml", {});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().message;
  ASSERT_EQ(r.definitions.size(), 1u);
  EXPECT_EQ(r.definitions[0].components().size(), static_cast<size_t>(kComponents));
  // A cycle at the end of the chain is still found, with upstream's message.
  std::string cyclic = text +
                       "      - name: loop\n        ownerRef: loop\n"
                       "        kind: {group: g.example.com, version: v1, kind: L}\n";
  r = LoadDefinitions(cyclic, "chain.yaml", {});
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors.front().message.find("loop"), std::string::npos) << r.errors.front().message;
}

}  // namespace
}  // namespace wmap
