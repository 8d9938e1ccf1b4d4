// `wmap definitions`: the definitions available to the workload commands, as a table, as data,
// one in full, or as the catalog reference page (docs/catalog.md). With a cluster (a kubeconfig
// flag, or KUBECONFIG set) the cluster's Karta and WorkloadDefinition objects are merged in
// (cluster_definitions.h) and every warning of the merge is printed.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "cli/cluster_definitions.h"
#include "cli/cluster_source.h"
#include "cli/definition_summary.h"
#include "cli/table_writer.h"
#include "cli/workload_command.h"
#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/source.h"
#include "wmap/view.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

constexpr size_t kComponentLimit = 3;

bool EqualFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

struct Filters {
  std::string group;
  std::string kind;
  std::string version;
  bool group_set = false;

  bool Match(const GroupVersionKind& gvk) const {
    if (group_set && !EqualFold(gvk.group, group == "core" ? "" : group)) return false;
    if (!kind.empty() && !EqualFold(gvk.kind, kind)) return false;
    if (!version.empty() && !EqualFold(gvk.version, version)) return false;
    return true;
  }
};

std::string ComponentsCell(const Definition& d) {
  std::string out;
  auto components = d.components();
  for (size_t i = 0; i < components.size() && i < kComponentLimit; ++i) {
    if (i) out += ",";
    out += components[i].name;
  }
  if (components.size() > kComponentLimit) {
    out += " (+" + std::to_string(components.size() - kComponentLimit) + ")";
  }
  return out;
}

// The document of `name` in a YAML/JSON stream, or null.
Value FindDocument(std::string_view text, std::string_view name) {
  yaml::StreamReader reader(text);
  yaml::Document doc;
  Error error;
  while (reader.Next(&doc, &error)) {
    if (!error.message.empty()) break;
    if (MetadataField(doc.value, "name") == name) return doc.value;
  }
  return Value();
}

// The source document of a catalog entry (null when its source cannot be read again): the
// object the server returned for a cluster definition.
Value SourceDocument(const CatalogEntry& entry, const ClusterDefinitions& cluster) {
  const std::string& name = entry.definition.name();
  if (entry.origin == kClusterOrigin) {
    auto it = cluster.documents.find(name);
    if (it == cluster.documents.end()) return Value();
    Value doc = it->second;
    if (Value* metadata = doc.find_mutable("metadata")) metadata->erase("managedFields");
    return doc;
  }
  if (entry.origin == kBuiltInOrigin) {
    for (const Catalog::File& f : Catalog::BuiltInFiles()) {
      Value v = FindDocument(f.text, name);
      if (!v.is_null()) return v;
    }
    return Value();
  }
  std::string text, error;
  if (!ReadWholeFile(entry.origin, &text, &error)) return Value();
  return FindDocument(text, name);
}

// The document's warnings: {reason, definition, message} each.
Value WarningsValue(const std::vector<DefinitionWarning>& warnings) {
  Value out = Value::EmptyArray();
  for (const DefinitionWarning& w : warnings) {
    Value v = Value::EmptyObject();
    v.set("reason", Value::String(w.reason));
    v.set("definition", w.definition.empty() ? Value() : Value::String(w.definition));
    v.set("message", Value::String(w.message));
    out.push_back(std::move(v));
  }
  return out;
}

std::string WriteJson(const Value& v) {
  json::WriteOptions w;
  w.sort_keys = false;
  return json::ToString(v, w) + "\n";
}

}  // namespace

std::string DefinitionsCommandHelp() {
  return "List the workload definitions wmap reads objects through, or show one.\n"
         "\n"
         "Usage:\n"
         "  wmap definitions [NAME] [--group G] [--kind K] [--version V] [--definitions DIR]\n"
         "                   [--kubeconfig FILE] [--context NAME] [-o table|json|yaml|markdown]\n"
         "\n"
         "The built-in catalog, with every --definitions DIR (or file) and --definition FILE\n"
         "added on top: a definition for the same root kind replaces the built-in one.\n"
         "\n"
         "With a cluster (a flag below naming a kubeconfig, context, cluster, user or server,\n"
         "or KUBECONFIG set), the cluster's Karta (run.ai/v1alpha1) and WorkloadDefinition\n"
         "(workloadmap.dev/v1alpha1) objects are merged in: one replaces the built-in\n"
         "definition of its root kind (ORIGIN cluster), as it does for 'get', 'describe',\n"
         "'status'... (a --definitions file still wins). Warnings on stderr, with a reason:\n"
         "  collision    several cluster definitions claim one kind: none of them is used\n"
         "  no_crd       the definition's kind is not served by the cluster (it is kept)\n"
         "  invalid      a cluster definition does not load: it is skipped\n"
         "  forbidden    listing the cluster's definitions is not allowed: the catalog alone\n"
         "  unreachable  the cluster cannot be reached: the catalog alone\n"
         "With -o json or yaml they are also the document's warnings.\n"
         "\n"
         "Without NAME, one row per definition: NAME KIND ORIGIN COMPONENTS (KIND is\n"
         "Kind.version.group, ORIGIN is built-in, the file or cluster, COMPONENTS the first\n"
         "three).\n"
         "With NAME, that definition: its components, statuses and gang scheduling (table), or\n"
         "its document as written (json, yaml).\n"
         "\n"
         "Flags:\n"
         "  --group G             only definitions of API group G (core for the core group)\n"
         "  --kind K              only definitions of kind K (case-insensitive)\n"
         "  --version V           only definitions of version V\n"
         "  --definitions DIR     add the definitions of a folder (repeatable)\n"
         "  -d, --definition FILE add the definitions of a file (repeatable)\n"
         "  -o, --output FORMAT   table (default), json or yaml (a DefinitionList document:\n"
         "                        docs/output.md), or markdown (the page docs/catalog.md)\n"
         "  --lenient, --no-crd-defaults   as for 'wmap validate'\n"
         "  --eval-timeout D, --eval-memory N, --deadline D   limits of definition evaluation\n"
         "                         (docs/limits.md)\n"
         "\n" +
         ClusterFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap definitions\n"
         "  wmap definitions --group ray.io\n"
         "  wmap definitions jobset-x-k8s-io-jobset-v1alpha2 -o yaml\n"
         "  wmap definitions --definitions ./my-definitions\n"
         "  wmap definitions -o markdown > docs/catalog.md\n"
         "  KUBECONFIG=~/.kube/config wmap definitions        (merged with the cluster's)\n"
         "\n"
         "Exit status: 0 success (warnings included), 1 an invalid definition or file, or a\n"
         "cluster error other than the warnings above (401...), 2 usage, 3 NAME or a path not\n"
         "found.\n";
}

