// The patch that live writes send (cli/live_write.h): the merge patch of the change, guarded by
// the resourceVersion that was read.
#include "cli/live_write.h"

#include <gtest/gtest.h>

#include "wmap/json.h"

namespace wmap::cli {
namespace {

Value Parse(const char* text) {
  Result<Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : Value();
}

std::string Compact(const Value& v) {
  json::WriteOptions w;
  w.indent = 0;
  return json::ToString(v, w);
}

TEST(LiveWriteTest, PatchCarriesTheResourceVersionRead) {
  Value before = Parse(R"({"metadata":{"name":"x","resourceVersion":"41"},"spec":{"a":1}})");
  Value after = Parse(R"({"metadata":{"name":"x","resourceVersion":"41"},"spec":{"a":1,)"
                      R"("suspend":true}})");
  EXPECT_EQ(Compact(GuardedMergePatch(before, after)),
            R"({"metadata":{"resourceVersion":"41"},"spec":{"suspend":true}})");
  // A change of metadata keeps its own keys beside the guard.
  Value labelled = Parse(R"({"metadata":{"name":"x","resourceVersion":"41","labels":{"a":"b"}},)"
                         R"("spec":{"a":1}})");
  EXPECT_EQ(Compact(GuardedMergePatch(before, labelled)),
            R"({"metadata":{"labels":{"a":"b"},"resourceVersion":"41"}})");
  // Nothing changed: the guard alone (the server answers with the object as it is).
  EXPECT_EQ(Compact(GuardedMergePatch(before, before)), R"({"metadata":{"resourceVersion":"41"}})");
}

}  // namespace
}  // namespace wmap::cli
