// Date natives, called directly; expected values from gojq (TZ=Etc/GMT+7 for local time).
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "builtins_test_support.h"

namespace wmap::jq::testing {
namespace {

// Far from now: exact in every year int64 seconds reach, an error beyond (gojq prints wrong
// dates there: NaN becomes year 292277026304).
TEST(DatesFarOut, AreExactOrAnError) {
  EXPECT_EQ(Call("strftime", "1e18", {"\"%Y-%m-%dT%H:%M:%SZ\""}),
            "\"31688740476-10-23T01:46:40Z\"");
  EXPECT_EQ(Call("strftime", "-1e18", {"\"%Y-%m-%dT%H:%M:%SZ\""}),
            "\"-31688736537-03-10T22:13:20Z\"");
  EXPECT_EQ(Call("gmtime", "1e18", {}), "[31688740476,9,23,1,46,40,5,296]");
  EXPECT_EQ(Call("mktime", "[31688740476,9,23,1,46,40,5,296]", {}), "1000000000000000000");
  EXPECT_EQ(Call("gmtime", "1e300", {}), "error: gmtime cannot be applied to: number (1e+300)");
  EXPECT_EQ(Call("strftime", "1e19", {"\"%Y\""}),
            "error: strftime(\"%Y\") cannot be applied to: number (10000000000000000000)");
  EXPECT_EQ(Call("mktime", "[1000000000000,0,1,0,0,0,0,0]", {}),
            "error: mktime cannot be applied to: array ([1000000000000,0,1,0,0,0,0,0])");
  EXPECT_EQ(Call("mktime", "[300000000000,0,1,0,0,0,0,0]", {}),
            "error: mktime cannot be applied to: array ([300000000000,0,1,0,0,0,0,0])");
}

class DatesTest : public ::testing::TestWithParam<Case> {};

TEST_P(DatesTest, MatchesGojq) {
  const Case& c = GetParam();
  EXPECT_EQ(Call(c.name, c.input, c.args), c.want) << c.name << " on " << c.input;
}

INSTANTIATE_TEST_SUITE_P(
    Natives, DatesTest,
    ::testing::Values(
        Case{"gmtime", "1425599507", {}, "[2015,2,5,23,51,47,4,63]"},
        Case{"gmtime", "-1.5", {}, "[1969,11,31,23,59,59.5,3,364]"},
        Case{"gmtime", "\"x\"", {}, "error: gmtime cannot be applied to: string (\"x\")"},
        Case{"mktime", "[2017,6,14,2,40,0,5,194]", {}, "1500000000"},
        Case{"mktime", "[2024,1,30,25,61,61.5,0,0]", {}, "1709344921.5"},
        Case{"mktime", "[2024,7,20]", {}, "1724112000"}, Case{"mktime", "[2025]", {}, "1735603200"},
        Case{"mktime", "1", {}, "error: mktime cannot be applied to: number (1)"},
        Case{"strftime", "1435677542.822351", {"\"%A, %B %d, %Y\""}, "\"Tuesday, June 30, 2015\""},
        Case{"strftime", "[2024,2,15]", {"\"%Y-%m-%dT%H:%M:%SZ\""}, "\"2024-03-15T00:00:00Z\""},
        Case{"strftime",
             "1500000000",
             {"\"%c|%D|%e|%j|%U|%W|%V|%G|%u|%w|%I%p|%k|%l|%s|%Z|%z|%:z|%-d|%_m|%5Y|%^a|%#b|%%|"
              "%F %T|%r|%R|%C|%y|%g|%h|%x|%X|%v|%+\""},
             "\"Fri Jul 14 02:40:00 2017|07/14/17|14|195|28|28|28|2017|5|5|02AM| 2| "
             "2|1500000000|UTC|+0000|+00:00|14| 7|02017|FRI|JUL|%|2017-07-14 02:40:00|02:40:00 "
             "AM|02:40|20|17|17|Jul|07/14/17|02:40:00|14-Jul-2017|Fri Jul 14 02:40:00 UTC 2017\""},
        Case{"strftime",
             "{}",
             {"\"%Y\""},
             "error: strftime(\"%Y\") cannot be applied to: object ({})"},
        Case{"strptime",
             "\"2015-03-05T23:51:47Z\"",
             {"\"%Y-%m-%dT%H:%M:%SZ\""},
             "[2015,2,5,23,51,47,4,63]"},
        Case{"strptime",
             "\"2019-09-08T06:02:03+0900\"",
             {"\"%Y-%m-%dT%H:%M:%S%z\""},
             "[2019,8,7,21,2,3,6,249]"},
        Case{"strptime",
             "\"2020-09-13T07:26:40-05:00\"",
             {"\"%Y-%m-%dT%H:%M:%S%z\""},
             "[2020,8,13,12,26,40,0,256]"},
        Case{"strptime",
             "\"10:15 PM, Mon 5 Jan 2015\"",
             {"\"%I:%M %p, %a %d %b %Y\""},
             "[2015,0,5,22,15,0,1,4]"},
        Case{"strptime", "\"2015 064\"", {"\"%Y %j\""}, "[2015,2,5,0,0,0,4,63]"},
        Case{"strptime", "\"1425599507\"", {"\"%s\""}, "[2015,2,5,23,51,47,4,63]"},
        Case{"strptime", "\"12345.678\"", {"\"%s.%f\""}, "[1970,0,1,3,25,45.677999999,4,0]"},
        Case{"strptime", "\"Thu Jul 23 20:41:06 2020\"", {"\"%c\""}, "[2020,6,23,20,41,6,4,204]"},
        Case{"strptime",
             "\"x\"",
             {"\"%Y\""},
             "error: strptime(\"%Y\") cannot be applied to \"x\": failed to parse \"x\" with "
             "\"%Y\": cannot parse %Y"},
        Case{"strptime",
             "\"2015\"",
             {"\"%Y-\""},
             "error: strptime(\"%Y-\") cannot be applied to \"2015\": failed to parse \"2015\" "
             "with \"%Y-\": expected '-'"},
        Case{"strptime",
             "\"2015x\"",
             {"\"%Y\""},
             "error: strptime(\"%Y\") cannot be applied to \"2015x\": failed to parse \"2015x\" "
             "with \"%Y\": unconverted string: \"x\""}));

// Local time follows the TZ environment variable, as in gojq.
class LocalTimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tz = std::getenv("TZ");
    had_tz_ = tz != nullptr;
    if (had_tz_) saved_tz_ = tz;
    setenv("TZ", "Etc/GMT+7", 1);
    tzset();
  }
  void TearDown() override {
    if (had_tz_) {
      setenv("TZ", saved_tz_.c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  bool had_tz_ = false;
  std::string saved_tz_;
};

TEST_F(LocalTimeTest, LocaltimeAndStrflocaltime) {
  EXPECT_EQ(Call("localtime", "1500000000"), "[2017,6,13,19,40,0,4,193]");
  EXPECT_EQ(Call("strflocaltime", "[2017,6,14,2,40,0,5,194]", {"\"%Y-%m-%dT%H:%M:%S%z\""}),
            "\"2017-07-14T02:40:00-0700\"");
  EXPECT_EQ(Call("strflocaltime", "1500000000", {"\"%Y-%m-%dT%H:%M:%S%z %Z\""}),
            "\"2017-07-13T19:40:00-0700 -07\"");
}

TEST(NowTest, UsesTheRunClockWhenGiven) {
  RunContext run;
  run.now = [] { return 1500000000.25; };
  EXPECT_EQ(Call("now", "null", {}, run), "1500000000.25");
  EXPECT_EQ(Call("now", "null").substr(0, 1), "1");
}

}  // namespace
}  // namespace wmap::jq::testing
