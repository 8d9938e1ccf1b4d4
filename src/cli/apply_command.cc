// `wmap apply`: submits the objects of -f to the cluster by server-side apply, the workloads'
// pod templates changed first through their definitions, with a gang scheduler's objects owned
// by each workload, and follows the workloads' statuses with --wait.
//
// Nothing is written until everything has been checked: the files read, the changes made, every
// object's type found on the server and its namespace settled. Writes then go in file order,
// each workload followed by its scheduler objects (which need its uid to be owned by it).
#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/cluster_source.h"
#include "cli/limit_values.h"
#include "cli/object_watch.h"
#include "cli/pod_change_flags.h"
#include "cli/pod_commands.h"
#include "cli/workload_command.h"
#include "wmap/gang.h"
#include "wmap/kube.h"
#include "wmap/meta.h"
#include "wmap/mutate.h"
#include "wmap/patch.h"
#include "wmap/scheduling.h"
#include "wmap/text.h"
#include "wmap/workload.h"

namespace wmap::cli {

// Exit codes of --wait besides 0 (the status was reached) and those of every command.
inline constexpr int kExitWorkloadFailed = 5;
inline constexpr int kExitWaitTimeout = 6;

std::string ApplyCommandHelp() {
  return "Submit workloads to the cluster: server-side apply of the objects of -f, the\n"
         "workloads' pod templates changed first through their definitions.\n"
         "\n"
         "Usage:\n"
         "  wmap apply -f FILE|DIR|- [CHANGES...] [--gang-for SCHEDULER] "
         "[--dry-run=server|client]\n"
         "             [--wait[=STATUS] [--timeout D]] [-n NAMESPACE] [--create-namespace]\n"
         "\n"
         "Every object of the files is applied in file order (fieldManager wmap, or\n"
         "--field-manager), as 'kubectl apply --server-side' does. Objects a definition reads\n"
         "are workloads: the changes below are made to their pod templates first, as 'wmap\n"
         "mutate' makes them. What the server sets (status, uid, resourceVersion, generation,\n"
         "creationTimestamp, managedFields) is left out, so objects read back from a cluster\n"
         "can be submitted again. Nothing is written until every object's type is found on\n"
         "the server and every change has been made.\n"
         "\n"
         "Changes (as 'wmap mutate'; repeatable unless noted):\n"
         "  --scheduler-name NAME, --priority-class NAME, --label K=V, --annotation K=V,\n"
         "  --node-selector K=V, --toleration T, --image [NAME=]IMAGE, --scheduling-group NAME,\n"
         "  --component NAME, --instance ID (only that component's or instance's templates)\n"
         "\n"
         "Flags:\n"
         "  -f, --filename PATH     the objects (YAML or JSON; files, folders, - for standard\n"
         "                          input; repeatable)\n"
         "  -n, --namespace NS      the namespace of objects that name none (else the\n"
         "                          context's); an object naming another one is an error\n"
         "      --create-namespace  create the namespaces the objects go to when missing\n"
         "      --gang-for S        also create the objects gang scheduler S needs for each\n"
         "                          workload (" +
         std::string(SchedulerNames()) +
         "),\n"
         "                          owned by the workload, and put in its pod templates what\n"
         "                          the pods need to join them (see 'wmap gang --for')\n"
         "      --dry-run MODE      server: the server checks every write and stores nothing;\n"
         "                          client: print what would be applied, no request at all\n"
         "                          (a bare --dry-run is client)\n"
         "      --force-conflicts   take over fields another field manager owns\n"
         "      --field-manager N   the field manager's name (default wmap)\n"
         "      --wait[=STATUS]     after applying, follow each workload through its\n"
         "                          definition's statuses until STATUS (default Running),\n"
         "                          Completed or Failed, by a watch; progress on stderr\n"
         "      --timeout D         how long --wait waits in all (default 30m; 0: no limit)\n"
         "  -o, --output FORMAT     name (default: one line per object), yaml or json (the\n"
         "                          objects as the server returned them)\n"
         "  -d, --definition FILE, --definitions DIR   more definitions (as 'wmap get')\n"
         "\n" +
         ClusterFlagsHelp() +
         "\n"
         "Examples:\n"
         "  wmap apply -f examples/jobset-training.yaml -n ml --create-namespace\n"
         "  wmap apply -f job.yaml --scheduler-name kai-scheduler --label "
         "kai.scheduler/queue=research \\\n"
         "      --gang-for kai --wait\n"
         "  wmap apply -f examples/raycluster.yaml --dry-run=server -o yaml\n"
         "\n"
         "Exit status: 0 applied (and, with --wait, the status reached), 1 invalid input or a\n"
         "cluster error (unreachable, 401, 403, a conflict, an invalid object), 2 usage, 3 a file\n"
         "not found, 4 no definition for a workload a change or --gang-for needs, 5 a workload\n"
         "failed while waited for, 6 --timeout passed first.\n";
}

namespace {

// "jobset.jobset.x-k8s.io/llama", as kubectl names what it applied.
std::string ObjectName(const Value& object) {
  std::string api_version(meta::StringField(object, "apiVersion"));
  std::string kind = text::AsciiLower(meta::StringField(object, "kind"));
  size_t slash = api_version.find('/');
  if (slash != std::string::npos) kind += "." + api_version.substr(0, slash);
  return kind + "/" + std::string(MetadataField(object, "name"));
}

// The object without what the server sets on it (status, uid, resourceVersion...): what is
// applied is a desired state, so an object read back from a cluster can be submitted again,
// here or elsewhere, without tripping the server's preconditions.
Value DesiredState(const Value& object) {
  Value out = object;
  out.erase("status");
  if (Value* metadata = out.find_mutable("metadata");
      metadata != nullptr && metadata->is_object()) {
    for (const char* key :
         {"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink",
          "deletionTimestamp", "deletionGracePeriodSeconds"}) {
      metadata->erase(key);
    }
  }
  return out;
}

struct GroupVersion {
  std::string group, version;
};
GroupVersion SplitApiVersion(std::string_view api_version) {
  size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) return {"", std::string(api_version)};
  return {std::string(api_version.substr(0, slash)), std::string(api_version.substr(slash + 1))};
}

// Makes `object` owned by `owner` (its controller), so that it goes when the owner goes.
void OwnBy(const Value& owner, Value* object) {
  Value reference = Value::Object({
      {"apiVersion", Value::String(meta::StringField(owner, "apiVersion"))},
      {"kind", Value::String(meta::StringField(owner, "kind"))},
      {"name", Value::String(MetadataField(owner, "name"))},
      {"uid", Value::String(MetadataField(owner, "uid"))},
      {"controller", Value::Bool(true)},
      {"blockOwnerDeletion", Value::Bool(true)},
  });
  Value* metadata = object->find_mutable("metadata");
  if (metadata == nullptr) return;
  Value references = Value::EmptyArray();
  references.push_back(std::move(reference));
  metadata->set("ownerReferences", std::move(references));
}

// What is applied: an object of the files (or a scheduler object) and where it goes.
struct Submission {
  SourceObject source;  // the file position, for errors
  Value object;         // as it is sent
  const kube::ApiResource* resource = nullptr;
  const CatalogEntry* entry = nullptr;  // set for workloads
  std::string namespace_name;           // "" for cluster-scoped objects
  // --gang-for: the scheduler's objects, built before the writes without an owner.
  std::vector<Value> scheduler_objects;
};

class ApplyCommand : public WorkloadCommand {
 public:
  ApplyCommand()
      : WorkloadCommand({"apply",
                         ApplyCommandHelp,
                         {"name", "yaml", "json"},
                         true,
                         "give the objects to submit with -f FILE"}) {}

