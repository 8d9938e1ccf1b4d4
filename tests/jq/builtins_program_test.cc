// The library builtins end to end through wmap::jq::Program: the jq-defined ones (sub, gsub,
// scan, capture, walk, streams, dates...) and natives behind their public names. Expected
// outputs are gojq's (test.yaml of gojq 0.12.19).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "builtins_test_support.h"
#include "wmap/jq.h"

namespace wmap::jq::testing {
namespace {

// Outputs as compact JSON joined by spaces, or "error: <message>".
std::string RunProgram(std::string_view program, std::string_view input) {
  auto compiled = Program::Compile(program);
  if (!compiled.ok()) return "compile error: " + compiled.error().message;
  auto outputs = compiled->RunAll(Json(input));
  if (!outputs.ok()) return "error: " + outputs.error().message;
  std::string s;
  for (const Value& v : *outputs) {
    if (!s.empty()) s.push_back(' ');
    s += json::ToCompactString(v);
  }
  return s;
}

// One case per line: program ||| input ||| expected outputs (compact JSON, space-separated).
constexpr std::string_view kCases = R"cases(
sub("a"; "b"), sub("a"; "b","c"), sub("a(?<a>.)"; "\(.a)b\(.a)"; "ig"), sub("^"; "b"), sub("a"; empty) ||| "abc☆★☆ABC" ||| "bbc☆★☆ABC" "bbc☆★☆ABC" "cbc☆★☆ABC" "bbbc☆★☆BbBC" "babc☆★☆ABC" "abc☆★☆ABC"
gsub("a"; "b","c"), gsub("a(?<a>..)"; "\(.a+.a)"; "i"), gsub("^"; "a") ||| "abcABC☆★☆ABCabc" ||| "bbcABC☆★☆ABCbbc" "cbcABC☆★☆ABCcbc" "bcbcBCBC☆★☆BCBCbcbc" "aabcABC☆★☆ABCabc"
gsub(""; "-") ||| "ab" ||| "-a-b-"
[scan("(b(c*)(d*))"; "i")], [scan("abc"; "i")] ||| "abcdeABCCDDEabcce" ||| [["bcd","c","d"],["BCCDD","CC","DD"],["bcc","cc",""]] ["abc","ABC","abc"]
capture("b(?<foo>c.?(?<bar>d..))"), [capture("(?<a>b(?<foo>c).?(?<bar>d..))"; "gmi")] ||| "abcdeABCDEabcde" ||| {"bar":"deA","foo":"cdeA"} [{"a":"bcdeA","bar":"deA","foo":"c"},{"a":"BCDEa","bar":"DEa","foo":"C"}]
[test("bcd"), test("efg"; "i")] ||| "abcdeABCDEFG" ||| [true,true]
[splits("a+"; "i")], [splits("a")] ||| "abaacaAad" ||| ["","b","c","d"] ["","b","","c","A","d"]
try match("["; "g") catch . ||| "" ||| "invalid regular expression \"[\": error parsing regexp: missing closing ]: `[`"
walk(if type == "boolean" then not else . end) ||| [true,{"a":false}] ||| [false,{"a":true}]
[walk(.,0)] ||| {"x":1,"y":2} ||| [{"x":1,"y":2},0]
[tostream] ||| [0,[1,{"a":1},{"b":2}]] ||| [[[0],0],[[1,0],1],[[1,1,"a"],1],[[1,1,"a"]],[[1,2,"b"],2],[[1,2,"b"]],[[1,2]],[[1]]]
fromstream(range(5) | truncate_stream({x:[1,{y:[2]},3],z:[4]} | tostream)) ||| null ||| {"x":[1,{"y":[2]},3],"z":[4]} [1,{"y":[2]},3] [4] {"y":[2]} [2]
[1|truncate_stream([[0],1],[[1,0],2],[[1,0]],[[1]])] ||| null ||| [[[0],2],[[0]]]
with_entries(.key |= "x" + . | .value += 1) ||| {"a":1,"b":2} ||| {"xa":2,"xb":3}
in({"foo": 42}), inside("foobar") ||| "foo" ||| true true
[combinations], [combinations(2)] ||| [[1,2],[3,4]] ||| [[1,3],[1,4],[2,3],[2,4]] [[[1,2],[1,2]],[[1,2],[3,4]],[[3,4],[1,2]],[[3,4],[3,4]]]
add(.[].a), add(empty) ||| [{"a":1},{"a":2}] ||| 3 null
sort_by(.b), group_by(.b), unique_by(.b), min_by(.b), max_by(.b) ||| [{"a":1,"b":2},{"a":2,"b":1},{"a":3,"b":2}] ||| [{"a":2,"b":1},{"a":1,"b":2},{"a":3,"b":2}] [[{"a":2,"b":1}],[{"a":1,"b":2},{"a":3,"b":2}]] [{"a":2,"b":1},{"a":1,"b":2}] {"a":2,"b":1} {"a":3,"b":2}
todate, (todate | fromdate) ||| 1500000000 ||| "2017-07-14T02:40:00Z" 1500000000
try strptime("%s") catch . ||| 1500000000 ||| "strptime(\"%s\") cannot be applied to: number (1500000000)"
"2015-03-05T23:51:47Z" | fromdateiso8601, (strptime("%Y-%m-%dT%H:%M:%SZ") | todate) ||| null ||| 1425599507 "2015-03-05T23:51:47Z"
@base64 "x\(.)y", @sh "echo \(.)", @csv, @json "v=\(.)" ||| [1,"a'b"] ||| "xWzEsImEnYiJdy" "echo 1 'a'\\''b'" "1,\"a'b\"" "v=[1,\"a'b\"]"
[.[] | tostring], [.[] | tojson] ||| [1,"1",[1]] ||| ["1","1","[1]"] ["1","\"1\"","[1]"]
INDEX(range(5); .*2) ||| null ||| {"0":0,"2":1,"4":2,"6":3,"8":4}
[range(5)] | JOIN(map(.*3); .*2) ||| null ||| [[0,0],[1,6],[2,12],[3,null],[4,null]]
[range(5; 13) | IN(range(0; 10; 3))] ||| null ||| [false,true,false,false,true,false,false,false]
[.[] | isvalid(tonumber)], have_decnum, [finites] ||| ["1","x"] ||| [true,false] false []
nan, infinite, -infinite | [., tostring] ||| null ||| [null,"null"] [1.7976931348623157e+308,"1.7976931348623157e+308"] [-1.7976931348623157e+308,"-1.7976931348623157e+308"]
[.[] | ltrimstr("a")] | join(",") ||| ["ab","ba"] ||| "b,ba"
[fdim(0.25,0.625; 0.125,0.375)], [pow(2; 3)], [ldexp(0.5; 2)] ||| null ||| [0.125,0.5,0,0.25] [8] [2]
getpath(["a","b"]), (to_entries | from_entries) ||| {"a":{"b":1}} ||| 1 {"a":{"b":1}}
)cases";

struct ProgramCase {
  std::string program;
  std::string input;
  std::string want;
};

std::vector<ProgramCase> ParseCases() {
  std::vector<ProgramCase> cases;
  std::string_view rest = kCases;
  while (!rest.empty()) {
    size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    size_t a = line.find(" ||| ");
    size_t b = a == std::string_view::npos ? a : line.find(" ||| ", a + 5);
    if (b == std::string_view::npos) continue;
    cases.push_back({std::string(line.substr(0, a)), std::string(line.substr(a + 5, b - a - 5)),
                     std::string(line.substr(b + 5))});
  }
  return cases;
}

class LibraryTest : public ::testing::TestWithParam<ProgramCase> {};

TEST_P(LibraryTest, MatchesGojq) {
  const ProgramCase& c = GetParam();
  EXPECT_EQ(RunProgram(c.program, c.input), c.want) << c.program << " on " << c.input;
}

INSTANTIATE_TEST_SUITE_P(Prelude, LibraryTest, ::testing::ValuesIn(ParseCases()));

TEST(LibraryTest, TableIsParsed) { EXPECT_GE(ParseCases().size(), 30u); }

TEST(LibraryTest, SortByErrorNamesThePublicFunction) {
  EXPECT_EQ(RunProgram("try sort_by(.a) catch .", "{}"),
            "\"sort_by cannot be applied to: object ({})\"");
}

}  // namespace
}  // namespace wmap::jq::testing
