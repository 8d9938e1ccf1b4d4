// docs/scheduling.md has a table of what each scheduler receives for every built-in definition
// with gang instructions, made from one test object of the definition's test data. This test
// builds the table and compares it with the page's; WMAP_UPDATE_GOLDENS=1 rewrites the page's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_test_support.h"
#include "scheduling_test_support.h"
#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/scheduling.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kBegin = "<!-- scheduler table: begin -->\n";
constexpr std::string_view kEnd = "<!-- scheduler table: end -->\n";

std::string Str(const Value* v) {
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

int64_t Int(const Value* v) { return v != nullptr && v->is_integer() ? v->as_int() : 0; }

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// The workload and its pods of `file` (and its .pods.yaml).
struct Input {
  Value workload;
  std::vector<Value> pods;
};

std::optional<Input> Read(const fs::path& file) {
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(test_support::ReadFile(file));
  if (!docs.ok() || docs->empty()) return std::nullopt;
  fs::path pods = file;
  pods.replace_extension(".pods.yaml");
  if (fs::exists(pods)) {
    Result<std::vector<yaml::Document>> more = yaml::ParseStream(test_support::ReadFile(pods));
    if (more.ok()) {
      for (yaml::Document& d : *more) docs->push_back(std::move(d));
    }
  }
  Input in{(*docs)[0].value, {}};
  for (size_t i = 1; i < docs->size(); ++i) {
    if (Str((*docs)[i].value.find("kind")) == "Pod") in.pods.push_back((*docs)[i].value);
  }
  return in;
}

// One cell: the objects (and their gist) a scheduler receives.
std::string Cell(Scheduler s, const Result<SchedulerObjects>& r) {
  if (!r.ok()) return "refused: " + r.error().message;
  const SchedulerObjects& out = *r;
  const Value* first = out.objects.empty() ? nullptr : out.objects[0].find("spec");
  switch (s) {
    case Scheduler::kKai: {
      std::string text = Plural(out.objects.size(), "PodGroup", "PodGroups");
      if (first == nullptr) return text;
      if (first->find("minSubGroup") != nullptr) {
        const Value* subs = first->find("subGroups");
        text += ", minSubGroup " + std::to_string(Int(first->find("minSubGroup"))) + ", " +
                Plural(subs != nullptr ? subs->size() : 0, "subgroup", "subgroups");
      } else {
        text += ", minMember " + std::to_string(Int(first->find("minMember")));
      }
      return text;
    }
    case Scheduler::kVolcano: {
      std::string text = Plural(out.objects.size(), "PodGroup", "PodGroups");
      if (first == nullptr) return text;
      text += ", minMember " + std::to_string(Int(first->find("minMember")));
      if (const Value* policies = first->find("subGroupPolicy")) {
        std::string list;
        for (const Value& p : policies->items()) {
          list += (list.empty() ? "" : ", ") + std::to_string(Int(p.find("minSubGroups"))) + "×" +
                  std::to_string(Int(p.find("subGroupSize")));
        }
        text += ", subGroupPolicy " + list;
      }
      if (const Value* tasks = first->find("minTaskMember")) {
        text += ", " + Plural(tasks->size(), "task", "tasks");
      }
      return text;
    }
    case Scheduler::kCoscheduling: {
      std::string text = Plural(out.objects.size(), "PodGroup", "PodGroups");
      if (first != nullptr) text += ", minMember " + std::to_string(Int(first->find("minMember")));
      return text;
    }
    case Scheduler::kKueue: {
      if (out.objects.empty()) {
        return out.workload_patch.size() > 0 ? "Kueue's own integration; workload patch"
                                             : "Kueue's own integration";
      }
      const Value* sets = first->find("podSets");
      return Plural(out.objects.size(), "Workload", "Workloads") + ", " +
             Plural(sets != nullptr ? sets->size() : 0, "pod set", "pod sets");
    }
    case Scheduler::kWorkloadApi: {
      size_t groups = 0;
      size_t templates = 0;
      for (const Value& o : out.objects) {
        if (Str(o.find("kind")) == "PodGroup") ++groups;
        if (Str(o.find("kind")) == "Workload") {
          const Value* t = o.find("spec")->find("podGroupTemplates");
          templates += t != nullptr ? t->size() : 0;
        }
      }
      std::string text = Plural(templates, "template", "templates") + ", " +
                         Plural(groups, "PodGroup", "PodGroups");
      size_t named = 0;
      for (const Value& op : out.workload_patch.items()) {
        if (Str(op.find("path")).ends_with("/schedulingGroup")) ++named;
      }
      if (named > 0) text += ", schedulingGroup in " + Plural(named, "template", "templates");
      return text;
    }
  }
  return "";
}

std::string Table() {
  std::string table =
      "| definition | test object | kai | volcano | coscheduling | kueue | k8s-workload |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const std::string& stem : test_support::CatalogStems()) {
    const Definition d = test_support::CatalogDefinition(stem);
    if (!d.gang_scheduling()) continue;
    const fs::path dir = test_support::CatalogDir() / "testdata" / stem;
    if (!fs::is_directory(dir)) continue;
    // The first object (running.yaml first) whose plan has a gang.
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.ends_with(".yaml") && !name.ends_with(".pods.yaml")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
      const bool ra = a.filename() == "running.yaml", rb = b.filename() == "running.yaml";
      return ra != rb ? ra : a < b;
    });
    for (const fs::path& f : files) {
      std::optional<Input> in = Read(f);
      if (!in) continue;
      Workload w(d, in->workload);
      Result<GangPlans> plans = PlanGangs(w, in->pods);
      if (!plans.ok() || plans->gangs.empty()) continue;
      table += "| `" + stem + "` | " + f.filename().string();
      for (Scheduler s : {Scheduler::kKai, Scheduler::kVolcano, Scheduler::kCoscheduling,
                          Scheduler::kKueue, Scheduler::kWorkloadApi}) {
        table += " | " + Cell(s, BuildSchedulerObjects(s, w, *plans));
      }
      table += " |\n";
      break;
    }
  }
  return table;
}

TEST(SchedulerTable, DocsSchedulingShowsWhatEverySchedulerReceives) {
  const fs::path page_path = fs::path(WMAP_SOURCE_DIR) / "docs" / "scheduling.md";
  const std::string page = test_support::ReadFile(page_path);
  const size_t begin = page.find(kBegin);
  const size_t end = page.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << "docs/scheduling.md has no " << kBegin;
  ASSERT_NE(end, std::string::npos) << "docs/scheduling.md has no " << kEnd;
  const std::string want = Table();
  const std::string have = page.substr(begin + kBegin.size(), end - begin - kBegin.size());
  if (std::getenv("WMAP_UPDATE_GOLDENS") != nullptr) {
    std::ofstream(page_path, std::ios::binary)
        << page.substr(0, begin + kBegin.size()) << want << page.substr(end);
    GTEST_SKIP() << "docs/scheduling.md rewritten";
  }
  EXPECT_EQ(have, want) << "the table in docs/scheduling.md is out of date; regenerate it with "
                           "WMAP_UPDATE_GOLDENS=1 ./build/tests/wmap_scheduling_tests "
                           "--gtest_filter=SchedulerTable.*";
}

}  // namespace
}  // namespace wmap