  void AddFlags(FlagParser* parser) override {
    changes_flags_.Register(parser);
    parser->String({"-n", "--namespace"}, &namespace_);
    parser->Bool({"--create-namespace"}, &create_namespace_);
    parser->String({"--gang-for"}, &gang_for_);
    parser->Optional({"--dry-run"}, &dry_run_, "client");
    parser->Bool({"--force-conflicts"}, &write_.force_conflicts);
    parser->String({"--field-manager"}, &write_.field_manager);
    parser->Optional({"--wait"}, &wait_for_, "Running");
    parser->String({"--timeout"}, &timeout_text_);
    cluster_.Register(parser);
  }

  std::optional<Error> Validate() override {
    if (std::optional<Error> e = changes_flags_.Parse(args, &changes_)) return e;
    input.numbers_as_written = true;  // what is not changed is sent as it was written
    if (!gang_for_.empty()) {
      scheduler_ = ParseScheduler(gang_for_);
      if (!scheduler_) {
        return UsageError("unknown scheduler \"" + gang_for_ + "\"",
                          "use --gang-for " + std::string(SchedulerNames()));
      }
    }
    if (dry_run_ != "" && dry_run_ != "none" && dry_run_ != "server" && dry_run_ != "client") {
      return UsageError("invalid --dry-run \"" + dry_run_ + "\"",
                        "use --dry-run=server (checked by the server, nothing stored) or "
                        "--dry-run=client (printed, nothing sent)");
    }
    if (dry_run_ == "none") dry_run_.clear();
    write_.dry_run = dry_run_ == "server";
    if (write_.field_manager.empty()) {
      return UsageError("--field-manager needs a name", "the default is wmap");
    }
    if (!wait_for_.empty()) {
      std::string name = text::AsciiLower(wait_for_);
      bool known = false;
      for (ResourceStatus s :
           {ResourceStatus::kInitializing, ResourceStatus::kRunning, ResourceStatus::kCompleted,
            ResourceStatus::kFailed, ResourceStatus::kDegraded, ResourceStatus::kSuspended}) {
        if (text::AsciiLower(ResourceStatusName(s)) == name) {
          wanted_ = s;
          known = true;
        }
      }
      if (!known) {
        return UsageError("invalid --wait \"" + wait_for_ + "\"",
                          "wait for Initializing, Running (the default), Completed, Failed, "
                          "Degraded or Suspended");
      }
      if (!dry_run_.empty()) return UsageError("--wait cannot follow a dry run");
    }
    if (!timeout_text_.empty()) {
      if (wait_for_.empty()) return UsageError("--timeout is for --wait");
      if (timeout_text_ != "0") {
        std::optional<std::chrono::nanoseconds> d = ParseLimitDuration(timeout_text_);
        if (!d) {
          return UsageError("invalid --timeout \"" + timeout_text_ + "\"",
                            "give a duration such as 90s, 10m or 1h (0: no limit)");
        }
        timeout_ = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
      } else {
        timeout_.reset();
      }
    }
    return cluster_.Validate();
  }

