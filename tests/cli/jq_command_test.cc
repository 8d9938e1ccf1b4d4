#include "cli/jq_command.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/source_error.h"
#include "golden_support.h"

namespace wmap::cli {
namespace {

using golden::Outcome;
using golden::TempFile;

// `wmap ARGS...` in-process with `input` on standard input and exactly the environment `env`.
Outcome RunWmap(const std::vector<std::string>& args, const std::string& input = "",
                const std::vector<std::string>& env = golden::DefaultEnv()) {
  return golden::Run(args, input, env);
}

TEST(MainTest, VersionHelpAndUnknownCommand) {
  EXPECT_EQ(RunWmap({"--version"}).out, "wmap 0.1.0\n");
  Outcome help = RunWmap({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("jq"), std::string::npos);
  Outcome jq_help = RunWmap({"help", "jq"});
  EXPECT_EQ(jq_help.code, 0);
  EXPECT_NE(jq_help.out.find("--yaml-input"), std::string::npos);
  Outcome unknown = RunWmap({"frobnicate"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown command \"frobnicate\""), std::string::npos);
  EXPECT_NE(unknown.err.find("wmap --help"), std::string::npos);
}

TEST(JqCommandTest, FiltersJsonStream) {
  Outcome o = RunWmap({"jq", "-c", ".a"}, "{\"a\":[1,2]} {\"a\":\"x\"}");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "[1,2]\n\"x\"\n");
}

TEST(JqCommandTest, RawJoinAndNulOutput) {
  EXPECT_EQ(RunWmap({"jq", "-r", ".[]"}, "[\"a\",1]").out, "a\n1\n");
  EXPECT_EQ(RunWmap({"jq", "-j", ".[]"}, "[\"a\",1]").out, "a1");
  EXPECT_EQ(RunWmap({"jq", "--raw-output0", ".[]"}, "[\"a\",1]").out, std::string("a\0001\000", 4));
}

TEST(JqCommandTest, NullInputSlurpAndRawInput) {
  EXPECT_EQ(RunWmap({"jq", "-n", "-c", "[inputs]"}, "1 2 3").out, "[1,2,3]\n");
  EXPECT_EQ(RunWmap({"jq", "-s", "-c", "."}, "1 2").out, "[1,2]\n");
  EXPECT_EQ(RunWmap({"jq", "-R", "."}, "a\nb").out, "\"a\"\n\"b\"\n");
  EXPECT_EQ(RunWmap({"jq", "-Rs", "."}, "a\nb\n").out, "\"a\\nb\\n\"\n");
}

TEST(JqCommandTest, Arguments) {
  Outcome o = RunWmap({"jq", "-n", "-c", "--arg", "a", "1", "--argjson", "b", "{\"x\":2}",
                       "[$a, $b, $ARGS.named]"});
  EXPECT_EQ(o.out, "[\"1\",{\"x\":2},{\"a\":\"1\",\"b\":{\"x\":2}}]\n") << o.err;
  EXPECT_EQ(RunWmap({"jq", "-n", "-c", "$ARGS.positional", "--jsonargs", "1", "{}"}).out,
            "[1,{}]\n");
}

TEST(JqCommandTest, ExitCodes) {
  EXPECT_EQ(RunWmap({"jq", "-e", "."}, "null").code, 1);
  EXPECT_EQ(RunWmap({"jq", "-e", "empty"}, "1").code, 4);
  EXPECT_EQ(RunWmap({"jq", "-e", "."}, "1").code, 0);
  Outcome runtime = RunWmap({"jq", ".[]"}, "1");
  EXPECT_EQ(runtime.code, 5);
  EXPECT_EQ(runtime.err.rfind("wmap: ", 0), 0u) << runtime.err;
  EXPECT_EQ(RunWmap({"jq", "1 +"}, "1").code, 3);
  EXPECT_EQ(RunWmap({"jq", "--qqq"}, "1").code, 2);
  Outcome missing = RunWmap({"jq", "# only a comment"});
  EXPECT_EQ(missing.code, 3);
  EXPECT_EQ(missing.err, "wmap: compile error: missing query (try \".\")\n");
}

TEST(JqCommandTest, ValuesSpanningReadChunks) {
  // Several MiB of values, so that values straddle the 1 MiB read boundaries.
  std::string input;
  int64_t expected = 0;
  for (int i = 0; i < 200000; ++i) {
    input += "{\"n\":" + std::to_string(i) + ",\"pad\":\"xxxxxxxx\"}\n";
    expected += i;
  }
  Outcome o = RunWmap({"jq", "-n", "reduce inputs.n as $n (0; . + $n)"}, input);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, std::to_string(expected) + "\n");
  Outcome lines = RunWmap({"jq", "-R", "-n", "[inputs] | length"}, input);
  EXPECT_EQ(lines.out, "200000\n");
}

TEST(JqCommandTest, InvalidJsonInputReportsTheLine) {
  Outcome o = RunWmap({"jq", "."}, "[0\n,[\n");
  EXPECT_EQ(o.code, 5);
  EXPECT_EQ(o.err.rfind("wmap: invalid json: <stdin>:2\n", 0), 0u) << o.err;
}

TEST(JqCommandTest, YamlInputAndOutput) {
  Outcome o = RunWmap({"jq", "--yaml-input", "--yaml-output", "."}, "a: 1\n---\nb: [x]\n");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "a: 1\n---\nb:\n  - x\n");
}

