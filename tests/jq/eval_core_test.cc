// Table-driven tests of the evaluator's core language: paths, operators, control flow,
// variables, functions and error messages (gojq 0.12.19 semantics).
#include <gtest/gtest.h>

#include "eval_test_support.h"

namespace wmap::jq::testing {
namespace {

TEST(EvalCoreTest, IndexingAndIteration) {
  RunCases({
      {".a", R"({"a":1})", "1"},
      {".a.b.c", "null", "null"},
      {".a.b", R"({"a":{"c":1}})", "null"},
      {".a", "1", "error: expected an object but got: number (1)"},
      {".[0], .[-1], .[5], .[1.7], .[-1.2]", "[1,2,3]", "1\n3\nnull\n2\n3"},
      {".[1:], .[:-1], .[5:], .[:0.3], .[1.5:]", "[1,2,3]", "[2,3]\n[1,2]\n[]\n[1]\n[2,3]"},
      {".[2:4], .[-2:]", R"("abcdef")",
       R"("cd")"
       "\n"
       R"("ef")"},
      {".[1:3]", R"("日本語です")", R"("本語")"},
      {".[]", R"({"b":2,"a":1})", "1\n2"},
      {".[]", "null", "error: cannot iterate over: null"},
      {"[.[]?]", "null", "[]"},
      {".[]", "5", "error: cannot iterate over: number (5)"},
      {".[\"a\"]", "[]", "error: expected an object but got: array ([])"},
      {".[null]", "[]", "error: expected a number for indexing an array but got: null"},
      {".[[1,2]]", "[1,2,1,2]", "[0,2]"},
      {R"(.[{"start":1,"end":2}])", "[1,2,3]", "[2]"},
      {"[.[] | .a?]", R"([1,{"a":2},3])", "[2]"},
      {".a.b?", R"({"a":5})", ""},
      {".a.b.c?", R"({"a":5})", "error: expected an object but got: number (5)"},
      {".x[]?", "0", "error: expected an object but got: number (0)"},
      {"[..]", R"({"a":[1]})", R"([{"a":[1]},[1],1])"},
      {R"("a" + "☆" * 20 | .x)", "null",
       R"(error: expected an object but got: string ("a☆☆☆☆☆☆☆ ..."))"},
      {".", R"([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15])", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]"},
      {".a", R"([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15])",
       "error: expected an object but got: array ([1,2,3,4,5,6,7,8,9,10,11, ...])"},
  });
}

TEST(EvalCoreTest, Arithmetic) {
  RunCases({
      {"1 + 2, 1 - 2, 2 * 3, 7 / 2, 6 / 3, 7 % 3, -7 % 3", "null", "3\n-1\n6\n3.5\n2\n1\n-1"},
      {"9223372036854775807 + 1 > 9223372036854775807", "null", "true"},
      {"1 / 0", "null", "error: cannot divide number (1) by: number (0)"},
      {"0 / 0", "null", "error: cannot divide number (0) by: number (0)"},
      {"1 % 0", "null", "error: cannot modulo number (1) by: number (0)"},
      {"5 % 2.5", "null", "1"},
      {"null + 1, 1 + null", "null", "1\n1"},
      {R"("a" + "b", [1] + [2], {"a":1} + {"b":2})", "null",
       R"("ab")"
       "\n[1,2]\n"
       R"({"a":1,"b":2})"},
      {R"(1 + "a")", "null", R"(error: cannot add: number (1) and string ("a"))"},
      {R"("abc" * 0, "abc" * 2, "abc" * -1, "abc" * 1.5)", "null",
       R"("")"
       "\n"
       R"("abcabc")"
       "\nnull\n"
       R"("abc")"},
      {R"({"a":{"b":1}} * {"a":{"c":2}})", "null", R"({"a":{"b":1,"c":2}})"},
      {"[1,2,3,1] - [1]", "null", "[2,3]"},
      {R"("a,b" / ",")", "null", R"(["a","b"])"},
      {"{} - {}", "null", "error: cannot subtract: object ({}) and object ({})"},
      {"-.", R"("x")", R"(error: cannot negate: string ("x"))"},
      {"[(1,2) + (10,20)]", "null", "[11,12,21,22]"},
      {"1 < 2, [] > {}, null < false, {} == {}", "null", "true\nfalse\ntrue\ntrue"},
  });
}

TEST(EvalCoreTest, LogicAndAlternative) {
  RunCases({
      {"[(true,false) and (true,false)]", "null", "[true,false,false]"},
      {"[(true,false) or (true,false)]", "null", "[true,true,false]"},
      {"false and error(1), true or error(1)", "null", "false\ntrue"},
      {"[(1,null,2) // (3,4)]", "null", "[1,2]"},
      {"[(null,false) // (3,4)]", "null", "[3,4]"},
      {"[.a // .b]", R"({"b":3})", "[3]"},
      {"[error(\"x\") // 1]", "null", "error: error: x"},
      {"not", "false", "true"},
      {"if . then 1 elif . == false then 2 else 3 end", "false", "2"},
      {"if . then 1 end", "false", "false"},
      {"[if (true,false) then 1 else 2 end]", "null", "[1,2]"},
  });
}

TEST(EvalCoreTest, TryAndErrors) {
  RunCases({
      {"try error(\"x\") catch .", "null", R"("x")"},
      {"try error({a:1}) catch .a", "null", "1"},
      {"try error(null) catch .", "null", "null"},
      {"error(null)", "null", "error: error: null"},
      {"error", R"({"a":1})", R"(error: error: {"a":1})"},
      {"[.[] | try if . == 2 then error(\"no\") else . end catch \"caught\"]", "[1,2,3]",
       R"([1,"caught",3])"},
      {"[try (1, error(\"x\"), 3)]", "null", "[1]"},
      {"(try (1,2)) | error", "null", "error: error: 1"},
      {"try error(\"\\(1+1)\") catch .", "null", R"("2")"},
      {".a?", "1", ""},
      {"try (try error(\"x\") catch error(\"y\")) catch .", "null", R"("y")"},
      {"[.[] | (1 / .)?]", "[1,0,2]", "[1,0.5]"},
  });
}

TEST(EvalCoreTest, VariablesAndDestructuring) {
  RunCases({
      {". as $x | [$x, $x]", "1", "[1,1]"},
      {"[1,[2]] as [$a, [$b]] | $a + $b", "null", "3"},
      {R"({"a":1,"b":[2]} as {a: $x, b: [$y]} | $x + $y)", "null", "3"},
      {R"({"a":1} as {$a} | $a)", "null", "1"},
      {R"(. as {$a: [$b]} | [$a, $b])", R"({"a":[5]})", "[[5],5]"},
      {"[.[] as [$a] ?// $a | $a]", "[[1],2]", "[1,2]"},
      {". as [$a] | $a", R"({"a":1})", R"(error: expected an array but got: object ({"a":1}))"},
      {"[.[] as {a:$a} ?// [$a] ?// $a | $a]", R"([{"a":1},[2],3])", "[1,2,3]"},
      {". as $x | [1,2] | . as [$x] | $x", "5", "1"},
      {"$__loc__", "null", R"({"file":"<top-level>","line":1})"},
      {"1 as $x | 2 as $y | [$x, $y, $__loc__.line]", "null", "[1,2,1]"},
  });
}

TEST(EvalCoreTest, ReduceForeachLabel) {
  RunCases({
      {"reduce range(5) as $x (0; . + $x)", "null", "10"},
      {"[reduce range(5) as $x (range(3); . + $x)]", "null", "[10,11,12]"},
      {"reduce range(5) as $x (0; . + $x | select($x != 2))", "null", "8"},
      {"[foreach range(5) as $x (0; . + $x; [$x, .])]", "null", "[[0,0],[1,1],[2,3],[3,6],[4,10]]"},
      {"[foreach (1,2) as $x (0; . + $x, . * 10; ., -.)]", "null", "[1,-1,0,0,2,-2,0,0]"},
      {"[label $out | 1, 2, break $out, 3]", "null", "[1,2]"},
      {"[label $a | label $b | 1, break $a, 2]", "null", "[1]"},
      {"[range(5)] | [limit(3; .[])], [first(.[])], [limit(0; .[])]", "null", "[0,1,2]\n[0]\n[]"},
      {"limit(-1; 1, 2)", "null", "error: limit doesn't support negative count"},
      {"[skip(2; range(5))]", "null", "[2,3,4]"},
      {"[first(empty), last(empty), nth(1; 1, 2, 3)]", "null", "[2]"},
      {"[last(range(5))]", "null", "[4]"},
      {"[range(0; 10; 3)], [range(5; 0; -2)], [range(0; 1; 0.3)], [range(1; 0)]", "null",
       "[0,3,6,9]\n[5,3,1]\n[0,0.3,0.6,0.8999999999999999]\n[]"},
      {"[range(0,1; 3,4)]", "null", "[0,1,2,0,1,2,3,1,2,1,2,3]"},
      {"range(\"a\")", "null", R"(error: range cannot be applied to: string ("a"))"},
      {"[limit(5; repeat(1))]", "null", "[1,1,1,1,1]"},
      {"[.[] | until(. > 100; . * 2)]", "[1,3]", "[128,192]"},
      {"[while(. < 10; . * 3)]", "1", "[1,3,9]"},
      {"isempty(empty), isempty(1, error(\"x\"))", "null", "true\nfalse"},
      {"any, all, any(. > 2), all(. > 0), any(.[]; . == 1)", "[1,2]",
       "true\ntrue\nfalse\ntrue\ntrue"},
      {"[] | any, all", "null", "false\ntrue"},
  });
}

// until/while/recurse run as loops; they must give what jq's recursive definitions give, outputs,
// order and errors alike, including for steps and conditions with several outputs.
TEST(EvalCoreTest, LoopsAsTheRecursiveDefinitions) {
  const std::string defs =
      "def ru(c; n): def _u: if c then . else n | _u end; _u; "
      "def rw(c; u): def _w: if c then ., (u | _w) else empty end; _w; "
      "def rr(f): def r: ., (f | r); r; ";
  const std::vector<std::pair<std::string, std::string>> loops = {
      {"until(. > 100; . * 2)", "ru(. > 100; . * 2)"},
      {"until(. > 50; . * 2, . * 3)", "ru(. > 50; . * 2, . * 3)"},
      {"until(. > 20, . > 40; . * 2)", "ru(. > 20, . > 40; . * 2)"},
      {"until(. > 10; empty)", "ru(. > 10; empty)"},
      {"until(. > 30; . * 2, error(\"e\"))", "ru(. > 30; . * 2, error(\"e\"))"},
      {"until(if . > 30 then error(\"c\") else false end; . * 2, . + 1)",
       "ru(if . > 30 then error(\"c\") else false end; . * 2, . + 1)"},
      {"while(. < 100; . * 2, . * 3)", "rw(. < 100; . * 2, . * 3)"},
      {"while(. < 40, . < 20; . + 7)", "rw(. < 40, . < 20; . + 7)"},
      {"while(. < 30; . * 2, error(\"w\"))", "rw(. < 30; . * 2, error(\"w\"))"},
      {"label $out | while(true; if . > 40 then break $out else . * 2 end)",
       "label $out | rw(true; if . > 40 then break $out else . * 2 end)"},
      {"first(until(. > 1000; . + 1))", "first(ru(. > 1000; . + 1))"},
      {"limit(7; while(true; . + 1, . + 2))", "limit(7; rw(true; . + 1, . + 2))"},
      {"recurse(if . < 50 then . * 2, . * 3 else empty end)",
       "rr(if . < 50 then . * 2, . * 3 else empty end)"},
      {"recurse(if . < 30 then . * 2, error(\"r\") else empty end)",
       "rr(if . < 30 then . * 2, error(\"r\") else empty end)"},
      {"recurse(. + 1; . < 9)", "rr(. + 1 | select(. < 9))"},
      {"label $l | recurse(if . > 20 then break $l else . + 5, . + 7 end)",
       "label $l | rr(if . > 20 then break $l else . + 5, . + 7 end)"},
  };
  for (const auto& [native, recursive] : loops) {
    for (const char* input : {"1", "3"}) {
      std::string want = Eval(defs + "[" + recursive + "]", input);
      EXPECT_EQ(Eval(defs + "[" + native + "]", input), want) << native << " on " << input;
      // The first failure stops the collection; the outputs before it, with try.
      std::string partial = Eval(defs + "[" + recursive + " | tostring] | join(\",\")", input);
      EXPECT_EQ(Eval(defs + "[" + native + " | tostring] | join(\",\")", input), partial)
          << native << " on " << input;
    }
  }
  // Paths, as a path expression.
  EXPECT_EQ(Eval("[path(until(.a == null; .a))]", R"({"a":{"a":{"a":null}}})"), R"([["a","a"]])");
  EXPECT_EQ(Eval("[paths(..)] | length", "[[1]]"), "3");
  EXPECT_EQ(Eval("[path(while(.a != null; .a))]", R"({"a":{"a":{"b":1}}})"), R"([[],["a"]])");
  EXPECT_EQ(Eval("(until(.a == null; .a)) |= 5", R"({"a":{"a":{"a":null}}})"), R"({"a":{"a":5}})");
}

TEST(EvalCoreTest, LoopsRunMillionsOfIterations) {
  // Far more iterations than the recursion budget (10,000 by default) allows nested calls.
  EXPECT_EQ(Eval("0 | until(. >= 1000000; . + 1)"), "1000000");
  EXPECT_EQ(Eval("[1000000 | while(. > 0; . - 1)] | length"), "1000000");
  EXPECT_EQ(Eval("[0 | recurse(if . < 1000000 then . + 1 else empty end)] | length"), "1000001");
  EXPECT_EQ(Eval("[0 | recurse(. + 1; . < 1000000)] | length"), "1000000");
  EXPECT_EQ(
      Eval("def ru(c; n): def _u: if c then . else n | _u end; _u; 0 | ru(. >= 1000000; . + 1)"),
      "budget: recursion depth limit exceeded");
  // A step with two outputs branches: each branch but the last is a nested call.
  EXPECT_EQ(Eval("[0 | until(. >= 20000; . + 1, empty)] | length"), "1");
}

TEST(EvalCoreTest, Functions) {
  RunCases({
      {"def f: def g: 3; g * 2; f", "null", "6"},
      {"def f(x): x * 2; f(3)", "null", "6"},
      {"def f($a; $b): [$a, $b]; [f(1,2; 3,4)]", "null", "[[1,3],[1,4],[2,3],[2,4]]"},
      {"def f($a): a + $a; f(5)", "null", "10"},
      {"def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac", "null", "3628800"},
      {"def f(g): [g, g]; f(.a)", R"({"a":1})", "[1,1]"},
      {"def f(g): def h: g; h; 2 as $x | f($x)", "null", "2"},
      {"def map(f): \"mine\"; map(.)", "null", R"("mine")"},
      {"def f: 1; def g: f; def f: 2; g, f", "null", "1\n2"},
      {"def r(n): if n > 0 then n, r(n - 1) else empty end; [r(3)]", "null", "[3,2,1]"},
      {"[pow(1,2; 3,4)]", "null", "[1,8,1,16]"},
      {"abc", "null", "compile: function not defined: abc/0"},
      {"$abc", "null", "compile: variable not defined: $abc"},
      {"break $x", "null", "compile: label not defined: $x"},
      {"def f(g): g; f", "null", "compile: function not defined: f/0"},
      {"(def f: 1; f) | f", "null", "compile: function not defined: f/0"},
  });
}

TEST(EvalCoreTest, Constructors) {
  RunCases({
      {"{a: 1, b: .}", "2", R"({"a":1,"b":2})"},
      {"[{(\"a\",\"b\"): (1,2)}]", "null", R"([{"a":1},{"a":2},{"b":1},{"b":2}])"},
      {"[{a:(1,2), b:(3,4)}]", "null",
       R"([{"a":1,"b":3},{"a":1,"b":4},{"a":2,"b":3},{"a":2,"b":4}])"},
      {"{a, \"b\", $__loc__}", R"({"a":1,"b":2})",
       R"({"__loc__":{"file":"<top-level>","line":1},"a":1,"b":2})"},
      {"[{\"\\(.k[])\"}]", R"({"k":["x","y"],"x":1,"y":2})", R"([{"x":1},{"y":2}])"},
      {"{(1): 2}", "null", "error: expected a string for object key but got: number (1)"},
      {"[\"\\(1,2)-\\(3,4)\"]", "null", R"(["1-3","2-3","1-4","2-4"])"},
      {"\"a\\([1,{\"b\":null}])\"", "null", R"("a[1,{\"b\":null}]")"},
      {"[.[] | {k: .}]", "[1,2]", R"([{"k":1},{"k":2}])"},
      {"map(. * 10)", "[1,2]", "[10,20]"},
  });
}

}  // namespace
}  // namespace wmap::jq::testing
