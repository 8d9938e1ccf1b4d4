#include "cli/live_write.h"

#include <string>
#include <utility>

#include "cli/cluster_source.h"
#include "cli/pod_commands.h"
#include "wmap/json.h"
#include "wmap/meta.h"
#include "wmap/patch.h"
#include "wmap/text.h"

namespace wmap::cli {
namespace {

// The name under which a flag of `names` is on the command line, or "" when it is not.
std::string_view Given(std::span<const std::string> args,
                       std::initializer_list<std::string_view> names) {
  for (const std::string& a : args) {
    if (a == "--") return {};
    for (std::string_view name : names) {
      if (a == name || (name.starts_with("--") && a.starts_with(std::string(name) + "="))) {
        return name;
      }
    }
  }
  return {};
}

}  // namespace

void LiveWriteFlags::Register(FlagParser* parser) {
  parser->Optional({"--dry-run"}, &dry_run, "server");
  parser->String({"--field-manager"}, &write.field_manager);
}

std::optional<Error> LiveWriteFlags::Validate(std::span<const std::string> args, bool writes,
                                              std::string_view hint) {
  if (!writes) {
    std::string_view given = Given(args, {"--dry-run", "--field-manager"});
    if (!given.empty()) {
      return UsageError(std::string(given) + " is for changing a workload in the cluster",
                        std::string(hint));
    }
    return std::nullopt;
  }
  if (!dry_run.empty() && dry_run != "server" && dry_run != "none") {
    return UsageError("invalid --dry-run \"" + dry_run + "\"",
                      "only --dry-run=server: the server checks the change and stores nothing");
  }
  write.dry_run = dry_run == "server";
  if (write.field_manager.empty()) {
    return UsageError("--field-manager needs a name", "the default is wmap");
  }
  return std::nullopt;
}

std::string LiveWriteFlagsHelp() {
  return "      --dry-run=server  the server checks the change and stores nothing\n"
         "      --field-manager N the field manager of the change (default wmap)\n";
}

std::optional<Error> RefuseListFlags(std::span<const std::string> args, std::string_view command) {
  std::string_view given = Given(
      args, {"-A", "--all-namespaces", "-l", "--selector", "--field-selector", "--chunk-size"});
  if (given.empty()) return std::nullopt;
  return UsageError(
      std::string(given) + " is not a flag of 'wmap " + std::string(command) + "' with TYPE/NAME",
      "name the workloads: TYPE/NAME... or TYPE NAME..., with -n NAMESPACE");
}

std::string LiveWorkload::Name() const {
  std::string kind = text::AsciiLower(resource->kind);
  if (!resource->group.empty()) kind += "." + resource->group;
  return kind + "/" + std::string(object.Name());
}

std::optional<Error> RequireNames(std::span<const std::string> type_args,
                                  std::string_view command) {
  Result<std::vector<kube::TypeRequest>> types = kube::ParseTypeArguments(type_args);
  if (!types.ok()) return types.error();
  for (const kube::TypeRequest& t : *types) {
    if (t.names.empty()) {
      return UsageError("no name given for \"" + t.type + "\"",
                        "wmap " + std::string(command) + " " + t.type + "/NAME");
    }
  }
  return std::nullopt;
}

std::optional<Error> ReadNamedWorkloads(
    const LiveFlags& live, const CommandIo& io, std::span<const std::string> type_args,
    const DefinitionResolver& resolver, std::string_view command,
    const std::function<std::optional<Error>(const kube::ApiResource&, const CatalogEntry&)>& check,
    LiveWorkloads* out) {
  if (std::optional<Error> e = RequireNames(type_args, command)) return e;
  Result<std::vector<kube::TypeRequest>> types = kube::ParseTypeArguments(type_args);
  if (!types.ok()) return types.error();
  Result<std::unique_ptr<kube::Client>> client = live.cluster.Connect(io, live.namespace_name);
  if (!client.ok()) return client.error();
  out->client = std::move(*client);
  Result<kube::Discovery> discovery = kube::Discovery::Fetch(out->client.get());
  if (!discovery.ok()) return discovery.error();
  const std::string ns = out->client->config().namespace_name;

  // Every type resolved and checked before the first object is read.
  std::vector<std::pair<const kube::ApiResource*, const CatalogEntry*>> resolved;
  for (const kube::TypeRequest& t : *types) {
    Result<const kube::ApiResource*> resource = ResolveWorkloadType(*discovery, t.type, resolver);
    if (!resource.ok()) return resource.error();
    const CatalogEntry* entry = resolver.Find((*resource)->ApiVersion(), (*resource)->kind);
    if (check) {
      if (std::optional<Error> e = check(**resource, *entry)) return e;
    }
    resolved.emplace_back(*resource, entry);
  }
  for (size_t i = 0; i < types->size(); ++i) {
    const auto [resource, entry] = resolved[i];
    for (const std::string& name : (*types)[i].names) {
      Result<Value> object = kube::GetObject(out->client.get(), *resource, ns, name);
      if (!object.ok()) return object.error();
      LiveWorkload w;
      w.resource = resource;
      w.entry = entry;
      w.namespace_name = resource->namespaced ? ns : "";
      w.object.value = std::move(*object);
      // As kubectl prints objects: the field managers' records are the server's bookkeeping,
      // neither changed nor shown.
      if (Value* metadata = w.object.value.find_mutable("metadata")) {
        metadata->erase("managedFields");
      }
      w.object.file = resource->CollectionPath(w.namespace_name) + "/" + name;
      out->workloads.push_back(std::move(w));
    }
  }
  return std::nullopt;
}

Value GuardedMergePatch(const Value& before, const Value& after) {
  Value patch = MergePatch(before, after);
  if (!patch.is_object()) patch = Value::EmptyObject();
  std::string_view version = MetadataField(before, "resourceVersion");
  Value metadata = patch.find("metadata") != nullptr && patch.find("metadata")->is_object()
                       ? *patch.find("metadata")
                       : Value::EmptyObject();
  metadata.set("resourceVersion", Value::String(std::string(version)));
  patch.set("metadata", std::move(metadata));
  return patch;
}

Result<Value> WriteBack(kube::Client* client, const LiveWorkload& w, const Value& after,
                        const kube::WriteOptions& options) {
  std::string body;
  json::WriteOptions compact;
  compact.indent = 0;
  compact.sort_keys = false;
  json::Write(GuardedMergePatch(w.object.value, after), compact, &body);
  Result<Value> r = kube::Patch(client, *w.resource, w.namespace_name, w.object.Name(),
                                kube::PatchType::kMerge, body, options);
  if (!r.ok() && r.error().code == ErrorCode::kConflict) {
    Error e = r.error();
    e.hint =
        "it changed after it was read: run the command again, which reads it anew and changes "
        "what is there now";
    return e;
  }
  return r;
}

std::optional<Error> WriteBackAll(const CommandIo& io, const LiveWorkloads& read,
                                  const std::vector<Value>& changed,
                                  const kube::WriteOptions& options, std::string_view done,
                                  std::string_view output) {
  const std::string suffix = options.dry_run ? " (server dry run)" : "";
  std::vector<Value> documents;
  for (size_t i = 0; i < read.workloads.size(); ++i) {
    const LiveWorkload& w = read.workloads[i];
    Result<Value> stored = WriteBack(read.client.get(), w, changed[i], options);
    if (!stored.ok()) return stored.error();
    if (output == "name") {
      const bool same = changed[i] == w.object.value;
      WriteAll(io.out_fd,
               w.Name() + std::string(done) + (same ? " (no change)" : "") + suffix + "\n");
    } else {
      documents.push_back(std::move(*stored));
    }
  }
  if (output != "name") WriteAll(io.out_fd, RenderDocuments(documents, output));
  return std::nullopt;
}

}  // namespace wmap::cli
