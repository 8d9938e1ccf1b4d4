// `get`, `describe` and `gang` read one ownership graph: for the same objects they attribute the
// same pods to the same workload and count the same resources. Pods reach the JobSet through
// two controller hops (Pod -> Job -> JobSet); with `controller: false` on the pods' owner
// references no command attributes them to the JobSet and each says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "test_files.h"
#include "wmap/json.h"
#include "wmap/resources.h"
#include "wmap/yaml.h"
#include "workload_golden.h"

namespace wmap::cli {
namespace {

std::vector<Value> JsonDocuments(const std::string& text) {
  std::vector<Value> out;
  json::StreamReader reader(text);
  Value v;
  Error e;
  while (reader.Next(&v, &e)) {
    EXPECT_FALSE(reader.failed()) << e.ToString();
    if (reader.failed()) break;
    out.push_back(v);
  }
  return out;
}

const Value& At(const Value& v, std::initializer_list<std::string_view> path) {
  static const Value kNull;
  const Value* cur = &v;
  for (std::string_view key : path) {
    cur = cur->find(key);
    if (cur == nullptr) return kNull;
  }
  return *cur;
}

int64_t Int(const Value& v) { return v.is_number() ? v.as_int() : -1; }

// The example's pods with every ownerReference's `controller` set to `controller`, written to a
// temporary file; returns its path.
std::string PodsFile(bool controller) {
  std::string text =
      test_files::ReadFile(std::string(WMAP_SOURCE_DIR) + "/examples/jobset-training.pods.yaml");
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(text);
  EXPECT_TRUE(docs.ok());
  std::string out;
  for (const yaml::Document& d : *docs) {
    Value doc = d.value;
    if (At(doc, {"kind"}).is_string() && At(doc, {"kind"}).as_string() == "Pod") {
      Value metadata = *doc.find("metadata");
      Value refs = Value::EmptyArray();
      for (Value ref : metadata.find("ownerReferences")->items()) {
        ref.set("controller", Value::Bool(controller));
        refs.push_back(ref);
      }
      metadata.set("ownerReferences", refs);
      doc.set("metadata", metadata);
    }
    out += json::ToCompactString(doc) + "\n";
  }
  std::string path =
      ::testing::TempDir() + "/pods-controller-" + (controller ? "true" : "false") + ".json";
  std::ofstream(path) << out;
  return path;
}

struct Views {
  std::vector<Value> get, describe, gang;
  std::string get_err, describe_err, gang_err;
};

Views RunAll(const std::string& pods) {
  std::string workload = std::string(WMAP_SOURCE_DIR) + "/examples/jobset-training.yaml";
  Views v;
  for (auto [command, docs, err] :
       {std::tuple{"get", &v.get, &v.get_err}, std::tuple{"describe", &v.describe, &v.describe_err},
        std::tuple{"gang", &v.gang, &v.gang_err}}) {
    workload_golden::Outcome o =
        workload_golden::Run({command, "-f", workload, "-f", pods, "-o", "json"});
    EXPECT_EQ(o.code, 0) << command << ": " << o.err;
    *docs = JsonDocuments(o.out);
    *err = o.err;
  }
  return v;
}

// The JobSet's entry in each view.
const Value& GetJobSet(const Views& v) {
  for (const Value& item : At(v.get[0], {"items"}).items()) {
    if (At(item, {"workload", "kind"}).as_string() == "JobSet") return item;
  }
  ADD_FAILURE() << "get lists no JobSet";
  return v.get[0];
}
const Value& DescribeJobSet(const Views& v) { return v.describe.at(0); }
const Value& GangJobSet(const Views& v) { return v.gang.at(0); }

TEST(OwnershipAgreementTest, PodsTwoControllerHopsBelowAreTheWorkloadsInEveryCommand) {
  Views v = RunAll(PodsFile(true));
  ASSERT_EQ(v.get.size(), 1u);
  ASSERT_EQ(v.describe.size(), 1u);
  ASSERT_EQ(v.gang.size(), 1u);
  const Value& got = GetJobSet(v);
  const Value& described = DescribeJobSet(v);
  EXPECT_EQ(Int(At(got, {"pods", "current"})), 9);
  EXPECT_EQ(Int(At(described, {"replicas", "current"})), 9);
  EXPECT_EQ(At(described, {"unattributed"}).size(), 0u);
  EXPECT_EQ(At(GangJobSet(v), {"pods"}).size(), 9u);
  // One resource total: the pods' requests, the same in all three.
  EXPECT_EQ(At(got, {"resources"}), At(described, {"resources"}));
  EXPECT_EQ(At(got, {"gpus"}), At(described, {"gpus"}));
  // The gang's full-size requests (templates × replicas) are the same resource list, since
  // every pod of the example is created from its template.
  const Value& gang_resources = At(At(GangJobSet(v), {"gangs"}).items()[0], {"resources"});
  EXPECT_EQ(gang_resources, At(got, {"resources"}));
  for (const std::string* err : {&v.get_err, &v.describe_err, &v.gang_err}) {
    EXPECT_EQ(err->find("controller: true"), std::string::npos) << *err;
  }
}

TEST(OwnershipAgreementTest, OwnersWithoutControllerTrueAttributeNothingInAnyCommand) {
  Views v = RunAll(PodsFile(false));
  // Each pod is a bare Pod workload of its own; the JobSet has none of them.
  ASSERT_EQ(v.describe.size(), 10u);
  ASSERT_EQ(v.gang.size(), 10u);
  const Value& got = GetJobSet(v);
  EXPECT_EQ(At(v.get[0], {"count"}), Value::Int(10));
  EXPECT_TRUE(At(got, {"pods", "current"}).is_null() || Int(At(got, {"pods", "current"})) == 0)
      << json::ToCompactString(got);
  const Value& current = At(DescribeJobSet(v), {"replicas", "current"});
  EXPECT_TRUE(current.is_null() || Int(current) == 0) << json::ToCompactString(current);
  EXPECT_EQ(At(DescribeJobSet(v), {"unattributed"}).size(), 0u);
  EXPECT_EQ(At(GangJobSet(v), {"pods"}).size(), 0u);
  for (const std::string* err : {&v.get_err, &v.describe_err, &v.gang_err}) {
    EXPECT_NE(err->find("9 pods list owner references but none with controller: true"),
              std::string::npos)
        << *err;
  }
}

}  // namespace
}  // namespace wmap::cli
