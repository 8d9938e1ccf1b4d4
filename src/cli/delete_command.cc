// `wmap delete`: deletes workloads (or any objects) from the cluster, named as TYPE/NAME, as
// TYPE NAME..., or by the objects of -f, with kubectl's cascade modes.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "cli/cluster_source.h"
#include "cli/limit_values.h"
#include "cli/object_watch.h"
#include "cli/workload_command.h"
#include "wmap/kube.h"
#include "wmap/meta.h"
#include "wmap/text.h"

namespace wmap::cli {

std::string DeleteCommandHelp() {
  return "Delete workloads from the cluster.\n"
         "\n"
         "Usage:\n"
         "  wmap delete TYPE/NAME... | TYPE NAME... | -f FILE [-n NAMESPACE] [--cascade MODE]\n"
         "              [--dry-run=server] [--wait[=true|false]] [--timeout D]\n"
         "\n"
         "TYPE is resolved as 'wmap get' resolves it (plural, singular, short name or kind, with\n"
         "an optional .group). With -f, the objects of the files are deleted (their apiVersion,\n"
         "kind, name and namespace). A workload's children and pods go with it through their\n"
         "owner references, as the cascade mode says.\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH   the objects to delete (files, folders, - for standard input)\n"
         "  -n, --namespace NS    the namespace (else the object's, else the context's)\n"
         "      --cascade MODE    background (default: the object goes now, its dependents\n"
         "                        after), foreground (the object goes after its dependents) or\n"
         "                        orphan (the dependents stay)\n"
         "      --dry-run=server  the server checks the deletion and deletes nothing\n"
         "      --ignore-not-found  an object that is not there is not an error\n"
         "      --wait            return once the objects are gone (finalizers run; followed\n"
         "                        by a watch), at most --timeout (default 5m)\n"
         "  -o, --output name     one line per object deleted (the default)\n"
         "\n" +
         ClusterFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap delete jobset/llama-finetune -n ml\n"
         "  wmap delete -f examples/jobset-training.yaml --cascade foreground --wait\n"
         "\n"
         "Exit status: 0 deleted, 1 a cluster error (unreachable, 401, 403...), 2 usage, 3 an\n"
         "object or type not found, 6 --timeout passed before the objects were gone.\n";
}

namespace {

struct Target {
  const kube::ApiResource* resource = nullptr;
  std::string namespace_name;
  std::string name;
  std::string uid;  // of the object deleted, while its finalizers run
};

class DeleteCommand : public WorkloadCommand {
 public:
  DeleteCommand()
      : WorkloadCommand({"delete",
                         DeleteCommandHelp,
                         {"name"},
                         true,
                         "give TYPE/NAME, TYPE NAME... or -f FILE",
                         0,
                         true,
                         /*filters_files=*/true}) {}

  void AddFlags(FlagParser* parser) override {
    parser->String({"--cascade"}, &cascade_);
    parser->Optional({"--dry-run"}, &dry_run_, "server");
    parser->Bool({"--ignore-not-found"}, &ignore_not_found_);
    parser->Optional({"--wait"}, &wait_, "true");
    parser->String({"--timeout"}, &timeout_text_);
  }

  std::optional<Error> Validate() override {
    if (cascade_ == "background" || cascade_.empty()) {
      write_.propagation_policy = "Background";
    } else if (cascade_ == "foreground") {
      write_.propagation_policy = "Foreground";
    } else if (cascade_ == "orphan") {
      write_.propagation_policy = "Orphan";
    } else {
      return UsageError("invalid --cascade \"" + cascade_ + "\"",
                        "use background, foreground or orphan");
    }
    if (!dry_run_.empty() && dry_run_ != "server" && dry_run_ != "none") {
      return UsageError("invalid --dry-run \"" + dry_run_ + "\"",
                        "only --dry-run=server: a deletion cannot be checked without the server");
    }
    write_.dry_run = dry_run_ == "server";
    if (wait_ != "" && wait_ != "true" && wait_ != "false") {
      return UsageError("--wait takes true or false, not \"" + wait_ + "\"");
    }
    if (!timeout_text_.empty()) {
      std::optional<std::chrono::nanoseconds> d = ParseLimitDuration(timeout_text_);
      if (!d) return UsageError("invalid --timeout \"" + timeout_text_ + "\"");
      timeout_ = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    }
    for (std::string_view flag :
         {"-l", "--selector", "-A", "--all-namespaces", "--field-selector", "--chunk-size"}) {
      for (const std::string& a : args) {
        if (a == flag || a.starts_with(std::string(flag) + "=")) {
          return UsageError(std::string(flag) + " is not a flag of 'wmap delete'",
                            "name the objects: TYPE/NAME, TYPE NAME... or -f FILE");
        }
      }
    }
    return std::nullopt;
  }

