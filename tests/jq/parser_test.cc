#include "jq/parser.h"
#include "shared_data.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "jq/parse_error.h"
#include "wmap/text.h"

namespace wmap::jq {
namespace {

std::string Tree(std::string_view query) {
  auto result = ParseProgram(query);
  if (!result.ok()) return "ERROR: " + result.error().message;
  return DebugString(*result->body);
}

// gojq's full message for a query given on the command line.
std::string ErrorText(std::string_view query, std::string_view file = "<arg>") {
  auto result = ParseProgram(query);
  if (result.ok()) return "OK: " + DebugString(*result->body);
  return FormatQueryError(query, result.error(), file);
}

struct Case {
  const char* query;
  const char* tree;
};

void ExpectTrees(const std::vector<Case>& cases) {
  for (const Case& c : cases) EXPECT_EQ(Tree(c.query), c.tree) << c.query;
}

TEST(ParserTest, PathsAndSuffixes) {
  ExpectTrees({
      {".", "."},
      {"..", ".."},
      {".a", "(index . \"a\")"},
      {".a.b", "(index (index . \"a\") \"b\")"},
      {".\"a b\"", "(index . \"a b\")"},
      {".a.\"b\"", "(index (index . \"a\") \"b\")"},
      {".[0]", "(index . 0)"},
      {". [0]", "(index . 0)"},
      {".a[0][1]", "(index (index (index . \"a\") 0) 1)"},
      {".a.[0]", "(index (index . \"a\") 0)"},
      {".[]", "(iter .)"},
      {".[]?", "(try (iter .))"},
      {".a?.b?", "(try (index (try (index . \"a\")) \"b\"))"},
      {".[1:2]", "(slice . 1 2)"},
      {".[:2]", "(slice . _ 2)"},
      {".[1:]", "(slice . 1 _)"},
      {".[-1]", "(index . (neg 1))"},
      {".[\"a\"]", "(index . \"a\")"},
      {".\"a\\(1)\"", "(index . (str \"a\" 1))"},
      {".. .a", "(index .. \"a\")"},
      {"..[]", "(iter ..)"},
      {".if.and.end", "(index (index (index . \"if\") \"and\") \"end\")"},
      {"[1][0]", "(index (array 1) 0)"},
      {"$x[0]", "(index $x 0)"},
      {"f.a", "(index (call f) \"a\")"},
  });
}

TEST(ParserTest, Literals) {
  ExpectTrees({
      {"null", "null"},
      {"true", "true"},
      {"false", "false"},
      {"1", "1"},
      {"01000", "1000"},
      {"1.5", "1.5d"},
      {".5", "0.5d"},
      {"1.", "1d"},
      {"1e3", "1000d"},
      {"1E-2", "0.01d"},
      {"9223372036854775807", "9223372036854775807"},
      {"9223372036854775808", "9223372036854775808"},  // big integer
      {"100000000000000000000", "100000000000000000000"},
      {"1e1000", "infd"},
      {"\"abc\"", "\"abc\""},
      {"\"\"", "\"\""},
  });
  auto r = ParseProgram("100000000000000000000, 12");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->body->left->literal.is_integer());
  EXPECT_TRUE(r->body->right->literal.is_integer());
  EXPECT_EQ(r->body->right->literal.as_int(), 12);
}

TEST(ParserTest, StringsAndFormats) {
  ExpectTrees({
      {"\"a\\(1 + 2)b\\(3)\"", "(str \"a\" (+ 1 2) \"b\" 3)"},
      {"\"\\(1)\"", "(str 1)"},
      {"\"\\(\"\\(1)\")\"", "(str (str 1))"},
      {"@base64", "@base64"},
      {"@base64 \"x\\(.)\"", "(str @base64 \"x\" .)"},
      {"@text \"plain\"", "(str @text \"plain\")"},
      {"@json \"\"", "(str @json)"},
      {"\"\\(1 as $x | $x)\"", "(str (as 1 $x $x))"},
  });
}

TEST(ParserTest, OperatorPrecedence) {
  ExpectTrees({
      {"1 | 2 | 3", "(| 1 (| 2 3))"},
      {"1, 2, 3", "(, (, 1 2) 3)"},
      {"1, 2 | 3, 4", "(| (, 1 2) (, 3 4))"},
      {"1 // 2 // 3", "(// 1 (// 2 3))"},
      {"1 // 2, 3", "(, (// 1 2) 3)"},
      {".a = 1 // 2", "(// (= (index . \"a\") 1) 2)"},
      {".a |= . + 1", "(|= (index . \"a\") (+ . 1))"},
      {".a += 1 or 2", "(+= (index . \"a\") (or 1 2))"},
      {"1 or 2 and 3", "(or 1 (and 2 3))"},
      {"1 and 2 or 3", "(or (and 1 2) 3)"},
      {"1 == 2 and 3 != 4", "(and (== 1 2) (!= 3 4))"},
      {"1 < 2 + 3", "(< 1 (+ 2 3))"},
      {"1 + 2 * 3 - 4 / 5 % 6", "(- (+ 1 (* 2 3)) (% (/ 4 5) 6))"},
      {"1 - 2 - 3", "(- (- 1 2) 3)"},
      {"-1 + 2", "(+ (neg 1) 2)"},
      {"-.a.b", "(neg (index (index . \"a\") \"b\"))"},
      {"--1", "(neg (neg 1))"},
      {"+1", "(| 1 (call _plus))"},
      {"1 <= 2, 3 >= 4, 5 < 6, 7 > 8", "(, (, (, (<= 1 2) (>= 3 4)) (< 5 6)) (> 7 8))"},
      {".a //= 1", "(//= (index . \"a\") 1)"},
      {".a -= 1 | .b *= 2 | .c /= 3 | .d %= 4",
       "(| (-= (index . \"a\") 1) (| (*= (index . \"b\") 2) (| (/= (index . \"c\") 3) (%= "
       "(index . \"d\") 4))))"},
      {"(1, 2) * 3", "(* (, 1 2) 3)"},
  });
}

TEST(ParserTest, Try) {
  ExpectTrees({
      {"try .a", "(try (index . \"a\"))"},
      {"try .a catch .b", "(try (index . \"a\") (index . \"b\"))"},
      {"try error(0) // 1", "(// (try (call error 0)) 1)"},
      {"try error(0) = 1", "(= (try (call error 0)) 1)"},
      {"try 0 * error(0)", "(* (try 0) (call error 0))"},
      {"try 0 .[error(0)]", "(try (index 0 (call error 0)))"},
      {"1 + try 2 catch 3 + 4", "(+ (+ 1 (try 2 3)) 4)"},
      {"[-try .]", "(array (neg (try .)))"},
      {"1, try error(2), 3", "(, (, 1 (try (call error 2))) 3)"},
      {"try try 1 catch 2 catch 3", "(try (try 1 2) 3)"},
      {".a?", "(try (index . \"a\"))"},
      {"(1, 2)?", "(try (, 1 2))"},
  });
}

TEST(ParserTest, Bindings) {
  ExpectTrees({
      {". as $x | $x", "(as . $x $x)"},
      {"1, 2 as $x | 3, 4 | 5", "(, 1 (as 2 $x (| (, 3 4) 5)))"},
      {"1 | 2 as $x | 3", "(| 1 (as 2 $x 3))"},
      {"1 + 2 as $x | -$x", "(as (+ 1 2) $x (neg $x))"},
      {"true // 1 as $x | [$x]", "(as (// true 1) $x (array $x))"},
      {".a = 1 as $x | $x", "(as (= (index . \"a\") 1) $x $x)"},
      {". as [$a, [$b]] | 1", "(as . [$a [$b]] 1)"},
      {". as {a: $x, $y, \"b\": $z, (1): $w, $v: [$u], if: $t} | 1",
       "(as . {(\"a\" $x) ($y) (\"b\" $z) (1 $w) ($v [$u]) (\"if\" $t)} 1)"},
      {". as {\"\\(1)\": $x} | 1", "(as . {((str 1) $x)} 1)"},
      {". as [$a] ?// $a ?// {a: $a} | $a", "(as . [$a] ?// $a ?// {(\"a\" $a)} $a)"},
      {"1 as $x | 2 as $y | $x + $y", "(as 1 $x (as 2 $y (+ $x $y)))"},
      {"$__loc__", "$__loc__"},
      {"$ENV.PATH", "(index $ENV \"PATH\")"},
      {"$m::v", "$m::v"},
  });
}

TEST(ParserTest, ReduceForeachIfLabel) {
  ExpectTrees({
      {"reduce .[] as $x (0; . + $x)", "(reduce (iter .) $x 0 (+ . $x))"},
      {"reduce .[] as [$a, $b] (0; 1)", "(reduce (iter .) [$a $b] 0 1)"},
      {". + reduce . as $n (. + [2]; [.]) + .",
       "(+ (+ . (reduce . $n (+ . (array 2)) (array .))) .)"},
      {"reduce 1 + 2 as $x (0; 1)", "(reduce (+ 1 2) $x 0 1)"},
      {"reduce . as $x (1; 2).a", "(index (reduce . $x 1 2) \"a\")"},
      {"foreach .[] as $x (0; 1)", "(foreach (iter .) $x 0 1)"},
      {"foreach .[] as {a: $x} (0; 1; 2)", "(foreach (iter .) {(\"a\" $x)} 0 1 2)"},
      {"if . then 1 end", "(if . 1 _)"},
      {"if . then 1 else 2 end", "(if . 1 2)"},
      {"if 1 then 2 elif 3 then 4 elif 5 then 6 else 7 end", "(if 1 2 (if 3 4 (if 5 6 7)))"},
      {"if 1 then 2 elif 3 then 4 end", "(if 1 2 (if 3 4 _))"},
      {"if . then 1 else 2 end.a", "(index (if . 1 2) \"a\")"},
      {"if . then 1 end | 2", "(| (if . 1 _) 2)"},
      {"label $out | 1, break $out", "(label $out (, 1 (break $out)))"},
      {"1, label $f | 2 | 3", "(, 1 (label $f (| 2 3)))"},
  });
}

TEST(ParserTest, Definitions) {
  ExpectTrees({
      {"def f: 1; f", "(def f 1 (call f))"},
      {"def f: 1; f, 2", "(def f 1 (, (call f) 2))"},
      {"def f: 1; def g: 2; f + g", "(def f 1 (def g 2 (+ (call f) (call g))))"},
      {"def f(g; $x): g + $x; f(.; 1)", "(def f(g;$x) (+ (call g) $x) (call f . 1))"},
      {"def f: def g: 1; g; f", "(def f (def g 1 (call g)) (call f))"},
      {"1 | def f: 2; f", "(| 1 (def f 2 (call f)))"},
      {"1, def f: 2; f | 3", "(, 1 (def f 2 (| (call f) 3)))"},
      {"(def f: 1; f) | 2", "(| (def f 1 (call f)) 2)"},
      {"[def f: 1; f]", "(array (def f 1 (call f)))"},
      {"f(def g: 1; g)", "(call f (def g 1 (call g)))"},
      {"a::b($c::d; e)", "(call a::b $c::d (call e))"},
      {"def and_x: 1; and_x", "(def and_x 1 (call and_x))"},
  });
  auto r = ParseProgram("def f(a; $b): 1; 2");
  ASSERT_TRUE(r.ok());
  const ast::Node& def = *r->body;
  ASSERT_EQ(def.params.size(), 2u);
  EXPECT_EQ(def.params[0].name, "a");
  EXPECT_FALSE(def.params[0].is_var);
  EXPECT_EQ(def.params[1].name, "b");
  EXPECT_TRUE(def.params[1].is_var);
}

TEST(ParserTest, Objects) {
  ExpectTrees({
      {"{}", "(object)"},
      {"{a}", "(object (\"a\"))"},
      {"{a: 1}", "(object (\"a\" 1))"},
      {"{a: 1,}", "(object (\"a\" 1))"},
      {"{$x}", "(object ($x))"},
      {"{$x: 1}", "(object ($x 1))"},
      {"{$__loc__}", "(object ($__loc__))"},
      {"{\"a b\"}", "(object (\"a b\"))"},
      {"{\"a b\": 1}", "(object (\"a b\" 1))"},
      {"{\"\\(.a)\": 1}", "(object ((str (index . \"a\")) 1))"},
      {"{\"\\(.a)\"}", "(object ((str (index . \"a\"))))"},
      {"{(.a): 1}", "(object ((index . \"a\") 1))"},
      {"{(1,2): 3}", "(object ((, 1 2) 3))"},
      {"{if: 1, and: 2, def: 3, reduce, then}",
       "(object (\"if\" 1) (\"and\" 2) (\"def\" 3) (\"reduce\") (\"then\"))"},
      {"{a: 1 | 2, b: 3}", "(object (\"a\" (| 1 2)) (\"b\" 3))"},
      {"{a: 1 | 2 | 3}", "(object (\"a\" (| 1 (| 2 3))))"},
      {"{x: 1 + 2, y: false or true, z: null // 3}",
       "(object (\"x\" (+ 1 2)) (\"y\" (or false true)) (\"z\" (// null 3)))"},
      {"{x: -1, y: +1}", "(object (\"x\" (neg 1)) (\"y\" (| 1 (call _plus))))"},
      {"{a: .b?, c: try .d, e: reduce . as $x (0; 1), f: if . then 1 end}",
       "(object (\"a\" (try (index . \"b\"))) (\"c\" (try (index . \"d\"))) (\"e\" (reduce . $x "
       "0 1)) (\"f\" (if . 1 _)))"},
      {"{a: $x}", "(object (\"a\" $x))"},
      {"{a: 1}.a", "(index (object (\"a\" 1)) \"a\")"},
  });
}

TEST(ParserTest, MoreConstructs) {
  ExpectTrees({
      {". as {if: $a, $__loc__, \"\\u00e9\": [$b, {c: $d}]} | $a",
       "(as . {(\"if\" $a) ($__loc__) (\"\xC3\xA9\" [$b {(\"c\" $d)}])} $a)"},
      {". as $if | $if", "(as . $if $if)"},
      {"[.[] as [$a, $b] ?// {a: $a} ?// $a | $a]",
       "(array (as (iter .) [$a $b] ?// {(\"a\" $a)} ?// $a $a))"},
      {"reduce .[] as {a: $x, $y} (0; . + $x + $y)",
       "(reduce (iter .) {(\"a\" $x) ($y)} 0 (+ (+ . $x) $y))"},
      {"label $a | label $b | 1, break $a, break $b",
       "(label $a (label $b (, (, 1 (break $a)) (break $b))))"},
      {"{a: break $x}", "(object (\"a\" (break $x)))"},
      {"\"#not a comment\" # but this is", "\"#not a comment\""},
      {"{\"\\u00e9\": 1}", "(object (\"\xC3\xA9\" 1))"},
      {"@base64 .a", "(index @base64 \"a\")"},
      {"@base64d", "@base64d"},
      {".[]?.a?[1:]?", "(try (slice (try (index (try (iter .)) \"a\")) 1 _))"},
      {"\"x\" .[0]", "(index \"x\" 0)"},
      {"1 .a", "(index 1 \"a\")"},
      {"$x.a", "(index $x \"a\")"},
      {"-.a?", "(neg (try (index . \"a\")))"},
      {"not", "(call not)"},
      {"empty, error, error(\"x\")", "(, (, (call empty) (call error)) (call error \"x\"))"},
      {"path(..)", "(call path ..)"},
      {"getpath([\"a\", 0])", "(call getpath (array (, \"a\" 0)))"},
      {"input_line_number | $__prog_args", "(| (call input_line_number) $__prog_args)"},
      {"if . then . elif . then . else . end", "(if . . (if . . .))"},
      {"foreach (1, 2) as $x (0; . + $x; [$x, .])",
       "(foreach (, 1 2) $x 0 (+ . $x) (array (, $x .)))"},
      {"try error(\"\\(1)\") catch .", "(try (call error (str 1)) .)"},
  });
}

TEST(ParserTest, ArraysAndParens) {
  ExpectTrees({
      {"[]", "(array)"},
      {"[1, 2]", "(array (, 1 2))"},
      {"[.[] | {a: .b}]", "(array (| (iter .) (object (\"a\" (index . \"b\")))))"},
      {"(1)", "1"},
      {"((1, 2))", "(, 1 2)"},
  });
}

TEST(ParserTest, CommentsAreSkipped) {
  ExpectTrees({
      {". # comment", "."},
      {"1 # \\\n+ 1\n, 2", "(, 1 2)"},
      {"# comment\n1,\n# comment \\\n  comment \\ 0 \\\n  comment\n2,\n# comment \\\n  comment "
       "\\\\\n3, #      \\\n  comment \\\\\\\n  comment \\\\\n4 #\n",
       "(, (, (, 1 2) 3) 4)"},
      {"1, # \r\n2, # \\\r\ncomment\\\\\r\n3", "(, (, 1 2) 3)"},
      {"1, # \r2, # \\\rcomment\\\\\r3", "(, (, 1 2) 3)"},
  });
}

TEST(ParserTest, NodeOffsetsPointAtFirstToken) {
  const std::string q = "1 +\n  $__loc__ | .a[0]";
  auto r = ParseProgram(q);
  ASSERT_TRUE(r.ok());
  const ast::Node& pipe = *r->body;
  EXPECT_EQ(pipe.offset, 0u);
  EXPECT_EQ(pipe.left->right->kind, ast::Kind::kVar);
  EXPECT_EQ(pipe.left->right->offset, q.find('$'));
  EXPECT_EQ(pipe.right->offset, q.find(".a"));
  EXPECT_EQ(pipe.right->index->offset, q.find('0'));
}

TEST(ParserTest, HeightsAreComputed) {
  auto r = ParseProgram(".a.b | [1]");
  ASSERT_TRUE(r.ok());
  // pipe -> index -> index -> identity
  EXPECT_EQ(r->body->height, 4);
  EXPECT_EQ(r->body->right->height, 2);
}

TEST(ParserTest, ProgramHeader) {
  auto r = ParseProgram(
      "module {name: \"m\", if: [1, 2.5, null, true, false, {\"k\": \"v\"}],};\n"
      "import \"a/b\" as ab;\n"
      "import \"data\" as $d {search: \"./x\"};\n"
      "include \"c\";\n"
      "ab::f($d::d)");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const ast::Program& p = *r;
  ASSERT_TRUE(p.module_metadata.is_object());
  EXPECT_EQ(p.module_metadata.find("name")->as_string(), "m");
  ASSERT_EQ(p.module_metadata.find("if")->size(), 6u);
  ASSERT_EQ(p.imports.size(), 3u);
  EXPECT_EQ(p.imports[0].path, "a/b");
  EXPECT_EQ(p.imports[0].alias, "ab");
  EXPECT_FALSE(p.imports[0].is_data);
  EXPECT_TRUE(p.imports[0].metadata.is_null());
  EXPECT_EQ(p.imports[1].alias, "d");
  EXPECT_TRUE(p.imports[1].is_data);
  EXPECT_EQ(p.imports[1].metadata.find("search")->as_string(), "./x");
  EXPECT_TRUE(p.imports[2].is_include);
  EXPECT_EQ(p.imports[2].path, "c");
  EXPECT_EQ(DebugString(*p.body), "(call ab::f $d::d)");
  EXPECT_TRUE(p.defs.empty());
}

TEST(ParserTest, Modules) {
  auto r = ParseModule("import \"x\" as x; def f: 1; def g($a): $a + f;");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->body, nullptr);
  ASSERT_EQ(r->defs.size(), 2u);
  EXPECT_EQ(DebugString(*r->defs[0]), "(def f 1 _)");
  EXPECT_EQ(DebugString(*r->defs[1]), "(def g($a) (+ $a (call f)) _)");
  ASSERT_EQ(r->imports.size(), 1u);

