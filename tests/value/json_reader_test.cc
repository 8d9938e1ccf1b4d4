#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "wmap/json.h"

namespace wmap::json {
namespace {

Value MustParse(std::string_view text) {
  Result<Value> r = Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().ToString());
  return r.ok() ? *r : Value();
}

Error MustFail(std::string_view text, const ReadOptions& options = {}) {
  Result<Value> r = Parse(text, options);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? Error{} : r.error();
}

TEST(JsonReaderTest, Scalars) {
  EXPECT_TRUE(MustParse("null").is_null());
  EXPECT_TRUE(MustParse(" true ").as_bool());
  EXPECT_FALSE(MustParse("\n\tfalse\r\n").as_bool());
  EXPECT_EQ(MustParse("\"hi\"").as_string(), "hi");
}

TEST(JsonReaderTest, IntegersStayExact) {
  Value v = MustParse("9007199254740993");
  ASSERT_TRUE(v.is_integer());
  EXPECT_EQ(v.as_int(), 9007199254740993);
  EXPECT_EQ(MustParse("-9223372036854775808").as_int(), INT64_MIN);
  EXPECT_EQ(MustParse("9223372036854775807").as_int(), INT64_MAX);
  EXPECT_EQ(MustParse("0").as_int(), 0);
  // "-0" is the integer 0, as in gojq.
  Value neg_zero = MustParse("-0");
  EXPECT_TRUE(neg_zero.is_integer());
  EXPECT_EQ(neg_zero.as_int(), 0);
}

TEST(JsonReaderTest, IntegersBeyondInt64BecomeDoubles) {
  Value v = MustParse("9223372036854775808");
  EXPECT_FALSE(v.is_integer());
  EXPECT_DOUBLE_EQ(v.as_double(), 9223372036854775808.0);
  Value w = MustParse("-123456789012345678901234567890");
  EXPECT_FALSE(w.is_integer());
  EXPECT_DOUBLE_EQ(w.as_double(), -1.2345678901234568e29);
}

TEST(JsonReaderTest, Doubles) {
  EXPECT_FALSE(MustParse("1.0").is_integer());
  EXPECT_DOUBLE_EQ(MustParse("1.5").as_double(), 1.5);
  EXPECT_DOUBLE_EQ(MustParse("-2.5e-3").as_double(), -0.0025);
  EXPECT_DOUBLE_EQ(MustParse("1E2").as_double(), 100.0);
  EXPECT_DOUBLE_EQ(MustParse("1e+2").as_double(), 100.0);
  EXPECT_DOUBLE_EQ(MustParse("0.1").as_double(), 0.1);
  EXPECT_TRUE(std::signbit(MustParse("-0.0").as_double()));
  EXPECT_TRUE(std::isinf(MustParse("1e400").as_double()));
  EXPECT_LT(MustParse("-1e400").as_double(), 0);
  EXPECT_EQ(MustParse("1e-400").as_double(), 0.0);
  EXPECT_DOUBLE_EQ(MustParse("5e-324").as_double(), 4.9406564584124654e-324);
}

TEST(JsonReaderTest, Strings) {
  EXPECT_EQ(MustParse(R"("a\"b\\c\/d\b\f\n\r\t")").as_string(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(MustParse(R"("\u00e9\u4e2d")").as_string(), "\xc3\xa9\xe4\xb8\xad");
  EXPECT_EQ(MustParse(R"("\u0000")").as_string(), std::string("\0", 1));
  // Surrogate pair.
  EXPECT_EQ(MustParse(R"("\ud83d\ude00")").as_string(), "\xf0\x9f\x98\x80");
  EXPECT_EQ(MustParse(R"("\uD83D\uDE00")").as_string(), "\xf0\x9f\x98\x80");
  // Raw UTF-8 passes through.
  EXPECT_EQ(MustParse("\"\xf0\x9f\x98\x80 \xc3\xa9\"").as_string(), "\xf0\x9f\x98\x80 \xc3\xa9");
  std::string long_text(1000, 'x');
  EXPECT_EQ(MustParse("\"" + long_text + "\"").as_string(), long_text);
  EXPECT_EQ(MustParse("\"" + long_text + "\\n\"").as_string(), long_text + "\n");
}

TEST(JsonReaderTest, UnpairedSurrogatesBecomeReplacement) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(MustParse(R"("\ud800")").as_string(), fffd);
  EXPECT_EQ(MustParse(R"("\udc00x")").as_string(), fffd + "x");
  EXPECT_EQ(MustParse(R"("\ud83d\u0041")").as_string(), fffd + "A");
  EXPECT_EQ(MustParse(R"("\ud83d\ud83d\ude00")").as_string(), fffd + "\xf0\x9f\x98\x80");
}

TEST(JsonReaderTest, InvalidUtf8BecomesReplacementPerByte) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(MustParse("\"\xff\"").as_string(), fffd);
  EXPECT_EQ(MustParse("\"a\xc3(\"").as_string(), "a" + fffd + "(");
  // Encoded surrogate and overlong forms are invalid, one replacement per byte.
  EXPECT_EQ(MustParse("\"\xed\xa0\x80\"").as_string(), fffd + fffd + fffd);
  EXPECT_EQ(MustParse("\"\xc0\xaf\"").as_string(), fffd + fffd);
  // Truncated sequence at the end of the string.
  EXPECT_EQ(MustParse("\"ok \xf0\x9f\x98\"").as_string(), "ok " + fffd + fffd + fffd);
  EXPECT_EQ(MustParse("\"\xf4\x90\x80\x80\"").as_string(), fffd + fffd + fffd + fffd);
}

