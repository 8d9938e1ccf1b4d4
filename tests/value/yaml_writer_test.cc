#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "value/yaml_scalar.h"
#include "wmap/json.h"
#include "wmap/text.h"
#include "wmap/yaml.h"

namespace wmap::yaml {
namespace {

Value FromJson(std::string_view text) {
  Result<Value> r = json::Parse(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : Value();
}

std::string Kubectl(std::string_view json_text, bool sort = false) {
  WriteOptions o;
  o.sort_keys = sort;
  return ToString(FromJson(json_text), o);
}

std::string Gojq(std::string_view json_text, int indent = 2) {
  WriteOptions o;
  o.style = Style::kGojq;
  o.indent = indent;
  return ToString(FromJson(json_text), o);
}

// The kubectl-style line for a mapping member {"k": s}.
std::string MemberLine(std::string_view s) {
  Value v = Value::EmptyObject();
  v.set("k", Value::String(s));
  return ToString(v);
}

TEST(YamlWriterTest, KubectlLayout) {
  EXPECT_EQ(Kubectl(R"({"apiVersion":"v1","metadata":{"name":"x","labels":{}},)"
                    R"("spec":{"containers":[{"name":"a","args":["--x","-v"],"env":[]}],)"
                    R"("replicas":3,"ratio":0.5,"on":true,"none":null}})"),
            "apiVersion: v1\n"
            "metadata:\n"
            "  name: x\n"
            "  labels: {}\n"
            "spec:\n"
            "  containers:\n"
            "  - name: a\n"
            "    args:\n"
            "    - --x\n"
            "    - -v\n"
            "    env: []\n"
            "  replicas: 3\n"
            "  ratio: 0.5\n"
            "  \"on\": true\n"
            "  none: null\n");
  EXPECT_EQ(Kubectl("[[1,2],[[3]],{\"a\":[[]]},[]]"),
            "- - 1\n  - 2\n- - - 3\n- a:\n  - []\n- []\n");
  EXPECT_EQ(Kubectl("[]"), "[]\n");
  EXPECT_EQ(Kubectl("{}"), "{}\n");
  EXPECT_EQ(Kubectl("\"str\""), "str\n");
  EXPECT_EQ(Kubectl("null"), "null\n");
  EXPECT_EQ(Kubectl("\"\""), "\"\"\n");
  EXPECT_EQ(Kubectl("{\"b\":1,\"a\":2,\"a10\":3,\"a2\":4}"), "b: 1\na: 2\na10: 3\na2: 4\n");
  EXPECT_EQ(Kubectl("{\"b\":1,\"a\":2,\"a10\":3,\"a2\":4}", true), "a: 2\na2: 4\na10: 3\nb: 1\n");
}

TEST(YamlWriterTest, KubectlQuoting) {
  struct Case {
    const char* in;
    const char* line;
  };
  const Case cases[] = {
      // Plain text that would read back as another type: double quotes.
      {"true", "k: \"true\"\n"},
      {"True", "k: \"True\"\n"},
      {"yes", "k: \"yes\"\n"},
      {"no", "k: \"no\"\n"},
      {"on", "k: \"on\"\n"},
      {"off", "k: \"off\"\n"},
      {"y", "k: \"y\"\n"},
      {"N", "k: \"N\"\n"},
      {"null", "k: \"null\"\n"},
      {"~", "k: \"~\"\n"},
      {"", "k: \"\"\n"},
      {"1", "k: \"1\"\n"},
      {"-1", "k: \"-1\"\n"},
      {"1.5", "k: \"1.5\"\n"},
      {"1e3", "k: \"1e3\"\n"},
      {"0x1F", "k: \"0x1F\"\n"},
      {"0o17", "k: \"0o17\"\n"},
      {"017", "k: \"017\"\n"},
      {"08", "k: \"08\"\n"},
      {"1_000", "k: \"1_000\"\n"},
      {".5", "k: \".5\"\n"},
      {".inf", "k: \".inf\"\n"},
      {"-.Inf", "k: \"-.Inf\"\n"},
      {".nan", "k: \".nan\"\n"},
      {"2001-12-14", "k: \"2001-12-14\"\n"},
      {"1:20", "k: \"1:20\"\n"},
      {"2024-01-01T00:00:00Z", "k: \"2024-01-01T00:00:00Z\"\n"},
      // Not plain-safe: single quotes.
      {"*", "k: '*'\n"},
      {"&a", "k: '&a'\n"},
      {"!x", "k: '!x'\n"},
      {"|", "k: '|'\n"},
      {">", "k: '>'\n"},
      {"'", "k: ''''\n"},
      {"it's", "k: it's\n"},
      {"\"", "k: '\"'\n"},
      {"%", "k: '%'\n"},
      {"@", "k: '@'\n"},
      {"`", "k: '`'\n"},
      {"#c", "k: '#c'\n"},
      {"a #c", "k: 'a #c'\n"},
      {"a: b", "k: 'a: b'\n"},
      {"a:", "k: 'a:'\n"},
      {"- a", "k: '- a'\n"},
      {"-", "k: '-'\n"},
      {"? a", "k: '? a'\n"},
      {"?", "k: '?'\n"},
      {": a", "k: ': a'\n"},
      {" lead", "k: ' lead'\n"},
      {"trail ", "k: 'trail '\n"},
      {"---", "k: '---'\n"},
      {"...", "k: '...'\n"},
      {"[a]", "k: '[a]'\n"},
      {"{a}", "k: '{a}'\n"},
      {",a", "k: ',a'\n"},
      // Plain-safe text stays plain.
      {"a#b", "k: a#b\n"},
      {"a:b", "k: a:b\n"},
      {"-a", "k: -a\n"},
      {"?a", "k: ?a\n"},
      {":a", "k: :a\n"},
      {"a,b", "k: a,b\n"},
      {"a]b", "k: a]b\n"},
      {"<<", "k: <<\n"},
      {"nginx:1.25", "k: nginx:1.25\n"},
      {"http://x/y?z=1", "k: http://x/y?z=1\n"},
      {"hello world", "k: hello world\n"},
      {"é ü", "k: é ü\n"},
      {"1.2.3", "k: 1.2.3\n"},
      {"-.inf2", "k: -.inf2\n"},
      {"0x", "k: 0x\n"},
      {"=", "k: =\n"},
      // Characters single quotes cannot hold: double quotes with escapes.
      {"a\tb", "k: \"a\\tb\"\n"},
      {"\x01", "k: \"\\x01\"\n"},
      {"a\rb", "k: \"a\\rb\"\n"},
      {"\xF0\x9F\x98\x80", "k: \"\\U0001F600\"\n"},
      {"a\xC2\x85"
       "b",
       "k: \"a\\Nb\"\n"},
      {"\xEF\xBB\xBFx", "k: \"\\uFEFF\\x78\"\n"},
      // Line feeds: literal block scalars with chomping and indentation indicators.
      {"a\nb", "k: |-\n  a\n  b\n"},
      {"a\nb\n", "k: |\n  a\n  b\n"},
      {"a\n\n", "k: |+\n  a\n\n"},
      {"\n", "k: |2+\n\n"},
      {" a\nb", "k: |2-\n   a\n  b\n"},
      {"\nx", "k: |2-\n\n  x\n"},
      {"a\n\nb", "k: |-\n  a\n\n  b\n"},
      {"a\n b", "k: |-\n  a\n   b\n"},
      {"\ta\nb", "k: \"\\ta\\nb\"\n"},
      {"x \ny", "k: \"x \\ny\"\n"},
      {"a\nb ", "k: \"a\\nb \"\n"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(MemberLine(c.in), c.line) << "string: " << c.in;
  }
  // Invalid UTF-8 becomes !!binary.
  EXPECT_EQ(MemberLine("\xff\xfe"), "k: !!binary //4=\n");
}

TEST(YamlWriterTest, KubectlKeys) {
  Value v = Value::EmptyObject();
  v.set("true", Value::Int(1));
  v.set("<<", Value::Int(2));
  v.set("", Value::Int(3));
  v.set("a: b", Value::Int(4));
  v.set("multi\nline", Value::Int(5));
  v.set(std::string(130, 'k'), Value::Array({Value::Int(1), Value::Int(2)}));
  v.set("m2", FromJson(R"({"x":1})"));
  v.set("t\nx", FromJson(R"({"x":1})"));
  EXPECT_EQ(ToString(v),
            "\"true\": 1\n"
            "\"<<\": 2\n"
            "\"\": 3\n"
            "'a: b': 4\n"
            "? |-\n  multi\n  line\n: 5\n"
            "? " +
                std::string(130, 'k') +
                "\n: - 1\n  - 2\n"
                "m2:\n  x: 1\n"
                "? |-\n  t\n  x\n: x: 1\n");
}

TEST(YamlWriterTest, KubectlNumbersUseJsonFormatting) {
  // JSON number text, except integral doubles beyond 2^53, which take Go's float form so that
  // they do not read back as a different exact integer.
  EXPECT_EQ(Kubectl("[1, -3, 1.5, 1e-7, 0.1, 3.0, -0.0, 1e20, 100000000000000000000]"),
            "- 1\n- -3\n- 1.5\n- 1e-7\n- 0.1\n- 3\n- -0\n- 1e+20\n- 1e+20\n");
}

TEST(YamlWriterTest, KubectlFoldsLongLinesAtSingleSpaces) {
  const char* json_text =
      R"({"status":{"conditions":[{"message":"0/3 nodes are available: 3 Insufficient cpu. )"
      R"(preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",)"
      R"("plain":"this is a long plain sentence without any special characters that goes on )"
      R"(and on past the limit","dq":"tab\there and a very long text with  double  spaces that )"
      R"(must be folded somewhere after eighty columns ok"}]}})";
  EXPECT_EQ(Kubectl(json_text),
            "status:\n"
            "  conditions:\n"
            "  - message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n"
            "      available: 3 No preemption victims found for incoming pod.'\n"
            "    plain: this is a long plain sentence without any special characters that goes\n"
            "      on and on past the limit\n"
            "    dq: \"tab\\there and a very long text with  double  spaces that must be folded "
            "somewhere\n"
            "      after eighty columns ok\"\n");
  // Keys are never folded; gojq never folds.
  std::string long_key(100, 'k');
  long_key += " and more words";
  Value v = Value::EmptyObject();
  v.set(long_key, Value::Int(1));
  EXPECT_EQ(ToString(v), long_key + ": 1\n");
  EXPECT_EQ(Gojq(json_text).find("nodes are\n"), std::string::npos);
}

