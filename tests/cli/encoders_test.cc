#include <gtest/gtest.h>

#include <string>

#include "cli/json_encoder.h"
#include "cli/source_error.h"
#include "wmap/value.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

Value Sample() {
  return Value::Object({{"foo", Value::Array({Value::String("hello"), Value::Int(1)})},
                        {"bar", Value::EmptyObject()}});
}

std::string Json(const Value& v, EncoderOptions o) {
  std::string out;
  JsonEncoder(o).Encode(v, &out);
  return out;
}

TEST(JsonEncoderTest, IndentTabAndCompact) {
  EncoderOptions o;
  EXPECT_EQ(Json(Sample(), o), "{\n  \"bar\": {},\n  \"foo\": [\n    \"hello\",\n    1\n  ]\n}");
  o.indent = 0;
  EXPECT_EQ(Json(Sample(), o), "{\n\"bar\": {},\n\"foo\": [\n\"hello\",\n1\n]\n}");
  o.tab = true;
  EXPECT_EQ(Json(Sample(), o), "{\n\t\"bar\": {},\n\t\"foo\": [\n\t\t\"hello\",\n\t\t1\n\t]\n}");
  o.compact = true;
  EXPECT_EQ(Json(Sample(), o), "{\"bar\":{},\"foo\":[\"hello\",1]}");
}

TEST(JsonEncoderTest, StringEscapes) {
  std::string out;
  JsonEncoder::EncodeString(std::string("a\"\\\b\f\n\r\t\x01\x7f\xff", 11) + "\xc3\xa9", false,
                            &out);
  EXPECT_EQ(out, "\"a\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u007f\\ufffd\xc3\xa9\"");
  out.clear();
  JsonEncoder::EncodeString("\xc3\xa9\xf0\x9f\x98\x80", true, &out);
  EXPECT_EQ(out, "\"\\u00e9\\ud83d\\ude00\"");
}

TEST(JsonEncoderTest, Colors) {
  ColorScheme scheme;
  EncoderOptions o;
  o.compact = true;
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

std::string Yaml(const Value& v, int indent = 2) {
  std::string out;
  yaml::Write(v, {.style = yaml::Style::kGojq, .indent = indent}, &out);
  return out;
}

TEST(YamlOutputTest, BlockStyle) {
  Value v = Value::Object(
      {{"foo", Value::Int(128)},
       {"bar", Value::Object({{"baz", Value::Array({Value::Int(1), Value::String("qux"),
                                                    Value::EmptyArray()})}})}});
  EXPECT_EQ(Yaml(v), "bar:\n  baz:\n    - 1\n    - qux\n    - []\nfoo: 128\n");
  EXPECT_EQ(Yaml(Value::String("bar")), "bar\n");
  Value nested = Value::Object(
      {{"foo",
        Value::Object({{"baz", Value::Array({Value::String("hello"), Value::String("world")})}})}});
  EXPECT_EQ(Yaml(nested, 8),
            "foo:\n        baz:\n                - hello\n                - world\n");
}

TEST(YamlOutputTest, Quoting) {
  EXPECT_EQ(Yaml(Value::String("true")), "\"true\"\n");
  EXPECT_EQ(Yaml(Value::String("123")), "\"123\"\n");
  EXPECT_EQ(Yaml(Value::String("")), "\"\"\n");
  EXPECT_EQ(Yaml(Value::String("- a")), "'- a'\n");
  EXPECT_EQ(Yaml(Value::Object({{"baz", Value::String("a\nb\n")}})), "baz: |\n  a\n  b\n");
  EXPECT_EQ(Yaml(Value::Array({Value::Object({{"a", Value::Int(1)}, {"b", Value::Int(2)}})})),
            "- a: 1\n  b: 2\n");
}

TEST(SourceErrorTest, SingleAndMultiLine) {
  SourceErrorSpec spec;
  spec.kind = "invalid json";
  spec.name = "<stdin>";
  spec.contents = "{";
  spec.offset = 1;
  spec.message = "unexpected EOF";
  EXPECT_EQ(FormatSourceError(spec), "invalid json: <stdin>\n    {\n     ^  unexpected EOF");
  spec.contents = "[0\n,[\n";
  spec.offset = 6;
  EXPECT_EQ(FormatSourceError(spec),
            "invalid json: <stdin>:2\n    2 | ,[\n          ^  unexpected EOF");
}

TEST(SourceErrorTest, QueryLayouts) {
  SourceErrorSpec spec;
  spec.kind = "invalid query";
  spec.name = "<arg>";
  spec.contents = "--";
  spec.offset = 2;
  spec.message = "unexpected EOF";
  spec.query = true;
  EXPECT_EQ(FormatSourceError(spec), "invalid query: --\n    --\n      ^  unexpected EOF");
  spec.name = "q.jq";
  spec.contents = "1 +\n2 ]";
  spec.offset = 6;
  spec.message = "unexpected token \"]\"";
  EXPECT_EQ(FormatSourceError(spec),
            "invalid query: q.jq:2\n    2 | 2 ]\n          ^  unexpected token \"]\"");
}

TEST(SourceErrorTest, DisplayWidthCountsWideCharacters) {
  EXPECT_EQ(DisplayWidth("ab"), 2u);
  EXPECT_EQ(DisplayWidth("\xef\xbc\x91"), 2u);  // U+FF11 FULLWIDTH DIGIT ONE
  EXPECT_EQ(DisplayWidth("\xe2\x98\x85"), 1u);  // U+2605 BLACK STAR (ambiguous: narrow)
}

}  // namespace
}  // namespace wmap::cli