namespace {

class DefinitionsCommand : public WorkloadCommand {
 public:
  DefinitionsCommand()
      : WorkloadCommand({"definitions",
                         DefinitionsCommandHelp,
                         {"table", "json", "yaml", "markdown"},
                         false,
                         "",
                         1}) {}

  void AddFlags(FlagParser* parser) override {
    cluster_.Register(parser);
    parser->String({"--group"}, &filters_.group);
    parser->String({"--kind"}, &filters_.kind);
    parser->String({"--version"}, &filters_.version);
  }

  std::optional<Error> Validate() override {
    filters_.group_set = std::any_of(args.begin(), args.end(), [](const std::string& a) {
      return a == "--group" || a.starts_with("--group=");
    });
    return cluster_.Validate();
  }

  int Run(const CommandIo& io) override {
    DefinitionResolver resolver;
    if (std::optional<int> failed = LoadDefinitions(io, &resolver)) return *failed;
    std::optional<std::string_view> kubeconfig_env = GetEnv(io, "KUBECONFIG");
    live_ = cluster_.AnyGiven() || (kubeconfig_env && !kubeconfig_env->empty());
    if (live_) {
      Result<ClusterConnection*> connection = Connection(io, cluster_, "");
      if (!connection.ok()) return Fail(io, connection.error());
      Result<ClusterDefinitions> merged = FetchClusterDefinitions(
          (*connection)->client.get(), (*connection)->discovery.get(), &resolver);
      if (!merged.ok()) return Fail(io, merged.error());
      cluster_definitions_ = std::move(*merged);
      for (const DefinitionWarning& w : cluster_definitions_.warnings) Warn(io, WarningLine(w));
    }
    if (positional.size() == 1) return ShowOne(io, resolver.catalog(), positional[0]);
    return List(io, resolver.catalog());
  }

 private:
  int ShowOne(const CommandIo& io, const Catalog& catalog, const std::string& name) const {
    const CatalogEntry* entry = catalog.FindByName(name);
    if (entry == nullptr || !filters_.Match(entry->definition.root_kind())) {
      return Fail(io, Error::Of(ErrorCode::kNotFound, "definition \"" + name + "\" not found",
                                "'wmap definitions' lists the names"));
    }
    if (output == "table") {
      WriteAll(io.out_fd, DescribeDefinition(*entry));
    } else if (output == "markdown") {
      WriteAll(io.out_fd, DefinitionMarkdown(*entry));
    } else {
      Value doc = SourceDocument(*entry, cluster_definitions_);
      if (doc.is_null()) {
        return Fail(io, Error::Of(ErrorCode::kIo, "the source of definition \"" + name + "\" (" +
                                                      entry->origin + ") cannot be read again"));
      }
      WriteAll(io.out_fd, output == "json" ? WriteJson(doc) : yaml::ToString(doc));
    }
    return kExitOk;
  }

  int List(const CommandIo& io, const Catalog& catalog) const {
    std::vector<const CatalogEntry*> selected;
    for (const CatalogEntry& e : catalog.entries()) {
      if (filters_.Match(e.definition.root_kind())) selected.push_back(&e);
    }
    if (output == "markdown") {
      WriteAll(io.out_fd, CatalogMarkdown(selected));
    } else if (output == "json" || output == "yaml") {
      Value doc = view::DefinitionListDocument(selected);
      if (live_) doc.set("warnings", WarningsValue(cluster_definitions_.warnings));
      WriteAll(io.out_fd, output == "json" ? WriteJson(doc) : yaml::ToString(doc));
    } else if (selected.empty()) {
      WriteAll(io.err_fd, "No definitions found.\n");
    } else {
      TableWriter table({"NAME", "KIND", "ORIGIN", "COMPONENTS"});
      for (const CatalogEntry* e : selected) {
        table.AddRow({e->definition.name(), view::KindName(e->definition.root_kind()), e->origin,
                      ComponentsCell(e->definition)});
      }
      WriteAll(io.out_fd, table.Render());
    }
    return kExitOk;
  }

  Filters filters_;
  ClusterFlags cluster_;
  bool live_ = false;  // the cluster's definitions are merged in
  ClusterDefinitions cluster_definitions_;
};

}  // namespace

int RunDefinitionsCommand(std::span<const std::string> args, const CommandIo& io) {
  DefinitionsCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
