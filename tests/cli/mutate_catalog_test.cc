// MutateWorkload against every built-in definition, on the manifest of its test data: either the
// change lands in every pod template the definition reads, and the JSON patch from the input to
// the result touches nothing but the change; or the definition is refused as not writable.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/golden_support.h"
#include "wmap/catalog.h"
#include "wmap/json.h"
#include "wmap/mutate.h"
#include "wmap/patch.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

constexpr std::string_view kLabel = "wmap.test/mutated";
constexpr std::string_view kScheduler = "test-scheduler";

// `v` with the two changes taken out: the label, a schedulerName equal to ours, and objects
// left empty by that.
Value Strip(const Value& v) {
  if (!v.is_object()) return v;
  Value out = Value::EmptyObject();
  for (const Member& m : v.members()) {
    std::string_view key = m.key.as_string();
    if (key == kLabel && m.value == Value::String("yes")) continue;
    if (key == "schedulerName" && m.value == Value::String(kScheduler)) continue;
    Value child = Strip(m.value);
    if (child.is_object() && child.size() == 0 && m.value.size() > 0) continue;
    out.set(key, std::move(child));
  }
  return out;
}

// Every operation adds or replaces only the label or the scheduler name (possibly inside new
// objects that hold nothing else).
::testing::AssertionResult OnlyTheChange(const Value& patch) {
  for (const Value& op : patch.items()) {
    std::string_view name = op.find("op")->as_string();
    std::string_view path = op.find("path")->as_string();
    const Value* value = op.find("value");
    bool ok = (name == "add" || name == "replace") && value != nullptr;
    if (ok) {
      bool label = path.ends_with("/wmap.test~1mutated") && *value == Value::String("yes");
      bool scheduler = path.ends_with("/schedulerName") && *value == Value::String(kScheduler);
      bool wrapped = value->is_object() && value->size() > 0 && Strip(*value).size() == 0;
      ok = label || scheduler || wrapped;
    }
    if (!ok)
      return ::testing::AssertionFailure() << "unexpected change " << json::ToCompactString(op);
  }
  return ::testing::AssertionSuccess();
}

bool HasLabel(const Value& metadata) {
  const Value* labels = metadata.find("labels");
  const Value* v = labels ? labels->find(kLabel) : nullptr;
  return v != nullptr && *v == Value::String("yes");
}

bool HasScheduler(const Value& spec) {
  const Value* v = spec.find("schedulerName");
  return v != nullptr && *v == Value::String(kScheduler);
}

// The change is visible through the definition's read paths of every component it has.
void ExpectReadBack(const Definition& d, const Value& object, const std::string& where) {
  Workload w(d, object);
  for (size_t c = 0; c < d.components().size(); ++c) {
    const ComponentDefinition& component = d.components()[c];
    if (!component.HasPodDefinition()) continue;
    std::string at = where + " component " + component.name;
    if (component.spec->pod_template_spec) {
      auto templates = w.PodTemplateSpecs(c);
      ASSERT_TRUE(templates.ok() && templates.value().has_value()) << at;
      for (const Value& t : *templates.value()) {
        EXPECT_TRUE(HasLabel(t.find("metadata") ? *t.find("metadata") : Value())) << at;
        EXPECT_TRUE(HasScheduler(t.find("spec") ? *t.find("spec") : Value())) << at;
      }
    } else if (component.spec->pod_spec) {
      auto specs = w.PodSpecs(c);
      ASSERT_TRUE(specs.ok() && specs.value().has_value()) << at;
      for (const Value& s : *specs.value()) EXPECT_TRUE(HasScheduler(s)) << at;
      auto metadata = w.PodMetadata(c);
      ASSERT_TRUE(metadata.ok()) << at;
      if (metadata.value()) {
        for (const Value& m : *metadata.value()) EXPECT_TRUE(HasLabel(m)) << at;
      }
    } else {
      auto fragments = w.FragmentedPodSpecs(c);
      ASSERT_TRUE(fragments.ok() && fragments.value().has_value()) << at;
      const FragmentedPodSpecDefinition& f = *component.spec->fragmented;
      for (const FragmentedPodSpec& s : *fragments.value()) {
        if (f.labels) {
          const Value* v = s.labels.find(kLabel);
          EXPECT_TRUE(v != nullptr && *v == Value::String("yes")) << at;
        }
        if (f.scheduler_name) {
          EXPECT_EQ(s.scheduler_name, Value::String(kScheduler)) << at;
        }
      }
    }
  }
}

TEST(MutateCatalogTest, EveryBuiltInDefinitionWritesThroughItsOwnPaths) {
  namespace fs = std::filesystem;
  PodChanges changes;
  changes.labels = {{std::string(kLabel), "yes"}};
  changes.scheduler_name = std::string(kScheduler);
  int written = 0, refused = 0;
  std::vector<std::string> refusals;
  for (const CatalogEntry& entry : Catalog::BuiltIn().entries()) {
    const Definition& d = entry.definition;
    fs::path manifest = fs::path(WMAP_SOURCE_DIR) / "catalog/testdata" / d.name() / "manifest.yaml";
    if (!fs::exists(manifest)) continue;
    Result<std::vector<yaml::Document>> docs = yaml::ParseStream(cli::golden::ReadFile(manifest));
    ASSERT_TRUE(docs.ok()) << manifest;
    for (const yaml::Document& doc : *docs) {
      const Value* kind = doc.value.find("kind");
      if (kind == nullptr || *kind != Value::String(d.root_kind().kind)) continue;
      Workload w(d, doc.value);
      MutateResult r = MutateWorkload(w, {}, changes);
      if (!r.ok()) {
        // Refusals are allowed only when the definition cannot write; reading must work.
        EXPECT_EQ(r.error().code, ErrorCode::kNotWritable) << d.name() << ": " << r.error().message;
        refusals.push_back(d.name() + ": " + r.error().message);
        ++refused;
        continue;
      }
      ++written;
      ExpectReadBack(d, r.object(), d.name());
      EXPECT_TRUE(OnlyTheChange(JsonPatch(doc.value, r.object()))) << d.name();
      // Changing again changes nothing.
      MutateResult again = MutateWorkload(Workload(d, r.object()), {}, changes);
      ASSERT_TRUE(again.ok()) << d.name();
      EXPECT_EQ(JsonPatch(r.object(), again.object()), Value::EmptyArray()) << d.name();
    }
  }
  for (const std::string& r : refusals) std::printf("refused: %s\n", r.c_str());
  EXPECT_GE(written, 20) << "refused " << refused;
}

}  // namespace
}  // namespace wmap
