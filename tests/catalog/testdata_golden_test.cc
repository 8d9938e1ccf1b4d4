// Each folder catalog/testdata/<definition> holds objects of the definition's root kind:
//   manifest.yaml            as a user writes it (no status);
//   <status>[-detail].yaml   with the status its controller reports in that state, where <status>
//                            is one of the ResourceStatus names in lower case;
//   <stem>.pods.yaml         the child objects and pods that go with <stem>.yaml;
//   <stem>.golden.json       what the definition makes of it (the view below).
// For every object file the test requires: no evaluation error anywhere, <status> among the
// matched statuses, and the view equal to the golden file; every folder needs a <stem>.pods.yaml,
// except for a definition of templates only (a kind that runs nothing itself, such as a
// WorkflowTemplate: the root has components below it, none of which names a kind, so no object
// can be attributed to it). WMAP_UPDATE_GOLDENS=1 rewrites the golden files instead of comparing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "catalog_test_support.h"
#include "resolve/gang_karta.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
#include "wmap/tree.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;
using test_support::CatalogDir;
using test_support::ReadFile;

constexpr std::string_view kStatusNames[] = {"initializing", "running",  "completed",
                                             "failed",       "degraded", "suspended",
                                             "suspending",   "resuming", "undefined"};

// The status a file name states ("running-scaled.yaml" -> "running"), or "" for manifest.yaml
// and other names.
std::string StatedStatus(const std::string& stem) {
  const std::string head = stem.substr(0, stem.find('-'));
  for (std::string_view s : kStatusNames) {
    if (head == s) return head;
  }
  return "";
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Value StatusList(const std::vector<ResourceStatus>& statuses) {
  Value list = Value::EmptyArray(statuses.size());
  for (ResourceStatus s : statuses) list.push_back(Value::String(ResourceStatusName(s)));
  return list;
}

Value OptionalInt(const std::optional<int32_t>& v) { return v ? Value::Int(*v) : Value(); }

// Collects evaluation errors; each one fails the test and is shown in the view.
struct Errors {
  std::vector<std::string> messages;
  template <typename T>
  bool Check(const Result<T>& r, const std::string& what) {
    if (r.ok()) return true;
    messages.push_back(what + ": " + r.error().message);
    return false;
  }
};

Value TopologyValue(const std::optional<Topology>& t) {
  if (!t) return Value();
  return Value::Object({{"topologyName", Value::String(t->topology_name)},
                        {"requiredTopologyLevel", Value::String(t->required_topology_level)},
                        {"preferredTopologyLevel", Value::String(t->preferred_topology_level)}});
}

Value ComponentsView(const Workload& w, Errors* errors) {
  const Definition& d = w.definition();
  Value components = Value::EmptyArray();
  for (size_t i = 0; i < d.components().size(); ++i) {
    const ComponentDefinition& c = d.components()[i];
    Value cv = Value::EmptyObject();
    cv.set("name", Value::String(c.name));
    if (c.kind) cv.set("kind", Value::String(c.kind->ToString()));
    Result<std::vector<std::string>> ids = w.InstanceIds(i);
    if (!errors->Check(ids, "component " + c.name + " instances")) {
      components.push_back(std::move(cv));
      continue;
    }
    Result<std::optional<std::vector<Scale>>> scales = w.Scales(i);
    errors->Check(scales, "component " + c.name + " scale");
    std::optional<std::vector<Value>> templates;
    if (c.spec && c.spec->pod_template_spec) {
      auto r = w.PodTemplateSpecs(i);
      if (errors->Check(r, "component " + c.name + " podTemplateSpec")) templates = *r;
    } else if (c.spec && c.spec->pod_spec) {
      auto r = w.PodSpecs(i);
      if (errors->Check(r, "component " + c.name + " podSpec")) templates = *r;
    } else if (c.spec && c.spec->fragmented) {
      auto r = w.FragmentedPodSpecs(i);
      errors->Check(r, "component " + c.name + " fragmentedPodSpec");
    }
    Value instances = Value::EmptyArray(ids->size());
    for (size_t k = 0; k < ids->size(); ++k) {
      Value iv = Value::EmptyObject();
      iv.set("id", Value::String((*ids)[k]));
      if (scales.ok() && *scales && k < (*scales)->size()) {
        const Scale& s = (**scales)[k];
        iv.set("replicas", OptionalInt(s.replicas));
        iv.set("minReplicas", OptionalInt(s.min_replicas));
        iv.set("maxReplicas", OptionalInt(s.max_replicas));
      }
      if (templates && k < templates->size()) {
        iv.set("hasPodTemplate", Value::Bool(!(*templates)[k].is_null()));
      }
      instances.push_back(std::move(iv));
    }
    cv.set("instances", std::move(instances));
    if (i > 0 && c.status) {
      auto status = w.Status(i);
      if (errors->Check(status, "component " + c.name + " status") && *status) {
        cv.set("statuses", StatusList((*status)->matched));
      }
    }
    components.push_back(std::move(cv));
  }
  return components;
}

Value PodGroupView(const Workload& w, const PodQuerier& q, Errors* errors) {
  Result<std::optional<PodGroupPlan>> plan = EvaluatePodGroup(w, q, Value());
  if (!errors->Check(plan, "podGroup") || !*plan) return Value();
  const PodGroupPlan& p = **plan;
  Value v = Value::EmptyObject();
  v.set("name", Value::String(p.name));
  v.set("minAvailable", Value::Int(p.min_available));
  v.set("minSubGroup", Value::Int(p.min_sub_group));
  if (p.topology) v.set("topology", TopologyValue(p.topology));
  Value subs = Value::EmptyArray();
  for (const PodGroupPlan::Member& m : p.sub_groups) {
    Value sv = Value::EmptyObject();
    sv.set("name", Value::String(m.name));
    sv.set("minAvailable", Value::Int(m.min_available));
    if (m.topology) sv.set("topology", TopologyValue(m.topology));
    subs.push_back(std::move(sv));
  }
  v.set("subGroups", std::move(subs));
  return v;
}

// Per pod: the group it joins under either gang form.
Value PodGangsView(const Workload& w, const PodQuerier& q, const std::vector<Value>& pods,
                   Errors* errors) {
  Value out = Value::EmptyArray();
  for (const Value& pod : pods) {
    const Value* meta = pod.find("metadata");
    const Value* name = meta ? meta->find("name") : nullptr;
    const std::string pod_name(name && name->is_string() ? name->as_string() : "?");
    Value pv = Value::EmptyObject();
    pv.set("pod", Value::String(pod_name));
    if (w.definition().gang_scheduling() && !w.definition().gang_scheduling()->pod_groups.empty()) {
      auto m = EvaluatePodGangGroup(w, q, pod);
      if (!errors->Check(m, "pod " + pod_name + " podGroups")) continue;
      if (!*m) {
        pv.set("podGroup", Value());
      } else {
        pv.set("podGroup", Value::String((*m)->pod_group));
        pv.set("component",
               Value::String(w.definition().components()[(*m)->member_component].name));
        Value keys = Value::EmptyArray();
        for (const std::string& k : (*m)->keys) keys.push_back(Value::String(k));
        pv.set("keys", std::move(keys));
        if ((*m)->instance_id) pv.set("instance", Value::String(*(*m)->instance_id));
        pv.set("minAvailable", Value::Int((*m)->min_available));
      }
    } else {
      auto plan = EvaluatePodGroup(w, q, pod);
      if (!errors->Check(plan, "pod " + pod_name + " podGroup") || !*plan) continue;
      Value subs = Value::EmptyArray();
      for (const PodGroupPlan::Member& m : (*plan)->sub_groups) {
        if (m.contains_pod) subs.push_back(Value::String(m.name));
      }
      pv.set("podGroup", Value::String((*plan)->name));
      pv.set("subGroups", std::move(subs));
    }
    out.push_back(std::move(pv));
  }
  return out;
}

// A definition of templates only: the root has no pod definition, it has components below it and
// none of them names a kind (nor are additional child kinds listed), so the ownership walk can
// reach nothing from its objects.
bool DescribesTemplatesOnly(const Definition& d) {
  if (d.components().size() < 2 || d.root().spec || !d.additional_child_kinds().empty()) {
    return false;
  }
  for (size_t i = 1; i < d.components().size(); ++i) {
    if (d.components()[i].kind) return false;
  }
  return true;
}

struct FileOutcome {
  Value view;
  std::vector<std::string> errors;
  std::vector<ResourceStatus> matched;
};

FileOutcome Evaluate(const Definition& d, const Value& object, const std::vector<Value>& children,
                     const std::vector<Value>& pods) {
  Errors errors;
  Workload w(d, object);
  PodQuerier q(d);
  Value view = Value::EmptyObject();
  FileOutcome out;
  auto status = w.Status(0);
  if (errors.Check(status, "status") && *status) {
    out.matched = (*status)->matched;
    view.set("statuses", StatusList(out.matched));
  }
  view.set("components", ComponentsView(w, &errors));
  if (d.gang_scheduling() && d.gang_scheduling()->pod_group) {
    view.set("podGroup", PodGroupView(w, q, &errors));
  }
  const bool gangs_form = d.gang_scheduling() && !d.gang_scheduling()->gangs.empty();
  if (gangs_form) {
    // The `gangs` form: the whole plan, with every given pod's gang and leaf subgroup.
    auto plans = PlanGangs(w, pods);
    if (errors.Check(plans, "gangs")) view.set("gangPlan", GangPlansToValue(d, *plans));
  } else if (!pods.empty() && d.gang_scheduling()) {
    view.set("podGangs", PodGangsView(w, q, pods, &errors));
  }
  if (d.root().suspend) {
    auto suspended = w.ApplySuspendActions(0);
    auto resumed = w.ApplyResumeActions(0);
    // A definition may refuse to suspend a workload its controller cannot suspend (a RayJob on
    // an existing cluster): shown in the view, not an evaluation error.
    if (!suspended.ok() && suspended.error().code == ErrorCode::kUnsupported) {
      view.set("suspendRefused", Value::String(suspended.error().message));
    } else {
      errors.Check(suspended, "suspend actions");
    }
    errors.Check(resumed, "resume actions");
  }
  auto tree = BuildTree(d, object, children, pods);
  if (errors.Check(tree, "tree")) view.set("tree", TreeToValue(*tree));
  if (!errors.messages.empty()) {
    Value list = Value::EmptyArray();
    for (const std::string& m : errors.messages) list.push_back(Value::String(m));
    view.set("errors", std::move(list));
  }
  out.view = std::move(view);
  out.errors = std::move(errors.messages);
  return out;
}

class CatalogTestdata : public testing::TestWithParam<std::string> {};

TEST_P(CatalogTestdata, EveryObjectMatchesItsGolden) {
  const std::string stem = GetParam();
  const fs::path folder = CatalogDir() / "testdata" / stem;
  const fs::path definition_path = CatalogDir() / (stem + ".yaml");
  ASSERT_TRUE(fs::exists(definition_path))
      << "catalog/testdata/" << stem << " has no definition catalog/" << stem << ".yaml";
  LoadResult loaded = LoadDefinitions(ReadFile(definition_path), definition_path.string());
  for (const Error& e : loaded.errors) ADD_FAILURE() << e.ToString();
  ASSERT_EQ(loaded.definitions.size(), 1u);
  const Definition& d = loaded.definitions[0];
  const bool update = std::getenv("WMAP_UPDATE_GOLDENS") != nullptr;

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(folder)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".yaml" && !name.ends_with(".pods.yaml")) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  bool has_pods = false;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string file_stem = file.stem().string();
    Result<std::vector<yaml::Document>> docs = yaml::ParseStream(ReadFile(file));
    ASSERT_TRUE(docs.ok()) << docs.error().ToString();
    ASSERT_EQ(docs->size(), 1u) << "one object per file";
    const Value& object = (*docs)[0].value;

    std::vector<Value> children, pods;
    const fs::path pods_file = folder / (file_stem + ".pods.yaml");
    if (fs::exists(pods_file)) {
      has_pods = true;
      Result<std::vector<yaml::Document>> more = yaml::ParseStream(ReadFile(pods_file));
      ASSERT_TRUE(more.ok()) << pods_file.string() << ": " << more.error().ToString();
      for (const yaml::Document& doc : *more) {
        const Value* kind = doc.value.find("kind");
        const Value* api = doc.value.find("apiVersion");
        const bool is_pod = kind && kind->is_string() && kind->as_string() == "Pod" && api &&
                            api->is_string() && api->as_string() == "v1";
        (is_pod ? pods : children).push_back(doc.value);
      }
    }
    FileOutcome outcome = Evaluate(d, object, children, pods);
    for (const std::string& e : outcome.errors) ADD_FAILURE() << e;

    const std::string stated = StatedStatus(file_stem);
    if (!stated.empty()) {
      bool found = false;
      for (ResourceStatus s : outcome.matched) found |= Lower(ResourceStatusName(s)) == stated;
      EXPECT_TRUE(found) << file.filename().string() << " states " << stated
                         << " but the definition matches "
                         << json::ToCompactString(StatusList(outcome.matched));
    } else {
      EXPECT_EQ(file_stem, "manifest") << "name object files manifest.yaml or <status>[-detail]"
                                          ".yaml (status: initializing, running, completed, "
                                          "failed, degraded, suspended, suspending, resuming)";
    }
    if (!pods.empty()) {
      const Value* tree = outcome.view.find("tree");
      const Value* unattributed = tree ? tree->find("unattributed") : nullptr;
      EXPECT_TRUE(unattributed && unattributed->size() == 0)
          << "pods not attributed: " << (unattributed ? json::ToCompactString(*unattributed) : "");
    }

    const std::string text = json::ToString(outcome.view) + "\n";
    const fs::path golden = folder / (file_stem + ".golden.json");
    if (update) {
      std::ofstream(golden, std::ios::binary) << text;
    } else {
      EXPECT_EQ(ReadFile(golden), text)
          << golden.string() << " differs; if the change is intended, rerun with "
          << "WMAP_UPDATE_GOLDENS=1 and review the diff";
    }
  }
  if (DescribesTemplatesOnly(d)) {
    EXPECT_FALSE(has_pods) << "catalog/testdata/" << stem << ": " << d.name()
                           << " describes templates only; no object can be attributed to it";
  } else {
    EXPECT_TRUE(has_pods) << "catalog/testdata/" << stem
                          << " needs at least one <stem>.pods.yaml with the controller's pods";
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogTestdata,
                         testing::ValuesIn(test_support::TestdataFolders()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_support::ParamName(info.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CatalogTestdata);

}  // namespace
}  // namespace wmap