TEST(JsonReaderTest, ContainersKeepOrder) {
  Value v = MustParse(R"({"b": [1, 2, {"c": null}], "a": {}, "d": []})");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v.members()[0].key.as_string(), "b");
  EXPECT_EQ(v.members()[1].key.as_string(), "a");
  const Value* b = v.find("b");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->size(), 3u);
  EXPECT_EQ((*b)[1].as_int(), 2);
  EXPECT_TRUE((*b)[2].find("c")->is_null());
  EXPECT_EQ(v.find("a")->size(), 0u);
  EXPECT_TRUE(v.find("d")->is_array());
}

TEST(JsonReaderTest, DuplicateKeysLastValueWins) {
  Value v = MustParse(R"({"a": 1, "b": 2, "a": 3})");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v.find("a")->as_int(), 3);
  EXPECT_EQ(v.members()[0].key.as_string(), "a");
  // Same in a large (indexed) object.
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k7\":-7,\"long key number fifty\":1,\"long key number fifty\":2}";
  Value big = MustParse(text);
  EXPECT_EQ(big.size(), 101u);
  EXPECT_EQ(big.find("k7")->as_int(), -7);
  EXPECT_EQ(big.find("long key number fifty")->as_int(), 2);
  EXPECT_EQ(big.find("k99")->as_int(), 99);
}

TEST(JsonReaderTest, HugeObjectParsesInLinearTime) {
  // 200k distinct keys: quadratic duplicate detection would take minutes.
  std::string text = "{";
  for (int i = 0; i < 200000; ++i) {
    if (i > 0) text += ',';
    text += "\"key" + std::to_string(i) + "\":" + std::to_string(i);
  }
  text += "}";
  Value v = MustParse(text);
  ASSERT_EQ(v.size(), 200000u);
  EXPECT_EQ(v.find("key123456")->as_int(), 123456);
  EXPECT_EQ(v.find("key199999")->as_int(), 199999);
}

struct ErrorCase {
  std::string text;
  std::string message;
  int line;
  int column;
};

// Messages and caret positions as printed by gojq 0.12.11 for the same input.
TEST(JsonReaderTest, ErrorsMatchGojq) {
  std::vector<ErrorCase> cases = {
      {"{\"a\":1", "unexpected EOF", 1, 7},
      {"[1,2", "unexpected EOF", 1, 5},
      {"{\"a\" 1}", "invalid character '1' after object key", 1, 6},
      {"[1,]", "invalid character ']' looking for beginning of value", 1, 4},
      {"nan", "invalid character 'a' in literal null (expecting 'u')", 1, 2},
      {"NaN", "invalid character 'N' looking for beginning of value", 1, 1},
      {"Infinity", "invalid character 'I' looking for beginning of value", 1, 1},
      {"[1 2]", "invalid character '2' after array element", 1, 4},
      {"tru", "unexpected EOF", 1, 4},
      {"\"abc", "unexpected EOF", 1, 5},
      {"{\"a\":1}}", "invalid character '}' after top-level value", 1, 8},
      {"1.", "unexpected EOF", 1, 3},
      {"-", "unexpected EOF", 1, 2},
      {"\"\\x\"", "invalid character 'x' in string escape code", 1, 3},
      {"\"a\tb\"", "invalid character '\\t' in string literal", 1, 3},
      {"{,}", "invalid character ',' looking for beginning of object key string", 1, 2},
      {"1e", "unexpected EOF", 1, 3},
      {"{\"a\":1,}", "invalid character '}' looking for beginning of object key string", 1, 8},
      {"{\n  \"a\": 1,\n  \"b\" 2\n}", "invalid character '2' after object key", 3, 7},
      {"[1,\n2,\n\x01]", "invalid character '\\x01' looking for beginning of value", 3, 1},
      {"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape", 1, 6},
      {"[1.x]", "invalid character 'x' after decimal point in numeric literal", 1, 4},
      {"[1ex]", "invalid character 'x' in exponent of numeric literal", 1, 4},
      {"[-x]", "invalid character 'x' in numeric literal", 1, 3},
      {"[\xc3\xa9]", "invalid character '\xc3\x83' looking for beginning of value", 1, 2},
      {"{\"a\":1 \"b\":2}", "invalid character '\"' after object key:value pair", 1, 8},
      {"01", "invalid character '1' after top-level value", 1, 2},
      {"trux", "invalid character 'x' in literal true (expecting 'e')", 1, 4},
      {"", "unexpected EOF", 1, 1},
      {"  \n ", "unexpected EOF", 2, 2},
  };
  for (const ErrorCase& c : cases) {
    Error e = MustFail(c.text);
    EXPECT_EQ(e.message, c.message) << c.text;
    EXPECT_EQ(e.position.line, c.line) << c.text;
    EXPECT_EQ(e.position.column, c.column) << c.text;
  }
}