  // An empty module is fine; a trailing query is checked, then ignored.
  EXPECT_TRUE(ParseModule("").ok());
  auto with_query = ParseModule("def f: 1; f | .");
  ASSERT_TRUE(with_query.ok());
  EXPECT_EQ(with_query->defs.size(), 1u);
  EXPECT_EQ(with_query->body, nullptr);
  auto bad = ParseModule("def f: 1 +");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(FormatQueryError("def f: 1 +", bad.error(), "testdata/7.jq"),
            "invalid query: testdata/7.jq:1\n"
            "    1 | def f: 1 +\n"
            "                  ^  unexpected EOF");
}

TEST(ParserTest, MissingQuery) {
  for (std::string q : {"", "   ", "# comment", "def f: 0;", "import \"a\" as a;", "module {};"}) {
    auto r = ParseProgram(q);
    ASSERT_FALSE(r.ok()) << q;
    EXPECT_EQ(r.error().message, kMissingQueryMessage);
    EXPECT_FALSE(r.error().position.known());
    EXPECT_EQ(FormatQueryError(q, r.error()), "compile error: missing query (try \".\")");
  }
}

// Every parse-error case of gojq's test.yaml whose query is a command-line argument.
TEST(ParserTest, GojqErrorMessages) {
  struct ErrorCase {
    std::string query, text;
  };
  const std::vector<ErrorCase> cases = {
      {"0..[empty]", "invalid query: 0..[empty]\n    0..[empty]\n    ^  invalid token \"0..\""},
      {". + \"foo",
       "invalid query: . + \"foo\n    . + \"foo\n            ^  unterminated string literal"},
      {"\"foo\\,bar\"",
       "invalid query: \"foo\\,bar\"\n    \"foo\\,bar\"\n        ^  invalid escape sequence "
       "\"\\,\" in string literal"},
      {"\"\\u\"",
       "invalid query: \"\\u\"\n    \"\\u\"\n     ^  invalid escape sequence \"\\u\" in string "
       "literal"},
      {"\"\n\\u\n\"",
       "invalid query: <arg>:2\n    2 | \\u\n        ^  invalid escape sequence \"\\u\" in string "
       "literal"},
      {"\"\\u",
       "invalid query: \"\\u\n    \"\\u\n     ^  invalid escape sequence \"\\u\" in string "
       "literal"},
      {"\"\\", "invalid query: \"\\\n    \"\\\n      ^  unterminated string literal"},
      {"\"\\\"", "invalid query: \"\\\"\n    \"\\\"\n       ^  unterminated string literal"},
      {"\"\\u````\"",
       "invalid query: \"\\u````\"\n    \"\\u````\"\n     ^  invalid escape sequence \"\\u\" in "
       "string literal"},
      {"\"\\uAA\\uAA\"",
       "invalid query: \"\\uAA\\uAA\"\n    \"\\uAA\\uAA\"\n     ^  invalid escape sequence "
       "\"\\uAA\" in string literal"},
      {"\"\\ufffg\"",
       "invalid query: \"\\ufffg\"\n    \"\\ufffg\"\n     ^  invalid escape sequence \"\\ufff\" "
       "in string literal"},
      {"\"0\\u0000\\u000/0\"",
       "invalid query: \"0\\u0000\\u000/0\"\n    \"0\\u0000\\u000/0\"\n            ^  invalid "
       "escape sequence \"\\u000\" in string literal"},
      {"\"\\(1) \\x \"",
       "invalid query: \"\\(1) \\x \"\n    \"\\(1) \\x \"\n          ^  invalid escape sequence "
       "\"\\x\" in string literal"},
      {"\"\\u\\(",
       "invalid query: \"\\u\\(\n    \"\\u\\(\n     ^  invalid escape sequence \"\\u\" in string "
       "literal"},
      {". a", "invalid query: . a\n    . a\n      ^  unexpected token \"a\""},
      {"def $f: .; $f",
       "invalid query: def $f: .; $f\n    def $f: .; $f\n        ^  unexpected token \"$f\""},
      {".?/", "invalid query: .?/\n    .?/\n       ^  unexpected EOF"},
      {". == . == .",
       "invalid query: . == . == .\n    . == . == .\n           ^  unexpected token \"==\""},
      {"label foo | .",
       "invalid query: label foo | .\n    label foo | .\n          ^  unexpected token \"foo\""},
      {"label $x | break x",
       "invalid query: label $x | break x\n    label $x | break x\n                     ^  "
       "unexpected token \"x\""},
      {"label $x | break",
       "invalid query: label $x | break\n    label $x | break\n                    ^  "
       "unexpected EOF"},
      {"\"\\(1 +)\"",
       "invalid query: \"\\(1 +)\"\n    \"\\(1 +)\"\n          ^  unexpected token \")\""},
      {".foo as foo | {$bar}",
       "invalid query: .foo as foo | {$bar}\n    .foo as foo | {$bar}\n            ^  "
       "unexpected token \"foo\""},
      {". += 1 -= 2",
       "invalid query: . += 1 -= 2\n    . += 1 -= 2\n           ^  unexpected token \"-=\""},
      {">abc", "invalid query: >abc\n    >abc\n    ^  unexpected token \">\""},
      {".abc[", "invalid query: .abc[\n    .abc[\n         ^  unexpected EOF"},
      {"[ .[] | { .id } ]",
       "invalid query: [ .[] | { .id } ]\n    [ .[] | { .id } ]\n              ^  unexpected "
       "token \".id\""},
      {"if 0then. else. end",
       "invalid query: if 0then. else. end\n    if 0then. else. end\n       ^  invalid token "
       "\"0t\""},
      {".foo & .bar",
       "invalid query: .foo & .bar\n    .foo & .bar\n         ^  unexpected token \"&\""},
      {"foo\xE2\x98\x86",
       "invalid query: foo\xE2\x98\x86\n    foo\xE2\x98\x86\n       ^  unexpected token "
       "\"\xE2\x98\x86\""},
      {"\\/", "invalid query: \\/\n    \\/\n    ^  unexpected token \"\\\\\""},
      {"{\n[]}", "invalid query: <arg>:2\n    2 | []}\n        ^  unexpected token \"[\""},
      {"[\n  .[]\n  | { id } }\n]\n",
       "invalid query: <arg>:3\n    3 |   | { id } }\n                   ^  unexpected token "
       "\"}\""},
      {"--", "invalid query: --\n    --\n      ^  unexpected EOF"},
  };
  for (const ErrorCase& c : cases) EXPECT_EQ(ErrorText(c.query), c.text) << c.query;
}

