// `wmap get`: one row per workload object found in files and folders, read through its
// definition. Objects are streamed: each one is reduced to its row (or, for pods and child
// objects, to its owner link and requests) as soon as it is read, so memory grows with the number
// of objects, not with their size.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cli/display_format.h"
#include "cli/output_buffer.h"
#include "cli/table_writer.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/selector.h"
#include "wmap/tree.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

struct Row {
  std::string name;
  std::string namespace_name;
  std::string api_version;
  std::string kind;
  std::string uid;
  std::string owner_uid;
  std::string definition;
  std::string origin;
  std::vector<std::string> statuses;
  std::string created;
  std::string file;
  Position position;
  int list_index = -1;
  bool tree_ok = true;  // the definition could read the pods, replicas and templates
  int32_t desired = 0;
  ResourceTotals template_requests;
  // From the pods attributed to it.
  int32_t current = 0;
  int32_t ready = 0;
  ResourceTotals pod_requests;
};

struct PodLink {
  std::string owner_uid;
  bool ready = false;
  ResourceTotals requests;
};

bool PodReady(const Value& pod) {
  const Value* status = pod.find("status");
  const Value* conditions = status != nullptr ? status->find("conditions") : nullptr;
  if (conditions != nullptr && conditions->is_array() && conditions->size() > 0) {
    for (const Value& c : conditions->items()) {
      if (StringField(c, "type") == "Ready") return StringField(c, "status") == "True";
    }
    return false;
  }
  const Value* containers = status != nullptr ? status->find("containerStatuses") : nullptr;
  if (containers == nullptr || !containers->is_array() || containers->size() == 0) return false;
  for (const Value& c : containers->items()) {
    const Value* r = c.find("ready");
    if (r == nullptr || !r->is_bool() || !r->as_bool()) return false;
  }
  return true;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The statuses --status accepts (lower case) to their names.
std::optional<std::set<std::string>> ParseStatusFilter(const std::vector<std::string>& flags,
                                                       std::string* error) {
  static constexpr ResourceStatus kAll[] = {
      ResourceStatus::kInitializing, ResourceStatus::kRunning,    ResourceStatus::kCompleted,
      ResourceStatus::kFailed,       ResourceStatus::kDegraded,   ResourceStatus::kUndefined,
      ResourceStatus::kSuspended,    ResourceStatus::kSuspending, ResourceStatus::kResuming};
  std::set<std::string> out;
  for (const std::string& flag : flags) {
    size_t start = 0;
    for (size_t i = 0; i <= flag.size(); ++i) {
      if (i < flag.size() && flag[i] != ',') continue;
      std::string want = Lower(flag.substr(start, i - start));
      start = i + 1;
      bool found = false;
      for (ResourceStatus s : kAll) {
        if (Lower(ResourceStatusName(s)) == want) {
          out.insert(std::string(ResourceStatusName(s)));
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

Value RowValue(const Row& r, bool have_pods, int64_t now) {
  Value statuses = Value::EmptyArray();
  for (const std::string& s : r.statuses) statuses.push_back(Value::String(s));
  bool from_pods = r.current > 0;
  const ResourceTotals& t = from_pods ? r.pod_requests : r.template_requests;
  Value v = Value::EmptyObject();
  v.set("name", Value::String(r.name));
  v.set("namespace", Value::String(r.namespace_name));
  v.set("apiVersion", Value::String(r.api_version));
  v.set("kind", Value::String(r.kind));
  v.set("definition", Value::String(r.definition));
  v.set("origin", Value::String(r.origin));
  v.set("statuses", statuses);
  v.set("pods", Value::Object({{"desired", r.tree_ok ? Value::Int(r.desired) : Value()},
                               {"current", have_pods ? Value::Int(r.current) : Value()},
                               {"ready", have_pods ? Value::Int(r.ready) : Value()}}));
  if (r.tree_ok || from_pods) {
    v.set("resources", ResourceTotalsToValue(t));
  } else {
    v.set("resources", Value());
  }
  v.set("resourcesFrom", Value::String(from_pods ? "pods" : "templates"));
  v.set("createdAt", r.created.empty() ? Value() : Value::String(r.created));
  std::optional<int64_t> created = ParseTimestamp(r.created);
  v.set("age", created ? Value::String(HumanDuration(now - *created)) : Value());
  Value source = Value::Object({{"file", Value::String(r.file)},
                                {"line", Value::Int(r.position.line)},
                                {"column", Value::Int(r.position.column)}});
  if (r.list_index >= 0) source.set("item", Value::Int(r.list_index));
  v.set("source", source);
  return v;
}

std::string Joined(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + v[i];
  return out;
}

}  // namespace

std::string GetCommandHelp() {
  return "List the workloads found in files and folders, read through their definitions.\n"
         "\n"
         "Usage:\n"
         "  wmap get -f PATH... [-l SELECTOR] [--status S] [-n NAMESPACE]\n"
         "           [-o table|wide|json|yaml]\n"
         "\n"
         "Every object of the files (multi-document YAML, JSON values or arrays, kind: List;\n"
         "folders are read recursively, - is standard input) is looked up by apiVersion and\n"
         "kind in the built-in catalog, --definitions DIR and --definition FILE. Objects owned\n"
         "by another given object (a JobSet's Jobs) and Pods are not rows: they are counted in\n"
         "their workload's PODS and GPUS. Objects of a kind with no definition are reported\n"
         "once per kind on stderr and skipped.\n"
         "\n"
         "Columns: NAME NAMESPACE KIND STATUS PODS GPUS AGE. STATUS lists every status the\n"
         "definition matches. PODS is ready/desired when pods are among the inputs, else\n"
         "desired. GPUS (and CPU, MEMORY in wide) are the requests of the workload's pods when\n"
         "they are given, else of its pod templates times their replicas. Wide adds CPU,\n"
         "MEMORY, DEFINITION and SOURCE (file:line). AGE counts from SOURCE_DATE_EPOCH when\n"
         "set. Rows keep the input order.\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH    files or folders to read (repeatable); - for standard input\n"
         "  -l, --selector SEL     labels, as kubectl: a=b,c!=d,e in (x,y),f notin (z),g,!h\n"
         "  --status S             only workloads with status S (repeatable or S1,S2)\n"
         "  -n, --namespace NS     only workloads of namespace NS\n"
         "  -d, --definition FILE  use the definitions of FILE (repeatable)\n"
         "  --definitions DIR      use the definitions of DIR (repeatable)\n"
         "  -o, --output FORMAT    table (default), wide, json or yaml\n"
         "                         ({\"items\": [...], \"count\": N})\n"
         "  --lenient, --no-crd-defaults   as for 'wmap validate'\n"
         "\n"
         "Examples:\n"
         "  wmap get -f examples/\n"
         "  wmap get -f examples/ --status Running -o wide\n"
         "  wmap get -f examples/ -l 'team in (data-platform,inference-platform)' -o json\n"
         "  kubectl get jobsets,pods -A -o yaml | wmap get -f - -l team=foundation-models\n"
         "\n"
         "Exit status: 0 success, 1 invalid input, 2 usage, 3 a path does not exist.\n";
}

int RunGetCommand(std::span<const std::string> args, const CommandIo& io) {
  InputFlags input;
  std::string output, selector_text, namespace_filter;
  std::vector<std::string> status_flags;
  bool help = false;
  FlagParser parser;
  input.Register(&parser);
  parser.String({"-o", "--output"}, &output);
  parser.String({"-l", "--selector"}, &selector_text);
  parser.String({"-n", "--namespace"}, &namespace_filter);
  parser.Strings({"--status"}, &status_flags);
  parser.Bool({"-h", "--help"}, &help);
  std::vector<std::string> positional;
  if (std::optional<CliError> e = parser.Parse(args, &positional)) {
    e->hint = "run 'wmap get --help' for usage";
    return ReportError(io, "get", output, *e);
  }
  if (help) {
    WriteAll(io.out_fd, GetCommandHelp());
    return kExitOk;
  }
  if (output.empty()) output = "table";
  if (output != "table" && output != "wide" && output != "json" && output != "yaml") {
    return ReportError(
        io, "get", "",
        UsageError("unknown output format \"" + output + "\" (use table, wide, json or yaml)"));
  }
  if (!positional.empty()) {
    return ReportError(io, "get", output,
                       UsageError("unexpected argument \"" + positional[0] + "\"",
                                  "give files and folders with -f PATH"));
  }
  if (input.files.empty()) {
    return ReportError(io, "get", output,
                       UsageError("give the objects with -f PATH (- for standard input)",
                                  "run 'wmap get --help' for usage"));
  }
  std::string error;
  std::optional<LabelSelector> selector = LabelSelector::Parse(selector_text, &error);
  if (!selector) return ReportError(io, "get", output, UsageError(error));
  std::optional<std::set<std::string>> status_filter = ParseStatusFilter(status_flags, &error);
  if (!status_filter) return ReportError(io, "get", output, UsageError(error));

  DefinitionResolver resolver;
  if (std::optional<Error> e =
          DefinitionResolver::Create(input.definition_sources(io), &resolver)) {
    return ReportError(io, "get", output, *e);
  }

  std::vector<Row> rows;
  std::vector<PodLink> pods;
  OwnerIndex owners;
  // apiVersion + " " + kind of objects with no definition -> count, in first-seen order.
  std::vector<std::pair<std::string, int>> undefined;
  std::map<std::string, size_t> undefined_index;
  bool have_pods = false;
  UncontrolledPods uncontrolled;

  ObjectReader reader(input.files, io);
  SourceObject object;
  std::optional<CliError> read_error;
  while (reader.Next(&object, &read_error)) {
    if (read_error) return ReportError(io, "get", output, *read_error);
    const Value& v = object.value;
    std::string_view owner = ControllerUid(v);
    owners.Add(object.Uid(), owner);
    if (IsUncontrolledPod(v)) uncontrolled.Add(object);
    if (IsPod(v)) {
      PodLink link;
      link.owner_uid = std::string(owner.empty() ? object.Uid() : owner);
      link.ready = PodReady(v);
      const Value* spec = v.find("spec");
      if (spec != nullptr) {
        Result<ResourceTotals> requests = PodSpecRequests(*spec);
        if (requests.ok()) link.requests = *requests;
      }
      if (!owner.empty()) have_pods = true;
      pods.push_back(std::move(link));
      if (!owner.empty()) continue;
    }
    // An object whose owner was already read is a child, never a row.
    if (!owner.empty() && owners.Contains(owner)) continue;
    const CatalogEntry* entry = resolver.Find(v);
    if (entry == nullptr) {
      if (!owner.empty()) continue;
      std::string key = std::string(object.ApiVersion()) + " " + std::string(object.Kind());
      auto [it, inserted] = undefined_index.emplace(key, undefined.size());
      if (inserted) {
        undefined.emplace_back(key, 0);
        Error e = DefinitionResolver::NoDefinition(object);
        ReportWarning(io, "get", e.ToString() + " (objects of this kind are skipped)");
      }
      ++undefined[it->second].second;
      continue;
    }
    const Value* metadata = v.find("metadata");
    const Value* labels = metadata != nullptr ? metadata->find("labels") : nullptr;
    if (!selector->Matches(labels != nullptr ? *labels : Value())) {
      // Still an owner for the objects below it, never a row.
      continue;
    }
    if (!namespace_filter.empty() && object.Namespace() != namespace_filter) continue;
    Row row;
    row.name = std::string(object.Name());
    row.namespace_name = std::string(object.Namespace());
    row.api_version = std::string(object.ApiVersion());
    row.kind = std::string(object.Kind());
    row.uid = std::string(object.Uid());
    row.owner_uid = std::string(owner);
    row.definition = entry->definition.name();
    row.origin = entry->origin;
    row.created = std::string(MetadataField(v, "creationTimestamp"));
    row.file = object.file;
    row.position = object.position;
    row.list_index = object.list_index;
    Workload workload(entry->definition, v);
    Result<std::optional<WorkloadStatus>> status = workload.Status(0);
    if (!status.ok()) {
      ReportWarning(io, "get",
                    "could not resolve " + row.kind + "/" + row.name + " (" + object.Where() +
                        "): " + status.error().message);
      continue;
    }
    for (ResourceStatus s : (*status)->matched) {
      row.statuses.emplace_back(ResourceStatusName(s));
    }
    Result<WorkloadTree> tree = BuildTree(entry->definition, v, {}, {});
    if (tree.ok()) {
      row.desired = tree->desired;
      row.template_requests = tree->requests;
    } else {
      row.tree_ok = false;
      ReportWarning(io, "get",
                    "could not count the pods of " + row.kind + "/" + row.name + " (" +
                        object.Where() + "): " + tree.error().message);
    }
    if (!status_filter->empty()) {
      bool any = std::any_of(row.statuses.begin(), row.statuses.end(),
                             [&](const std::string& s) { return status_filter->count(s) > 0; });
      if (!any) continue;
    }
    rows.push_back(std::move(row));
  }
  if (std::string w = uncontrolled.Warning(); !w.empty()) ReportWarning(io, "get", w);

  // Rows owned by another given object are children, not workloads.
  std::vector<Row> workloads;
  std::unordered_map<std::string, size_t> row_of_uid;
  for (Row& r : rows) {
    if (!r.owner_uid.empty() && owners.Contains(r.owner_uid)) continue;
    if (!r.uid.empty()) row_of_uid.emplace(r.uid, workloads.size());
    workloads.push_back(std::move(r));
  }
  auto is_root = [&](std::string_view uid) { return row_of_uid.count(std::string(uid)) > 0; };
  for (const PodLink& p : pods) {
    std::string_view root = owners.RootOf(p.owner_uid, is_root);
    if (root.empty()) continue;
    Row& r = workloads[row_of_uid.at(std::string(root))];
    ++r.current;
    if (p.ready) ++r.ready;
    r.pod_requests += p.requests;
  }

  int64_t now = NowSeconds(io);
  OutputBuffer out(io.out_fd);
  if (output == "json" || output == "yaml") {
    Value items = Value::EmptyArray();
    for (const Row& r : workloads) items.push_back(RowValue(r, have_pods, now));
    Value doc = Value::Object({{"items", items}, {"count", Value::Int(workloads.size())}});
    if (output == "json") {
      json::WriteOptions w;
      w.sort_keys = false;
      out.Append(json::ToString(doc, w) + "\n");
    } else {
      out.Append(yaml::ToString(doc));
    }
    return kExitOk;
  }
  if (workloads.empty()) {
    WriteAll(io.err_fd, "No workloads found.\n");
    return kExitOk;
  }
  bool wide = output == "wide";
  std::vector<std::string> header = {"NAME", "NAMESPACE", "KIND", "STATUS", "PODS", "GPUS"};
  if (wide) header.insert(header.end(), {"CPU", "MEMORY"});
  header.push_back("AGE");
  if (wide) header.insert(header.end(), {"DEFINITION", "SOURCE"});
  TableWriter table(header);
  for (const Row& r : workloads) {
    bool from_pods = r.current > 0;
    const ResourceTotals& t = from_pods ? r.pod_requests : r.template_requests;
    std::string desired = r.tree_ok ? std::to_string(r.desired) : "-";
    std::string pods_cell = have_pods ? std::to_string(r.ready) + "/" + desired : desired;
    bool known = r.tree_ok || from_pods;
    std::optional<int64_t> created = ParseTimestamp(r.created);
    std::vector<std::string> cells = {r.name,    r.namespace_name.empty() ? "-" : r.namespace_name,
                                      r.kind,    Joined(r.statuses),
                                      pods_cell, known ? std::to_string(t.gpus) : "-"};
    if (wide) {
      cells.insert(cells.end(), {known ? FormatCpu(t.cpu_millicores) : "-",
                                 known ? FormatMemory(t.memory_bytes) : "-"});
    }
    cells.push_back(created ? HumanDuration(now - *created) : "<unknown>");
    if (wide) {
      std::string source = r.file + ":" + std::to_string(r.position.line);
      if (r.list_index >= 0) source += "[" + std::to_string(r.list_index) + "]";
      cells.insert(cells.end(), {r.definition, source});
    }
    table.AddRow(std::move(cells));
  }
  out.Append(table.Render());
  return kExitOk;
}

}  // namespace wmap::cli