// Expected outputs below were produced by `gojq --yaml-output` (gojq 0.12.11) on the same input.
TEST(YamlWriterTest, GojqStyleMatchesGojq) {
  EXPECT_EQ(
      Gojq(R"({"b":[1,"a",{"x":[],"y":{}}],"a":{"k":["true","1","","yes","on","null","*","- x",)"
           R"("a: b","#c"," lead","trail ","multi\nline","multi\nline\n","1.5","0x1F",)"
           R"("2001-12-14","1:20","x\ty","~","<<"]},"n":null,"f":1.5,"i":-3,"t":true})"),
      "a:\n  k:\n    - \"true\"\n    - \"1\"\n    - \"\"\n    - \"yes\"\n    - \"on\"\n    - "
      "\"null\"\n    - '*'\n    - '- x'\n    - 'a: b'\n    - '#c'\n    - ' lead'\n    - 'trail "
      "'\n    - |-\n      multi\n      line\n    - |\n      multi\n      line\n    - \"1.5\"\n   "
      " - \"0x1F\"\n    - \"2001-12-14\"\n    - \"1:20\"\n    - \"x\\ty\"\n    - \"~\"\n    - "
      "<<\nb:\n  - 1\n  - a\n  - x: []\n    \"y\": {}\nf: 1.5\ni: -3\n\"n\": null\nt: true\n");
  EXPECT_EQ(
      Gojq(R"({"b":[1,"a",{"x":[],"y":{}}],"a":{"k":["true","1","","yes","on","null","*","- x",)"
           R"("a: b","#c"," lead","trail ","multi\nline","multi\nline\n","1.5","0x1F",)"
           R"("2001-12-14","1:20","x\ty","~","<<"]},"n":null,"f":1.5,"i":-3,"t":true})",
           4),
      "a:\n    k:\n        - \"true\"\n        - \"1\"\n        - \"\"\n        - \"yes\"\n        "
      "- \"on\"\n        - \"null\"\n        - '*'\n        - '- x'\n        - 'a: b'\n        - "
      "'#c'\n        - ' lead'\n        - 'trail '\n        - |-\n          multi\n          "
      "line\n        - |\n          multi\n          line\n        - \"1.5\"\n        - "
      "\"0x1F\"\n        - \"2001-12-14\"\n        - \"1:20\"\n        - \"x\\ty\"\n        - "
      "\"~\"\n        - <<\nb:\n    - 1\n    - a\n    - x: []\n      \"y\": {}\nf: 1.5\ni: "
      "-3\n\"n\": null\nt: true\n");
  EXPECT_EQ(Gojq(R"({"a10":1,"a2":2,"a1b":3,"A":4,"_":5,"b":6,"a01":7,"a1":8,"a0":9,"1":10,)"
                 R"("10":11,"2":12,"-":14})"),
            "'-': 14\n_: 5\n\"1\": 10\n\"2\": 12\n\"10\": 11\nA: 4\na0: 9\na1: 8\na1b: 3\na01: "
            "7\na2: 2\na10: 1\nb: 6\n");
  EXPECT_EQ(Gojq("[1e20,1.0,0.30000000000000004,1e-7,-0.0,123456789.5,1000000.5,0.0001,100000.5]"),
            "- 1e+20\n- 1\n- 0.30000000000000004\n- 1e-07\n- -0\n- 1.234567895e+08\n- "
            "1.0000005e+06\n- 0.0001\n- 100000.5\n");
  const char* strings =
      R"({"a\nb":{"x":1},"m":"a\nb","lb":"\nx","tr":"a\n\n","u":"\u0001","bom":"\ufeffx",)"
      R"("nel":"a\u0085b","tab":"\tx\ny","e":"😀"})";
  EXPECT_EQ(Gojq(strings),
            "? |-\n  a\n  b\n: x: 1\nbom: \"\\uFEFF\\x78\"\ne: \"\\U0001F600\"\nlb: |2-\n  x\nm: "
            "|-\n  a\n  b\nnel: \"a\\Nb\"\ntab: |-\n  \tx\n  y\ntr: |+\n  a\n\nu: \"\\x01\"\n");
  EXPECT_EQ(Gojq(strings, 4),
            "? |-\n    a\n    b\n:   x: 1\nbom: \"\\uFEFF\\x78\"\ne: \"\\U0001F600\"\nlb: |4-\n  "
            "  x\nm: |-\n    a\n    b\nnel: \"a\\Nb\"\ntab: |-\n    \tx\n    y\ntr: |+\n    "
            "a\n\nu: \"\\x01\"\n");
  EXPECT_EQ(Gojq(R"({"x":[{"a":1,"b":[{"c":"d"}]},[{"e":{"f":[]}}]]})"),
            "x:\n  - a: 1\n    b:\n      - c: d\n  - - e:\n        f: []\n");
  EXPECT_EQ(Gojq(R"({"x":[{"a":1,"b":[{"c":"d"}]},[{"e":{"f":[]}}]]})", 4),
            "x:\n    - a: 1\n      b:\n        - c: d\n    - - e:\n            f: []\n");
  Value special = Value::Array(
      {Value::Double(HUGE_VAL), Value::Double(-HUGE_VAL), Value::Double(std::nan(""))});
  WriteOptions o;
  o.style = Style::kGojq;
  EXPECT_EQ(ToString(special, o), "- .inf\n- -.inf\n- .nan\n");
}

