#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "wmap/json.h"

namespace wmap::json {
namespace {

// Every expected text below is what gojq 0.12.11 prints for the same input.
constexpr std::string_view kDoc =
    R"({"z":[1,2.5,{"b":null,"a":true}],"y":{},"x":[],"é":"<&>\u2028\u007f\u0001\"\\/","A":-0.0,"n":1e-7,"m":[[[]]]})";

Value Doc() {
  Result<Value> r = Parse(kDoc);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : Value();
}

std::string Print(const Value& v, int indent, bool tab = false) {
  WriteOptions o;
  o.indent = indent;
  o.tab = tab;
  return ToString(v, o);
}

TEST(JsonWriterTest, DefaultTwoSpaceIndentSortedKeys) {
  EXPECT_EQ(ToString(Doc()),
            "{\n"
            "  \"A\": -0,\n"
            "  \"m\": [\n"
            "    [\n"
            "      []\n"
            "    ]\n"
            "  ],\n"
            "  \"n\": 1e-7,\n"
            "  \"x\": [],\n"
            "  \"y\": {},\n"
            "  \"z\": [\n"
            "    1,\n"
            "    2.5,\n"
            "    {\n"
            "      \"a\": true,\n"
            "      \"b\": null\n"
            "    }\n"
            "  ],\n"
            "  \"\xc3\xa9\": \"<&>\xe2\x80\xa8\\u007f\\u0001\\\"\\\\/\"\n"
            "}");
}

TEST(JsonWriterTest, Compact) {
  const std::string want =
      "{\"A\":-0,\"m\":[[[]]],\"n\":1e-7,\"x\":[],\"y\":{},\"z\":[1,2.5,{\"a\":true,\"b\":null}],"
      "\"\xc3\xa9\":\"<&>\xe2\x80\xa8\\u007f\\u0001\\\"\\\\/\"}";
  EXPECT_EQ(Print(Doc(), 0), want);
  EXPECT_EQ(ToCompactString(Doc()), want);
}

TEST(JsonWriterTest, Tab) {
  EXPECT_EQ(Print(Value::Object({{"b", Value::Array({Value::Int(1)})}, {"a", Value::Object({})}}),
                  2, true),
            "{\n\t\"a\": {},\n\t\"b\": [\n\t\t1\n\t]\n}");
}

TEST(JsonWriterTest, IndentWidths) {
  Value v = Value::Object({{"a", Value::Array({Value::Int(1), Value::Object({{"b", Value()}})})}});
  EXPECT_EQ(Print(v, 1), "{\n \"a\": [\n  1,\n  {\n   \"b\": null\n  }\n ]\n}");
  EXPECT_EQ(Print(v, 7),
            "{\n       \"a\": [\n              1,\n              {\n                     \"b\": "
            "null\n              }\n       ]\n}");
}

TEST(JsonWriterTest, InsertionOrderWhenNotSorting) {
  WriteOptions o;
  o.indent = 0;
  o.sort_keys = false;
  EXPECT_EQ(ToString(Value::Object({{"b", Value::Int(1)}, {"a", Value::Int(2)}}), o),
            "{\"b\":1,\"a\":2}");
}

std::string Num(const Value& v) {
  std::string out;
  FormatNumber(v, &out);
  return out;
}

