// `wmap describe`: the workload tree of each workload in the inputs.
#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/describe_view.h"
#include "cli/live_flags.h"
#include "cli/output_buffer.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/view.h"

namespace wmap::cli {
namespace {

std::optional<size_t> ParseCount(const std::string& text) {
  size_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

// --width, else COLUMNS, else the terminal's width, else unlimited.
size_t OutputWidth(const CommandIo& io, const std::string& flag) {
  if (!flag.empty()) return ParseCount(flag).value_or(0);
  if (std::optional<std::string_view> columns = GetEnv(io, "COLUMNS")) {
    if (std::optional<size_t> n = ParseCount(std::string(*columns)); n && *n > 0) return *n;
  }
  if (::isatty(io.out_fd) == 1) {
    struct winsize ws;
    if (::ioctl(io.out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
  }
  return 0;
}

bool UseColor(const CommandIo& io, bool force, bool never) {
  if (never) return false;
  if (force) return true;
  if (std::optional<std::string_view> no_color = GetEnv(io, "NO_COLOR");
      no_color && !no_color->empty()) {
    return false;
  }
  if (std::optional<std::string_view> term = GetEnv(io, "TERM"); term && *term == "dumb") {
    return false;
  }
  return ::isatty(io.out_fd) == 1;
}

}  // namespace

std::string DescribeCommandHelp() {
  return "Show a workload as a tree: its components, instances, replicas, pods, nodes,\n"
         "resources and gang groups.\n"
         "\n"
         "Usage:\n"
         "  wmap describe TYPE[,TYPE...] [NAME...] [-n NAMESPACE | -A] [-l SELECTOR]\n"
         "                [-o tree|json|yaml]\n"
         "  wmap describe TYPE/NAME... [-n NAMESPACE] [-o tree|json|yaml]\n"
         "  wmap describe -f WORKLOAD [-f PODS-AND-CHILDREN...] [--definition DEF]\n"
         "                [-o tree|json|yaml]\n"
         "\n"
         "With TYPE, the workloads are read from the cluster of the kubeconfig with their\n"
         "children and pods, as 'wmap get' reads them (TYPE and NAME as kubectl takes them;\n"
         "one list per kind and namespace). With -f, the objects of the files are read and the\n"
         "network is never used. The output is the same for the same objects.\n"
         "\n"
         "The workload is read through the definition of its apiVersion and kind (built-in\n"
         "catalog, --definitions DIR, --definition FILE). Pods and child objects (Jobs,\n"
         "StatefulSets, ...) given with more -f flags, or in the same file, are attributed to\n"
         "it through their controller ownerReferences and to a component and instance through\n"
         "the definition's pod selectors. Every workload found is described, in input order.\n"
         "\n"
         "Tree: the root component with its matched statuses, then each component with\n"
         "'replicas D' (desired) or, when pods are given, 'replicas D/C/R' (desired, current,\n"
         "ready), GPUs, cpu and memory requested (from the pods when given, else pod templates\n"
         "times replicas), each instance, each pod with its phase, readiness and node; then the\n"
         "gang groups with their minimum and the pods that join them; then the pods that could\n"
         "not be attributed, with the reason.\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH    workload, pods and child objects (repeatable; files, folders,\n"
         "                         - for standard input)\n"
         "  -d, --definition FILE  use the definitions of FILE (repeatable)\n"
         "  --definitions DIR      use the definitions of DIR (repeatable)\n"
         "  -o, --output FORMAT    tree (default), json or yaml (one WorkloadDescription\n"
         "                         document per workload: docs/output.md)\n"
         "  --pod-limit N          pods shown per instance in the tree (default 20; 0 = all)\n"
         "  --width N              wrap and shorten the tree to N columns (default: COLUMNS, or\n"
         "                         the terminal's width; no limit when not a terminal)\n"
         "  --color, --no-color    force colours on or off (default: on for a terminal unless\n"
         "                         NO_COLOR is set)\n"
         "  --lenient, --no-crd-defaults   as for 'wmap validate'\n"
         "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
         "                         (docs/limits.md)\n"
         "  --max-document-size N  the longest document (YAML document or JSON value) an input\n"
         "                         may hold: 256Mi (0: no limit)\n"
         "\n" +
         LiveFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap describe jobset/llama-finetune -n ml-training\n"
         "  wmap describe rayclusters -A -l team=foundation-models -o json\n"
         "  wmap describe -f examples/jobset-training.yaml\n"
         "  wmap describe -f examples/raycluster.yaml -f examples/raycluster.pods.yaml\n"
         "  wmap describe -f examples/leaderworkerset-serving.yaml -o json\n"
         "  kubectl get pods -n ml -o yaml > pods.yaml\n"
         "  wmap describe -f my-jobset.yaml -f pods.yaml --width 80\n"
         "\n"
         "Exit status: 0 success, 1 invalid input, a cluster error (unreachable, 401, 403) or\n"
         "the definition cannot read the workload, 2 usage, 3 a path, a TYPE or a NAME does\n"
         "not exist or no workload was found in the files, 4 no definition for the workload's\n"
         "type.\n";
}

namespace {

class DescribeCommand : public WorkloadCommand {
 public:
  DescribeCommand()
      : WorkloadCommand({"describe",
                         DescribeCommandHelp,
                         {"tree", "json", "yaml"},
                         true,
                         "give a TYPE to read from the cluster, or the workload with -f FILE",
                         0,
                         /*reads_cluster=*/true}) {}

  void AddFlags(FlagParser* parser) override {
    parser->String({"--width"}, &width_flag_);
    parser->String({"--pod-limit"}, &pod_limit_flag_);
    parser->Bool({"--color"}, &color_);
    parser->Bool({"--no-color"}, &no_color_);
  }

  std::optional<Error> Validate() override {
    tree_.pod_limit = 20;
    if (!pod_limit_flag_.empty()) {
      std::optional<size_t> n = ParseCount(pod_limit_flag_);
      if (!n) return UsageError("--pod-limit takes a count, not \"" + pod_limit_flag_ + "\"");
      tree_.pod_limit = *n;
    }
    if (!width_flag_.empty() && !ParseCount(width_flag_)) {
      return UsageError("--width takes a count of columns, not \"" + width_flag_ + "\"");
    }
    return std::nullopt;
  }

  int Run(const CommandIo& io) override {
    tree_.render.width = OutputWidth(io, width_flag_);
    tree_.render.color = UseColor(io, color_, no_color_);
    WorkloadInputs inputs;
    if (std::optional<int> failed = ReadWorkloads(io, &inputs)) return *failed;
    OutputBuffer out(io.out_fd);
    int exit_code = kExitOk;
    bool first = true;
    for (const WorkloadGroup& group : inputs.split.workloads) {
      Result<view::WorkloadDescription> description = view::Describe(group);
      if (!description.ok()) {
        out.Flush();
        exit_code = Fail(io, description.error());
        continue;
      }
      if (output == "tree") {
        if (!first) out.Append("\n");
        out.Append(DescribeText(group, *description, tree_));  // spans escape what objects hold
      } else {
        if (!first && output == "yaml") out.Append("---\n");
        out.Append(RenderDocuments({view::DescribeDocument(group, *description)}, output));
      }
      first = false;
    }
    return exit_code;
  }

 private:
  std::string width_flag_, pod_limit_flag_;
  bool color_ = false, no_color_ = false;
  TreeOptions tree_;
};

}  // namespace

int RunDescribeCommand(std::span<const std::string> args, const CommandIo& io) {
  DescribeCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
