// One table of error codes: the workload commands' exit statuses and the `error` names of their
// error documents come from ErrorCodeInfo, and `wmap jq` keeps gojq's statuses from the same table.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli/command.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/status.h"
#include "workload_golden.h"

namespace wmap::cli {
namespace {

TEST(ErrorCodesTest, ExitStatusesComeFromTheTable) {
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kUsage).exit_code, kExitUsage);
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kNotFound).exit_code, kExitNotFound);
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kNoDefinition).exit_code, kExitNoDefinition);
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kEvaluation).exit_code, kExitError);
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kCompile).jq_exit_code, kExitCompile);
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kParse).jq_exit_code, kExitCompile);
  EXPECT_EQ(ErrorCodeInfo(ErrorCode::kEvaluation).jq_exit_code, kExitRuntime);
  // Every code has its own name, and the name leads back to the code.
  std::set<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(ErrorCode::kInternal); ++i) {
    const ErrorCodeTraits& t = ErrorCodeInfo(static_cast<ErrorCode>(i));
    EXPECT_EQ(static_cast<int>(t.code), i);
    EXPECT_TRUE(names.insert(t.name).second) << t.name;
    EXPECT_EQ(ErrorCodeFromName(t.name), t.code) << t.name;
  }
}

// A library error reaches the command's error document whole: code, field path, place, hint.
TEST(ErrorCodesTest, ErrorDocumentsKeepEveryPartOfTheLibraryError) {
  Error e = Error::Of(ErrorCode::kNotWritable, "component x: no labelsPath", "add one");
  e.file = "w.yaml";
  e.position = {3, 5, 40};
  e.field = "spec.template.metadata.labels";
  workload_golden::Temp out, err;
  static const char* const kEnv[] = {"NO_COLOR=1", nullptr};
  CommandIo io;
  io.in_fd = -1;
  io.environment = kEnv;
  io.out_fd = out.fd();
  io.err_fd = err.fd();
  EXPECT_EQ(ReportError(io, "mutate", "json", e), 1);
  std::string text = workload_golden::ReadFd(out.fd());
  Result<Value> doc = json::Parse(text);
  ASSERT_TRUE(doc.ok()) << text;
  EXPECT_EQ(doc->find("error")->as_string(), "not_writable");
  EXPECT_EQ(doc->find("field")->as_string(), "spec.template.metadata.labels");
  EXPECT_EQ(doc->find("file")->as_string(), "w.yaml");
  EXPECT_EQ(doc->find("line")->as_int(), 3);
  EXPECT_EQ(doc->find("hint")->as_string(), "add one");
  EXPECT_EQ(ReportError(io, "mutate", "", e), 1);
  EXPECT_EQ(workload_golden::ReadFd(err.fd()),
            "wmap mutate: w.yaml:3:5: component x: no labelsPath\nhint: add one\n");
}

// The error document of a command names the code; its exit status is the code's.
TEST(ErrorCodesTest, ErrorDocumentsNameTheCode) {
  workload_golden::Outcome o =
      workload_golden::Run({"describe", "-f", "-", "-o", "json"},
                           "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
  Result<Value> doc = json::Parse(o.out);
  ASSERT_TRUE(doc.ok()) << o.out;
  const Value* name = doc->find("error");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(ErrorCodeInfo(ErrorCodeFromName(name->as_string())).exit_code, o.code);
  EXPECT_EQ(name->as_string(), "no_definition_for_type");
  EXPECT_EQ(o.code, kExitNoDefinition);
}

}  // namespace
}  // namespace wmap::cli