// ---- Round trips: Write then Parse gives an equal Value. ----

const char* const kTrickyStrings[] = {
    "",
    " ",
    "  ",
    "true",
    "True",
    "yes",
    "Y",
    "n",
    "on",
    "OFF",
    "~",
    "null",
    "Null",
    "1",
    "-1",
    "+1",
    "0",
    "-0",
    "0x1F",
    "0o17",
    "0b11",
    "017",
    "08",
    "1_000",
    "1e3",
    "1.5",
    ".5",
    "-.5",
    ".inf",
    "-.inf",
    ".nan",
    "1:20",
    "-1:20:30.5",
    "2001-12-14",
    "2001-12-14 21:59:43.10",
    "2001-12-14t21:59:43.10-05:00",
    "<<",
    "- a",
    "-",
    "--",
    "---",
    "...",
    "? x",
    "?",
    ": x",
    ":",
    "a: b",
    "a:",
    "a #b",
    "#",
    "a#b",
    "'",
    "''",
    "\"",
    "|",
    ">",
    "%",
    "@",
    "`",
    "!",
    "!!str",
    "&a",
    "*a",
    "[a]",
    "{a: 1}",
    "a,b",
    "a]b",
    "a\nb",
    "a\n",
    "a\n\n",
    "\n",
    "\n\n",
    "\nx",
    " x\ny",
    "x \ny",
    "a\n b",
    "a\n\n b\n",
    "\t",
    "a\tb",
    "\ta\nb",
    "é",
    "\xF0\x9F\x98\x80",
    "a\xE2\x80\xA8"
    "b",
    "a\xE2\x80\xA9"
    "b\nc",
    "a\xC2\x85"
    "b",
    "\r\n",
    "a\rb",
    "\x01",
    "\xEF\xBB\xBF"
    "bom",
    "k: v\n- x",
    "a\"b'c",
    "x: ",
    "null\n",
    "\xC2\xA0",
    "a\xC2\xA0",
    "#comment\nline",
    "  indented\n  block\n",
    "trailing spaces  \nnext",
    "\xff\xfe bytes",
    "a long sentence of ordinary words that keeps going well past the eighty column limit of it",
    "a long sentence: with a colon and words that keep going well past the eighty column limit",
    "tab\tand a long sentence of words with  double  spaces   and more that goes past eighty x",
    "spaces at the fold                                                  x    y     z      w  q",
    "- starts with a dash and then continues with many words past the eighty column limit now",
    "quote's inside a long sentence that continues with many words past the eighty column limit",
};

