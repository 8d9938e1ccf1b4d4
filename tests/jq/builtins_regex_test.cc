// Regular-expression natives (_match, _capture, split/2), called directly; expected values from
// gojq's outputs for the same expressions.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "builtins_test_support.h"

namespace wmap::jq::testing {
namespace {

class RegexTest : public ::testing::TestWithParam<Case> {};

TEST_P(RegexTest, MatchesGojq) {
  const Case& c = GetParam();
  EXPECT_EQ(Call(c.name, c.input, c.args), c.want) << c.name << " on " << c.input;
}

INSTANTIATE_TEST_SUITE_P(
    Natives, RegexTest,
    ::testing::Values(
        Case{"_match",
             "\"abcde☆★abcde☆★ABCDE☆ABC\\nD\\nE\"",
             {"\"☆★\"", "\"g\"", "false"},
             "[{\"captures\":[],\"length\":2,\"offset\":5,\"string\":\"☆★\"},"
             "{\"captures\":[],\"length\":2,\"offset\":12,\"string\":\"☆★\"}]"},
        Case{"_match",
             "\"abcde☆★ABCDE\"",
             {"\"A(?<bar>B(C)(.?D))(?<foo>.?E)\"", "null", "false"},
             "[{\"captures\":[{\"length\":3,\"name\":\"bar\",\"offset\":8,\"string\":\"BCD\"},"
             "{\"length\":1,\"name\":null,\"offset\":9,\"string\":\"C\"},"
             "{\"length\":1,\"name\":null,\"offset\":10,\"string\":\"D\"},"
             "{\"length\":1,\"name\":\"foo\",\"offset\":11,\"string\":\"E\"}],"
             "\"length\":5,\"offset\":7,\"string\":\"ABCDE\"}]"},
        Case{"_match",
             "\"abc\"",
             {"\"a*\"", "\"g\"", "false"},
             "[{\"captures\":[],\"length\":1,\"offset\":0,\"string\":\"a\"},"
             "{\"captures\":[],\"length\":0,\"offset\":2,\"string\":\"\"},"
             "{\"captures\":[],\"length\":0,\"offset\":3,\"string\":\"\"}]"},
        Case{"_match",
             "\"abcde\"",
             {"\"bc(c(.*))?d\"", "null", "false"},
             "[{\"captures\":[{\"length\":0,\"name\":null,\"offset\":-1,\"string\":null},"
             "{\"length\":0,\"name\":null,\"offset\":-1,\"string\":null}],"
             "\"length\":3,\"offset\":1,\"string\":\"bcd\"}]"},
        Case{"_match",
             "\"ABC\\nD\\nE\"",
             {"\"ABC.?D.?E\"", "\"mg\"", "false"},
             "[{\"captures\":[],\"length\":7,\"offset\":0,\"string\":\"ABC\\nD\\nE\"}]"},
        Case{"_match",
             "\"aé\"",
             {"\"É\"", "\"i\"", "false"},
             "[{\"captures\":[],\"length\":1,\"offset\":1,\"string\":\"é\"}]"},
        Case{"_match", "\"xyz\"", {"\"abc\"", "null", "false"}, "[]"},
        Case{"_match", "\"abcdeABCDEFG\"", {"\"efg\"", "\"i\"", "true"}, "true"},
        Case{"_match", "\"abcdeABCDEFG\"", {"\"efg\"", "null", "true"}, "false"},
        Case{"_match",
             "{}",
             {"\"x\"", "\"g\"", "false"},
             "error: match(\"x\"; \"g\") cannot be applied to: object ({})"},
        Case{"_match",
             "\"\"",
             {"\"x\"", "\"a\"", "false"},
             "error: unsupported regular expression flag: \"a\""},
        Case{"_match",
             "\"\"",
             {"\"[\"", "\"g\"", "false"},
             "error: invalid regular expression \"[\": error parsing regexp: missing closing ]: "
             "`[`"},
        Case{"_match",
             "\"\"",
             {"\"a(\"", "\"i\"", "true"},
             "error: invalid regular expression \"(?i)a(\": error parsing regexp: missing closing "
             "): `(?i)a(`"},
        Case{"_capture",
             "{\"captures\":[{\"name\":\"a\",\"string\":\"x\"},{\"name\":null,\"string\":\"y\"}]}",
             {},
             "{\"a\":\"x\"}"},
        Case{"split", "\"abaacaAad\"", {"\"a+\"", "null"}, "[\"\",\"b\",\"c\",\"A\",\"d\"]"},
        Case{"split", "\"abaacaAad\"", {"\"a+\"", "\"i\""}, "[\"\",\"b\",\"c\",\"d\"]"},
        Case{"split",
             "\"abaacaAad\"",
             {"\"\"", "\"\""},
             "[\"\",\"a\",\"b\",\"a\",\"a\",\"c\",\"a\",\"A\",\"a\",\"d\",\"\"]"},
        Case{"split", "\"a☆b☆c\"", {"\"☆\"", "null"}, "[\"a\",\"b\",\"c\"]"},
        Case{"_match", "\"xabcd\"", {"\"a b c # spaces are ignored\"", "\"ix\"", "true"}, "true"},
        Case{"_match",
             "\"a b\"",
             {"\"[ ] b\"", "\"x\"", "false"},
             "[{\"captures\":[],\"length\":2,\"offset\":1,\"string\":\" b\"}]"},
        Case{"_match",
             "\"  \"",
             {"\"( )*\"", "\"gn\"", "false"},
             "[{\"captures\":[{\"length\":1,\"name\":null,\"offset\":1,\"string\":\" \"}],"
             "\"length\":2,\"offset\":0,\"string\":\"  \"}]"},
        Case{"_match", "\"abc\"", {"\"x*\"", "\"n\"", "true"}, "false"}));

TEST(RegexTest, ConcurrentMatchingSharesTheCache) {
  std::vector<std::thread> threads;
  std::vector<std::string> results(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &results] {
      for (int i = 0; i < 200; ++i) {
        std::string pattern = "\"a(b+)" + std::to_string(i % 300) + "\"";
        results[t] = Call("_match", "\"xabb7\"", {pattern, "null", "true"});
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const std::string& r : results) EXPECT_EQ(r, "false");
  EXPECT_EQ(Call("_match", "\"xabb7\"", {"\"a(b+)7\"", "null", "true"}), "true");
}

}  // namespace
}  // namespace wmap::jq::testing
