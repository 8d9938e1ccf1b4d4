// `wmap get`: one row per workload object found in files and folders, read through its
// definition. Objects are streamed: each one is reduced to its row (or, for pods and child
// objects, to its owner link and requests) as soon as it is read, so memory grows with the number
// of objects, not with their size.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "cli/cluster_source.h"
#include "cli/display_format.h"
#include "cli/get_watch.h"
#include "cli/pod_commands.h"
#include "cli/table_writer.h"
#include "cli/workload_command.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "cli/workload_rows.h"
#include "wmap/selector.h"
#include "wmap/text.h"
#include "wmap/tree.h"
#include "wmap/view.h"

namespace wmap::cli {
namespace {

// The statuses --status accepts (lower case) to their names.
std::optional<std::set<ResourceStatus>> ParseStatusFilter(const std::vector<std::string>& flags,
                                                          std::string* error) {
  static constexpr ResourceStatus kAll[] = {
      ResourceStatus::kInitializing, ResourceStatus::kRunning,    ResourceStatus::kCompleted,
      ResourceStatus::kFailed,       ResourceStatus::kDegraded,   ResourceStatus::kUndefined,
      ResourceStatus::kSuspended,    ResourceStatus::kSuspending, ResourceStatus::kResuming};
  std::set<ResourceStatus> out;
  for (const std::string& flag : flags) {
    size_t start = 0;
    for (size_t i = 0; i <= flag.size(); ++i) {
      if (i < flag.size() && flag[i] != ',') continue;
      std::string want = text::AsciiLower(flag.substr(start, i - start));
      start = i + 1;
      bool found = false;
      for (ResourceStatus s : kAll) {
        if (text::AsciiLower(ResourceStatusName(s)) == want) {
          out.insert(s);
          found = true;
        }
      }
      if (!found) {
        *error = "unknown status \"" + want +
                 "\" (use Initializing, Running, Completed, Failed, Degraded, Undefined, "
                 "Suspended, Suspending or Resuming)";
        return std::nullopt;
      }
    }
  }
  return out;
}

}  // namespace

std::string GetCommandHelp() {
  return "List workloads read through their definitions, from the cluster or from files.\n"
         "\n"
         "Usage:\n"
         "  wmap get TYPE[,TYPE...] [NAME...] [-n NAMESPACE | -A] [-l SELECTOR]\n"
         "           [--field-selector SEL] [--status S] [-o table|wide|json|yaml|name]\n"
         "           [-w [--watch-only] [--output-watch-events]]\n"
         "  wmap get TYPE/NAME... [-w]\n"
         "  wmap get --all-types [-n NAMESPACE | -A] [-l SELECTOR] [--status S] [-o FORMAT]\n"
         "           [-w]\n"
         "  wmap get -f PATH... [-l SELECTOR] [--status S] [-n NAMESPACE]\n"
         "           [-o table|wide|json|yaml|name]\n"
         "\n"
         "With TYPE, the workloads are read from the cluster of the kubeconfig (as kubectl\n"
         "reads it: KUBECONFIG, --kubeconfig, --context...). TYPE is resolved as kubectl does:\n"
         "plural, singular, short name or kind, any case, narrowed with .group or\n"
         ".version.group (jobsets, jobset, JobSet.v1alpha2.jobset.x-k8s.io). Lists are read\n"
         "in pages of --chunk-size; -l and --field-selector are sent to the server. The\n"
         "children the definition names and the pods of the workloads' namespaces are read\n"
         "too (one list per kind and namespace) for PODS and GPUS. The output is the one\n"
         "'get -f' prints for the same objects. The cluster's Karta and WorkloadDefinition\n"
         "objects replace the built-in definition of their kind ('wmap definitions' lists\n"
         "what is used, with the kubeconfig flags).\n"
         "\n"
         "--all-types reads every type that a definition reads (the built-in catalog, the\n"
         "cluster's Karta and WorkloadDefinition objects, --definitions) and the cluster\n"
         "serves at the definition's version; types the cluster does not serve are left\n"
         "out. With -f it changes nothing: every object of the files is read anyway.\n"
         "\n"
         "With -f, every object of the files (multi-document YAML, JSON values or arrays,\n"
         "kind: List; folders are read recursively, - is standard input) is looked up by\n"
         "apiVersion and kind in the built-in catalog, --definitions DIR and --definition\n"
         "FILE, and the network is never used. Objects owned by another given object (a\n"
         "JobSet's Jobs) and Pods are not rows: they are counted in their workload's PODS\n"
         "and GPUS. Objects of a kind with no definition are reported once per kind on\n"
         "stderr and skipped.\n"
         "\n"
         "Columns: NAME NAMESPACE KIND STATUS PODS GPUS AGE. STATUS lists every status the\n"
         "definition matches. PODS is ready/desired when pods are among the inputs, else\n"
         "desired. GPUS (and CPU, MEMORY in wide) are the requests of the workload's pods when\n"
         "they are given, else of its pod templates times their replicas. Wide adds CPU,\n"
         "MEMORY, DEFINITION and SOURCE (file:line, or the object's API path). AGE counts\n"
         "from SOURCE_DATE_EPOCH when set. Rows are sorted as upstream's get sorts them:\n"
         "newest first by creation time, then by name.\n"
         "-o name prints kind.group/name, one a line.\n"
         "\n"
         "With -w, the rows of the state are printed once everything is listed, then a row\n"
         "each time a workload's statuses, pods (ready or desired) or requests change, when\n"
         "one appears and when one is deleted (its last row), as 'kubectl get -w' does: the\n"
         "workloads, their pods and the kinds between them are watched (one watch per kind,\n"
         "resumed from the last version seen when the server ends it or the connection\n"
         "drops, listed again after 410 Gone). A lost connection is retried until the server\n"
         "is back and said on stderr. The watch runs until interrupted, until standard output\n"
         "is closed, or for --request-timeout when it is given. -o json and yaml print one\n"
         "WorkloadList item per change.\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH    files or folders to read (repeatable); - for standard input\n"
         "  --all-types            every type with a definition that the cluster serves\n"
         "  -l, --selector SEL     labels, as kubectl: a=b,c!=d,e in (x,y),f notin (z),g,!h\n"
         "  --status S             only workloads with status S (repeatable or S1,S2)\n"
         "  -n, --namespace NS     only workloads of namespace NS (default: the context's)\n"
         "  -A, --all-namespaces   every namespace (cluster; where listing them all is\n"
         "                         forbidden: the context's namespace, with a warning)\n"
         "  --field-selector SEL   fields, as kubectl: metadata.name=x,metadata.namespace!=y\n"
         "                         (cluster)\n"
         "  --chunk-size N         objects per list request (default 500; 0: one request)\n"
         "  -w, --watch            after the rows, print a row for each change (cluster)\n"
         "  --watch-only           print only the changes, not the rows of the state (-w)\n"
         "  --output-watch-events  put the event first: ADDED, MODIFIED or DELETED (EVENT\n"
         "                         column; -o json and yaml: {type, object} documents)\n"
         "  -d, --definition FILE  use the definitions of FILE (repeatable)\n"
         "  --definitions DIR      use the definitions of DIR (repeatable)\n"
         "  -o, --output FORMAT    table (default), wide, json, yaml or name\n"
         "                         (json and yaml: a WorkloadList document: docs/output.md)\n"
         "  --lenient, --no-crd-defaults   as for 'wmap validate'\n"
         "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
         "                         (docs/limits.md)\n"
         "  --max-document-size N  the longest document (YAML document or JSON value) an input\n"
         "                         may hold: 256Mi (0: no limit)\n"
         "\n"
         "Cluster flags (as kubectl's):\n"
         "  --kubeconfig FILE, --context NAME, --cluster NAME, --user NAME, -s/--server URL,\n"
         "  --token TOKEN, --certificate-authority FILE, --insecure-skip-tls-verify,\n"
         "  --tls-server-name NAME, --request-timeout D (0, seconds or 30s, 1m...),\n"
         "  --cache-dir DIR        where discovery is kept for 6 hours (default ~/.kube/cache)\n"
         "\n"
         "Examples:\n"
         "  wmap get jobsets -n ml-training\n"
         "  wmap get jobsets,rayclusters -A -l team=foundation-models -o wide\n"
         "  wmap get jobset/llama-finetune -n ml-training -o json\n"
         "  wmap get jobsets,rayclusters -A -w --output-watch-events\n"
         "  wmap get --all-types -A -o wide\n"
         "  wmap get -f examples/\n"
         "  wmap get -f examples/ --status Running -o wide\n"
         "  wmap get -f examples/ -l 'team in (data-platform,inference-platform)' -o json\n"
         "  kubectl get jobsets,pods -A -o yaml | wmap get -f - -l team=foundation-models\n"
         "\n"
         "Exit status: 0 success, 1 invalid input or a cluster error (unreachable, 401, 403),\n"
         "2 usage, 3 a path, a TYPE or a NAME that does not exist, 4 no definition for TYPE.\n";
}

namespace {

// The table of `get`: one row per workload.
std::string ListTable(const view::WorkloadList& list, bool wide, int64_t now) {
  TableWriter table(WorkloadTableHeader(wide));
  for (const view::WorkloadSummary& r : list.items) {
    table.AddRow(WorkloadRowCells(r, list.pods_given, wide, now));
  }
  return table.Render();
}

// -o name: kind.group/name, as kubectl prints it.
std::string NameList(const view::WorkloadList& list) {
  std::string out;
  for (const view::WorkloadSummary& r : list.items) out += WorkloadNameLine(r);
  return out;
}

class GetCommand : public WorkloadCommand {
 public:
  GetCommand()
      : WorkloadCommand({"get",
                         GetCommandHelp,
                         {"table", "wide", "json", "yaml", "name"},
                         true,
                         "give a TYPE to read from the cluster, or the objects with -f PATH",
                         0,
                         /*reads_cluster=*/true,
                         /*filters_files=*/true}) {}

