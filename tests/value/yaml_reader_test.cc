#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::yaml {
namespace {

// Compact JSON in insertion order, so tests see key order too.
std::string Json(const Value& v) {
  json::WriteOptions o;
  o.indent = 0;
  o.sort_keys = false;
  return json::ToString(v, o);
}

// The single document of text as compact JSON, or "error: <message>".
std::string Read(std::string_view text, Schema schema = Schema::kKubernetes) {
  ReadOptions o;
  o.schema = schema;
  Result<Value> r = Parse(text, o);
  if (!r.ok()) return "error: " + r.error().message;
  return Json(*r);
}

// The value of key "v" in "v: <scalar>".
std::string Scalar(std::string_view scalar, Schema schema = Schema::kKubernetes) {
  std::string text = "v: " + std::string(scalar) + "\n";
  std::string out = Read(text, schema);
  if (out.rfind("error: ", 0) == 0) return out;
  // {"v":X} -> X
  return out.substr(5, out.size() - 6);
}

struct ScalarCase {
  const char* yaml;
  const char* json;
};

TEST(YamlReaderTest, KubernetesScalarResolution) {
  const ScalarCase cases[] = {
      // Nulls.
      {"null", "null"},
      {"Null", "null"},
      {"NULL", "null"},
      {"~", "null"},
      {"", "null"},
      {"nULL", "\"nULL\""},
      // YAML 1.1 booleans as go-yaml v2 resolves them.
      {"true", "true"},
      {"True", "true"},
      {"TRUE", "true"},
      {"false", "false"},
      {"False", "false"},
      {"FALSE", "false"},
      {"yes", "true"},
      {"Yes", "true"},
      {"YES", "true"},
      {"no", "false"},
      {"No", "false"},
      {"NO", "false"},
      {"on", "true"},
      {"On", "true"},
      {"ON", "true"},
      {"off", "false"},
      {"Off", "false"},
      {"OFF", "false"},
      {"y", "true"},
      {"Y", "true"},
      {"n", "false"},
      {"N", "false"},
      {"yES", "\"yES\""},
      {"tRUE", "\"tRUE\""},
      // Integers: Go syntax after removing underscores.
      {"0", "0"},
      {"12", "12"},
      {"-12", "-12"},
      {"+12", "12"},
      {"1_000", "1000"},
      {"0x1F", "31"},
      {"0X1f", "31"},
      {"-0x1F", "-31"},
      {"0o17", "15"},
      {"0b101", "5"},
      {"-0b101", "-5"},
      {"017", "15"},
      {"-017", "-15"},
      {"0x_1F", "31"},
      {"9223372036854775807", "9223372036854775807"},
      {"-9223372036854775808", "-9223372036854775808"},
      // Not integers.
      {"0x", "\"0x\""},
      {"0o", "\"0o\""},
      {"1e", "\"1e\""},
      {"+", "\"+\""},
      {"-x", "\"-x\""},
      {"_1", "\"_1\""},
      {"1-2", "\"1-2\""},
      {"0xG", "\"0xG\""},
      // Floats (08 is not octal, so it reads as the float 8).
      {"08", "8"},
      {"1.5", "1.5"},
      {"-1.5", "-1.5"},
      {".5", "0.5"},
      {"-.5", "-0.5"},
      {"+.5", "0.5"},
      {"1.", "1"},
      {"1e3", "1000"},
      {"1E+3", "1000"},
      {"1_0.5", "10.5"},
      {"6.02e23", "6.02e+23"},
      {"._5", "\"._5\""},
      {".", "\".\""},
      {"1e400", "\"1e400\""},
      // Timestamps and sexagesimal numbers stay strings.
      {"2001-12-14", "\"2001-12-14\""},
      {"2001-12-14t21:59:43.10-05:00", "\"2001-12-14t21:59:43.10-05:00\""},
      {"1:20", "\"1:20\""},
      // Quoted scalars are strings.
      {"\"true\"", "\"true\""},
      {"'12'", "\"12\""},
      {"\"\"", "\"\""},
      {"'~'", "\"~\""},
      // Explicit tags.
      {"!!str 12", "\"12\""},
      {"!!str true", "\"true\""},
      {"!!int \"12\"", "12"},
      {"!!float 3", "3"},
      {"!!float .5", "0.5"},
      {"!!bool yes", "true"},
      {"!!null ~", "null"},
      {"!!binary aGVsbG8=", "\"hello\""},
      {"!!timestamp 2001-01-01", "\"2001-01-01\""},
      {"! 12", "\"12\""},
      {"!custom 12", "\"12\""},
      // Other plain text.
      {"<<", "\"<<\""},
      {"hello world", "\"hello world\""},
      {".inf2", "\".inf2\""},
  };
  for (const ScalarCase& c : cases) {
    EXPECT_EQ(Scalar(c.yaml), c.json) << "scalar: " << c.yaml;
  }
}

TEST(YamlReaderTest, IntegersKeepExactRepresentation) {
  Result<Value> r = Parse("a: 12\nb: 1.0\nc: 18446744073709551615\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->find("a")->is_integer());
  EXPECT_FALSE(r->find("b")->is_integer());
  EXPECT_DOUBLE_EQ(r->find("c")->as_double(), 18446744073709551615.0);
}

TEST(YamlReaderTest, TagMismatchIsAnError) {
  EXPECT_EQ(Scalar("!!int abc"),
            "error: yaml: line 1, column 4: cannot decode !!str `abc` as a !!int");
  EXPECT_EQ(Scalar("!!bool 1"),
            "error: yaml: line 1, column 4: cannot decode !!int `1` as a !!bool");
  EXPECT_EQ(Scalar("!!binary abc"),
            "error: yaml: line 1, column 4: !!binary value contains invalid base64 data");
}

TEST(YamlReaderTest, InfinityAndNanAreErrorsForKubernetes) {
  for (const char* s : {".inf", "-.Inf", "+.INF", ".nan", ".NaN"}) {
    std::string out = Scalar(s);
    EXPECT_NE(out.find("cannot be represented in JSON"), std::string::npos) << s << ": " << out;
    EXPECT_NE(out.find("line 1, column 4"), std::string::npos) << out;
  }
  EXPECT_EQ(Read("x: &a .inf\n"),
            "error: yaml: line 1, column 4: `.inf` cannot be represented in "
            "JSON (no infinity or NaN)");
}

TEST(YamlReaderTest, GojqSchemaScalarResolution) {
  // Expected values come from `gojq --yaml-input -c .v` (0.12.11), except for timestamps and
  // negative zero, where gojq's test suite (v0.12.19, cli/test.yaml) specifies newer behaviour.
  const ScalarCase cases[] = {
      {"yes", "\"yes\""},
      {"on", "\"on\""},
      {"y", "\"y\""},
      {"True", "true"},
      {"0o17", "15"},
      {"017", "15"},
      {"08", "8"},
      {"0b11", "3"},
      {"-0o17", "-15"},
      {"1_000", "1000"},
      {"1e3", "1000"},
      {"1:20", "\"1:20\""},
      {"! 12", "12"},
      {"! \"12\"", "\"12\""},
      {"!foo 12", "\"12\""},
      {"!!int \"12\"", "12"},
      {"1e400", "\"1e400\""},
      {"!!null ~", "null"},
      {"-0", "-0"},
      {"-0.0", "-0"},
      // test.yaml "yaml input option with timestamps".
      {"2021-01-02", "\"2021-01-02\""},
      {"2021-01-02t10:11:12Z", "\"2021-01-02t10:11:12Z\""},
      {"\"2021-01-02\"", "\"2021-01-02\""},
      {"!!timestamp 2021-01-02", "\"2021-01-02\""},
  };
  for (const ScalarCase& c : cases) {
    EXPECT_EQ(Scalar(c.yaml, Schema::kGojq), c.json) << "scalar: " << c.yaml;
  }
  EXPECT_EQ(Scalar("!!timestamp abc", Schema::kGojq),
            "error: yaml: line 1, column 4: cannot decode !!str `abc` as a !!timestamp");
  Result<Value> r = Parse("a: .inf\nb: -.Inf\nc: .nan\n", ReadOptions{Schema::kGojq});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(std::isinf(r->find("a")->as_double()) && r->find("a")->as_double() > 0);
  EXPECT_TRUE(std::isinf(r->find("b")->as_double()) && r->find("b")->as_double() < 0);
  EXPECT_TRUE(std::isnan(r->find("c")->as_double()));
}

TEST(YamlReaderTest, MappingKeysBecomeStrings) {
  EXPECT_EQ(Read("1: a\n-2: b\n0x10: c\ntrue: d\nno: e\n1.5: f\n0.1: g\n3.14159265358979: h\n"
                 "1e20: i\n.inf: j\n-.inf: k\n\"q\": l\n"),
            R"({"1":"a","-2":"b","16":"c","true":"d","false":"e","1.5":"f","0.1":"g",)"
            R"("3.1415927":"h","1e+20":"i",".inf":"j","-.inf":"k","q":"l"})");
  EXPECT_EQ(Read("~: a\n"), "error: yaml: line 1, column 1: unsupported map key: null");
  EXPECT_EQ(
      Read("? [1]\n: a\n"),
      "error: yaml: line 1, column 3: invalid map key: a mapping or sequence cannot be a key");
  EXPECT_EQ(
      Read("? {a: 1}\n: a\n"),
      "error: yaml: line 1, column 3: invalid map key: a mapping or sequence cannot be a key");
  // gojq: the key text as written (test.yaml "yaml input option with non-string keys"); a null
  // key drops its member.
  EXPECT_EQ(Read("foo:\n  - 42.10: bar\n", Schema::kGojq), R"({"foo":[{"42.10":"bar"}]})");
  EXPECT_EQ(Read("~: 2\n1.50: 3\nTrue: 4\n.inf: 5\n0x1F: 6\n!!binary aGk=: 7\n&a x1: 8\n*a : 9\n",
                 Schema::kGojq),
            "error: yaml: line 8, column 1: mapping key \"x1\" already defined at line 7");
  EXPECT_EQ(Read("~: 2\n1.50: 3\nTrue: 4\n.inf: 5\n0x1F: 6\n!!binary aGk=: 7\nb: &a x1\n*a : 9\n",
                 Schema::kGojq),
            R"({"1.50":3,"True":4,".inf":5,"0x1F":6,"hi":7,"b":"x1","x1":9})");
}

TEST(YamlReaderTest, DuplicateKeys) {
  // Kubernetes (go-yaml v2, non-strict): the last value wins, at the first key's position.
  EXPECT_EQ(Read("a: 1\nb: 2\na: 3\n"), R"({"a":3,"b":2})");
  EXPECT_EQ(Read("a: 1\na: 2\n", Schema::kGojq),
            "error: yaml: line 2, column 1: mapping key \"a\" already defined at line 1");
}

TEST(YamlReaderTest, MergeKeys) {
  const char* text =
      "base: &b {a: 1, c: 3}\n"
      "over: &o {a: 10, d: 4}\n"
      "after: {<<: *b, a: 2}\n"
      "before: {a: 2, <<: *b}\n"
      "list: {<<: [*b, *o], e: 5}\n"
      "inline:\n"
      "  <<:\n"
      "    x: 1\n"
      "  w: 2\n"
      "tagged: {!!merge <<: *b}\n"
      "quoted: {'<<': 1}\n";
  EXPECT_EQ(Read(text), R"({"base":{"a":1,"c":3},"over":{"a":10,"d":4},"after":{"a":2,"c":3},)"
                        R"("before":{"a":1,"c":3},"list":{"a":1,"d":4,"c":3,"e":5},)"
                        R"("inline":{"x":1,"w":2},"tagged":{"a":1,"c":3},"quoted":{"<<":1}})");
  // go-yaml v3 (gojq): explicit keys always win; earlier mappings of a list win.
  EXPECT_EQ(Read(text, Schema::kGojq),
            R"({"base":{"a":1,"c":3},"over":{"a":10,"d":4},"after":{"a":2,"c":3},)"
            R"("before":{"a":2,"c":3},"list":{"e":5,"a":1,"c":3,"d":4},)"
            R"("inline":{"w":2,"x":1},"tagged":{"a":1,"c":3},"quoted":{"<<":1}})");
  EXPECT_EQ(Read("a: {<<: 1}\n"),
            "error: yaml: line 1, column 9: map merge requires map or sequence of maps as the "
            "value");
  EXPECT_EQ(Read("a: {<<: [{x: 1}, 2]}\n"),
            "error: yaml: line 1, column 9: map merge requires map or sequence of maps as the "
            "value");
}

TEST(YamlReaderTest, AnchorsAndAliases) {
  EXPECT_EQ(Read("a: &x [1, 2]\nb: *x\nc: &s str\nd: *s\n*s : k\n"),
            R"({"a":[1,2],"b":[1,2],"c":"str","d":"str","str":"k"})");
  EXPECT_EQ(Read("a: *nope\n"), "error: yaml: line 1, column 4: unknown anchor 'nope' referenced");
  EXPECT_EQ(Read("a: &x [1, *x]\n"),
            "error: yaml: line 1, column 11: anchor 'x' value contains itself");
  // Anchors do not cross documents.
  Result<std::vector<Document>> r = ParseStream("a: &x 1\n---\nb: *x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "yaml: line 3, column 4: unknown anchor 'x' referenced");
}

TEST(YamlReaderTest, BillionLaughsFailsFast) {
  std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    text += std::string(1, c) + ": &" + std::string(1, c) + " [";
    for (int i = 0; i < 10; ++i) text += (i ? ", *" : "*") + prev;
    text += "]\n";
  }
  auto start = std::chrono::steady_clock::now();
  Result<Value> r = Parse(text);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("document contains excessive aliasing"), std::string::npos)
      << r.error().message;
  EXPECT_TRUE(r.error().position.known());
  EXPECT_LT(seconds, 1.0);
  // A small, legitimate amount of aliasing passes; the budget is configurable.
  ReadOptions small;
  small.max_alias_expansion = 5;
  EXPECT_TRUE(Parse("a: &a [1, 2]\nb: *a\n", small).ok());
  EXPECT_FALSE(Parse("a: &a [1, 2]\nb: *a\nc: *a\n", small).ok());
}

TEST(YamlReaderTest, DeepNestingIsAnError) {
  // Block nesting at the default limit.
  std::string block;
  for (int i = 0; i < 20000; ++i) block += "- ";
  Result<Value> r = Parse(block + "x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("exceeded max depth of 10000"), std::string::npos)
      << r.error().message;

  // Flow nesting (libyaml's cost grows with the square of the flow depth, so a lower limit
  // keeps this fast).
  ReadOptions o;
  o.max_depth = 1000;
  r = Parse(std::string(200000, '['), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "yaml: line 1, column 1001: exceeded max depth of 1000");
  EXPECT_EQ(r.error().position.column, 1001);
  r = Parse(std::string(100000, '{'), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("exceeded max depth of 1000"), std::string::npos);

  // Exactly at the limit is fine.
  o.max_depth = 3;
  EXPECT_EQ(Json(*Parse("[[[1]]]", o)), "[[[1]]]");
  EXPECT_EQ(Json(*Parse("a:\n  b:\n    c: 1\n", o)), R"({"a":{"b":{"c":1}}})");
  EXPECT_FALSE(Parse("[[[[1]]]]", o).ok());
  EXPECT_FALSE(Parse("a:\n  b:\n    c:\n      d: 1\n", o).ok());
}

TEST(YamlReaderTest, SyntaxErrorsCarryLineAndColumn) {
  Result<Value> r = Parse("a: 1\nb: c: d\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "yaml: line 2, column 5: mapping values are not allowed in this context");
  EXPECT_EQ(r.error().position.line, 2);
  EXPECT_EQ(r.error().position.column, 5);
  EXPECT_EQ(r.error().position.offset, 9u);

  r = Parse("a: 1\nb: [1, 2\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "yaml: line 3, column 1: did not find expected ',' or ']' (while parsing a flow "
            "sequence at line 2, column 4)");
  // The same, as fields: front ends lay the error out without reading the message.
  EXPECT_EQ(r.error().problem, "did not find expected ',' or ']'");
  EXPECT_EQ(r.error().context, "while parsing a flow sequence");
  EXPECT_EQ(r.error().context_position.line, 2);
  EXPECT_EQ(r.error().context_position.column, 4);
  EXPECT_EQ(ErrorWithoutLocation(r.error()),
            "did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 4)");

  r = Parse("key: value\n  bad: indent\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().position.line, 2);

  // Columns count bytes, not characters.
  r = Parse("é: ü: x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().position.column, 7) << r.error().message;

  // Invalid UTF-8 is a reader error with the byte position.
  r = Parse("a: b\nc: \xff\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().position.line, 2);
  EXPECT_EQ(r.error().position.column, 4);
  EXPECT_NE(r.error().message.find("UTF-8"), std::string::npos) << r.error().message;
}

TEST(YamlReaderTest, MultiDocumentStreams) {
  Result<std::vector<Document>> r = ParseStream("---\na: 1\n---\n---\n- 2\n--- ~\n...\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);  // the empty document is skipped
  EXPECT_EQ(Json((*r)[0].value), R"({"a":1})");
  EXPECT_EQ(Json((*r)[1].value), "[2]");
  EXPECT_EQ(Json((*r)[2].value), "null");
  EXPECT_EQ((*r)[1].start.line, 5);
  EXPECT_EQ((*r)[2].start.line, 6);
  EXPECT_EQ((*r)[2].start.column, 5);

  // gojq keeps empty documents as null.
  ReadOptions gojq;
  gojq.schema = Schema::kGojq;
  r = ParseStream("---\n---\na: 1\n--- ~\n---\n# c\n", gojq);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ(Json((*r)[1].value), R"({"a":1})");

  r = ParseStream("");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
  r = ParseStream("# only a comment\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());

  // Parse wants exactly one document.
  EXPECT_EQ(Read(""), "null");
  EXPECT_EQ(Read("a: 1\n---\n"), R"({"a":1})");
  EXPECT_EQ(Read("a: 1\n---\nb: 2\n"),
            "error: yaml: line 3, column 1: expected a single document in the stream");
}

TEST(YamlReaderTest, StreamReaderDeliversDocumentsThenStops) {
  StreamReader reader("a: 1\n---\nb: [\n");
  Document doc;
  Error error;
  ASSERT_TRUE(reader.Next(&doc, &error));
  EXPECT_TRUE(error.message.empty());
  EXPECT_EQ(Json(doc.value), R"({"a":1})");
  ASSERT_TRUE(reader.Next(&doc, &error));
  EXPECT_FALSE(error.message.empty());
  EXPECT_FALSE(reader.Next(&doc, &error));
}

TEST(YamlReaderTest, PositionsOfEveryNode) {
  ReadOptions o;
  o.record_positions = true;
  const char* text =
      "apiVersion: v1\n"        // 1
      "spec:\n"                 // 2
      "  replicas: 3\n"         // 3
      "  containers:\n"         // 4
      "  - name: app\n"         // 5
      "    args: [a, \"b\"]\n"  // 6
      "  a/b~c: x\n"            // 7
      "  m: {<<: {z: 1}}\n";    // 8
  Result<std::vector<Document>> r = ParseStream(text, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& pos = (*r)[0].positions;
  auto at = [&](const std::string& path) {
    auto it = pos.find(path);
    if (it == pos.end()) return std::string("missing");
    return std::to_string(it->second.line) + ":" + std::to_string(it->second.column);
  };
  EXPECT_EQ(at(""), "1:1");
  EXPECT_EQ(at("/apiVersion"), "1:1");
  EXPECT_EQ(at("/spec"), "2:1");
  EXPECT_EQ(at("/spec/replicas"), "3:3");
  EXPECT_EQ(at("/spec/containers"), "4:3");
  EXPECT_EQ(at("/spec/containers/0"), "5:5");
  EXPECT_EQ(at("/spec/containers/0/name"), "5:5");
  EXPECT_EQ(at("/spec/containers/0/args"), "6:5");
  EXPECT_EQ(at("/spec/containers/0/args/0"), "6:12");
  EXPECT_EQ(at("/spec/containers/0/args/1"), "6:15");
  EXPECT_EQ(at("/spec/a~1b~0c"), "7:3");
  EXPECT_EQ(at("/spec/m"), "8:3");
  EXPECT_EQ(at("/spec/m/z"), "missing");  // merged members have no position of their own
  EXPECT_EQ(pos.size(), 12u);
  EXPECT_EQ(pos.at("/spec/replicas").offset, 23u);

  // Without the option nothing is recorded.
  r = ParseStream(text);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE((*r)[0].positions.empty());
}

TEST(YamlReaderTest, ByteOrderMarkAndCrLf) {
  EXPECT_EQ(Read("\xEF\xBB\xBF"
                 "a: 1\r\nb:\r\n  - x\r\n"),
            R"({"a":1,"b":["x"]})");
  ReadOptions o;
  o.record_positions = true;
  Result<std::vector<Document>> r = ParseStream(
      "\xEF\xBB\xBF"
      "a: 1\r\nb:\r\n  - x\r\n",
      o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].positions.at("/a").offset, 3u);  // columns and offsets count the mark's bytes
  EXPECT_EQ((*r)[0].positions.at("/b/0").line, 3);
  EXPECT_EQ((*r)[0].positions.at("/b/0").column, 5);
  Result<Value> bad = Parse(
      "\xEF\xBB\xBF"
      "a: 1\nb: \xFF\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().position.line, 2);
  EXPECT_EQ(bad.error().position.column, 4);
}

TEST(YamlReaderTest, BlockScalarsAndFolding) {
  EXPECT_EQ(Read("a: |\n  x\n  y\nb: >\n  x\n  y\nc: |-\n  z\nd: |+\n  w\n\ne: 1\n"),
            R"({"a":"x\ny\n","b":"x y\n","c":"z","d":"w\n\n","e":1})");
  EXPECT_EQ(Read("a: 'it''s'\nb: \"\\t\\u00e9\"\nc: plain text # comment\n"),
            R"({"a":"it's","b":"\té","c":"plain text"})");
}

TEST(YamlReaderTest, ReadsAKubernetesObject) {
  // Kubernetes-shaped input: a Deployment with the usual quoting conventions.
  const char* text =
      "apiVersion: apps/v1\n"
      "kind: Deployment\n"
      "metadata:\n"
      "  annotations:\n"
      "    deployment.kubernetes.io/revision: \"1\"\n"
      "  creationTimestamp: \"2024-01-01T00:00:00Z\"\n"
      "  labels: {app: web}\n"
      "spec:\n"
      "  replicas: 3\n"
      "  template:\n"
      "    spec:\n"
      "      containers:\n"
      "      - image: nginx:1.25\n"
      "        ports:\n"
      "        - containerPort: 80\n"
      "          protocol: TCP\n";
  EXPECT_EQ(Read(text), R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":)"
                        R"({"deployment.kubernetes.io/revision":"1"},"creationTimestamp":)"
                        R"("2024-01-01T00:00:00Z","labels":{"app":"web"}},"spec":{"replicas":3,)"
                        R"("template":{"spec":{"containers":[{"image":"nginx:1.25","ports":)"
                        R"([{"containerPort":80,"protocol":"TCP"}]}]}}}})");
}

}  // namespace
}  // namespace wmap::yaml