// Deterministic (seeded) generator of nested Values that favour text YAML treats specially.
class RandomValues {
 public:
  explicit RandomValues(uint32_t seed) : rng_(seed) {}

  Value Make(int depth) {
    int kind = Pick(depth > 0 ? 8 : 5);
    switch (kind) {
      case 0:
        return Value();
      case 1:
        return Value::Bool(Pick(2) == 1);
      case 2:
        return Number();
      case 3:
      case 4:
        return Value::String(String());
      case 5:
      case 6: {
        Value a = Value::EmptyArray();
        int n = Pick(5);
        for (int i = 0; i < n; ++i) a.push_back(Make(depth - 1));
        return a;
      }
      default: {
        Value o = Value::EmptyObject();
        int n = Pick(5);
        for (int i = 0; i < n; ++i) o.set(String(), Make(depth - 1));
        return o;
      }
    }
  }

  std::string String() {
    constexpr size_t kCount = sizeof(kTrickyStrings) / sizeof(kTrickyStrings[0]);
    switch (Pick(4)) {
      case 0:
      case 1:
        return kTrickyStrings[Pick(static_cast<int>(kCount))];
      case 2: {
        // Random text over characters that matter to YAML.
        static constexpr const char* kPieces[] = {
            "a",        "b",  "Z",    "0", "1",   "9",    " ",
            "  ",       "\n", "\t",   ":", "-",   "?",    "#",
            ",",        "[",  "]",    "{", "}",   "&",    "*",
            "!",        "|",  ">",    "'", "\"",  "%",    "@",
            "`",        ".",  "_",    "~", "\\",  "é",    "\xE2\x80\xA8",
            "\xC2\x85", "\r", "\x7f", "x", "yes", "null", "<<"};
        std::string s;
        int n = Pick(8);
        for (int i = 0; i < n; ++i) s += kPieces[Pick(sizeof(kPieces) / sizeof(kPieces[0]))];
        return s;
      }
      default: {
        std::string s = kTrickyStrings[Pick(static_cast<int>(kCount))];
        if (Pick(4) == 0) s = std::string(static_cast<size_t>(120 + Pick(20)), 'k') + s;
        return s + kTrickyStrings[Pick(static_cast<int>(kCount))];
      }
    }
  }

