// The admission rules each scheduler enforces beyond its CRD schema
// (../shared/docs/scheduler-rules.md), checked on what every scheduler gets for every object of
// every built-in definition's test data: KAI's PodGroup webhook and pod grouper, Kueue's
// Workload webhook and plain pod groups, Volcano's webhooks and gang semantics, scheduler-plugins'
// label-carried names, the Kubernetes Workload API's validation, and the label and name limits
// of the API server. Each rule is a check that fails on the objects of the first emitters
// (minMember with minSubGroup, two minCounts, 64+ character label values, no skip-podgrouper,
// node labels as HyperNode tier names...).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog_test_support.h"
#include "scheduling_test_support.h"
#include "shared_data.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
#include "wmap/patch.h"
#include "wmap/scheduling.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

// ---- names and labels (scheduler-rules.md section 6) ----

bool IsDnsLabel(std::string_view s) {
  static const std::regex re("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return !s.empty() && s.size() <= 63 && std::regex_match(s.begin(), s.end(), re);
}

bool IsDnsSubdomain(std::string_view s) {
  static const std::regex re("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  return !s.empty() && s.size() <= 253 && std::regex_match(s.begin(), s.end(), re);
}

bool IsLabelValue(std::string_view s) {
  static const std::regex re("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  return s.empty() || (s.size() <= 63 && std::regex_match(s.begin(), s.end(), re));
}

bool IsQualifiedName(std::string_view s) {
  const size_t slash = s.find('/');
  std::string_view name = slash == std::string_view::npos ? s : s.substr(slash + 1);
  if (slash != std::string_view::npos && !IsDnsSubdomain(s.substr(0, slash))) return false;
  return !name.empty() && IsLabelValue(name);
}

std::string Str(const Value* v) {
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

const Value* Path(const Value& v, std::initializer_list<std::string_view> keys) {
  const Value* at = &v;
  for (std::string_view k : keys) {
    if (at == nullptr || !at->is_object()) return nullptr;
    at = at->find(k);
  }
  return at;
}

std::string Name(const Value& object) { return Str(Path(object, {"metadata", "name"})); }

int64_t Int(const Value* v) { return v != nullptr && v->is_integer() ? v->as_int() : 0; }

// Every object name, label key and label value of a pod patch, and every key of its
// annotations.
void CheckNamesAndLabels(const SchedulerObjects& out) {
  for (const Value& o : out.objects) {
    EXPECT_TRUE(IsDnsSubdomain(Name(o))) << "object name " << Name(o);
  }
  for (const Value& patch : out.pod_patches) {
    if (const Value* labels = Path(patch, {"metadata", "labels"})) {
      for (const Member& m : labels->members()) {
        EXPECT_TRUE(IsQualifiedName(m.key.as_string())) << "label key " << m.key.as_string();
        EXPECT_TRUE(IsLabelValue(Str(&m.value))) << "label value " << Str(&m.value);
      }
    }
    if (const Value* annotations = Path(patch, {"metadata", "annotations"})) {
      for (const Member& m : annotations->members()) {
        EXPECT_TRUE(IsQualifiedName(m.key.as_string())) << "annotation " << m.key.as_string();
      }
    }
  }
}

// ---- KAI (section 1) ----

void CheckKai(const SchedulerObjects& out) {
  std::map<std::string, std::set<std::string>> subgroups_of;
  for (const Value& pg : out.objects) {
    const Value& spec = *pg.find("spec");
    EXPECT_FALSE(spec.find("minMember") != nullptr && spec.find("minSubGroup") != nullptr)
        << "root minMember and minSubGroup are mutually exclusive: " << Name(pg);
    const Value* subs = spec.find("subGroups");
    std::map<std::string, std::string> parent_of;
    std::map<std::string, int> children;
    std::set<std::string>& names = subgroups_of[Name(pg)];
    for (const Value& s : subs != nullptr ? subs->items() : std::span<const Value>()) {
      const std::string name = Str(s.find("name"));
      EXPECT_TRUE(names.insert(name).second) << "duplicate subgroup " << name;
      parent_of[name] = Str(s.find("parent"));
      ++children[Str(s.find("parent"))];
    }
    for (const Value& s : subs != nullptr ? subs->items() : std::span<const Value>()) {
      const std::string name = Str(s.find("name"));
      const std::string& parent = parent_of[name];
      EXPECT_TRUE(parent.empty() || names.count(parent) == 1) << "unknown parent " << parent;
      std::string at = parent;
      for (size_t hops = 0; !at.empty(); ++hops) {
        ASSERT_LE(hops, names.size()) << "parent cycle through " << name;
        at = parent_of[at];
      }
      const bool leaf = children.count(name) == 0;
      EXPECT_FALSE(s.find("minMember") != nullptr && s.find("minSubGroup") != nullptr) << name;
      if (leaf) {
        EXPECT_NE(s.find("minMember"), nullptr) << "leaf without minMember: " << name;
        EXPECT_EQ(s.find("minSubGroup"), nullptr) << "leaf with minSubGroup: " << name;
      } else {
        EXPECT_EQ(s.find("minMember"), nullptr) << "parent with minMember: " << name;
      }
    }
  }
  for (const Value& patch : out.pod_patches) {
    const std::string group = Str(Path(patch, {"metadata", "annotations", "pod-group-name"}));
    EXPECT_EQ(subgroups_of.count(group), 1u) << "pod-group-name names no PodGroup: " << group;
    EXPECT_EQ(Str(Path(patch, {"metadata", "annotations", "kai.scheduler/skip-podgrouper"})),
              "true")
        << "without skip-podgrouper KAI's pod grouper replaces the group";
    const Value* leaf = Path(patch, {"metadata", "labels", "kai.scheduler/subgroup-name"});
    if (leaf != nullptr) {
      EXPECT_EQ(subgroups_of[group].count(Str(leaf)), 1u) << "unknown subgroup " << Str(leaf);
    }
  }
}

// ---- Kueue (section 2) ----

void CheckKueue(const SchedulerObjects& out) {
  std::set<std::string> workloads;
  for (const Value& w : out.objects) {
    workloads.insert(Name(w));
    const Value& sets = *Path(w, {"spec", "podSets"});
    EXPECT_GE(sets.size(), 1u);
    EXPECT_LE(sets.size(), 18u);
    std::set<std::string> names;
    int min_counts = 0;
    for (const Value& s : sets.items()) {
      const std::string name = Str(s.find("name"));
      EXPECT_TRUE(IsDnsLabel(name)) << "pod set name " << name;
      EXPECT_TRUE(names.insert(name).second) << "duplicate pod set " << name;
      if (const Value* min = s.find("minCount")) {
        ++min_counts;
        EXPECT_GE(min->as_int(), 1);
        EXPECT_LE(min->as_int(), s.find("count")->as_int());
      }
      const Value* containers = Path(s, {"template", "spec", "containers"});
      for (const Value& c :
           containers != nullptr ? containers->items() : std::span<const Value>()) {
        EXPECT_EQ(Path(c, {"resources", "requests", "pods"}), nullptr) << "reserved resource pods";
      }
    }
    EXPECT_LE(min_counts, 1) << "at most one podSet can use minCount";
    if (const Value* refs = Path(w, {"metadata", "ownerReferences"})) {
      for (const Value& ref : refs->items()) {
        EXPECT_NE(ref.find("controller") ? ref.find("controller")->as_bool() : false, true)
            << "Kueue ignores a prebuilt Workload with a foreign controller";
      }
    }
  }
  std::map<std::string, std::string> total_of, queue_of;
  for (const Value& patch : out.pod_patches) {
    const Value* a = Path(patch, {"metadata", "annotations"});
    const std::string group = Str(a ? a->find("kueue.x-k8s.io/pod-group-name") : nullptr);
    const std::string total = Str(a ? a->find("kueue.x-k8s.io/pod-group-total-count") : nullptr);
    EXPECT_EQ(group.empty(), total.empty()) << "group name and total count go together";
    if (group.empty()) continue;
    EXPECT_TRUE(IsDnsSubdomain(group));
    EXPECT_GE(std::stoll(total), 1);
    EXPECT_EQ(Str(a->find("kueue.x-k8s.io/prebuilt-workload-name")), group);
    EXPECT_EQ(workloads.count(group), 1u) << "no Workload named " << group;
    const std::string queue = Str(Path(patch, {"metadata", "labels", "kueue.x-k8s.io/queue-name"}));
    auto [t, first] = total_of.emplace(group, total);
    EXPECT_EQ(t->second, total) << "pods of one group carry one total count";
    auto [q, inserted] = queue_of.emplace(group, queue);
    EXPECT_EQ(q->second, queue) << "pods of one group carry one queue";
  }
}

// ---- Volcano (section 3) ----

void CheckNetworkTopology(const Value* t) {
  if (t == nullptr) return;
  EXPECT_FALSE(t->find("highestTierAllowed") != nullptr && t->find("highestTierName") != nullptr);
  // A tier name, never a node label key (no tier names are given here).
  EXPECT_EQ(t->find("highestTierName"), nullptr) << json::ToCompactString(*t);
}

void CheckVolcano(const SchedulerObjects& out, bool own_kind) {
  std::map<std::string, std::set<std::string>> policies_of;
  for (const Value& pg : out.objects) {
    const Value& spec = *pg.find("spec");
    const int64_t min_member = spec.find("minMember")->as_int();
    int64_t tasks = 0;
    if (const Value* t = spec.find("minTaskMember")) {
      for (const Member& m : t->members()) tasks += m.value.as_int();
    }
    // Volcano's own controller writes minAvailable as it is; for anything else a minMember
    // below the tasks' sum would switch every per-task minimum off.
    if (!own_kind) {
      EXPECT_GE(min_member, tasks) << "per-task minima would be ignored";
    }
    CheckNetworkTopology(spec.find("networkTopology"));
    int64_t required = 0;
    const Value* policies = spec.find("subGroupPolicy");
    std::set<std::string>& names = policies_of[Name(pg)];
    for (const Value& p : policies != nullptr ? policies->items() : std::span<const Value>()) {
      EXPECT_TRUE(names.insert(Str(p.find("name"))).second) << "duplicate policy";
      required += p.find("minSubGroups")->as_int() * p.find("subGroupSize")->as_int();
      CheckNetworkTopology(p.find("networkTopology"));
    }
    EXPECT_GE(min_member, required);
    EXPECT_FALSE(policies != nullptr && spec.find("minTaskMember") != nullptr)
        << "subGroupPolicy and minTaskMember together";
  }
  for (const Value& patch : out.pod_patches) {
    const std::string group =
        Str(Path(patch, {"metadata", "annotations", "scheduling.k8s.io/group-name"}));
    EXPECT_EQ(policies_of.count(group), 1u) << "group-name names no PodGroup: " << group;
    const std::string policy =
        Str(Path(patch, {"metadata", "labels", "workloadmap.dev/subgroup-policy"}));
    if (!policy.empty()) {
      EXPECT_EQ(policies_of[group].count(policy), 1u) << policy;
    }
  }
}

// ---- scheduler-plugins (section 4) ----

void CheckCoscheduling(const SchedulerObjects& out) {
  std::set<std::string> groups;
  for (const Value& pg : out.objects) {
    EXPECT_GE(Path(pg, {"spec", "minMember"})->as_int(), 1);
    groups.insert(Name(pg));
  }
  for (const Value& patch : out.pod_patches) {
    const std::string group =
        Str(Path(patch, {"metadata", "labels", "scheduling.x-k8s.io/pod-group"}));
    EXPECT_EQ(groups.count(group), 1u) << "the label names no PodGroup: " << group;
  }
}

// ---- Kubernetes Workload API (section 5) ----

// The templates of a list and, recursively, of composite templates: names unique across the
// whole Workload, at most 8 per list, composites at most 4 deep and never empty, one priority
// class, exactly one policy each.
void CheckTemplates(const Value& list, bool composite, size_t depth, std::set<std::string>* names,
                    std::optional<std::string>* priority) {
  EXPECT_LE(list.size(), 8u);
  EXPECT_LE(depth, 4u) << "composite templates nest at most 4 deep";
  for (const Value& t : list.items()) {
    const std::string name = Str(t.find("name"));
    EXPECT_TRUE(IsDnsLabel(name)) << name;
    EXPECT_TRUE(names->insert(name).second) << "duplicate template " << name;
    const std::string p = Str(t.find("priorityClassName"));
    if (!*priority) *priority = p;
    EXPECT_EQ(**priority, p) << "templates of one Workload share one priority class";
    const Value* gang = Path(t, {"schedulingPolicy", "gang"});
    EXPECT_NE(gang == nullptr, Path(t, {"schedulingPolicy", "basic"}) == nullptr);
    if (gang != nullptr) {
      EXPECT_GE(Int(gang->find(composite ? "minGroupCount" : "minCount")), 1);
    }
    if (!composite) continue;
    const Value* pods = t.find("podGroupTemplates");
    const Value* composites = t.find("compositePodGroupTemplates");
    EXPECT_TRUE(pods != nullptr || composites != nullptr) << "empty composite " << name;
    if (pods != nullptr) CheckTemplates(*pods, false, depth, names, priority);
    if (composites != nullptr) CheckTemplates(*composites, true, depth + 1, names, priority);
  }
}

void CheckWorkloadApi(const SchedulerObjects& out, const Workload& workload) {
  EXPECT_TRUE(out.pod_patches.empty()) << "spec.schedulingGroup cannot be patched onto pods";
  std::map<std::string, std::set<std::string>> templates_of;
  for (const Value& o : out.objects) {
    if (Str(o.find("kind")) != "Workload") continue;
    const Value& spec = *o.find("spec");
    const Value* pods = spec.find("podGroupTemplates");
    const Value* composites = spec.find("compositePodGroupTemplates");
    EXPECT_NE(pods == nullptr, composites == nullptr)
        << "exactly one of podGroupTemplates and compositePodGroupTemplates";
    std::optional<std::string> priority;
    std::set<std::string>& names = templates_of[Name(o)];
    if (pods != nullptr) CheckTemplates(*pods, false, 1, &names, &priority);
    if (composites != nullptr) CheckTemplates(*composites, true, 1, &names, &priority);
  }
  std::set<std::string> pod_groups, composite_groups;
  for (const Value& o : out.objects) {
    const std::string kind = Str(o.find("kind"));
    if (kind == "PodGroup") pod_groups.insert(Name(o));
    if (kind == "CompositePodGroup") composite_groups.insert(Name(o));
  }
  for (const Value& o : out.objects) {
    const std::string kind = Str(o.find("kind"));
    if (kind != "PodGroup" && kind != "CompositePodGroup") continue;
    const Value& ref = *Path(o, {"spec", "workloadRef"});
    const std::string workload_name = Str(ref.find("workloadName"));
    ASSERT_EQ(templates_of.count(workload_name), 1u) << "no Workload " << workload_name;
    EXPECT_EQ(templates_of[workload_name].count(Str(ref.find("templateName"))), 1u);
    const std::string parent = Str(Path(o, {"spec", "parentCompositePodGroupName"}));
    if (!parent.empty()) {
      EXPECT_EQ(composite_groups.count(parent), 1u) << "no CompositePodGroup " << parent;
    }
    const Value* gang = Path(o, {"spec", "schedulingPolicy", "gang"});
    if (gang != nullptr) {
      EXPECT_GE(Int(gang->find(kind == "PodGroup" ? "minCount" : "minGroupCount")), 1);
    }
  }
  // The pod templates as patched name emitted PodGroups.
  Result<Value> patched = ApplyJsonPatch(workload.object(), out.workload_patch);
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  Workload after(workload.definition(), *patched);
  for (size_t i = 0; i < workload.definition().components().size(); ++i) {
    Result<std::optional<std::vector<Value>>> templates = after.EffectivePodTemplates(i);
    ASSERT_TRUE(templates.ok());
    if (!*templates) continue;
    for (const Value& t : **templates) {
      const Value* group = Path(t, {"spec", "schedulingGroup", "podGroupName"});
      if (group != nullptr) {
        EXPECT_EQ(pod_groups.count(Str(group)), 1u) << Str(group);
      }
    }
  }
}

// ---- every test object of every catalog definition with gang instructions ----

struct Input {
  Value workload;
  std::vector<Value> pods;
};

std::vector<Input> Inputs(const fs::path& dir) {
  std::vector<Input> inputs;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.ends_with(".yaml") && !name.ends_with(".pods.yaml")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    Result<std::vector<yaml::Document>> docs = yaml::ParseStream(test_support::ReadFile(f));
    if (!docs.ok() || docs->empty()) continue;
    Input in{(*docs)[0].value, {}};
    fs::path pods = f;
    pods.replace_extension(".pods.yaml");
    if (fs::exists(pods)) {
      Result<std::vector<yaml::Document>> more = yaml::ParseStream(test_support::ReadFile(pods));
      if (more.ok()) {
        for (yaml::Document& d : *more) docs->push_back(std::move(d));
      }
    }
    for (size_t i = 1; i < docs->size(); ++i) {
      if (Str((*docs)[i].value.find("kind")) == "Pod") in.pods.push_back((*docs)[i].value);
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

class AdmissionRules : public testing::TestWithParam<std::string> {};

TEST_P(AdmissionRules, EverySchedulerGetsWhatItsAdmissionAccepts) {
  WMAP_NEEDS_SHARED("schemas");
  const Definition d = test_support::CatalogDefinition(GetParam());
  const fs::path dir = test_support::CatalogDir() / "testdata" / GetParam();
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no test data";
  size_t planned = 0;
  for (const Input& in : Inputs(dir)) {
    SCOPED_TRACE(Name(in.workload));
    Workload w(d, in.workload);
    Result<GangPlans> plans = PlanGangs(w, in.pods);
    if (!plans.ok()) continue;  // planning errors are the gang tests' business
    planned += plans->gangs.size();
    const bool own_volcano_kind =
        Str(in.workload.find("apiVersion")).starts_with("batch.volcano.sh/");
    for (Scheduler s : {Scheduler::kKai, Scheduler::kVolcano, Scheduler::kCoscheduling,
                        Scheduler::kKueue, Scheduler::kWorkloadApi}) {
      SCOPED_TRACE(std::string(SchedulerName(s)));
      // The second form of each scheduler that has one.
      for (const bool second : {false, true}) {
        if (second && s != Scheduler::kKueue && s != Scheduler::kWorkloadApi) continue;
        SchedulingOptions options;
        options.kueue_prebuilt = second && s == Scheduler::kKueue;
        if (second && s == Scheduler::kWorkloadApi) options.api_version = "v1alpha3";
        Result<SchedulerObjects> out = BuildSchedulerObjects(s, w, *plans, options);
        if (!out.ok()) {
          // Refusals are errors with a message, never objects a scheduler would reject.
          EXPECT_FALSE(out.error().message.empty());
          continue;
        }
        for (const Value& o : out->objects) test_support::ExpectValid(o);
        CheckNamesAndLabels(*out);
        switch (s) {
          case Scheduler::kKai:
            CheckKai(*out);
            break;
          case Scheduler::kVolcano:
            CheckVolcano(*out, own_volcano_kind);
            break;
          case Scheduler::kCoscheduling:
            CheckCoscheduling(*out);
            break;
          case Scheduler::kKueue:
            CheckKueue(*out);
            break;
          case Scheduler::kWorkloadApi:
            CheckWorkloadApi(*out, w);
            break;
        }
      }
    }
  }
  RecordProperty("gangs", static_cast<int>(planned));
}

std::vector<std::string> DefinitionsWithGangs() {
  std::vector<std::string> stems;
  for (const std::string& stem : test_support::CatalogStems()) {
    const fs::path path = test_support::CatalogDir() / (stem + ".yaml");
    LoadResult loaded = LoadDefinitions(test_support::ReadFile(path), path.string());
    if (!loaded.ok() || loaded.definitions.empty()) continue;
    if (loaded.definitions[0].gang_scheduling()) stems.push_back(stem);
  }
  return stems;
}

INSTANTIATE_TEST_SUITE_P(Catalog, AdmissionRules, testing::ValuesIn(DefinitionsWithGangs()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_support::ParamName(info.param);
                         });

}  // namespace
}  // namespace wmap