TEST(JqCommandTest, EnvironmentIsPassed) {
  const std::vector<std::string> env = {"WMAP_TEST_VAR=hello"};
  EXPECT_EQ(RunWmap({"jq", "-n", "-r", "$ENV.WMAP_TEST_VAR, env.WMAP_TEST_VAR"}, "", env).out,
            "hello\nhello\n");
}

TEST(JqCommandTest, InputFilename) {
  TempFile file("{\"a\":1}");
  Outcome o = RunWmap({"jq", "input_filename", file.path()});
  EXPECT_EQ(o.out, "\"" + file.path() + "\"\n") << o.err;
  EXPECT_EQ(RunWmap({"jq", "-n", "input_filename"}, "1").out, "null\n");
}

TEST(IsEmptyQueryTest, CommentsAndWhitespace) {
  EXPECT_TRUE(IsEmptyQuery(""));
  EXPECT_TRUE(IsEmptyQuery("  # comment\n\t"));
  EXPECT_TRUE(IsEmptyQuery("# a \\\n still comment"));
  EXPECT_FALSE(IsEmptyQuery("# a \\\\\n ."));
  EXPECT_FALSE(IsEmptyQuery("."));
}

// A value larger than one read (1 MiB), with escaped quotes and backslashes across the reads,
// followed by another value: both arrive whole and in order.
TEST(JqCommandTest, ValueSpanningManyReads) {
  std::string big = "[";
  for (int i = 0; i < 60000; ++i) {
    if (i > 0) big += ",";
    big += "{\"k\":\"a\\\\\\\"]}" + std::to_string(i) + "\",\"n\":[" + std::to_string(i) + "]}";
  }
  big += "] {\"after\":true}";
  Outcome o = RunWmap({"jq", "-c",
                       "if type == \"array\" then [length, .[59999].n[0], .[7].k] "
                       "else . end"},
                      big);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, "[60000,59999,\"a\\\\\\\"]}7\"]\n{\"after\":true}\n");
}

// A document of more than 8 MiB on many lines (keys in sorted order): read as a large document
// (repeated subtrees shared, parsed text given back while it is parsed).
std::string LargeDocument() {
  std::string text = "[\n";
  for (int i = 0; i < 60000; ++i) {
    if (i > 0) text += ",\n";
    text += "  {\"name\": \"job-" + std::to_string(i) +
            "\", \"spec\": {\"image\": \"registry.example.com/trainer:v1.2.3\", \"pad\": \"" +
            std::string(80, 'p') + "\", \"resources\": {\"limits\": {\"nvidia.com/gpu\": \"8\"}}}}";
  }
  text += "\n]\n";
  return text;
}