std::string ReadSharedFile(const std::string& relative) {
  std::ifstream in(::wmap::test_files::SharedDir().string() + "/conformance/jq/gojq/" + relative,
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ParserTest, GojqErrorMessagesForFiles) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  struct FileCase {
    std::string file, text;
  };
  const std::vector<FileCase> cases = {
      {"testdata/10.jq",
       "invalid query: testdata/10.jq:5\n    5 | bar ]\n            ^  unexpected token \"]\""},
      {"testdata/11.jq",
       "invalid query: testdata/11.jq:5\n    5 | bar ]\n            ^  unexpected token \"]\""},
      {"testdata/12.jq",
       "invalid query: testdata/12.jq:5\n    5 | bar ]\n            ^  unexpected token \"]\""},
      {"testdata/2.jq",
       "invalid query: testdata/2.jq:3\n    3 |   bar, []\n               ^  unexpected token "
       "\"[\""},
  };
  for (const FileCase& c : cases) {
    const std::string query = ReadSharedFile(c.file);
    ASSERT_FALSE(query.empty()) << c.file;
    EXPECT_EQ(ErrorText(query, c.file), c.text) << c.file;
  }
}

TEST(ParserTest, MoreErrorMessages) {
  struct ErrorCase {
    std::string query, message;
    size_t offset;
  };
  const std::vector<ErrorCase> cases = {
      {"1 \"abc\"", "unexpected token \"\\\"abc\\\"\"", 2},
      // gojq quotes the previous token for a rejected interpolated string.
      {"1 \"a\\(1)\"", "unexpected token \"1\"", 2},
      {"\"a\\(1 2)\"", "unexpected token \"2\"", 6},
      {"\"\\(1)", "unexpected EOF", 5},
      {"{a: 1 as $x | 2}", "unexpected token \"as\"", 6},
      {".a as [] | 1", "unexpected token \"]\"", 7},
      {". as {a} | 1", "unexpected token \"}\"", 7},
      {"{(1):2, 3}", "unexpected token \"3\"", 8},
      {"{(1)}", "unexpected token \"}\"", 4},
      {"{1: 2}", "unexpected token \"1\"", 1},
      {"{@base64: 1}", "unexpected token \"@base64\"", 1},
      {"$", "unexpected token \"$\"", 0},
      {"@", "unexpected token \"@\"", 0},
      {"1 ?// 2", "unexpected token \"?//\"", 2},
      {".[1;2]", "unexpected token \";\"", 3},
      {".[:]", "unexpected token \"]\"", 3},
      {"def f: ; 1", "unexpected token \";\"", 7},
      {"def f(): 1; f", "unexpected token \")\"", 6},
      {"def if: 1; 1", "unexpected token \"if\"", 4},
      {"f()", "unexpected token \")\"", 2},
      {"reduce . as $x", "unexpected EOF", 14},
      {"reduce . as $x ?// $y (0; 1)", "unexpected token \"?//\"", 15},
      {"try 1 catch", "unexpected EOF", 11},
      {"..a", "unexpected token \"a\"", 2},
      {"1 as $x", "unexpected EOF", 7},
      {"1 + def f: 1; f", "unexpected token \"def\"", 4},
      {"{a: def f: 1; f}", "unexpected token \"def\"", 4},
      {"{a: label $x | 1}", "unexpected token \"label\"", 4},
      {"1 < 2 < 3", "unexpected token \"<\"", 6},
      {"1 = 2 = 3", "unexpected token \"=\"", 6},
      {"import \"a\" as x; 1 | import \"b\" as y; 2", "unexpected token \"import\"", 21},
      {"import 1 as x; 1", "unexpected token \"1\"", 7},
      {"import \"a\\(1)\" as x; 1", "unexpected token \"import\"", 2},
      {"include \"a\" {a: .}; 1", "unexpected token \".\"", 16},
      {"module 1;", "unexpected token \"1\"", 7},
      {"1 . 2", "unexpected token \"2\"", 4},
      {"1)", "unexpected token \")\"", 1},
      {"\xFF", "unexpected token \"\xEF\xBF\xBD\"", 0},
      {"\"\x01\" | \x7F", "unexpected token \"\\u007f\"", 6},
      {"1 +\t\"\\q\"", "invalid escape sequence \"\\q\" in string literal", 5},
  };
  for (const ErrorCase& c : cases) {
    auto r = ParseProgram(c.query);
    ASSERT_FALSE(r.ok()) << c.query;
    EXPECT_EQ(r.error().message, c.message) << c.query;
    EXPECT_EQ(r.error().position.offset, c.offset) << c.query;
  }
}