  void AddFlags(FlagParser* parser) override {
    parser->Strings({"--status"}, &status_flags_);
    parser->Bool({"-w", "--watch"}, &watch_);
    parser->Bool({"--watch-only"}, &watch_options_.watch_only);
    parser->Bool({"--output-watch-events"}, &watch_options_.show_events);
    parser->Bool({"--all-types"}, &all_types_);
  }

  bool ReadsEveryType() const override { return all_types_; }

  std::optional<Error> Validate() override {
    if (all_types_ && !positional.empty()) {
      return UsageError("--all-types lists every type; give it without TYPE arguments",
                        "run 'wmap get --all-types' or 'wmap get TYPE'");
    }
    std::string error;
    std::optional<LabelSelector> selector = LabelSelector::Parse(live.label_selector, &error);
    if (!selector) return UsageError(error);
    options_.selector = std::move(*selector);
    std::optional<std::set<ResourceStatus>> statuses = ParseStatusFilter(status_flags_, &error);
    if (!statuses) return UsageError(error);
    options_.statuses = std::move(*statuses);
    options_.namespace_name = live.namespace_name;
    watch_ = watch_ || watch_options_.watch_only;
    if (watch_ && !live.active) {
      return UsageError("-w (--watch) reads the cluster: it needs a TYPE, not -f",
                        "wmap get TYPE -w, e.g. wmap get jobsets -n NAMESPACE -w");
    }
    if (watch_options_.show_events && !watch_) {
      return UsageError("--output-watch-events needs -w (--watch)");
    }
    return std::nullopt;
  }

