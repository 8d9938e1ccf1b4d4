#include "cli/get_watch.h"

#include <poll.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/cluster_watch.h"
#include "cli/display_format.h"
#include "cli/pod_commands.h"
#include "cli/table_writer.h"
#include "cli/workload_rows.h"
#include "wmap/meta.h"

namespace wmap::cli {
namespace {

using Clock = std::chrono::steady_clock;

// What a printed row showed, AGE aside: a change of any of it prints the row again.
std::string Signature(const view::WorkloadSummary& r) {
  const ResourceList& t = r.requests();
  std::string out = JoinedStatuses(r.statuses) + "|" + std::to_string(r.current) + "|" +
                    std::to_string(r.ready) + "|" + (r.counted ? std::to_string(r.desired) : "-") +
                    "|" + (r.resources_known() ? "" : "?");
  for (const auto& [name, amount] : t) out += "|" + name + "=" + std::to_string(amount);
  return out;
}

std::string RowKey(const view::WorkloadSummary& r) {
  return r.api_version + " " + r.kind + " " + r.namespace_name + "/" + r.name;
}

// True when the reader of `fd` has gone (a pipe whose other end closed).
bool OutputClosed(int fd) {
  pollfd p{fd, POLLOUT, 0};
  return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

struct Change {
  std::string event;  // ADDED, MODIFIED, DELETED
  view::WorkloadSummary row;
};

// Prints changes in the chosen format; the table keeps its column widths across calls.
class ChangePrinter {
 public:
  ChangePrinter(const CommandIo& io, const GetWatchOptions& options) : io_(io), options_(options) {
    // EVENT as wide as its widest word from the start, so that rows line up.
    if (options_.show_events) widths_.push_back(std::string_view("MODIFIED").size());
  }

  void Print(const std::vector<Change>& changes, bool pods_given) {
    if (changes.empty()) return;
    const int64_t now = NowSeconds(io_);
    const std::string& format = options_.output;
    if (format == "json" || format == "yaml") {
      std::vector<Value> documents;
      for (const Change& c : changes) {
        view::WorkloadList one;
        one.items.push_back(c.row);
        one.pods_given = pods_given;
        Value item = *view::WorkloadListDocument(one, now).find("items")->items().begin();
        if (options_.show_events) {
          Value event = Value::EmptyObject(2);
          event.set("type", Value::String(c.event));
          event.set("object", std::move(item));
          item = std::move(event);
        }
        documents.push_back(std::move(item));
      }
      WriteAll(io_.out_fd, RenderDocuments(documents, format));
      return;
    }
    if (format == "name") {
      std::string out;
      for (const Change& c : changes) {
        out += (options_.show_events ? c.event + " " : "") + WorkloadNameLine(c.row);
      }
      WriteAll(io_.out_fd, out);
      return;
    }
    const bool wide = format == "wide";
    std::vector<std::string> header = WorkloadTableHeader(wide);
    if (options_.show_events) header.insert(header.begin(), "EVENT");
    TableWriter table(std::move(header));
    for (const Change& c : changes) {
      std::vector<std::string> cells = WorkloadRowCells(c.row, pods_given, wide, now);
      if (options_.show_events) cells.insert(cells.begin(), c.event);
      table.AddRow(std::move(cells));
    }
    WriteAll(io_.out_fd, table.Render(&widths_, !header_printed_));
    header_printed_ = true;
  }

 private:
  const CommandIo& io_;
  const GetWatchOptions& options_;
  std::vector<size_t> widths_;
  bool header_printed_ = false;
};

}  // namespace

int WatchWorkloads(const WorkloadCommand& command, const CommandIo& io,
                   ClusterConnection& connection, const ClusterQuery& query,
                   const DefinitionResolver& resolver,
                   const view::WorkloadListOptions& list_options, const GetWatchOptions& options) {
  kube::Client* client = connection.client.get();
  ClusterRead read;
  Result<ClusterTypes> types =
      ResolveClusterTypes(connection.discovery.get(), query, resolver, &read);
  for (const std::string& w : read.warnings) command.Warn(io, w);
  if (!types.ok()) return command.Fail(io, types.error());
  const kube::Discovery& discovery = *types->discovery;
  const std::string context_namespace = client->config().namespace_name;
  const std::string scope = query.all_namespaces ? "" : context_namespace;

  ClusterWatch watch(*client);
  std::set<size_t> root_watches;
  std::map<size_t, int> level;                      // of the watches of pods and owners: 0 for pods
  std::set<std::string> watched = read.root_kinds;  // "apiVersion kind"
  std::map<std::string, std::set<std::string>> names;  // root kind -> the NAMEs asked for
  for (const ClusterTarget& t : types->targets) {
    root_watches.insert(
        watch.Watch(*t.resource, scope, query.label_selector, query.field_selector));
    if (!t.names.empty()) {
      names[KindKey(t.resource->ApiVersion(), t.resource->kind)].insert(t.names.begin(),
                                                                        t.names.end());
    }
  }
  if (root_watches.empty()) return command.NothingFound(io, read);
  if (const kube::ApiResource* pods = discovery.FindKind("", "v1", "Pod");
      pods != nullptr && watched.insert("v1 Pod").second) {
    level[watch.Watch(*pods, scope)] = 0;
  }

  // Watches the kinds that the controller owners of pods and owners name, level by level up to
  // meta::kMaxControllerDepth, each once.
  auto follow_owners = [&] {
    for (const auto& [index, depth] : std::map<size_t, int>(level)) {
      if (depth + 1 > meta::kMaxControllerDepth) continue;
      for (const auto& [key, object] : watch.objects(index)) {
        const Value* owner = meta::ControllerReference(object);
        if (owner == nullptr) continue;
        std::string api_version(meta::StringField(*owner, "apiVersion"));
        std::string kind(meta::StringField(*owner, "kind"));
        if (!watched.insert(KindKey(api_version, kind)).second) continue;
        size_t slash = api_version.find('/');
        std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
        std::string version =
            slash == std::string::npos ? api_version : api_version.substr(slash + 1);
        const kube::ApiResource* resource = discovery.FindKind(group, version, kind);
        if (resource == nullptr || resource->version != version) continue;  // not served
        level[watch.Watch(*resource, scope)] = depth + 1;
      }
    }
  };

  // The rows as of now, keyed.
  bool pods_given = false;
  std::set<std::string> notices_seen;
  auto rows_now = [&] {
    view::WorkloadListBuilder builder(resolver, list_options);
    std::vector<std::string> notices;
    for (size_t i = 0; i < watch.size(); ++i) {
      for (const auto& [key, object] : watch.objects(i)) {
        builder.Add(ClusterObject(object, watch.resource(i)), &notices);
      }
    }
    view::WorkloadList list = builder.Finish(&notices);
    for (const std::string& n : notices) {
      if (notices_seen.insert(n).second) command.Warn(io, n);
    }
    pods_given = list.pods_given;
    std::erase_if(list.items, [&](const view::WorkloadSummary& r) {
      const std::string kind = KindKey(r.api_version, r.kind);
      if (!read.IsRootKind(r.api_version, r.kind)) return true;
      auto named = names.find(kind);
      return named != names.end() && named->second.count(r.name) == 0;
    });
    view::SortNewestFirst(&list);
    return list;
  };

  ChangePrinter printer(io, options);
  std::map<std::string, std::pair<std::string, view::WorkloadSummary>> shown;  // key -> sig, row
  bool started = false;
  const Clock::time_point end =
      options.duration.count() > 0 ? Clock::now() + options.duration : Clock::time_point::max();
  while (Clock::now() < end && !OutputClosed(io.out_fd)) {
    bool changed = watch.Poll(std::min(end, Clock::now() + std::chrono::seconds(1)));
    // Events come in bursts (a controller's status update, a pod and its owner): a short quiet
    // time gathers a burst into one set of rows.
    while (changed && Clock::now() < end &&
           watch.Poll(std::min(end, Clock::now() + std::chrono::milliseconds(100)))) {
    }
    for (const std::string& w : watch.TakeWarnings()) command.Warn(io, w);
    for (ClusterWatch::Ended& e : watch.TakeEnded()) {
      const kube::ApiResource& resource = watch.resource(e.watch);
      const bool cluster_wide = watch.namespace_name(e.watch).empty() && resource.namespaced;
      if (e.error.code == ErrorCode::kForbidden && cluster_wide && root_watches.count(e.watch)) {
        // As get without -w: the context's namespace when the whole cluster is not allowed.
        command.Warn(io,
                     e.error.message + "; watching namespace " + context_namespace + " instead");
        root_watches.insert(
            watch.Watch(resource, context_namespace, query.label_selector, query.field_selector));
      } else if (e.error.code == ErrorCode::kForbidden && !root_watches.count(e.watch)) {
        command.Warn(io, e.error.message + "; PODS and GPUS may be incomplete");
      } else {
        return command.Fail(io, e.error);
      }
      changed = true;
    }
    if (!changed && started) continue;
    follow_owners();
    if (!watch.Synced()) continue;
    view::WorkloadList list = rows_now();
    std::vector<Change> changes;
    std::set<std::string> present;
    for (const view::WorkloadSummary& r : list.items) {
      std::string key = RowKey(r);
      present.insert(key);
      std::string signature = Signature(r);
      auto it = shown.find(key);
      if (it != shown.end() && it->second.first == signature) continue;
      const bool added = it == shown.end();
      shown[key] = {signature, r};
      if (!started && options.watch_only) continue;
      changes.push_back({added ? "ADDED" : "MODIFIED", r});
    }
    for (auto it = shown.begin(); it != shown.end();) {
      if (present.count(it->first) == 0) {
        changes.push_back({"DELETED", it->second.second});
        it = shown.erase(it);
      } else {
        ++it;
      }
    }
    if (!started && changes.empty() && !options.watch_only) {
      WriteAll(io.err_fd, "No workloads found; watching for them.\n");
    }
    started = true;
    printer.Print(changes, pods_given);
  }
  return kExitOk;
}

}  // namespace wmap::cli