TEST(ParserTest, ErrorPositionHasLineAndColumn) {
  auto r = ParseProgram("1,\n  2 3");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().position.line, 2);
  EXPECT_EQ(r.error().position.column, 5);
  EXPECT_EQ(r.error().position.offset, 7u);
  EXPECT_EQ(r.error().hint, "  2 3\n    ^");
}

TEST(FormatQueryErrorTest, InvalidBytesAreDroppedFromTheShownLine) {
  auto r = ParseProgram("\xFF");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(FormatQueryError("\xFF", r.error()),
            "invalid query: \xFF\n    \n    ^  unexpected token \"\xEF\xBF\xBD\"");
}

TEST(FormatQueryErrorTest, WideCharactersMoveTheCaretTwoColumns) {
  const std::string q = "\"\xE3\x81\x82\xE3\x81\x84\" | 1 +";
  auto r = ParseProgram(q);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(FormatQueryError(q, r.error()), "invalid query: " + q + "\n    " + q + "\n" +
                                                std::string(12, ' ') + "    ^  unexpected EOF");
}

TEST(FormatQueryErrorTest, LongLinesAreCut) {
  // gojq shows at most 64 bytes of the line, starting 48 bytes before the caret when needed.
  std::string q;
  for (int i = 0; i < 40; ++i) q += ".a";
  q += " +";
  auto r = ParseProgram(q);
  ASSERT_FALSE(r.ok());
  const std::string shown = q.substr(q.size() + 1 - 48 - 1, 64);
  EXPECT_EQ(FormatQueryError(q, r.error()), "invalid query: " + q + "\n    " + shown + "\n" +
                                                std::string(48, ' ') + "    ^  unexpected EOF");
}