  int Run(const CommandIo& io) override {
    DefinitionResolver resolver;
    if (std::optional<int> failed = LoadDefinitions(io, &resolver)) return *failed;
    if (watch_) return Watch(io, resolver);
    view::WorkloadListBuilder builder(resolver, std::move(options_));
    std::vector<std::string> notices;
    auto report = [&] {
      for (const std::string& notice : notices) Warn(io, notice);
      notices.clear();
    };
    view::WorkloadList list;
    if (live.active) {
      std::optional<int> failed = ReadLive(io, resolver, &builder, &notices, &list);
      if (failed) return *failed;
    } else {
      ObjectReader reader(input, io);
      SourceObject object;
      std::optional<Error> read_error;
      while (reader.Next(&object, &read_error)) {
        if (read_error) return Fail(io, *read_error);
        builder.Add(object, &notices);
        report();
      }
      list = builder.Finish(&notices);
    }
    report();
    view::SortNewestFirst(&list);  // as upstream's get orders its rows
    const int64_t now = NowSeconds(io);
    if (output == "json" || output == "yaml") {
      WriteAll(io.out_fd, RenderDocuments({view::WorkloadListDocument(list, now)}, output));
    } else if (output == "name") {
      WriteAll(io.out_fd, NameList(list));
    } else if (list.items.empty()) {
      WriteAll(io.err_fd, "No workloads found.\n");
    } else {
      WriteAll(io.out_fd, ListTable(list, output == "wide", now));
    }
    return kExitOk;
  }

 private:
  // The workloads of the TYPE arguments with their children and pods, from the cluster, into
  // *list; on failure the error is reported and its exit code returned.
  std::optional<int> ReadLive(const CommandIo& io, const DefinitionResolver& resolver,
                              view::WorkloadListBuilder* builder, std::vector<std::string>* notices,
                              view::WorkloadList* list) {
    ClusterRead read;
    std::optional<int> failed = ReadCluster(
        io, resolver, /*workloads_only=*/false,
        [&](SourceObject object) { builder->Add(object, notices); }, &read);
    if (failed) return *failed;
    *list = builder->Finish(notices);
    // Objects of other kinds (children without an owner among the inputs) are not rows here.
    std::erase_if(list->items, [&](const view::WorkloadSummary& r) {
      return !read.IsRootKind(r.api_version, r.kind);
    });
    if (read.named_missing && list->items.empty()) return NothingFound(io, read);
    return std::nullopt;
  }

  int Watch(const CommandIo& io, const DefinitionResolver& resolver) {
    Result<ClusterConnection*> connection = Connection(io, live.cluster, live.namespace_name);
    if (!connection.ok()) return Fail(io, connection.error());
    watch_options_.output = output;
    watch_options_.duration =
        ParseRequestTimeout(live.cluster.request_timeout).value_or(std::chrono::milliseconds(0));
    ClusterQuery query = live.Query(positional, false);
    query.all_types = all_types_;
    return WatchWorkloads(*this, io, **connection, query, resolver, options_, watch_options_);
  }

  std::vector<std::string> status_flags_;
  bool all_types_ = false;  // every type a definition reads and the cluster serves
  view::WorkloadListOptions options_;
  bool watch_ = false;
  GetWatchOptions watch_options_;
};

}  // namespace

int RunGetCommand(std::span<const std::string> args, const CommandIo& io) {
  GetCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
