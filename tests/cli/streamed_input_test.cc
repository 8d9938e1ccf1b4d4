// Inputs read as they arrive: endless or huge inputs (/dev/zero, a stream of empty documents, a
// large `kind: List`) end with the right answer or a clean error naming the document, in
// bounded memory (an address-space cap), for every command that reads them.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "capped_run.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

using capped_run::Has;
using capped_run::kAddressSanitized;
using capped_run::Outcome;
using capped_run::Quote;
using capped_run::RunShell;

constexpr uint64_t kOneGigabyte = 1000ull * 1000 * 1000;

uint64_t Cap() { return kOneGigabyte; }

TEST(StreamedInputTest, DevZeroIsADocumentTooLargeForEveryReader) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  struct Case {
    std::string before, args;
    int code;
    std::string message;
  };
  const Case cases[] = {
      {"", "get -f /dev/zero", 1,
       "wmap get: /dev/zero:1:1: document 1 is larger than 256Mi (--max-document-size)"},
      {"", "get -f - < /dev/zero --max-document-size 8Mi", 1,
       "wmap get: <stdin>:1:1: document 1 is larger than 8Mi (--max-document-size)"},
      {"", "describe -f /dev/zero --max-document-size 8Mi", 1, "larger than 8Mi"},
      {"", "status -f /dev/zero --max-document-size 8Mi -o json", 1,
       "\"error\": \"limit_exceeded\""},
      {"", "validate /dev/zero", 1, "/dev/zero:1:1: document 1 is larger than 256Mi"},
      {"", "validate --max-document-size=8Mi - < /dev/zero", 1, "<stdin>:1:1: document 1"},
      {"", "jq --yaml-input . /dev/zero", 5,
       "invalid yaml: /dev/zero:1: document 1 is larger than 256Mi (--max-document-size)"},
      {"", "jq --yaml-input --max-document-size 8Mi . < /dev/zero", 5,
       "invalid yaml: <stdin>:1: document 1 is larger than 8Mi"},
  };
  for (const Case& c : cases) {
    Outcome o = RunShell(c.before, c.args, Cap());
    ASSERT_TRUE(o.exited) << c.args << "\n" << o.output;
    EXPECT_EQ(o.code, c.code) << c.args << "\n" << o.output;
    EXPECT_TRUE(Has(o, c.message)) << c.args << "\n" << o.output;
    EXPECT_FALSE(Has(o, "out of memory")) << c.args << "\n" << o.output;
  }
}

TEST(StreamedInputTest, AJsonValueThatNeverEndsIsTooLarge) {
  // An array that never closes: "[" then "1," forever.
  const std::string endless = "(printf [; yes 1,) |";
  Outcome o = RunShell(endless, "jq --max-document-size 4Mi .", Cap());
  ASSERT_TRUE(o.exited) << o.output;
  EXPECT_EQ(o.code, 5) << o.output;
  EXPECT_TRUE(Has(o, "invalid json: <stdin>:1: value larger than 4Mi (--max-document-size)"))
      << o.output;
  o = RunShell(endless, "get -f - --max-document-size 4Mi", Cap());
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_TRUE(Has(o, "<stdin>:1:1: document 1 is larger than 4Mi")) << o.output;
}

TEST(StreamedInputTest, AStreamOfEmptyDocumentsEnds) {
  Outcome o = RunShell("yes -- --- | head -n 5000000 |", "get -f -", Cap());
  ASSERT_TRUE(o.exited) << o.output;
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_EQ(o.output, "No workloads found.\n");
  o = RunShell("yes -- --- | head -n 100000 |", "jq --yaml-input -c . ", Cap());
  EXPECT_EQ(o.code, 0) << o.output.substr(0, 200);
  EXPECT_EQ(o.output.size(), 100000u * 5) << o.output.substr(0, 200);  // "null\n" each
}

TEST(StreamedInputTest, TheLimitFlagIsChecked) {
  for (std::string args :
       {"get -f - --max-document-size lots", "describe -f x --max-document-size=-1",
        "validate --max-document-size 1Zi x", "validate x --max-document-size"}) {
    Outcome o = RunShell("", args);
    ASSERT_TRUE(o.exited) << args;
    EXPECT_EQ(o.code, 2) << args << "\n" << o.output;
    EXPECT_TRUE(Has(o, "--max-document-size")) << args << "\n" << o.output;
  }
  Outcome o = RunShell("", "jq --max-document-size lots .");
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_TRUE(Has(o, "--max-document-size")) << o.output;
  // 0 is no limit.
  o = RunShell("printf 'a: 1\\n' |", "jq --yaml-input -c --max-document-size 0 .");
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_EQ(o.output, "{\"a\":1}\n");
}

TEST(StreamedInputTest, ALargeListIsReadUnderACap) {
  if (kAddressSanitized) GTEST_SKIP() << "a memory bound, which AddressSanitizer cannot be held to";
  // A 60 MB `kind: List` of Jobs: its objects, and their rows, fit in a gigabyte.
  fs::path dir = fs::temp_directory_path() / ("wmap_streamed_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path list = dir / "list.yaml";
  {
    std::ofstream f(list);
    f << "apiVersion: v1\nkind: List\nitems:\n";
    for (int i = 0; i < 100000; ++i) {
      f << "- apiVersion: batch/v1\n  kind: Job\n  metadata:\n    name: job-" << i
        << "\n    namespace: team-" << (i % 50) << "\n    uid: 00000000-0000-0000-0000-"
        << std::string(12 - std::to_string(i).size(), '0') << i
        << "\n    labels: {app: trainer, shard: \"" << i
        << "\"}\n  spec:\n    parallelism: 2\n    completions: 2\n    template:\n      spec:\n"
           "        containers:\n        - name: main\n          image: "
           "registry.example.com/trainer:v1\n          args: [--shard, \""
        << i
        << "\", --epochs, \"3\"]\n          resources:\n            requests: {cpu: \"4\", "
           "memory: 16Gi, nvidia.com/gpu: \"1\"}\n  status: {active: 2}\n";
    }
  }
  for (std::string args :
       {"get -f '" + list.string() + "' -o json", "get -f - < '" + list.string() + "'"}) {
    Outcome o = RunShell("", args + " > /dev/null", Cap());
    ASSERT_TRUE(o.exited) << args;
    EXPECT_EQ(o.code, 0) << args << "\n" << o.output;
    EXPECT_FALSE(Has(o, "out of memory")) << args << "\n" << o.output;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wmap::cli
