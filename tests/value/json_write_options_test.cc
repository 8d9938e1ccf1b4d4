// The writer's options for the jq command's output: line breaks without indent, colors, spilling.
#include <gtest/gtest.h>

#include <string>

#include "wmap/json.h"

namespace wmap::json {
namespace {

Value Sample() {
  return Value::Object({{"foo", Value::Array({Value::String("hello"), Value::Int(1)})},
                        {"bar", Value::EmptyObject()}});
}

std::string Json(const Value& v, const WriteOptions& o) {
  std::string out;
  Write(v, o, &out);
  return out;
}

TEST(JsonWriterOptionsTest, IndentTabAndCompact) {
  WriteOptions o;
  EXPECT_EQ(Json(Sample(), o), "{\n  \"bar\": {},\n  \"foo\": [\n    \"hello\",\n    1\n  ]\n}");
  o.indent = 0;
  o.line_breaks_without_indent = true;
  EXPECT_EQ(Json(Sample(), o), "{\n\"bar\": {},\n\"foo\": [\n\"hello\",\n1\n]\n}");
  o.tab = true;
  EXPECT_EQ(Json(Sample(), o), "{\n\t\"bar\": {},\n\t\"foo\": [\n\t\t\"hello\",\n\t\t1\n\t]\n}");
  o.tab = false;
  o.line_breaks_without_indent = false;
  EXPECT_EQ(Json(Sample(), o), "{\"bar\":{},\"foo\":[\"hello\",1]}");
}

TEST(JsonWriterOptionsTest, StringEscapes) {
  std::string out;
  WriteString(std::string("a\"\\\b\f\n\r\t\x01\x7f\xff", 11) + "\xc3\xa9", false, &out);
  EXPECT_EQ(out, "\"a\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u007f\\ufffd\xc3\xa9\"");
  out.clear();
  WriteString("\xc3\xa9\xf0\x9f\x98\x80", true, &out);
  EXPECT_EQ(out, "\"\\u00e9\\ud83d\\ude00\"");
}

TEST(JsonWriterOptionsTest, Colors) {
  Colors scheme;
  WriteOptions o;
  o.indent = 0;
  o.colors = &scheme;
  EXPECT_EQ(Json(Value::Object({{"x", Value::Int(42)}}), o),
            "{\x1b[34;1m\"x\"\x1b[0m:\x1b[36m42\x1b[0m}");
  std::string bad;
  EXPECT_FALSE(scheme.Parse("30:31;;:32", &bad));
  EXPECT_EQ(bad, "31;;");
  ASSERT_TRUE(scheme.Parse("31;1:::32;2", &bad));
  EXPECT_EQ(Json(Value::Array({Value(), Value::Bool(false), Value::String("s")}), o),
            "[\x1b[31;1mnull\x1b[0m,false,\"s\"]");
}

TEST(JsonWriterOptionsTest, ColorsPunctuationAndEmptyContainers) {
  Colors scheme;
  std::string bad;
  ASSERT_TRUE(scheme.Parse("::::::1:2", &bad));
  WriteOptions o;
  o.colors = &scheme;
  Value v = Value::Object({{"a", Value::Array({Value::EmptyArray(), Value::EmptyObject()})}});
  EXPECT_EQ(Json(v, o),
            "\x1b[2m{\x1b[0m\n  \"a\"\x1b[2m:\x1b[0m \x1b[1m[\x1b[0m\n    \x1b[1m[\x1b[0m\x1b[1m]"
            "\x1b[0m\x1b[1m,\x1b[0m\n    \x1b[2m{\x1b[0m\x1b[2m}\x1b[0m\n  \x1b[1m]\x1b[0m\n"
            "\x1b[2m}\x1b[0m");
  // A failed parse changes nothing.
  EXPECT_FALSE(scheme.Parse("1:x", &bad));
  EXPECT_EQ(bad, "x");
  EXPECT_EQ(scheme.array_color, "1");
}

TEST(JsonWriterOptionsTest, SpillHandsOutPiecesThatJoinToTheWholeText) {
  Value items = Value::EmptyArray();
  for (int i = 0; i < 2000; ++i) items.push_back(Value::Object({{"i", Value::Int(i)}}));
  std::string whole = ToString(items);
  std::string out;
  std::string spilled;
  int spills = 0;
  WriteOptions o;
  o.spill_bytes = 1000;
  o.spill = [&] {
    ++spills;
    EXPECT_GE(out.size(), 1000u);
    spilled += out;
    out.clear();
  };
  Write(items, o, &out);
  EXPECT_GT(spills, 10);
  EXPECT_EQ(spilled + out, whole);
}

}  // namespace
}  // namespace wmap::json