TEST(JqCommandTest, LargeDocumentFromFileAndPipe) {
  std::string text = LargeDocument();
  ASSERT_GT(text.size(), size_t{9} << 20);
  golden::TempFile file(text);
  for (bool from_file : {true, false}) {
    Outcome o =
        from_file ? RunWmap({"jq", "-c", ".", file.path()}) : RunWmap({"jq", "-c", "."}, text);
    EXPECT_EQ(o.code, 0) << o.err;
    // Compact output of the whole document: the input without its layout.
    std::string compact;
    bool in_string = false;
    for (char c : text) {
      if (c == '"') in_string = !in_string;
      if (in_string || (c != ' ' && c != '\n')) compact.push_back(c);
    }
    EXPECT_TRUE(o.out == compact + "\n") << "output differs (" << o.out.size() << " bytes)";
  }
}

TEST(JqCommandTest, LimitFlagsEndRunawayPrograms) {
  Outcome steps = RunWmap({"jq", "--max-steps", "1000", "-n", "[range(1e9)] | length"});
  EXPECT_EQ(steps.code, 5);
  EXPECT_EQ(steps.err, "wmap: step limit exceeded\n");
  Outcome memory = RunWmap({"jq", "--max-memory", "1Mi", "-n", "[range(1e9)]"});
  EXPECT_EQ(memory.code, 5);
  EXPECT_EQ(memory.err, "wmap: memory limit exceeded\n");
  // Per input: the input that exceeds the limit fails, the others run.
  Outcome outputs = RunWmap({"jq", "-c", "--max-outputs", "2", ".[]"}, "[1,2] [3,4,5] [6]");
  EXPECT_EQ(outputs.code, 5);
  EXPECT_EQ(outputs.out, "1\n2\n3\n4\n6\n");
  EXPECT_EQ(outputs.err, "wmap: too many results\n");
  // The deadline is for the whole command: once past, the command ends.
  Outcome timeout =
      RunWmap({"jq", "--timeout", "200ms", "if . == 2 then last(range(1e18)) else . end"}, "1 2 3");
  EXPECT_EQ(timeout.code, 5);
  EXPECT_EQ(timeout.out, "1\n");
  EXPECT_EQ(timeout.err, "wmap: deadline exceeded\n");
  Outcome bad = RunWmap({"jq", "--timeout", "soon", "."});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--timeout"), std::string::npos);
}

TEST(JqCommandTest, LargeDocumentStreamEvents) {
  std::string text = LargeDocument();
  Outcome o = RunWmap({"jq", "-c", "--stream", "select(length == 2) | .[0] | length"}, text);
  ASSERT_EQ(o.code, 0) << o.err;
  // Per item: name, image, pad and the GPU limit are leaves, at depths 2, 3, 3 and 5.
  std::string want;
  for (int i = 0; i < 60000; ++i) want += "2\n3\n3\n5\n";
  EXPECT_TRUE(o.out == want) << o.out.substr(0, 200);
  Outcome closing = RunWmap({"jq", "-c", "--stream", "select(length == 1)"}, "[{\"a\":[1]}]");
  EXPECT_EQ(closing.out, "[[0,\"a\",0]]\n[[0,\"a\"]]\n[[0]]\n");
}

TEST(JqCommandTest, LargeDocumentErrorPointsIntoGivenBackText) {
  std::string text = LargeDocument();
  // Break the last object, far past the text given back while parsing.
  size_t at = text.rfind("\"8\"");
  text.insert(at, "}");
  SourceErrorSpec spec;
  spec.kind = "invalid json";
  spec.name = "<stdin>";
  spec.contents = text;
  spec.offset = at;
  spec.message = "invalid character '}' looking for beginning of value";
  Outcome o = RunWmap({"jq", "length"}, text);
  EXPECT_EQ(o.code, 5);
  EXPECT_EQ(o.err, "wmap: " + FormatSourceError(spec) + "\n");
}

}  // namespace
}  // namespace wmap::cli
