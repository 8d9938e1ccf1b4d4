// The one quantity reader: syntax, exact amounts per resource, canonical strings.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "wmap/quantity.h"

namespace wmap {
namespace {

int64_t Amount(std::string_view resource, std::string_view text) {
  Result<int64_t> r = QuantityAmount(resource, text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : -1;
}

TEST(QuantityTest, SuffixesAndExponentsInExactUnits) {
  EXPECT_EQ(Amount("cpu", "500m"), 500);
  EXPECT_EQ(Amount("cpu", "2"), 2000);
  EXPECT_EQ(Amount("cpu", "1.5"), 1500);
  EXPECT_EQ(Amount("cpu", ".5"), 500);
  EXPECT_EQ(Amount("cpu", "+3"), 3000);
  EXPECT_EQ(Amount("memory", "-1k"), -1000);
  EXPECT_EQ(Amount("memory", "128974848"), 128974848);
  EXPECT_EQ(Amount("memory", "129e6"), 129000000);
  EXPECT_EQ(Amount("memory", "129M"), 129000000);
  EXPECT_EQ(Amount("memory", "123Mi"), int64_t{123} << 20);
  EXPECT_EQ(Amount("memory", "1Ki"), 1024);
  EXPECT_EQ(Amount("memory", "1.5Gi"), int64_t{3} << 29);
  EXPECT_EQ(Amount("memory", "2Ti"), int64_t{2} << 40);
  EXPECT_EQ(Amount("memory", "1Ei"), int64_t{1} << 60);
  EXPECT_EQ(Amount("memory", "1E"), 1000000000000000000);
  EXPECT_EQ(Amount("memory", "1e3"), 1000);
  EXPECT_EQ(Amount("memory", "1E3"), 1000);
  EXPECT_EQ(Amount("cpu", "5e-3"), 5);
  EXPECT_EQ(Amount("memory", "3G"), 3000000000);
  EXPECT_EQ(Amount("memory", "1P"), 1000000000000000);
  // Below the unit rounds up to one unit; a negative one rounds towards zero.
  EXPECT_EQ(Amount("cpu", "100u"), 1);
  EXPECT_EQ(Amount("cpu", "7n"), 1);
  EXPECT_EQ(Amount("cpu", "-7n"), 0);
  EXPECT_EQ(Amount("memory", "1e-100"), 1);
  // JSON numbers read as their decimal text.
  EXPECT_EQ(*QuantityAmount("cpu", Value::Int(4)), 4000);
  EXPECT_EQ(*QuantityAmount("cpu", Value::Double(0.25)), 250);
}

TEST(QuantityTest, MalformedOnesAreErrorsThatQuoteTheText) {
  for (const char* bad :
       {"", "m", "1Gib", "1K", "1 Gi", "abc", "1e", "1.2.3", "1mi", "Gi", "1e+", "--1"}) {
    EXPECT_FALSE(IsQuantity(bad)) << bad;
    Result<int64_t> r = QuantityAmount("memory", std::string_view(bad));
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().message.find("\"" + std::string(bad) + "\""), std::string::npos)
        << r.error().message;
  }
  EXPECT_EQ(QuantityAmount("memory", "1Gib").error().message,
            "invalid quantity \"1Gib\": unknown suffix \"Gib\"");
  // Well formed but beyond int64.
  EXPECT_TRUE(IsQuantity("1e99999"));
  EXPECT_FALSE(QuantityAmount("memory", "1e99999").ok());
  EXPECT_FALSE(QuantityAmount("memory", "9Ei").ok());
  EXPECT_FALSE(QuantityAmount("cpu", Value::Bool(true)).ok());
}

TEST(QuantityTest, SyntaxMatchesTheApiServerFormat) {
  for (const char* good :
       {"1", "+1", "-1", "1.", ".5", "1.5Gi", "500m", "2e3", "2E-3", "7n", "1e99999", "0"}) {
    EXPECT_TRUE(IsQuantity(good)) << good;
  }
}

TEST(QuantityTest, CanonicalStringsReadBackToTheSameAmount) {
  EXPECT_EQ(FormatAmount("cpu", 250), "250m");
  EXPECT_EQ(FormatAmount("cpu", 2000), "2");
  EXPECT_EQ(FormatAmount("memory", int64_t{2056} << 30), "2056Gi");
  EXPECT_EQ(FormatAmount("memory", 1000), "1000");
  EXPECT_EQ(FormatAmount("nvidia.com/gpu", 8), "8");
  for (auto [resource, amount] : {std::pair<std::string_view, int64_t>{"cpu", 1500},
                                  {"memory", int64_t{3} << 29},
                                  {"hugepages-2Mi", int64_t{4} << 21},
                                  {"ephemeral-storage", 123456789}}) {
    EXPECT_EQ(Amount(resource, FormatAmount(resource, amount)), amount) << resource;
  }
}

}  // namespace
}  // namespace wmap
