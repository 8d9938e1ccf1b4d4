// Big integers and number literals in Value, the JSON reader and writer, and the YAML reader.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "wmap/json.h"
#include "wmap/value.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

Value Big(std::string_view text) { return Value::Big(*BigInt::FromDecimal(text)); }

Value GojqJson(std::string_view text) {
  Result<Value> r = json::Parse(text, {.gojq_numbers = true});
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : Value();
}

std::string Print(const Value& v) { return json::ToCompactString(v); }

TEST(ValueNumbersTest, BigStaysInlineWhenItFits) {
  Value small = Big("-9223372036854775808");
  EXPECT_TRUE(small.is_integer());
  EXPECT_EQ(small.as_int(), INT64_MIN);
  Value big = Big("9223372036854775808");
  EXPECT_TRUE(big.is_big_integer());
  EXPECT_FALSE(big.is_integer());
  EXPECT_TRUE(big.is_number());
  EXPECT_EQ(big.type(), Type::kNumber);
  EXPECT_EQ(big.as_double(), 9223372036854775808.0);
  EXPECT_EQ(big.as_big().ToDecimal(), "9223372036854775808");
  Value copy = big;
  EXPECT_EQ(big.use_count(), 2u);
  EXPECT_TRUE(copy.identical(big));
}

TEST(ValueNumbersTest, LiteralBehavesAsItsNumber) {
  Value lit = Value::NumberLiteral(Value::Double(10.0), "10.0");
  EXPECT_TRUE(lit.is_number());
  EXPECT_TRUE(lit.is_number_literal());
  EXPECT_FALSE(lit.is_integer());
  EXPECT_EQ(lit.literal_text(), "10.0");
  EXPECT_EQ(lit.as_double(), 10.0);
  EXPECT_TRUE(lit.plain_number().identical(Value::Double(10.0)));
  EXPECT_EQ(Compare(lit, Value::Int(10)), 0);
  EXPECT_EQ(Compare(lit, Value::Int(11)), -1);
  EXPECT_EQ(Print(lit), "10.0");
  // A literal of a literal wraps the plain number.
  Value again = Value::NumberLiteral(lit, "1e1");
  EXPECT_TRUE(again.plain_number().identical(Value::Double(10.0)));
}

TEST(ValueNumbersTest, CompareIsExactAcrossRepresentations) {
  Value two63 = Big("9223372036854775808");
  EXPECT_EQ(Compare(Value::Int(INT64_MAX), two63), -1);
  EXPECT_EQ(Compare(two63, Value::Int(INT64_MAX)), 1);
  EXPECT_EQ(Compare(Big("-9223372036854775809"), Value::Int(INT64_MIN)), -1);
  // 2^64 + 1 is above the double 2^64, which a rounding comparison would call equal.
  EXPECT_EQ(Compare(Big("18446744073709551617"), Value::Double(18446744073709551616.0)), 1);
  EXPECT_EQ(Compare(Big("18446744073709551616"), Value::Double(18446744073709551616.0)), 0);
  EXPECT_EQ(Compare(Value::Double(1e30), Big("4722366482869645213696")), 1);
  EXPECT_EQ(Compare(Value::Double(INFINITY), Big("4722366482869645213696")), 1);
  EXPECT_EQ(Compare(Value::Double(-INFINITY), Big("-4722366482869645213696")), -1);
  EXPECT_EQ(Compare(Value::Double(0.5), Big("4722366482869645213696")), -1);
  EXPECT_EQ(Compare(Value::Double(0.5), Big("-4722366482869645213696")), 1);
  // NaN sorts below every number, on either side.
  EXPECT_EQ(Compare(Value::Double(std::nan("")), Big("-4722366482869645213696")), -1);
  EXPECT_EQ(Compare(Big("-4722366482869645213696"), Value::Double(std::nan(""))), 1);
  EXPECT_EQ(Compare(Big("-4722366482869645213697"), Big("-4722366482869645213696")), -1);
}

TEST(ValueNumbersTest, JsonReaderKeepsGojqNumbersOnRequest) {
  Value big = GojqJson("4722366482869645213696");
  ASSERT_TRUE(big.is_big_integer());
  EXPECT_EQ(Print(big), "4722366482869645213696");
  EXPECT_EQ(Print(GojqJson("-4722366482869645213696")), "-4722366482869645213696");
  // Texts that would print differently keep their text.
  for (const char* text : {"10.0", "100.000", "6.02e23", "5e1000", "-0", "1E2", "0.0", "-0.0",
                           "1.000000000000000000001", "0.0000001", "1e-07", "0.10"}) {
    Value v = GojqJson(text);
    EXPECT_TRUE(v.is_number_literal()) << text;
    EXPECT_EQ(Print(v), text);
  }
  EXPECT_EQ(GojqJson("5e1000").as_double(), INFINITY);
  EXPECT_EQ(GojqJson("-0").plain_number().as_int(), 0);
  // Texts printed as written stay plain numbers.
  for (const char* text :
       {"3.14", "-0.5", "0.000001", "123456.789", "0.30000000000000004", "1e+300", "1e-7", "12"}) {
    Value v = GojqJson(text);
    EXPECT_FALSE(v.is_number_literal()) << text;
    EXPECT_EQ(Print(v), text);
  }
  EXPECT_EQ(Print(GojqJson(R"({"a":[1.50,2]})")), R"({"a":[1.50,2]})");
}

TEST(ValueNumbersTest, JsonReaderDefaultsToKubernetesNumbers) {
  Result<Value> r = json::Parse("[4722366482869645213696, 10.0, -0]");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE((*r)[0].is_big_integer());
  EXPECT_FALSE((*r)[1].is_number_literal());
  EXPECT_EQ(Print(*r), "[4.722366482869645e+21,10,0]");
}

TEST(ValueNumbersTest, YamlGojqSchemaKeepsBigIntegers) {
  yaml::ReadOptions gojq;
  gojq.schema = yaml::Schema::kGojq;
  auto docs = yaml::ParseStream(
      "- 18446744073709551615\n- 18446744073709551616\n- 99999999999999999999999\n"
      "- 0x7FFFFFFFFFFFFFFF\n- -0\n- 1.0\n",
      gojq);
  ASSERT_TRUE(docs.ok());
  EXPECT_EQ(Print((*docs)[0].value),
            "[18446744073709551615,18446744073709551616,99999999999999999999999,"
            "9223372036854775807,-0,1]");
  auto k8s = yaml::ParseStream("- 18446744073709551616\n");
  ASSERT_TRUE(k8s.ok());
  EXPECT_EQ(Print((*k8s)[0].value), "[18446744073709552000]");
}

TEST(ValueNumbersTest, YamlWriterPrintsBigIntegersPerStyle) {
  Value v = GojqJson("[4722366482869645213696, 1.50]");
  yaml::WriteOptions gojq;
  gojq.style = yaml::Style::kGojq;
  EXPECT_EQ(yaml::ToString(v, gojq), "- \"4722366482869645213696\"\n- 1.5\n");
  // kubectl (go-yaml v2 over JSON-decoded doubles) writes the float form.
  EXPECT_EQ(yaml::ToString(v, {}), "- 4.722366482869645e+21\n- 1.50\n");
}

}  // namespace
}  // namespace wmap