  int Run(const CommandIo& io) override {
    Result<std::unique_ptr<kube::Client>> client = live.cluster.Connect(io, live.namespace_name);
    if (!client.ok()) return Fail(io, client.error());
    // A write checks its types against the server's discovery, which then refreshes the cache.
    kube::CachedDiscovery cached(client->get(), live.cluster.CacheOptions(io));
    Result<const kube::Discovery*> fetched = cached.Refresh();
    if (!fetched.ok()) return Fail(io, fetched.error());
    const kube::Discovery* discovery = *fetched;
    const std::string ns = (*client)->config().namespace_name;

    // Every target found before the first deletion.
    std::vector<Target> targets;
    if (!positional.empty()) {
      Result<std::vector<kube::TypeRequest>> types = kube::ParseTypeArguments(positional);
      if (!types.ok()) return Fail(io, types.error());
      for (const kube::TypeRequest& t : *types) {
        const kube::ApiResource* r = discovery->Resolve(t.type);
        if (r == nullptr) {
          return Fail(io, Error::Of(ErrorCode::kNotFound,
                                    "the server doesn't have a resource type \"" + t.type + "\"",
                                    "'kubectl api-resources' lists the types the server serves"));
        }
        if (t.names.empty()) {
          return Fail(io, UsageError("no name given for \"" + t.type + "\"",
                                     "wmap delete " + t.type + "/NAME"));
        }
        for (const std::string& name : t.names) targets.push_back({r, ns, name, ""});
      }
    } else {
      std::vector<SourceObject> objects;
      if (std::optional<Error> e = ReadAllObjects(input, io, &objects)) return Fail(io, *e);
      for (const SourceObject& o : objects) {
        std::string_view api_version = meta::StringField(o.value, "apiVersion");
        size_t slash = api_version.find('/');
        std::string group(slash == std::string_view::npos ? "" : api_version.substr(0, slash));
        std::string version(slash == std::string_view::npos ? api_version
                                                            : api_version.substr(slash + 1));
        const kube::ApiResource* r = discovery->FindKind(group, version, o.Kind());
        if (r == nullptr) {
          Error e =
              Error::Of(ErrorCode::kNotFound, "the server does not serve " + std::string(o.Kind()) +
                                                  " in " + std::string(api_version));
          e.file = o.file;
          e.position = o.position;
          return Fail(io, e);
        }
        std::string object_ns(o.Namespace());
        if (!object_ns.empty() && !live.namespace_name.empty() &&
            object_ns != live.namespace_name) {
          return Fail(io,
                      UsageError("the object's namespace \"" + object_ns +
                                 "\" is not the namespace \"" + live.namespace_name + "\" of -n"));
        }
        targets.push_back({r, object_ns.empty() ? ns : object_ns, std::string(o.Name()), ""});
      }
    }

    const std::string suffix = write_.dry_run ? " (server dry run)" : "";
    std::vector<Target> deleted;
    int exit_code = kExitOk;
    for (const Target& t : targets) {
      Result<Value> r = kube::Delete(client->get(), *t.resource, t.namespace_name, t.name, write_);
      if (!r.ok()) {
        if (r.error().code == ErrorCode::kNotFound && ignore_not_found_) continue;
        if (r.error().code == ErrorCode::kNotFound) {
          // The others are still deleted; the exit code says one was missing.
          ReportError(io, "delete", "", r.error());
          exit_code = kExitNotFound;
          continue;
        }
        return Fail(io, r.error());
      }
      std::string kind = text::AsciiLower(t.resource->kind);
      if (!t.resource->group.empty()) kind += "." + t.resource->group;
      WriteAll(io.out_fd, kind + "/" + t.name + " deleted" + suffix + "\n");
      // The answer is the object while finalizers hold it, a Status once it is gone.
      if (meta::StringField(*r, "kind") != "Status") {
        Target waiting = t;
        waiting.uid = std::string(meta::MetadataField(*r, "uid"));
        deleted.push_back(std::move(waiting));
      }
    }
    if (wait_ != "true" || write_.dry_run) return exit_code;
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    for (const Target& t : deleted) {
      // Gone: absent, or another object of the same name made since (another uid).
      auto gone = [&](const Value* now) {
        return now == nullptr || meta::MetadataField(*now, "uid") != t.uid;
      };
      Result<FollowEnd> end =
          FollowObject(client->get(), *t.resource, t.namespace_name, t.name, deadline, gone,
                       [&](const std::string& w) { Warn(io, w); });
      if (!end.ok()) return Fail(io, end.error());
      if (*end == FollowEnd::kTimedOut) {
        Warn(io, "timed out waiting for " + t.resource->kind + " " + t.name + " to be gone");
        return 6;
      }
    }
    return exit_code;
  }

 private:
  std::string cascade_;
  std::string dry_run_;
  bool ignore_not_found_ = false;
  std::string wait_;
  std::string timeout_text_;
  std::chrono::milliseconds timeout_ = std::chrono::minutes(5);
  kube::WriteOptions write_;
};

}  // namespace

int RunDeleteCommand(std::span<const std::string> args, const CommandIo& io) {
  DeleteCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
