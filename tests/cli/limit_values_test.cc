#include "cli/limit_values.h"

#include <gtest/gtest.h>

namespace wmap::cli {
namespace {

TEST(LimitValuesTest, Durations) {
  EXPECT_EQ(ParseLimitDuration("30s")->count(), 30000000000);
  EXPECT_EQ(ParseLimitDuration("500ms")->count(), 500000000);
  EXPECT_EQ(ParseLimitDuration("1.5m")->count(), 90000000000);
  EXPECT_EQ(ParseLimitDuration("2h")->count(), 7200000000000);
  EXPECT_EQ(ParseLimitDuration("250us")->count(), 250000);
  EXPECT_EQ(ParseLimitDuration("10ns")->count(), 10);
  for (const char* bad : {"", "5", "s", "1.2.3s", "-1s", "0s", "1d", "9000h", ".s", "1 s"}) {
    EXPECT_FALSE(ParseLimitDuration(bad).has_value()) << bad;
  }
}

TEST(LimitValuesTest, Bytes) {
  EXPECT_EQ(*ParseLimitBytes("1048576"), 1048576u);
  EXPECT_EQ(*ParseLimitBytes("512Mi"), uint64_t{512} << 20);
  EXPECT_EQ(*ParseLimitBytes("2G"), 2000000000u);
  EXPECT_EQ(*ParseLimitBytes("3k"), 3000u);
  EXPECT_EQ(*ParseLimitBytes("1Ti"), uint64_t{1} << 40);
  for (const char* bad : {"", "0", "Mi", "1.5Gi", "1Zi", "-1", "99999999999999999999"}) {
    EXPECT_FALSE(ParseLimitBytes(bad).has_value()) << bad;
  }
  EXPECT_FALSE(ParseLimitBytes("20000000000Ti").has_value());  // overflows 64 bits
}

TEST(LimitValuesTest, Counts) {
  EXPECT_EQ(*ParseLimitCount("1"), 1u);
  EXPECT_EQ(*ParseLimitCount("18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "0", "-1", "1k", "1.0", "18446744073709551616"}) {
    EXPECT_FALSE(ParseLimitCount(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace wmap::cli