  int Run(const CommandIo& io) override {
    DefinitionResolver resolver;
    if (std::optional<int> failed = LoadDefinitions(io, &resolver)) return *failed;
    std::vector<SourceObject> objects;
    if (std::optional<Error> e = ReadAllObjects(input, io, &objects)) return Fail(io, *e);
    if (objects.empty()) {
      return Fail(io, Error::Of(ErrorCode::kNotFound, "no object in the input",
                                "give the objects to submit with -f FILE"));
    }

    // The objects as they will be sent: workloads changed and joined to their gangs.
    std::vector<Submission> submissions;
    bool any_workload = false;
    for (SourceObject& o : objects) {
      if (!o.value.is_object()) {
        return Fail(io, WorkloadError(o, ErrorCode::kInvalidInput,
                                      "not a Kubernetes object (a " +
                                          std::string(TypeName(o.value.type())) + ")",
                                      "every document of the input must be an object"));
      }
      Submission s;
      s.entry = resolver.Find(o.value);
      s.object = DesiredState(o.value);
      if (s.entry != nullptr) {
        any_workload = true;
        if (std::optional<int> failed = Prepare(io, o, &s)) return *failed;
      }
      std::string_view own = MetadataField(s.object, "namespace");
      if (!own.empty() && !namespace_.empty() && own != namespace_) {
        return Fail(io, WorkloadError(o, ErrorCode::kUsage,
                                      "the object's namespace \"" + std::string(own) +
                                          "\" is not the namespace \"" + namespace_ + "\" of -n",
                                      "leave out -n, or pass -n " + std::string(own)));
      }
      s.source = std::move(o);
      submissions.push_back(std::move(s));
    }
    if (!any_workload && (!changes_.empty() || scheduler_)) {
      return Fail(io, DefinitionResolver::NoDefinition(submissions.front().source));
    }

    if (dry_run_ == "client") {
      std::vector<Value> documents;
      std::string lines;
      for (size_t i = 0; i < submissions.size(); ++i) {
        documents.push_back(submissions[i].object);
        lines += ObjectName(submissions[i].object) + " serverside-applied (dry run)\n";
        // The scheduler's objects, without the owner reference only the server's uid can give.
        for (const Value& extra : submissions[i].scheduler_objects) {
          documents.push_back(extra);
          lines += ObjectName(extra) + " serverside-applied (dry run)\n";
        }
      }
      WriteAll(io.out_fd, output == "name" ? lines : RenderDocuments(documents, output));
      return kExitOk;
    }

    Result<std::unique_ptr<kube::Client>> client = cluster_.Connect(io, namespace_);
    if (!client.ok()) return Fail(io, client.error());
    // A write checks its types against the server's discovery, which then refreshes the cache.
    kube::CachedDiscovery cached(client->get(), cluster_.CacheOptions(io));
    Result<const kube::Discovery*> fetched = cached.Refresh();
    if (!fetched.ok()) return Fail(io, fetched.error());
    const kube::Discovery* discovery = *fetched;
    const std::string default_namespace = (*client)->config().namespace_name;

    // Every type found and every namespace settled before the first write.
    std::set<std::string> namespaces;
    for (Submission& s : submissions) {
      Result<const kube::ApiResource*> resource = ServedResource(*discovery, s.object, s.source);
      if (!resource.ok()) return Fail(io, resource.error());
      s.resource = *resource;
      if (!s.resource->namespaced) continue;
      std::string_view own = MetadataField(s.object, "namespace");
      s.namespace_name = own.empty() ? default_namespace : std::string(own);
      namespaces.insert(s.namespace_name);
    }
    for (const Submission& s : submissions) {
      if (s.entry == nullptr || !scheduler_) continue;
      for (const Value& extra : s.scheduler_objects) {
        Result<const kube::ApiResource*> r = ServedResource(*discovery, extra, s.source);
        if (!r.ok()) {
          Error e = r.error();
          e.hint = "install the CRDs of " + std::string(SchedulerName(*scheduler_)) +
                   " in the cluster, or leave out --gang-for";
          return Fail(io, e);
        }
      }
    }
    if (create_namespace_) {
      for (const std::string& ns : namespaces) {
        if (std::optional<Error> e = CreateNamespace(client->get(), *discovery, ns, io)) {
          return Fail(io, *e);
        }
      }
    }

    // The writes.
    const std::string suffix = write_.dry_run ? " (server dry run)" : "";
    std::vector<Value> documents;
    std::vector<std::pair<const Submission*, Value>> applied_workloads;
    for (size_t i = 0; i < submissions.size(); ++i) {
      const Submission& s = submissions[i];
      Result<Value> applied =
          kube::Apply(client->get(), *s.resource, s.namespace_name, s.object, write_);
      if (!applied.ok()) return Fail(io, Located(applied.error(), s.source));
      Report(io, ObjectName(s.object) + " serverside-applied" + suffix, &documents, *applied);
      if (s.entry == nullptr) continue;
      applied_workloads.emplace_back(&s, *applied);
      if (!scheduler_) continue;
      // The scheduler's objects, owned by the workload as stored (its uid is known now). They
      // were built without it, as were the names the pod templates carry, so both agree.
      for (Value extra : s.scheduler_objects) {
        OwnBy(*applied, &extra);
        Result<const kube::ApiResource*> r = ServedResource(*discovery, extra, s.source);
        if (!r.ok()) return Fail(io, r.error());
        Result<Value> made = kube::Apply(client->get(), **r, s.namespace_name, extra, write_);
        if (!made.ok()) return Fail(io, Located(made.error(), s.source));
        Report(io, ObjectName(extra) + " serverside-applied" + suffix, &documents, *made);
      }
    }
    if (output != "name") WriteAll(io.out_fd, RenderDocuments(documents, output));
    if (wait_for_.empty()) return kExitOk;
    return Wait(io, client->get(), applied_workloads);
  }

