#include "cli/live_flags.h"

#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

namespace wmap::cli {
namespace {

// The name under which a flag of `names` is on the command line ("--flag", "--flag=value" or
// "-f"), or "" when it is not.
std::string_view Given(std::span<const std::string> args,
                       std::initializer_list<std::string_view> names) {
  for (const std::string& a : args) {
    if (a == "--") return {};  // the rest are arguments
    for (std::string_view name : names) {
      if (a == name || (name.starts_with("--") && a.starts_with(std::string(name) + "="))) {
        return name;
      }
    }
  }
  return {};
}

}  // namespace

void LiveFlags::Register(FlagParser* parser) {
  parser->String({"-n", "--namespace"}, &namespace_name);
  parser->Bool({"-A", "--all-namespaces"}, &all_namespaces);
  parser->String({"-l", "--selector"}, &label_selector);
  parser->String({"--field-selector"}, &field_selector);
  parser->String({"--chunk-size"}, &chunk_size_text);
  cluster.Register(parser);
}

std::optional<Error> LiveFlags::Validate(std::span<const std::string> args, bool filters_files) {
  if (!active) {
    struct ClusterOnly {
      std::initializer_list<std::string_view> names;
      bool filters;  // also filters the objects of -f files
    };
    for (const ClusterOnly& f :
         {ClusterOnly{{"-A", "--all-namespaces"}, false}, ClusterOnly{{"--field-selector"}, false},
          ClusterOnly{{"--chunk-size"}, false}, ClusterOnly{{"-n", "--namespace"}, true},
          ClusterOnly{{"-l", "--selector"}, true}}) {
      if (f.filters && filters_files) continue;
      std::string_view given = Given(args, f.names);
      if (given.empty()) continue;
      return UsageError(std::string(given) + " is for reading from the cluster (give a TYPE)",
                        filters_files ? "with -f, -n and -l filter the objects of the files"
                                      : "with -f, every object of the files is read");
    }
  }
  if (!chunk_size_text.empty()) {
    char* end = nullptr;
    long long n = std::strtoll(chunk_size_text.c_str(), &end, 10);
    if (end == chunk_size_text.c_str() || *end != '\0' || n < 0) {
      return UsageError("invalid --chunk-size \"" + chunk_size_text + "\"",
                        "give a whole number of objects per request (0: all in one)");
    }
    chunk_size = n;
  }
  if (all_namespaces && !namespace_name.empty()) {
    return UsageError("-n and -A cannot be used together");
  }
  return cluster.Validate();
}

ClusterQuery LiveFlags::Query(std::vector<std::string> type_args, bool workloads_only) const {
  ClusterQuery query;
  query.type_args = std::move(type_args);
  query.all_namespaces = all_namespaces;
  query.label_selector = label_selector;
  query.field_selector = field_selector;
  query.chunk_size = chunk_size;
  query.workloads_only = workloads_only;
  return query;
}

std::string LiveFlagsHelp() {
  return "Cluster flags (with TYPE; as kubectl's):\n"
         "  -n, --namespace NS     the namespace to read (default: the context's)\n"
         "  -A, --all-namespaces   every namespace (where listing them all is forbidden: the\n"
         "                         context's namespace, with a warning)\n"
         "  -l, --selector SEL     labels, sent to the server: a=b,c!=d,e in (x,y)\n"
         "  --field-selector SEL   fields, sent to the server: metadata.name=x\n"
         "  --chunk-size N         objects per list request (default 500; 0: one request)\n"
         "  --kubeconfig FILE, --context NAME, --cluster NAME, --user NAME, -s/--server URL,\n"
         "  --token TOKEN, --certificate-authority FILE, --insecure-skip-tls-verify,\n"
         "  --tls-server-name NAME, --request-timeout D (0, seconds or 30s, 1m...),\n"
         "  --cache-dir DIR        where discovery is kept for 6 hours (default ~/.kube/cache)\n";
}

}  // namespace wmap::cli