  Value Number() {
    switch (Pick(5)) {
      case 0:
        return Value::Int(static_cast<int64_t>(rng_()) - (int64_t{1} << 31));
      case 1:
        return Value::Int(static_cast<int64_t>((uint64_t{rng_()} << 32) | rng_()));
      case 2:
        return Value::Double(std::ldexp(static_cast<double>(rng_()), Pick(200) - 100));
      case 3:
        return Value::Double(-static_cast<double>(rng_()) / 7.0);
      default:
        return Value::Double(static_cast<double>(Pick(1000)) / 8.0);
    }
  }

  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }

 private:
  std::mt19937 rng_;
};

std::string Describe(const Value& v) {
  json::WriteOptions o;
  o.sort_keys = false;
  o.indent = 0;
  o.ascii = true;
  return json::ToString(v, o);
}

TEST(YamlWriterTest, KubectlOutputReadsBackEqual) {
  for (const char* s : kTrickyStrings) {
    Value v = Value::EmptyObject();
    v.set(s, Value::String(s));
    v.set("list", Value::Array({Value::String(s), Value::Array({Value::String(s)})}));
    std::string text = ToString(v);
    Result<Value> back = Parse(text);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
    EXPECT_EQ(*back, v) << text;
    // As the root, too.
    text = ToString(Value::String(s));
    back = Parse(text);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
    EXPECT_EQ(*back, Value::String(s)) << text;
  }
  RandomValues gen(12345);
  for (int i = 0; i < 3000; ++i) {
    Value v = gen.Make(4);
    WriteOptions o;
    o.sort_keys = i % 2 == 1;
    std::string text = ToString(v, o);
    Result<Value> back = Parse(text);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
    ASSERT_EQ(*back, v) << "yaml:\n"
                        << text << "json: " << Describe(v) << "\nback: " << Describe(*back);
    // Insertion order survives without sorting.
    if (!o.sort_keys) {
      EXPECT_EQ(Describe(*back), Describe(v)) << text;
    }
  }
}