 private:
  // Changes the workload's pod templates and, with --gang-for, joins them to the gangs and
  // applies the scheduler's change of the workload; keeps the scheduler's objects (built
  // without a uid) so that their types can be checked before anything is written.
  std::optional<int> Prepare(const CommandIo& io, const SourceObject& o, Submission* s) {
    const Definition& definition = s->entry->definition;
    if (!changes_.empty()) {
      MutateResult r =
          MutateWorkload(Workload(definition, s->object), changes_flags_.Scope(), changes_);
      if (!r.ok())
        return Fail(io, WorkloadError(o, r.error().code, r.error().message, r.error().hint));
      s->object = r.object();
    }
    if (!scheduler_) return std::nullopt;
    Workload workload(definition, s->object);
    Result<GangPlans> plans = PlanGangs(workload);
    if (!plans.ok()) {
      return Fail(io, WorkloadError(o, EvaluationErrorCode(plans.error()), plans.error().message,
                                    "check the definition's gang instructions with 'wmap gang'"));
    }
    if (plans->gangs.empty()) {
      Warn(io, o.Where() + ": the definition " + definition.name() +
                   " plans no gang for this workload: nothing is created for --gang-for");
    }
    // Stand-in pods, one per pod template a gang reaches, tell which labels and annotations
    // the scheduler wants on the pods; the templates get them, so every pod made from them has
    // them.
    std::vector<MutateScope> scopes;
    for (const GangPlan& g : plans->gangs) {
      std::vector<const SubGroupPlan*> leaves;
      for (const SubGroupPlan& sg : g.sub_groups) {
        bool parent = std::any_of(g.sub_groups.begin(), g.sub_groups.end(),
                                  [&](const SubGroupPlan& c) { return c.parent == sg.name; });
        if (!parent) leaves.push_back(&sg);
      }
      auto stand_in = [&](MutateScope scope, const std::string& sub_group) {
        PodGangAssignment a;
        a.pod = "template-" + std::to_string(scopes.size());
        a.gang = g.name;
        a.sub_group = sub_group;
        plans->pods.push_back(std::move(a));
        scopes.push_back(std::move(scope));
      };
      if (leaves.empty()) {
        MutateScope scope;
        if (!g.instance_id.empty() && plans->gangs.size() > 1) scope.instance = g.instance_id;
        stand_in(scope, "");
        continue;
      }
      // A leaf that stands for single pods (one replica of a component) cannot be named by a
      // template the replicas share: its pods join the gang through the nearest subgroup above
      // it that stands for a component, without a subgroup of their own.
      std::set<std::string> joined;  // "component/instance" given a stand-in for the whole gang
      bool per_pod = false;
      for (const SubGroupPlan* leaf : leaves) {
        const SubGroupPlan* named = leaf;
        while (named != nullptr && (named->replica || !named->component)) {
          const SubGroupPlan* up = nullptr;
          for (const SubGroupPlan& sg : g.sub_groups) {
            if (sg.name == named->parent) up = &sg;
          }
          named = up;
        }
        if (named == nullptr) {
          per_pod = true;
          continue;
        }
        MutateScope scope;
        scope.component = definition.components()[*named->component].name;
        if (!named->instance_id.empty()) scope.instance = named->instance_id;
        if (named == leaf) {
          stand_in(scope, leaf->name);
          continue;
        }
        per_pod = true;
        if (joined.insert(*scope.component + "/" + scope.instance.value_or("")).second) {
          stand_in(scope, "");
        }
      }
      if (per_pod) {
        Warn(io, o.Where() + ": gang " + g.name +
                     " has subgroups of single pods (one replica each), which the pod templates "
                     "the replicas share cannot name: the pods join the gang without them");
      }
    }
    Result<SchedulerObjects> built = BuildSchedulerObjects(*scheduler_, workload, *plans);
    if (!built.ok()) {
      return Fail(io, WorkloadError(o, EvaluationErrorCode(built.error()), built.error().message,
                                    built.error().hint));
    }
    for (const std::string& w : built->warnings) {
      if (w.find("uid") == std::string::npos) Warn(io, o.Where() + ": " + w);
    }
    if (built->workload_patch.size() > 0) {
      Result<Value> patched = ApplyJsonPatch(s->object, built->workload_patch);
      if (!patched.ok())
        return Fail(io, WorkloadError(o, ErrorCode::kInternal, patched.error().message));
      s->object = std::move(*patched);
    }
    for (size_t i = 0; i < built->pod_patches.size() && i < scopes.size(); ++i) {
      const Value* metadata = built->pod_patches[i].find("metadata");
      if (metadata == nullptr) continue;
      // The patches keep the stand-ins' order; each names its stand-in.
      std::string_view name = meta::StringField(*metadata, "name");
      size_t index = std::stoul(std::string(name.substr(name.rfind('-') + 1)));
      PodChanges join;
      for (const char* field : {"labels", "annotations"}) {
        const Value* map = metadata->find(field);
        if (map == nullptr || !map->is_object()) continue;
        for (const auto& m : map->members()) {
          if (!m.value.is_string()) continue;
          (std::string_view(field) == "labels" ? join.labels : join.annotations)
              .emplace_back(std::string(m.key.as_string()), std::string(m.value.as_string()));
        }
      }
      if (join.empty()) continue;
      MutateResult r = MutateWorkload(Workload(definition, s->object), scopes[index], join);
      if (!r.ok())
        return Fail(io, WorkloadError(o, r.error().code, r.error().message, r.error().hint));
      s->object = r.object();
    }
    s->scheduler_objects = built->objects;
    return std::nullopt;
  }

