// The cluster flags every live workload command shares (cli/live_flags.h), and the commands'
// checks of them before any connection.
#include "cli/live_flags.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/workload_golden.h"

namespace wmap::cli {
namespace {

using workload_golden::Outcome;
namespace wg = workload_golden;

// The flags of `args` parsed and validated, as Execute does for a live command.
std::optional<Error> Check(const std::vector<std::string>& args, bool filters_files,
                           LiveFlags* flags) {
  FlagParser parser;
  flags->Register(&parser);
  std::vector<std::string> positional;
  if (std::optional<Error> e = parser.Parse(args, &positional)) return e;
  flags->active = !positional.empty();
  return flags->Validate(args, filters_files);
}

TEST(LiveFlagsTest, QueryCarriesTheSelection) {
  LiveFlags flags;
  ASSERT_FALSE(Check(
      {"jobsets", "-A", "-l", "a=b", "--field-selector", "metadata.name=x", "--chunk-size", "7"},
      false, &flags));
  EXPECT_TRUE(flags.active);
  ClusterQuery q = flags.Query({"jobsets"}, /*workloads_only=*/true);
  EXPECT_EQ(q.type_args, std::vector<std::string>{"jobsets"});
  EXPECT_TRUE(q.all_namespaces);
  EXPECT_EQ(q.label_selector, "a=b");
  EXPECT_EQ(q.field_selector, "metadata.name=x");
  EXPECT_EQ(q.chunk_size, 7);
  EXPECT_TRUE(q.workloads_only);
  LiveFlags defaults;
  ASSERT_FALSE(Check({"jobsets"}, false, &defaults));
  EXPECT_EQ(defaults.Query({"jobsets"}, false).chunk_size, 500);
}

TEST(LiveFlagsTest, ClusterOnlyFlagsNeedAType) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-A"},
                                             {"--all-namespaces"},
                                             {"--field-selector", "a=b"},
                                             {"--field-selector=a=b"},
                                             {"--chunk-size", "2"},
                                             {"-n", "ml"},
                                             {"--namespace=ml"},
                                             {"-l", "a=b"}}) {
    LiveFlags flags;
    std::optional<Error> e = Check(args, /*filters_files=*/false, &flags);
    ASSERT_TRUE(e) << args[0];
    EXPECT_NE(e->message.find(" is for reading from the cluster (give a TYPE)"), std::string::npos)
        << e->message;
    EXPECT_EQ(e->message.substr(0, e->message.find(' ')), args[0].substr(0, args[0].find('=')));
  }
  // get filters the objects of files with -n and -l.
  LiveFlags get;
  EXPECT_FALSE(Check({"-n", "ml", "-l", "a=b"}, /*filters_files=*/true, &get));
  EXPECT_TRUE(Check({"-A"}, /*filters_files=*/true, &get));
  // After "--" a word is an argument, not a flag.
  LiveFlags after;
  EXPECT_FALSE(Check({"--", "-A"}, false, &after));
}

TEST(LiveFlagsTest, BadValuesAreUsageErrors) {
  LiveFlags a, b, c, d;
  std::optional<Error> e = Check({"jobs", "--chunk-size", "x"}, false, &a);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "invalid --chunk-size \"x\"");
  e = Check({"jobs", "--chunk-size", "-1"}, false, &b);
  ASSERT_TRUE(e);
  e = Check({"jobs", "-n", "ml", "-A"}, false, &c);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "-n and -A cannot be used together");
  e = Check({"jobs", "--request-timeout", "soon"}, false, &d);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "invalid --request-timeout \"soon\"");
}

// Every live command refuses the same mistakes before it connects anywhere.
TEST(LiveFlagsTest, CommandsCheckTheFlagsBeforeConnecting) {
  for (const char* command : {"describe", "status", "inspect", "gang"}) {
    Outcome o = wg::Run({command, "-n", "ml", "-f", "examples/raycluster.yaml"});
    EXPECT_EQ(o.code, 2) << command;
    // inspect reports errors as JSON documents on stdout.
    EXPECT_NE((o.out + o.err).find("-n is for reading from the cluster (give a TYPE)"),
              std::string::npos)
        << command << ": " << o.err;
    o = wg::Run({command, "jobsets", "-f", "examples/jobset-training.yaml"});
    EXPECT_EQ(o.code, 2) << command;
    EXPECT_NE((o.out + o.err).find("give one or the other"), std::string::npos) << o.err;
    o = wg::Run({command, "jobsets", "-n", "ml", "-A"});
    EXPECT_EQ(o.code, 2) << command;
    o = wg::Run({command, "jobset/a", "--chunk-size", "lots"});
    EXPECT_EQ(o.code, 2) << command;
    // No input at all names both ways.
    o = wg::Run({command});
    EXPECT_EQ(o.code, 2) << command;
    EXPECT_NE((o.out + o.err).find("give a TYPE to read from the cluster"), std::string::npos)
        << o.err;
    // Without a kubeconfig a TYPE is the client's error, never a read of files.
    o = wg::Run({command, "jobsets", "--kubeconfig", "/nonexistent/kubeconfig"});
    EXPECT_NE(o.code, 0) << command;
    EXPECT_NE((o.out + o.err).find("/nonexistent/kubeconfig"), std::string::npos) << o.err;
  }
  // The commands that write objects back name each object: a TYPE alone is a usage error, found
  // before any connection; so are the flags that select by listing.
  for (const char* command : {"suspend", "resume"}) {
    Outcome o = wg::Run({command, "jobsets", "-n", "ml"});
    EXPECT_EQ(o.code, 2) << command << ": " << o.err;
    EXPECT_NE(o.err.find("no name given for \"jobsets\""), std::string::npos) << o.err;
    o = wg::Run({command, "jobset/x", "-l", "a=b"});
    EXPECT_EQ(o.code, 2) << command << ": " << o.err;
    EXPECT_NE(o.err.find("-l is not a flag of 'wmap " + std::string(command) + "' with TYPE/NAME"),
              std::string::npos)
        << o.err;
    o = wg::Run({command, "jobset/x", "--dry-run=client"});
    EXPECT_EQ(o.code, 2) << command << ": " << o.err;
    o = wg::Run({command, "jobset/x", "-o", "patch"});
    EXPECT_EQ(o.code, 2) << command << ": " << o.err;
    EXPECT_NE(o.err.find("use -o name, -o yaml or -o json"), std::string::npos) << o.err;
    // Offline, the write flags are refused with the live form as the hint.
    o = wg::Run({command, "-f", "examples/jobset-training.yaml", "--dry-run=server"});
    EXPECT_EQ(o.code, 2) << command << ": " << o.err;
    EXPECT_NE(o.err.find("--dry-run is for changing a workload in the cluster"), std::string::npos)
        << o.err;
  }
  Outcome o = wg::Run({"mutate", "jobsets", "--label", "a=b", "-n", "ml"});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("no name given for \"jobsets\""), std::string::npos) << o.err;
  o = wg::Run({"mutate", "jobset/x", "--label", "a=b", "--dry-run=server"});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("give --apply to write the change to the cluster"), std::string::npos)
      << o.err;
  o = wg::Run({"mutate", "jobset/x", "--label", "a=b", "--apply", "-o", "patch"});
  EXPECT_EQ(o.code, 2) << o.err;
  // --apply with -f: the file goes to the cluster with wmap apply.
  o = wg::Run({"mutate", "-f", "examples/jobset-training.yaml", "--label", "a=b", "--apply"});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("wmap apply -f FILE"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace wmap::cli
