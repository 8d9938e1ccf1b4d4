// Path mode (path, paths, getpath/setpath/delpaths) and assignment operators.
#include <gtest/gtest.h>

#include "eval_test_support.h"

namespace wmap::jq::testing {
namespace {

TEST(EvalPathsTest, PathExpressions) {
  RunCases({
      {"path(.)", "null", "[]"},
      {"[path(.a[0].b, .c[])]", R"({"c":[1,2]})", R"([["a",0,"b"],["c",0],["c",1]])"},
      {"[path(..)]", R"({"a":[1]})", R"([[],["a"],["a",0]])"},
      {"path(.a | .[1,2:3].b)", "null",
       R"(["a",{"end":3,"start":1},"b"])"
       "\n"
       R"(["a",{"end":3,"start":2},"b"])"},
      {"[path(.[] | select(. > 1))]", "[1,2,3]", "[[1],[2]]"},
      {"path(if .a then .b else .c end)", R"({"a":true})", R"(["b"])"},
      {"[path(first(.a, .b))]", "null", R"([["a"]])"},
      {"[path(last(.a, .b))]", "null", R"([["b"]])"},
      {"path(.a // .b)", R"({"b":1})", R"(["b"])"},
      {"[path(getpath([\"a\",\"b\"]))]", "null", R"([["a","b"]])"},
      {"[path(label $x | .a, break $x)]", "null", R"([["a"]])"},
      {"path(reduce (\"a\",\"b\") as $k (.; .[$k]))", "null", R"(["a","b"])"},
      {"[path(foreach (\"a\",\"b\") as $k (.; .[$k]))]", "null", R"([["a"],["a","b"]])"},
      {"path(. as $x | .a)", "null", R"(["a"])"},
      {"def f: .a; path(f.b)", "null", R"(["a","b"])"},
      {"path(1)", "null", "error: invalid path against: number (1)"},
      {"path(. + 1)", "null", "error: invalid path against: number (1)"},
      {"path({}.x)", "{}", "error: invalid path against: object ({})"},
      {"path($__loc__)", "null",
       R"(error: invalid path against: object ({"file":"<top-level>","li ...}))"},
      {"path(null)", "null", "[]"},
      {"path(. = 1)", "1", "[]"},
      {"[paths]", R"({"a":[1,{"b":2}]})", R"([["a"],["a",0],["a",1],["a",1,"b"]])"},
      {"[paths(type == \"number\")]", R"({"a":[1,{"b":2}]})", R"([["a",0],["a",1,"b"]])"},
      {"[leaf_paths]", R"([[1],2])", "[[0,0],[1]]"},
      {"pick(.a.b, .c[1])", R"({"a":{"b":1,"x":2},"c":[1,2,3]})", R"({"a":{"b":1},"c":[null,2]})"},
      {"[.[] | try (getpath([\"a\",0,\"b\"]) |= 5) catch .]", R"([null,{"a":0}])",
       R"x([{"a":[{"b":5}]},"getpath([\"a\",0,\"b\"]) cannot be applied to: object ({\"a\":0})"])x"},
  });
}

TEST(EvalPathsTest, GetSetDelPaths) {
  RunCases({
      {"getpath([\"a\",1])", R"({"a":[1,2]})", "2"},
      {"getpath([\"a\",\"b\"])", "null", "null"},
      {"getpath([\"a\",1,\"b\",\"c\"])", R"({"a":[{},{"b":[1,2,3,4,5,6,7]}]})",
       R"(error: getpath(["a",1,"b","c"]) cannot be applied to {"a":[{},{"b":[1,2,3,4,5, ...}: expected an object but got: array ([1,2,3,4,5,6,7]))"},
      {"setpath([\"a\",1]; 5)", "null", R"({"a":[null,5]})"},
      {"setpath([]; 1)", "null", "1"},
      {"setpath([-1]; 10)", "[]",
       "error: setpath([-1]; 10) cannot be applied to []: array index should not be negative: -1"},
      {"setpath([-1]; 10)", "[1,2]", "[1,10]"},
      {"setpath([\"a\",\"b\"]; 1)", R"({"a":[]})",
       R"(error: setpath(["a","b"]; 1) cannot be applied to {"a":[]}: expected an object but got: array ([]))"},
      {"delpaths([[\"a\"],[\"b\",0]])", R"({"a":1,"b":[1,2],"c":3})", R"({"b":[2],"c":3})"},
      {"delpaths([[2],[6],[4]])", "[1,2,3,4,5]", "[1,2,4]"},
      {"delpaths([[\"x\"],[\"x\",0,\"y\"]])", R"({"x":[{"y":0}]})", "{}"},
      {"delpaths([[\"a\"]])", "null", "null"},
      {"del(.[1], .[-6], .[2], .[-3:9])", "[0,1,2,3,4,5,6,7,8,9]", "[0,3,5,6,9]"},
      {"del(.foo[1:][:3][1:], .bar[:2][1:])", R"({"foo":[0,1,2,3,4],"bar":[0,1]})",
       R"({"bar":[0],"foo":[0,1,4]})"},
      {"del(.)", "1", "null"},
      {"to_entries", R"({"a":1})", R"([{"key":"a","value":1}])"},
  });
}

TEST(EvalPathsTest, Assignment) {
  RunCases({
      {".a = 1", "null", R"({"a":1})"},
      {".a = (1,2)", "{}",
       R"({"a":1})"
       "\n"
       R"({"a":2})"},
      {".a = .b", R"({"b":3})", R"({"a":3,"b":3})"},
      {".[] = 1", "[0,0]", "[1,1]"},
      {".a |= . + 1", R"({"a":1})", R"({"a":2})"},
      {".[] |= (. , 10)", "[1,2]", "[1,2]"},
      {".[] |= empty", "[1,2,3]", "[]"},
      {"(.a, .b) |= empty", R"({"a":1,"b":2,"c":3})", R"({"c":3})"},
      {".a += 1, .a -= 1, .a *= 2, .a /= 2, .a %= 2", R"({"a":3})",
       R"({"a":4})"
       "\n"
       R"({"a":2})"
       "\n"
       R"({"a":6})"
       "\n"
       R"({"a":1.5})"
       "\n"
       R"({"a":1})"},
      {".a += .b", R"({"a":1,"b":2})", R"({"a":3,"b":2})"},
      {".a //= 5, .b //= 5", R"({"a":1})",
       R"({"a":1})"
       "\n"
       R"({"a":1,"b":5})"},
      {".[2:4] = [\"x\"]", "[1,2,3,4,5]", R"([1,2,"x",5])"},
      {".[1:] |= map(. * 2)", "[1,2,3]", "[1,4,6]"},
      {".a[1:] = [9]", R"({"a":[1,2,3]})", R"({"a":[1,9]})"},
      {"(.a as $x | (.b, .c)) = \"b\"", R"({"a":null,"b":null})", R"({"a":null,"b":"b","c":"b"})"},
      {".foo = 1", "0", "error: expected an object but got: number (0)"},
      {".[-1,0] = 1", "[]",
       "error: setpath([-1]; 1) cannot be applied to []: array index should not be negative: -1"},
      {".[999999999] = 1", "[]", "error: array index too large: 999999999"},
      {"{}[] = 10", "{}", "error: invalid path on iterating against: object ({})"},
      {"[.[]][].a = 1", R"([{"a":0}])",
       R"(error: invalid path on iterating against: array ([{"a":0}]))"},
      {"map_values(. + 1)", R"({"a":1,"b":2})", R"({"a":2,"b":3})"},
      {"to_entries | map(.value) | add", R"({"a":1,"b":2})", "3"},
      {"[range(5)] | del(.[] | select(. % 2 == 0))", "null", "[1,3]"},
  });
}

TEST(EvalPathsTest, LargeUpdatesStayLinear) {
  // Each of these would take minutes if every update copied the whole container.
  EXPECT_EQ(Eval("[range(.)] | del(.[range(length) | {start:., end:(. + 1)}]) | length", "50000"),
            "0");
  EXPECT_EQ(
      Eval("[range(.) | {key: tostring, value: .}] | from_entries | .[] |= . * 2 | add", "50000"),
      "2499950000");
  EXPECT_EQ(Eval("[range(.)] | .[range(length)] = 1 | add", "50000"), "50000");
}

TEST(EvalPathsTest, ReduceUpdatesItsStateInPlace) {
  // Quadratic when each step copies the state: minutes for these sizes.
  EXPECT_EQ(Eval("reduce range(.) as $i ({}; .[\"k\\($i)\"] = $i) | length", "300000"), "300000");
  EXPECT_EQ(Eval("reduce range(.) as $i ([]; . + [$i]) | length", "300000"), "300000");
  EXPECT_EQ(Eval("reduce range(.) as $i ([]; .[$i] = $i) | add", "300000"), "44999850000");
  EXPECT_EQ(Eval("reduce range(.) as $i ({}; . + {\"k\\($i)\": 1}) | length", "300000"), "300000");
  EXPECT_EQ(Eval("reduce range(.) as $i ({}; .n += 1) | .n", "300000"), "300000");
  EXPECT_EQ(Eval("reduce range(.) as $i ({}; .[\"k\\($i % 7)\"] |= . + 1) | add", "300000"),
            "300000");
}

TEST(EvalPathsTest, InPlaceUpdatesNeverChangeSharedValues) {
  RunCases({
      {"[1] as $x | reduce range(2) as $i ($x; . + [$i]) | [., $x]", "null", "[[1,0,1],[1]]"},
      {"{a: 1} as $x | reduce range(2) as $i ($x; .[\"k\\($i)\"] = $i) | [., $x]", "null",
       R"([{"a":1,"k0":0,"k1":1},{"a":1}])"},
      {"reduce range(3) as $i ([]; .[$i] = .)", "null", "[[],[[]],[[],[[]]]]"},
      {"reduce range(2) as $i ([0]; . + .)", "null", "[0,0,0,0]"},
      {"[foreach range(3) as $i ([]; . + [$i])]", "null", "[[0],[0,1],[0,1,2]]"},
      {"[foreach range(3) as $i ({}; .[\"\\($i)\"] = $i; length)]", "null", "[1,2,3]"},
      {". as $in | reduce range(2) as $i (.; .a += 1) | [., $in]", R"({"a":1})",
       R"([{"a":3},{"a":1}])"},
      {"reduce range(2) as $i ([]; .[$i] |= empty)", "null", "[]"},
      {"try (reduce range(3) as $i ([]; .[$i] = error(\"x\"))) catch .", "null", "\"x\""},
      {"reduce (1, 2) as $i ([]; . + [$i, $i])", "null", "[1,1,2,2]"},
      {"reduce range(3) as $i ([]; .[-1:] = [$i])", "null", "[2]"},
  });
}

}  // namespace
}  // namespace wmap::jq::testing
