// The command-line contract of `wmap validate`, `wmap status` and `wmap inspect`, run on the
// built executable.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "shared_data.h"
#include "wmap/json.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

struct CommandRun {
  std::string out;
  int status;
};

CommandRun Wmap(const std::string& args) {
  std::string command = std::string(WMAP_BINARY) + " " + args + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  CommandRun r{"", -1};
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    r.out.append(buffer.data(), n);
  int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string Upstream(const std::string& rel) {
  return (::wmap::test_files::SharedDir() / "conformance" / "upstream" / rel).string();
}
std::string TestData(const std::string& name) {
  return (fs::path(WMAP_SOURCE_DIR) / "tests" / "model" / "testdata" / name).string();
}

TEST(ValidateCommandTest, ValidInvalidAndUsage) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::string jobset = Upstream("catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml");
  CommandRun ok = Wmap("validate " + jobset);
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out, "OK: " + jobset +
                        " is a valid definition (GVK: jobset.x-k8s.io/v1alpha2, Kind=JobSet)\n");

  std::string cycle = TestData("cycle.yaml");
  CommandRun bad = Wmap("validate " + cycle);
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "INVALID: " + cycle + "\n" + cycle +
                         ":14:9: ownership cycle detected involving component a\n");

  CommandRun usage = Wmap("validate");
  EXPECT_EQ(usage.status, 2);
  EXPECT_EQ(Wmap("validate --frobnicate " + jobset).status, 2);
  EXPECT_EQ(Wmap("validate /nonexistent/definition.yaml").status, 3);
}

TEST(ValidateCommandTest, StandardInputAndOneLinePerProblem) {
  CommandRun r = Wmap("validate - < " + TestData("jq_errors.yaml"));
  EXPECT_EQ(r.status, 1);
  size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, 8u);  // INVALID + 7 problems, a multi-line expression kept on one line
  EXPECT_EQ(r.out.rfind("INVALID: <stdin>\n<stdin>:11:23: ", 0), 0u) << r.out;
}

TEST(StatusCommandTest, JsonAndText) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  std::string def = Upstream("catalog/ray-io-raycluster-v1.yaml");
  std::string obj = Upstream("samples/workloads/raycluster-running.yaml");
  CommandRun json_run = Wmap("status --definition " + def + " -f " + obj + " -o json");
  ASSERT_EQ(json_run.status, 0);
  Result<Value> v = json::Parse(json_run.out);
  ASSERT_TRUE(v.ok()) << json_run.out;
  // The manifest has no status: no phase result is a null, which decodes to "".
  EXPECT_EQ(*v->find("phase"), Value::String(""));
  EXPECT_EQ(*v->find("conditions"), Value::Array({}));
  EXPECT_EQ(*v->find("matched"), Value::Array({Value::String("Undefined")}));

  CommandRun text = Wmap("status -d " + def + " -f " + obj);
  EXPECT_EQ(text.status, 0);
  EXPECT_EQ(text.out.rfind("STATUS:     Undefined\n", 0), 0u) << text.out;
  EXPECT_EQ(Wmap("status -d " + def).status, 2);
  EXPECT_EQ(Wmap("status -d " + def + " -f " + obj + " -o yaml").status, 2);
}

TEST(InspectCommandTest, ComponentsInstancesAndScale) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  CommandRun r = Wmap("inspect --definition " + Upstream("catalog/ray-io-raycluster-v1.yaml") +
                      " -f " + Upstream("samples/workloads/raycluster-running.yaml") + " -o json");
  ASSERT_EQ(r.status, 0);
  Result<Value> v = json::Parse(r.out);
  ASSERT_TRUE(v.ok()) << r.out;
  const Value& components = *v->find("components");
  ASSERT_EQ(components.size(), 3u);
  const Value& worker = components[2];
  EXPECT_EQ(*worker.find("name"), Value::String("worker"));
  EXPECT_EQ(*worker.find("parent"), Value::String("raycluster"));
  const Value& instance = (*worker.find("instances"))[0];
  EXPECT_EQ(*instance.find("id"), Value::String("small"));
  EXPECT_EQ(*instance.find("replicas"), Value::Int(0));
  EXPECT_EQ(*instance.find("minReplicas"), Value::Int(0));
  EXPECT_EQ(*instance.find("maxReplicas"), Value::Int(1));
  EXPECT_TRUE(instance.find("podTemplateSpec")->is_object());
  EXPECT_TRUE(components[0].find("parent")->is_null());
}

}  // namespace
}  // namespace wmap