  // The served resource of the object's apiVersion and kind.
  static Result<const kube::ApiResource*> ServedResource(const kube::Discovery& discovery,
                                                         const Value& object,
                                                         const SourceObject& source) {
    std::string_view api_version = meta::StringField(object, "apiVersion");
    std::string_view kind = meta::StringField(object, "kind");
    if (api_version.empty() || kind.empty()) {
      return WorkloadError(source, ErrorCode::kInvalidInput, "the object has no apiVersion or kind",
                           "every object to apply needs both");
    }
    GroupVersion gv = SplitApiVersion(api_version);
    const kube::ApiResource* r = discovery.FindKind(gv.group, gv.version, kind);
    if (r == nullptr || r->version != gv.version) {
      return WorkloadError(
          source, ErrorCode::kNotFound,
          "the server does not serve " + std::string(kind) + " in " + std::string(api_version),
          r == nullptr ? "is its CRD installed? 'kubectl api-resources' lists what is served"
                       : "the server serves " + std::string(kind) + " in " + r->ApiVersion() +
                             ": change apiVersion");
    }
    return r;
  }

  // The namespace, created when it does not exist.
  std::optional<Error> CreateNamespace(kube::Client* client, const kube::Discovery& discovery,
                                       const std::string& name, const CommandIo& io) {
    const kube::ApiResource* namespaces = discovery.FindKind("", "v1", "Namespace");
    if (namespaces == nullptr) return Error::Of(ErrorCode::kNotFound, "no Namespace resource");
    Result<Value> existing = kube::GetObject(client, *namespaces, "", name);
    if (existing.ok()) return std::nullopt;
    if (existing.error().code != ErrorCode::kNotFound) return existing.error();
    Value ns = Value::Object({{"apiVersion", Value::String("v1")},
                              {"kind", Value::String("Namespace")},
                              {"metadata", Value::Object({{"name", Value::String(name)}})}});
    Result<Value> made = kube::Create(client, *namespaces, "", ns, write_);
    if (!made.ok()) return made.error();
    if (output == "name") {
      WriteAll(io.out_fd, "namespace/" + name + " created" +
                              (write_.dry_run ? " (server dry run)" : "") + "\n");
    }
    return std::nullopt;
  }