// Also a tab first with a line feed later: go-yaml v3 writes a literal block whose first line
// starts with a tab, which libyaml rejects.
bool GojqCannotRoundTripText(std::string_view s) {
  return s.substr(0, 1) == "\n" ||
         (s.substr(0, 1) == "\t" && s.find('\n') != std::string_view::npos) ||
         s.substr(0, 3) == "\xE2\x80\xA8" || s.substr(0, 3) == "\xE2\x80\xA9";
}

// Whether v holds text go-yaml v3 does not write back faithfully.
bool GojqCannotRoundTrip(const Value& v) {
  if (v.is_string()) return GojqCannotRoundTripText(v.as_string());
  if (v.is_array()) {
    for (const Value& item : v.items()) {
      if (GojqCannotRoundTrip(item)) return true;
    }
  }
  if (v.is_object()) {
    for (const Member& m : v.members()) {
      // A plain "<<" key reads back as a merge key (gojq writes it plain).
      if (GojqCannotRoundTripText(m.key.as_string()) || m.key.as_string() == "<<" ||
          GojqCannotRoundTrip(m.value)) {
        return true;
      }
    }
  }
  return false;
}

TEST(YamlWriterTest, GojqOutputReadsBackEqualUnderGojqSchema) {
  // Values gojq itself cannot round-trip are left out (see GojqCannotRoundTrip).
  RandomValues gen(777);
  ReadOptions ro;
  ro.schema = Schema::kGojq;
  WriteOptions wo;
  wo.style = Style::kGojq;
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    Value v = gen.Make(4);
    std::string text = ToString(v, wo);
    if (GojqCannotRoundTrip(v)) continue;
    Result<Value> back = Parse(text, ro);
    ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
    ASSERT_EQ(*back, v) << "yaml:\n"
                        << text << "json: " << Describe(v) << "\nback: " << Describe(*back);
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

bool AllValidUtf8(const Value& v) {
  if (v.is_string()) return text::IsValidUtf8(v.as_string());
  if (v.is_array()) {
    for (const Value& item : v.items()) {
      if (!AllValidUtf8(item)) return false;
    }
  }
  if (v.is_object()) {
    for (const Member& m : v.members()) {
      if (!text::IsValidUtf8(m.key.as_string()) || !AllValidUtf8(m.value)) return false;
    }
  }
  return true;
}

// Numbers whose JSON text gojq reads back as the same kind: no integral doubles (their JSON
// text reads back as an integer in gojq) and no huge ones (gojq keeps those as big integers).
Value SmallNumbers(const Value& v) {
  if (v.is_number() && !v.is_integer() &&
      (std::fabs(v.as_double()) >= 1e15 || std::trunc(v.as_double()) == v.as_double())) {
    return Value::Double(std::fmod(v.as_double(), 1000.0) + 0.5);
  }
  if (v.is_array()) {
    Value out = Value::EmptyArray();
    for (const Value& item : v.items()) out.push_back(SmallNumbers(item));
    return out;
  }
  if (v.is_object()) {
    Value out = Value::EmptyObject();
    for (const Member& m : v.members()) out.set(m.key.as_string(), SmallNumbers(m.value));
    return out;
  }
  return v;
}

// Differential test against the installed gojq binary (skipped when it is not installed).
TEST(YamlWriterTest, GojqStyleMatchesTheGojqBinaryOnRandomValues) {
  if (std::system("gojq --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "gojq not installed";
  std::string dir = ::testing::TempDir();
  std::string input_path = dir + "/wmap_yaml_writer_diff.json";
  for (int indent : {2, 4}) {
    RandomValues gen(static_cast<uint32_t>(4242 + indent));
    WriteOptions wo;
    wo.style = Style::kGojq;
    wo.indent = indent;
    std::string json_lines;
    std::string expected;
    int count = 0;
    while (count < 300) {
      Value v = SmallNumbers(gen.Make(4));
      if (!AllValidUtf8(v)) continue;
      json_lines += json::ToCompactString(v) + "\n";
      if (count++ > 0) expected += "---\n";
      expected += ToString(v, wo);
    }
    {
      std::ofstream f(input_path, std::ios::binary);
      f << json_lines;
    }
    std::string command =
        "gojq --yaml-output --indent " + std::to_string(indent) + " . " + input_path;
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string actual;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) actual.append(buf, n);
    ASSERT_EQ(pclose(pipe), 0);
    // Compare document by document for a readable failure.
    size_t a = 0, e = 0;
    int doc = 0;
    while (a < actual.size() || e < expected.size()) {
      size_t an = actual.find("\n---\n", a);
      size_t en = expected.find("\n---\n", e);
      std::string ad = actual.substr(a, an == std::string::npos ? std::string::npos : an - a);
      std::string ed = expected.substr(e, en == std::string::npos ? std::string::npos : en - e);
      ASSERT_EQ(ed, ad) << "document " << doc << " with indent " << indent;
      if (an == std::string::npos || en == std::string::npos) {
        ASSERT_EQ(an, en);
        break;
      }
      a = an + 5;
      e = en + 5;
      ++doc;
    }
  }
  std::remove(input_path.c_str());
}

// The gojq schema reads what the gojq binary reads from the same text (documents written in
// gojq style, so every key is a string and no timestamp is plain).
TEST(YamlWriterTest, GojqSchemaReadsLikeTheGojqBinary) {
  if (std::system("gojq --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "gojq not installed";
  std::string input_path = ::testing::TempDir() + "/wmap_yaml_reader_diff.yaml";
  RandomValues gen(99);
  WriteOptions wo;
  wo.style = Style::kGojq;
  std::string yaml_text;
  int count = 0;
  while (count < 300) {
    Value v = SmallNumbers(gen.Make(4));
    if (!AllValidUtf8(v) || GojqCannotRoundTrip(v)) continue;
    if (count++ > 0) yaml_text += "---\n";
    yaml_text += ToString(v, wo);
  }
  {
    std::ofstream f(input_path, std::ios::binary);
    f << yaml_text;
  }
  std::string command = "gojq --yaml-input -c . " + input_path;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string actual;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) actual.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0);
  ReadOptions ro;
  ro.schema = Schema::kGojq;
  Result<std::vector<Document>> docs = ParseStream(yaml_text, ro);
  ASSERT_TRUE(docs.ok()) << docs.error().message;
  ASSERT_EQ(docs->size(), 300u);
  size_t pos = 0;
  for (size_t i = 0; i < docs->size(); ++i) {
    size_t end = actual.find('\n', pos);
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(json::ToCompactString((*docs)[i].value), actual.substr(pos, end - pos))
        << "document " << i;
    pos = end + 1;
  }
  std::remove(input_path.c_str());
}

TEST(YamlWriterTest, DeepValuesDoNotExhaustTheStack) {
  Value v = Value::Int(1);
  for (int i = 0; i < 100000; ++i) v = Value::Array({v});
  std::string text = ToString(v);
  EXPECT_EQ(text.substr(0, 6), "- - - ");
  EXPECT_EQ(text.size(), 100000u * 2 + 2);
}

}  // namespace
}  // namespace wmap::yaml