TEST(JsonReaderTest, ErrorToStringHasPosition) {
  Error e = MustFail("[1,\n  x]");
  e.file = "in.json";
  EXPECT_EQ(e.ToString(), "in.json:2:3: invalid character 'x' looking for beginning of value");
  EXPECT_EQ(e.position.offset, 6u);
}

TEST(JsonReaderTest, DepthIsBounded) {
  // gojq's limit: 10000 levels parse, the 10001st opening bracket is an error.
  std::string ok = std::string(10000, '[') + std::string(10000, ']');
  Value v = MustParse(ok);
  EXPECT_TRUE(v.is_array());
  std::string deep(100000, '[');
  Error e = MustFail(deep);
  EXPECT_EQ(e.message, "invalid character '[' exceeded max depth");
  EXPECT_EQ(e.position.column, 10001);
  std::string deep_objects;
  for (int i = 0; i < 100000; ++i) deep_objects += "{\"a\":";
  EXPECT_EQ(MustFail(deep_objects).message, "invalid character '{' exceeded max depth");
  ReadOptions shallow;
  shallow.max_depth = 2;
  EXPECT_TRUE(Parse("[[1]]", shallow).ok());
  EXPECT_EQ(MustFail("[[[1]]]", shallow).position.column, 3);
}

TEST(JsonReaderTest, DeepInputWithLargeLimitDoesNotCrash) {
  ReadOptions unlimited;
  unlimited.max_depth = 10000000;
  std::string text = std::string(300000, '[') + std::string(300000, ']');
  Result<Value> r = Parse(text, unlimited);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->is_array());
}

TEST(JsonReaderTest, StreamOfValues) {
  std::string text = "{\"a\":1}\n[2]\n\"s\" 3 true\n\n null[4]{}-5";
  StreamReader reader(text);
  std::vector<std::string> kinds;
  Value v;
  Error e;
  while (reader.Next(&v, &e)) {
    ASSERT_FALSE(reader.failed()) << e.ToString();
    kinds.push_back(std::string(TypeName(v.type())));
  }
  std::vector<std::string> want = {"object", "array", "string", "number", "boolean",
                                   "null",   "array", "object", "number"};
  EXPECT_EQ(kinds, want);
  EXPECT_EQ(reader.offset(), text.size());
}

TEST(JsonReaderTest, StreamAdjacentLiteralsAndNumbers) {
  // As with gojq's decoder, self-delimiting values need no separator.
  StreamReader reader("truefalse01");
  Value v;
  Error e;
  std::vector<std::string> out;
  while (reader.Next(&v, &e)) {
    ASSERT_FALSE(reader.failed());
    out.push_back(ToCompactString(v));
  }
  EXPECT_EQ(out, (std::vector<std::string>{"true", "false", "0", "1"}));
}

TEST(JsonReaderTest, StreamStopsAtFirstError) {
  StreamReader reader("[1,2]\n{\"a\":}\n3");
  Value v;
  Error e;
  ASSERT_TRUE(reader.Next(&v, &e));
  EXPECT_FALSE(reader.failed());
  EXPECT_EQ(v.size(), 2u);
  ASSERT_TRUE(reader.Next(&v, &e));
  EXPECT_TRUE(reader.failed());
  EXPECT_EQ(e.message, "invalid character '}' looking for beginning of value");
  EXPECT_EQ(e.position.line, 2);
  EXPECT_EQ(e.position.column, 6);
  EXPECT_FALSE(reader.Next(&v, &e));
}

TEST(JsonReaderTest, EmptyStream) {
  StreamReader reader(" \n\t ");
  Value v;
  Error e;
  EXPECT_FALSE(reader.Next(&v, &e));
  EXPECT_FALSE(reader.failed());
}

}  // namespace
}  // namespace wmap::json