TEST(FormatQueryErrorTest, GoQuoteEscapesLikeGo) {
  EXPECT_EQ(GoQuote(std::string("b\0a", 3)), "\"b\\x00a\"");
  EXPECT_EQ(GoQuote("31;;"), "\"31;;\"");
  EXPECT_EQ(GoQuote("\a\b\f\n\r\t\v\"\\\x7f"), "\"\\a\\b\\f\\n\\r\\t\\v\\\"\\\\\\x7f\"");
}

TEST(FormatQueryErrorTest, QuoteForMessage) {
  EXPECT_EQ(QuoteForMessage("a\"b\\c\n\t<&>"), "\"a\\\"b\\\\c\\n\\t<&>\"");
  EXPECT_EQ(QuoteForMessage(std::string("\x01\x7f", 2)), "\"\\u0001\\u007f\"");
  EXPECT_EQ(QuoteForMessage("\xE2\x98\x86\xFF"), "\"\xE2\x98\x86\\ufffd\"");
}

TEST(FormatQueryErrorTest, DisplayWidth) {
  EXPECT_EQ(text::DisplayWidth("abc"), 3u);
  EXPECT_EQ(text::DisplayWidth("\xE3\x81\x82"), 2u);      // HIRAGANA A
  EXPECT_EQ(text::DisplayWidth("\xE2\x98\x86"), 1u);      // WHITE STAR (ambiguous: narrow)
  EXPECT_EQ(text::DisplayWidth("e\xCC\x81"), 1u);         // e + COMBINING ACUTE
  EXPECT_EQ(text::DisplayWidth("\xF0\x9F\x98\x84"), 2u);  // emoji
}

