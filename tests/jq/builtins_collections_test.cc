// Natives over arrays and objects, called directly. Expected values come from gojq (test.yaml of
// gojq 0.12.19 where it differs from the installed 0.12.11).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "builtins_test_support.h"

namespace wmap::jq::testing {
namespace {

class CollectionsTest : public ::testing::TestWithParam<Case> {};

TEST_P(CollectionsTest, MatchesGojq) {
  const Case& c = GetParam();
  EXPECT_EQ(Call(c.name, c.input, c.args), c.want) << c.name << " on " << c.input;
}

INSTANTIATE_TEST_SUITE_P(
    Natives, CollectionsTest,
    ::testing::Values(
        Case{"length", "null", {}, "0"}, Case{"length", "-42", {}, "42"},
        Case{"length", "-1.5", {}, "1.5"}, Case{"length", "\"☆★a\"", {}, "3"},
        Case{"length", "[1,2]", {}, "2"}, Case{"length", "{\"a\":1}", {}, "1"},
        Case{"length", "false", {}, "error: length cannot be applied to: boolean (false)"},
        Case{"abs", "-3.14", {}, "3.14"}, Case{"abs", "0", {}, "0"},
        Case{"abs", "\"a\"", {}, "error: abs cannot be applied to: string (\"a\")"},
        Case{"type", "{}", {}, "\"object\""}, Case{"type", "1.5", {}, "\"number\""},
        Case{"toarray", "1", {}, "[1]"}, Case{"toarray", "[1]", {}, "[1]"},
        Case{"keys", "{\"b\":1,\"a\":2}", {}, "[\"a\",\"b\"]"}, Case{"keys", "[5,6]", {}, "[0,1]"},
        Case{"keys", "1", {}, "error: keys cannot be applied to: number (1)"},
        Case{"keys_unsorted", "{\"b\":1,\"a\":2}", {}, "[\"b\",\"a\"]"},
        Case{"has", "{\"a\":1}", {"\"a\""}, "true"}, Case{"has", "[1,2]", {"1.5"}, "true"},
        Case{"has", "[1,2]", {"2"}, "false"}, Case{"has", "null", {"\"x\""}, "false"},
        Case{"has", "{}", {"0"}, "error: has(0) cannot be applied to: object ({})"},
        Case{"has",
             "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]",
             {"\"x\""},
             "error: has(\"x\") cannot be applied to: array ([0,0,0,0,0,0,0,0,0,0,0,0, ...])"},
        Case{"contains", "\"foobar\"", {"\"bar\""}, "true"},
        Case{"contains", "[1,2,3]", {"[3,1]"}, "true"},
        Case{"contains", "[1,2,3]", {"[3,4]"}, "false"},
        Case{"contains", "{\"a\":3,\"b\":[4,5,6]}", {"{\"a\":3,\"b\":[5]}"}, "true"},
        Case{"contains", "{\"a\":3,\"b\":[4,5,6]}", {"{\"a\":\"\"}"}, "false"},
        Case{"contains", "\"ab\\u0000cd\"", {"\"b\\u0000c\""}, "true"},
        Case{"contains", "true", {"true"}, "true"},
        Case{"contains",
             "true",
             {"false"},
             "error: contains(false) cannot be applied to: boolean (true)"},
        Case{"contains", "1", {"[1]"}, "error: contains([1]) cannot be applied to: number (1)"},
        Case{"indices", "[0,1,2,1,2,1,0,1,0]", {"[1,2,1]"}, "[1,3]"},
        Case{"indices", "[0,1,2,1,2,1,0,1,0]", {"1"}, "[1,3,5,7]"},
        Case{"indices", "\"a,bc,def,ghij,klmno\"", {"\",\""}, "[1,4,8,13]"},
        Case{"indices", "\"０１２３４０\"", {"\"０\""}, "[0,5]"},
        Case{"indices", "\"aaa\"", {"\"aa\""}, "[0,1]"}, Case{"indices", "\"abc\"", {"\"\""}, "[]"},
        Case{"indices", "null", {"0"}, "null"},
        Case{"indices", "{}", {"[]"}, "error: indices([]) cannot be applied to: object ({})"},
        Case{"index", "\"０１２３４０\"", {"\"０\""}, "0"},
        Case{"rindex", "\"０１２３４０\"", {"\"０\""}, "5"},
        Case{"rindex", "[0,1,2,1,2,1,0,1,0]", {"[1,2]"}, "3"}, Case{"index", "[0]", {"1"}, "null"},
        Case{"add", "[1,2,3]", {}, "6"}, Case{"add", "[]", {}, "null"},
        Case{"add", "[\"a\",null,\"b\"]", {}, "\"ab\""},
        Case{"add", "[[3],[4,5],[6]]", {}, "[3,4,5,6]"},
        Case{"add", "[{\"a\":1},{\"b\":2},{\"a\":3}]", {}, "{\"a\":3,\"b\":2}"},
        Case{"add", "{\"a\":1,\"b\":9}", {}, "10"},
        Case{"add", "[{},[],{}]", {}, "error: cannot add: object ({}) and array ([])"},
        Case{"add",
             "[\"x\",null,\"y\",{},\"z\"]",
             {},
             "error: cannot add: string (\"xy\") and object ({})"},
        Case{"add", "1", {}, "error: add cannot be applied to: number (1)"},
        Case{"reverse", "[1,2,3]", {}, "[3,2,1]"}, Case{"reverse", "\"ab☆\"", {}, "\"☆ba\""},
        Case{"reverse", "null", {}, "[]"},
        Case{"flatten", "[0,[1,[2]],[1,[[3],2]]]", {}, "[0,1,2,1,3,2]"},
        Case{"flatten", "{\"x\":[1],\"y\":[[2]]}", {}, "[1,2]"},
        Case{"flatten", "[0,[1,[2]],[1,[[3],2]]]", {"1.5"}, "[0,1,2,1,3,2]"},
        Case{"flatten", "[0,[1,[2]],[1,[[3],2]]]", {"2"}, "[0,1,2,1,[3],2]"},
        Case{"flatten", "[0,[[1]]]", {"0"}, "[0,[[1]]]"},
        Case{"flatten", "[]", {"-1"}, "error: flatten depth should not be negative: -1"},
        Case{"flatten", "0", {}, "error: flatten cannot be applied to: number (0)"},
        Case{"flatten", "[[]]", {"\"\""}, "error: flatten cannot be applied to: string (\"\")"},
        Case{"min", "[3,1,2]", {}, "1"}, Case{"max", "[3,1,2]", {}, "3"},
        Case{"min", "[]", {}, "null"},
        Case{"min", "0", {}, "error: min cannot be applied to: number (0)"},
        Case{"_min_by", "[[4,2],[3,1],[1,1]]", {"[[2],[1],[1]]"}, "[3,1]"},
        Case{"_max_by", "[[4,2],[3,2],[1,1]]", {"[[2],[2],[1]]"}, "[3,2]"},
        Case{
            "sort", "[3,\"a\",null,[1],{},true,false,1]", {}, "[null,false,true,1,3,\"a\",[1],{}]"},
        Case{"sort", "0", {}, "error: sort cannot be applied to: number (0)"},
        Case{"_sort_by", "[\"b\",\"a\",\"c\"]", {"[[1],[0],[1]]"}, "[\"a\",\"b\",\"c\"]"},
        Case{"_group_by", "[1,2,3,4]", {"[[1],[0],[1],[0]]"}, "[[2,4],[1,3]]"},
        Case{"unique", "[7,3,5,1,4,2,5,3,6,1,7,4,3]", {}, "[1,2,3,4,5,6,7]"},
        Case{"_unique_by", "[\"cat\",\"dog\",\"hello\"]", {"[[3],[3],[5]]"}, "[\"cat\",\"hello\"]"},
        Case{"transpose",
             "[[1,2,3,[]],[4,\"foo\",{}],[5,6]]",
             {},
             "[[1,4,5],[2,\"foo\",6],[3,{},null],[[],null,null]]"},
        Case{"transpose", "[]", {}, "[]"}, Case{"bsearch", "[1,3,5]", {"0"}, "-1"},
        Case{"bsearch", "[1,3,5]", {"3"}, "1"}, Case{"bsearch", "[1,3,5]", {"6"}, "-4"},
        Case{"to_entries",
             "{\"b\":[],\"a\":10}",
             {},
             "[{\"key\":\"a\",\"value\":10},{\"key\":\"b\",\"value\":[]}]"},
        Case{"to_entries", "[10]", {}, "[{\"key\":0,\"value\":10}]"},
        Case{"from_entries",
             "[{\"key\":\"a\",\"Key\":\"b\",\"value\":1},{\"Key\":\"b\",\"Value\":2},"
             "{\"key\":null,\"name\":\"c\",\"Name\":\"d\",\"value\":3},"
             "{\"name\":false,\"Name\":\"d\",\"value\":null,\"Value\":4},{\"key\":\"e\"},"
             "{\"k\":\"f\",\"v\":5}]",
             {},
             "{\"a\":1,\"b\":2,\"c\":3,\"d\":null,\"e\":null,\"f\":5}"},
        Case{"from_entries",
             "[{\"value\":1}]",
             {},
             "error: expected a string for object key but got: null"},
        Case{"from_entries",
             "[{\"key\":{},\"value\":1}]",
             {},
             "error: expected a string for object key but got: object ({})"},
        Case{"from_entries", "{}", {}, "error: from_entries cannot be applied to: object ({})"}));

TEST(CollectionsTest, ContainsRefusesExcessiveNesting) {
  Value deep = Value::Array({});
  for (int i = 0; i < 12000; ++i) deep = Value::Array({deep});
  const NativeSpec* spec = FindNative("contains", 1);
  ASSERT_NE(spec, nullptr);
  RunContext run;
  TestMeter meter;
  NativeContext ctx{run, meter};
  std::vector<Value> arg = {deep};
  Value out;
  EXPECT_FALSE(spec->function(ctx, deep, arg, &out));
  ASSERT_TRUE(out.is_string());
  EXPECT_NE(out.as_string().find("containment check too deep"), std::string_view::npos);
  std::string shallow = std::string(100, '[') + std::string(100, ']');
  EXPECT_EQ(Call("contains", shallow, {shallow}), "true");
}

TEST(CollectionsTest, FlattenDeepInputDoesNotRecurse) {
  std::string deep(5000, '[');
  deep += std::string(5000, ']');
  EXPECT_EQ(Call("flatten", "[" + deep + "]"), "[]");
}

}  // namespace
}  // namespace wmap::jq::testing
