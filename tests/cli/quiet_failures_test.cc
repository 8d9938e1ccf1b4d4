// What used to be ignored silently now says so: a SOURCE_DATE_EPOCH that is not a number, and a
// mutate that leaves a workload unchanged because the definition reaches no pod template in it.
#include <gtest/gtest.h>

#include <string>

#include "golden_support.h"

namespace wmap::cli {
namespace {

TEST(QuietFailuresTest, ABadSourceDateEpochIsReported) {
  golden::Outcome o = golden::Run({"get", "-f", "examples/jobset-training.yaml"}, "",
                                  {"HOME=/nonexistent", "TERM=dumb", "SOURCE_DATE_EPOCH=abc"});
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(o.err,
            "wmap: warning: SOURCE_DATE_EPOCH=abc is not a whole number of seconds; ages count "
            "from the clock\n");
}

TEST(QuietFailuresTest, MutateSaysWhenAWorkloadIsUnchanged) {
  const std::string empty = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: empty, namespace: x}
spec: {}
)";
  golden::Outcome o = golden::Run({"mutate", "-f", "-", "--label", "a=b"}, empty);
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(o.err,
            "wmap mutate: warning: <stdin>:1:1: JobSet empty is unchanged: it already has what "
            "was asked, or no pod template the definition reaches (an empty list of them)\n");
  // A change that lands says nothing.
  o = golden::Run({"mutate", "-f", "examples/jobset-training.yaml", "--label", "a=b"});
  EXPECT_EQ(o.err, "");
}

}  // namespace
}  // namespace wmap::cli
