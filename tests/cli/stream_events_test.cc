#include "cli/stream_events.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wmap/json.h"

namespace wmap::cli {
namespace {

std::vector<std::string> Events(std::string_view json_text) {
  Result<Value> v = json::Parse(json_text);
  EXPECT_TRUE(v.ok());
  StreamEventCursor cursor;
  cursor.Reset(*v);
  std::vector<std::string> out;
  Value e;
  while (cursor.Next(&e)) out.push_back(json::ToCompactString(e));
  return out;
}

TEST(StreamEventCursorTest, ScalarsAndEmptyContainersAreOneEvent) {
  EXPECT_EQ(Events("3"), std::vector<std::string>{"[[],3]"});
  EXPECT_EQ(Events("[]"), std::vector<std::string>{"[[],[]]"});
  EXPECT_EQ(Events("{}"), std::vector<std::string>{"[[],{}]"});
}

TEST(StreamEventCursorTest, LeavesThenAClosingEventPerContainer) {
  // jq --stream on {"b":[1,{"c":null}],"a":{},"d":[[]]}; members keep their order.
  EXPECT_EQ(Events(R"({"b":[1,{"c":null}],"a":{},"d":[[]]})"), (std::vector<std::string>{
                                                                   R"([["b",0],1])",
                                                                   R"([["b",1,"c"],null])",
                                                                   R"([["b",1,"c"]])",
                                                                   R"([["b",1]])",
                                                                   R"([["a"],{}])",
                                                                   R"([["d",0],[]])",
                                                                   R"([["d",0]])",
                                                                   R"([["d"]])",
                                                               }));
}

TEST(StreamEventCursorTest, DeepNestingUsesNoNativeStack) {
  const int depth = 9000;  // the reader's limit is 10,000 levels
  std::string text(depth, '[');
  text += "7";
  text += std::string(depth, ']');
  std::vector<std::string> events = Events(text);
  ASSERT_EQ(events.size(), static_cast<size_t>(depth) + 1);
  EXPECT_TRUE(events.front().ends_with(",0,0],7]")) << events.front().substr(0, 40);
  EXPECT_EQ(events.back(), "[[0]]");
}

TEST(StreamEventCursorTest, ResetAndClearDropPendingEvents) {
  StreamEventCursor cursor;
  cursor.Reset(*json::Parse("[1,2,3]"));
  Value e;
  ASSERT_TRUE(cursor.Next(&e));
  cursor.Reset(*json::Parse("[9]"));
  ASSERT_TRUE(cursor.Next(&e));
  EXPECT_EQ(json::ToCompactString(e), "[[0],9]");
  cursor.Clear();
  EXPECT_FALSE(cursor.Next(&e));
}

}  // namespace
}  // namespace wmap::cli
