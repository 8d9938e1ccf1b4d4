#include <gtest/gtest.h>

#include <string>

#include "cli/source_error.h"
#include "wmap/text.h"
#include "wmap/value.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

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
  EXPECT_EQ(text::DisplayWidth("ab"), 2u);
  EXPECT_EQ(text::DisplayWidth("\xef\xbc\x91"), 2u);  // U+FF11 FULLWIDTH DIGIT ONE
  EXPECT_EQ(text::DisplayWidth("\xe2\x98\x85"), 1u);  // U+2605 BLACK STAR (ambiguous: narrow)
}

}  // namespace
}  // namespace wmap::cli