TEST(JsonWriterTest, NumbersAsGojq) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Num(Value::Double(inf)), "1.7976931348623157e+308");
  EXPECT_EQ(Num(Value::Double(-inf)), "-1.7976931348623157e+308");
  EXPECT_EQ(Num(Value::Double(std::nan(""))), "null");
  EXPECT_EQ(Num(Value::Double(1e-7)), "1e-7");
  EXPECT_EQ(Num(Value::Double(1.5e300)), "1.5e+300");
  EXPECT_EQ(Num(Value::Double(1e20)), "100000000000000000000");
  EXPECT_EQ(Num(Value::Double(0.1 + 0.2)), "0.30000000000000004");
  EXPECT_EQ(Num(Value::Double(-0.0)), "-0");
  EXPECT_EQ(Num(Value::Double(0.0)), "0");
  EXPECT_EQ(Num(Value::Double(1e17)), "100000000000000000");
  EXPECT_EQ(Num(Value::Double(3.0)), "3");
  EXPECT_EQ(Num(Value::Double(1e-6)), "0.000001");
  EXPECT_EQ(Num(Value::Double(1.5e21)), "1.5e+21");
  EXPECT_EQ(Num(Value::Double(1e21)), "1e+21");
  EXPECT_EQ(Num(Value::Double(0.000123)), "0.000123");
  EXPECT_EQ(Num(Value::Double(123456.789)), "123456.789");
  EXPECT_EQ(Num(Value::Double(-1.25e-10)), "-1.25e-10");
  EXPECT_EQ(Num(Value::Double(9.999999e-7)), "9.999999e-7");
  EXPECT_EQ(Num(Value::Double(5e-324)), "5e-324");
  EXPECT_EQ(Num(Value::Double(1.23e-18)), "1.23e-18");
  // Shortest digits padded with zeros, not the exact binary value.
  EXPECT_EQ(Num(Value::Double(-9.129825816118098e17)), "-912982581611809800");
  EXPECT_EQ(Num(Value::Double(9223372036854775808.0)), "9223372036854776000");
  EXPECT_EQ(Num(Value::Int(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(Num(Value::Int(9007199254740993)), "9007199254740993");
  EXPECT_EQ(Num(Value::Int(0)), "0");
}

std::string Str(std::string_view s, bool ascii = false) {
  std::string out;
  WriteString(s, ascii, &out);
  return out;
}

TEST(JsonWriterTest, StringEscapes) {
  EXPECT_EQ(Str("plain"), "\"plain\"");
  EXPECT_EQ(Str("\b\f\n\r\t\"\\/"), R"("\b\f\n\r\t\"\\/")");
  EXPECT_EQ(Str(std::string("\0\x01\x1f\x7f", 4)), R"("\u0000\u0001\u001f\u007f")");
  // gojq leaves <, >, &, U+2028 and U+2029 alone.
  EXPECT_EQ(Str("<&>\xe2\x80\xa8\xe2\x80\xa9"), "\"<&>\xe2\x80\xa8\xe2\x80\xa9\"");
  // Each invalid UTF-8 byte is written as the \ufffd escape.
  EXPECT_EQ(Str("\xff\xc3("), R"("\ufffd\ufffd(")");
  EXPECT_EQ(Str("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");
  std::string long_text(100, 'a');
  long_text[50] = '"';
  EXPECT_EQ(Str(long_text), "\"" + std::string(50, 'a') + "\\\"" + std::string(49, 'a') + "\"");
}

TEST(JsonWriterTest, AsciiOutputAsJq) {
  // jq -a: lowercase hex, surrogate pairs above U+FFFF.
  EXPECT_EQ(Str("<&> \xe2\x80\xa8 \xc3\xa9 \xf0\x9f\x98\x80 \x7f", true),
            R"("<&> \u2028 \u00e9 \ud83d\ude00 \u007f")");
  EXPECT_EQ(Str("\xff", true), R"("\ufffd")");
  WriteOptions o;
  o.indent = 0;
  o.ascii = true;
  EXPECT_EQ(ToString(Value::Object({{"\xc3\xa9", Value::String("\xe4\xb8\xad")}}), o),
            R"({"\u00e9":"\u4e2d"})");
}

TEST(JsonWriterTest, RoundTrip) {
  const std::string texts[] = {
      R"({"a":[1,2.5,-3e-7,"x\n\u0000"],"b":{"c":null,"d":[true,false,{}]},"e":""})",
      R"([[[[["deep"]]]],{"k":{"k":{"k":1e+300}}}])",
      R"("\ud83d\ude00 and \u00e9")",
  };
  for (const std::string& t : texts) {
    Result<Value> first = Parse(t);
    ASSERT_TRUE(first.ok());
    for (int indent : {0, 2, 5}) {
      std::string printed = Print(*first, indent);
      Result<Value> second = Parse(printed);
      ASSERT_TRUE(second.ok()) << printed;
      EXPECT_TRUE(*first == *second) << printed;
      EXPECT_EQ(Print(*second, indent), printed);
    }
  }
}

TEST(JsonWriterTest, DeepValuesDoNotOverflow) {
  Value v = Value::Int(1);
  for (int i = 0; i < 200000; ++i) v = Value::Array({v});
  std::string out = ToCompactString(v);
  EXPECT_EQ(out.size(), 400001u);
  EXPECT_EQ(out.substr(0, 3), "[[[");
  EXPECT_EQ(out.substr(199999, 3), "[1]");
}

}  // namespace
}  // namespace wmap::json