// Nesting beyond the limit is an error, never a stack overflow, whatever the construct.
TEST(ParserTest, DeepNestingIsAnError) {
  const int n = 100000;
  const auto repeat = [](std::string_view s, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) out += s;
    return out;
  };
  const std::vector<std::string> programs = {
      repeat("[", n),
      repeat("(", n),
      repeat("{a:", n),
      repeat("-", n) + "1",
      repeat("\"\\(", n),
      repeat(".a", n),
      repeat("1 | ", n) + "1",
      repeat("1, ", n) + "1",
      repeat("1 + ", n) + "1",
      repeat("1 // ", n) + "1",
      repeat(". as $x | ", n) + ".",
      repeat("def f: ", n),
      repeat("def f: 1; ", n) + "f",
      repeat("label $x | ", n) + ".",
      repeat("if . then ", n),
      repeat("try ", n) + "1",
      repeat("reduce ", n),
      ". as " + repeat("[", n),
      ". as " + repeat("{a:", n),
      "module " + repeat("{a:", n),
      "module {a:" + repeat("[", n),
      repeat("f(", n),
      repeat(".[", n),
      repeat("{(", n),
      repeat(".[]?", n),
  };
  for (const std::string& p : programs) {
    auto r = ParseProgram(p);
    ASSERT_FALSE(r.ok()) << p.substr(0, 20);
    EXPECT_NE(r.error().message.find("nested too deeply"), std::string::npos)
        << p.substr(0, 20) << ": " << r.error().message;
  }
}

TEST(ParserTest, NestingWithinTheLimitIsAccepted) {
  ParseOptions options;
  options.max_depth = 300;
  const std::string deep = std::string(250, '[') + std::string(250, ']');
  auto r = ParseProgram(deep, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->body->height, 250);
  std::string chain = ".";
  for (int i = 0; i < 290; ++i) chain += "a.";
  chain += "a";
  EXPECT_TRUE(ParseProgram(chain, options).ok());
  std::string too_long = chain + ".b.c.d.e.f.g.h.i.j.k";
  EXPECT_FALSE(ParseProgram(too_long, options).ok());
}

}  // namespace
}  // namespace wmap::jq