  // An API error located at the object of the files it is about.
  static Error Located(Error e, const SourceObject& source) {
    if (e.file.empty()) {
      e.file = source.file;
      e.position = source.position;
    }
    return e;
  }

  void Report(const CommandIo& io, const std::string& line, std::vector<Value>* documents,
              const Value& object) const {
    if (output == "name") {
      WriteAll(io.out_fd, line + "\n");
    } else {
      documents->push_back(object);
    }
  }

  // Follows each applied workload by a watch until the wanted status, Completed or Failed.
  int Wait(const CommandIo& io, kube::Client* client,
           const std::vector<std::pair<const Submission*, Value>>& workloads) const {
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (timeout_) deadline = std::chrono::steady_clock::now() + *timeout_;
    for (const auto& [s, applied] : workloads) {
      const std::string name = ObjectName(applied);
      const Submission& submission = *s;
      std::string last;
      std::optional<int> outcome;  // the exit code, once decided
      auto seen = [&](const Value* now) {
        if (now == nullptr) {
          Warn(io, name + " was deleted before it was " + std::string(ResourceStatusName(wanted_)));
          outcome = kExitWorkloadFailed;
          return true;
        }
        Result<std::optional<WorkloadStatus>> status =
            Workload(submission.entry->definition, *now).Status(0);
        if (!status.ok()) {
          outcome = Fail(io, WorkloadError(submission.source, EvaluationErrorCode(status.error()),
                                           status.error().message,
                                           "the definition " + submission.entry->definition.name() +
                                               " cannot read this workload's status"));
          return true;
        }
        std::vector<ResourceStatus> matched;
        if (status->has_value()) matched = (*status)->matched;
        std::string shown;
        for (ResourceStatus m : matched) {
          shown += (shown.empty() ? "" : ",") + std::string(ResourceStatusName(m));
        }
        if (shown != last) {
          WriteAll(io.err_fd, name + ": " + shown + "\n");
          last = shown;
        }
        auto has = [&](ResourceStatus x) {
          return std::find(matched.begin(), matched.end(), x) != matched.end();
        };
        if (has(wanted_)) return true;
        if (has(ResourceStatus::kFailed)) {
          Warn(io, name + " failed before it was " + std::string(ResourceStatusName(wanted_)));
          outcome = kExitWorkloadFailed;
          return true;
        }
        if (has(ResourceStatus::kCompleted)) {
          if (wanted_ == ResourceStatus::kRunning || wanted_ == ResourceStatus::kInitializing) {
            return true;  // it ran, and is done
          }
          Warn(io, name + " completed before it was " + std::string(ResourceStatusName(wanted_)));
          outcome = kExitWorkloadFailed;
          return true;
        }
        return false;
      };
      Result<FollowEnd> end = FollowObject(client, *s->resource, s->namespace_name,
                                           std::string(MetadataField(applied, "name")), deadline,
                                           seen, [&](const std::string& w) { Warn(io, w); });
      if (!end.ok()) return Fail(io, end.error());
      if (outcome) return *outcome;
      if (*end == FollowEnd::kTimedOut) {
        Warn(io, "timed out after " + timeout_text_ + " waiting for " + name + " to be " +
                     std::string(ResourceStatusName(wanted_)));
        return kExitWaitTimeout;
      }
    }
    return kExitOk;
  }

  PodChangeFlags changes_flags_;
  PodChanges changes_;
  std::string namespace_;
  bool create_namespace_ = false;
  std::string gang_for_;
  std::optional<Scheduler> scheduler_;
  std::string dry_run_;
  kube::WriteOptions write_;
  std::string wait_for_;
  ResourceStatus wanted_ = ResourceStatus::kRunning;
  std::string timeout_text_;
  std::optional<std::chrono::milliseconds> timeout_ = std::chrono::minutes(30);
  ClusterFlags cluster_;
};

}  // namespace

int RunApplyCommand(std::span<const std::string> args, const CommandIo& io) {
  ApplyCommand command;
  return Execute(command, args, io);
}

}  // namespace wmap::cli
