#include "cli/jq_flags.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wmap::cli {
namespace {

JqFlags Parse(std::vector<std::string> args) {
  std::string error;
  std::optional<JqFlags> flags = ParseJqFlags(args, &error);
  EXPECT_TRUE(flags.has_value()) << error;
  return flags.value_or(JqFlags{});
}

std::string ParseError(std::vector<std::string> args) {
  std::string error;
  EXPECT_FALSE(ParseJqFlags(args, &error).has_value());
  return error;
}

TEST(JqFlagsTest, ShortFlagsClump) {
  JqFlags f = Parse({"-cRr", "."});
  EXPECT_TRUE(f.compact);
  EXPECT_TRUE(f.raw_input);
  EXPECT_TRUE(f.raw_output);
  EXPECT_EQ(f.rest, std::vector<std::string>{"."});
}

TEST(JqFlagsTest, NonLetterMakesAnOperand) {
  EXPECT_EQ(Parse({"-."}).rest, std::vector<std::string>{"-."});
  EXPECT_EQ(Parse({"-j0"}).rest, std::vector<std::string>{"-j0"});
  JqFlags f = Parse({"-r", "-."});
  EXPECT_TRUE(f.raw_output);
  EXPECT_EQ(f.rest, std::vector<std::string>{"-."});
}

TEST(JqFlagsTest, ValueFlagInClump) {
  EXPECT_EQ(Parse({"-Ltestdata", "."}).library_paths, std::vector<std::string>{"testdata"});
  EXPECT_EQ(Parse({"-L=testdata", "."}).library_paths, std::vector<std::string>{"testdata"});
  EXPECT_EQ(Parse({"-L", "dir", "."}).library_paths, std::vector<std::string>{"dir"});
  JqFlags f = Parse({"-cfr", "q.jq"});
  EXPECT_TRUE(f.compact && f.from_file && f.raw_output);
  EXPECT_EQ(f.rest, std::vector<std::string>{"q.jq"});
}

TEST(JqFlagsTest, LongFlagsWithValues) {
  EXPECT_EQ(Parse({"--indent=3"}).indent, 3);
  EXPECT_EQ(Parse({"--indent", "-1"}).indent, -1);
  EXPECT_EQ(ParseError({"--indent=foo"}),
            "invalid argument for flag `--indent': strconv.Atoi: parsing \"foo\": invalid syntax");
  EXPECT_EQ(ParseError({"--indent"}), "expected argument for flag `--indent'");
  EXPECT_EQ(ParseError({"--compact-output=1"}),
            "boolean flag `--compact-output' cannot have an argument");
}

TEST(JqFlagsTest, UnknownFlags) {
  EXPECT_EQ(ParseError({"-q", "."}), "unknown flag `q'");
  EXPECT_EQ(ParseError({"-nqe", "."}), "unknown flag `q'");
  EXPECT_EQ(ParseError({"--qqq", "."}), "unknown flag `--qqq'");
  EXPECT_EQ(ParseError({"-c", "-L"}), "expected argument for flag `-L'");
}

TEST(JqFlagsTest, NamedArgumentsKeepTheFirstDefinition) {
  JqFlags f = Parse({"--arg", "x", "1", "--argjson", "x", "2", "--argjson", "y", "3", "."});
  ASSERT_EQ(f.named.size(), 2u);
  EXPECT_EQ(f.named[0].kind, NamedArgument::Kind::kString);
  EXPECT_EQ(f.named[0].value, "1");
  EXPECT_EQ(f.named[1].kind, NamedArgument::Kind::kJson);
  EXPECT_EQ(ParseError({"--arg", "foo"}), "expected 2 arguments for flag `--arg'");
}

TEST(JqFlagsTest, PositionalArguments) {
  JqFlags f = Parse({"--args", "$ARGS", "1", "-n", "2", "-c", "--", "3", "--", "-c"});
  EXPECT_TRUE(f.null_input);
  EXPECT_TRUE(f.compact);
  EXPECT_EQ(f.rest, std::vector<std::string>{"$ARGS"});
  std::vector<std::string> texts;
  for (const auto& p : f.positional) texts.push_back(p.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"1", "2", "3", "--", "-c"}));

  JqFlags g = Parse({"-c", "$ARGS", "--args", "1", "--jsonargs", "2", "--args", "3"});
  ASSERT_EQ(g.positional.size(), 3u);
  EXPECT_FALSE(g.positional[0].json);
  EXPECT_TRUE(g.positional[1].json);
  EXPECT_FALSE(g.positional[2].json);
}

TEST(JqFlagsTest, DoubleDash) {
  EXPECT_EQ(Parse({"--", "-j"}).rest, std::vector<std::string>{"-j"});
  EXPECT_EQ(Parse({"--", "--", "."}).rest, (std::vector<std::string>{"--", "."}));
  JqFlags f = Parse({"-c", "--args", "--", "$ARGS", "--", "0"});
  EXPECT_EQ(f.rest, std::vector<std::string>{"$ARGS"});
  ASSERT_EQ(f.positional.size(), 2u);
  EXPECT_EQ(f.positional[0].text, "--");
}

TEST(JqFlagsTest, LimitFlags) {
  JqFlags f = Parse({"--timeout", "1.5s", "--max-memory=512Mi", "--max-steps", "1000",
                     "--max-outputs", "7", "."});
  ASSERT_TRUE(f.timeout.has_value());
  EXPECT_EQ(f.timeout->count(), 1500000000);
  EXPECT_EQ(f.max_memory, uint64_t{512} << 20);
  EXPECT_EQ(f.max_steps, 1000u);
  EXPECT_EQ(f.max_outputs, 7u);
  EXPECT_EQ(f.rest, std::vector<std::string>{"."});
  JqFlags none = Parse({"."});
  EXPECT_FALSE(none.timeout.has_value());
  EXPECT_EQ(none.max_memory, 0u);
  EXPECT_NE(ParseError({"--timeout", "5", "."}).find("a number and a unit"), std::string::npos);
  EXPECT_NE(ParseError({"--max-memory", "1Zi", "."}).find("`--max-memory'"), std::string::npos);
  EXPECT_NE(ParseError({"--max-steps", "-3", "."}).find("a positive integer"), std::string::npos);
  EXPECT_NE(ParseError({"--max-outputs"}).find("expected argument"), std::string::npos);
}

}  // namespace
}  // namespace wmap::cli
