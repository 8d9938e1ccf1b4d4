// The validation walk: value and schema graph side by side, one path stack, messages built only
// when a rule fails.
#include "schema/validator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "schema/builtin_rules.h"
#include "schema/formats.h"
#include "schema/object_meta.h"
#include "schema/reporter.h"
#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::schema {
namespace {

// Deeper objects are reported rather than walked; real Kubernetes objects stay far below it.
constexpr int kMaxDepth = 400;

class Walker {
 public:
  Walker(const std::map<std::string, Position>* positions, std::vector<Violation>* out)
      : report_(positions, out) {}

  void Resource(const Graph& graph, int32_t root, const GroupVersionKind& gvk, bool custom,
                const Value& object) {
    // A custom resource's own metadata is ObjectMeta, and it admits apiVersion and kind.
    CheckValue(graph, graph.nodes[root], object, true, /*resource=*/custom);
    if (const Value* meta = object.find("metadata"); meta != nullptr && meta->is_object()) {
      report_.PushField("metadata");
      CheckMetadataRules(*meta, &report_);
      report_.Pop();
    }
    if (!custom) CheckBuiltinRules(gvk, object, &report_);
  }

 private:
  void Check(const Graph& g, int32_t index, const Value& v, bool shape) {
    if (depth_ >= kMaxDepth) {
      if (!too_deep_) report_.Report("Invalid value: nesting is deeper than the validator follows");
      too_deep_ = true;
      return;
    }
    ++depth_;
    CheckValue(g, g.nodes[index], v, shape, false);
    --depth_;
  }

  // `shape`: the node was reached through properties, items or additionalProperties (not a
  // combinator branch), so it decides which fields exist. `resource`: the object is a custom
  // resource (the root, or an embedded resource) whose metadata is ObjectMeta.
  void CheckValue(const Graph& g, const Node& n, const Value& v, bool shape, bool resource) {
    if (v.is_null()) {
      if (!n.nullable && n.types != 0) report_.ReportType(n.types, v);
      return;
    }
    uint8_t bits = ValueBits(v);
    if (n.types != 0 && (n.types & bits) == 0) {
      report_.ReportType(n.types, v);
      return;
    }
    if (n.format != Format::kNone && !FormatHolds(n.format, v)) ReportFormat(n.format, v);
    if (n.checks != nullptr) CheckRules(*n.checks, v);
    if (v.is_object()) {
      CheckObject(g, n, v, shape, resource || (shape && n.embedded_resource));
    } else if (v.is_array()) {
      CheckArray(g, n, v, shape);
    }
    if (n.checks != nullptr) CheckBranches(g, *n.checks, v);
  }

  void ReportFormat(Format format, const Value& v) {
    if (format == Format::kQuantity) {
      report_.Report("Invalid value: " + ShowValue(v) +
                     ": quantities must match the regular expression "
                     "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
      return;
    }
    std::string text;
    if (v.is_string()) {
      text = std::string(v.as_string());
    } else {
      json::FormatNumber(v, &text);
    }
    std::string quoted;
    json::WriteString(text, false, &quoted);
    report_.ReportInvalid(ShowValue(v),
                          "must be of type " + std::string(FormatName(format)) + ": " + quoted);
  }

  void CheckObject(const Graph& g, const Node& n, const Value& v, bool shape, bool resource) {
    for (const Member& m : v.members()) {
      std::string_view key = m.key.as_string();
      if (resource && key == "metadata") {
        report_.PushField(key);
        Check(ObjectMetaGraph(), 0, m.value, true);
        report_.Pop();
        continue;
      }
      if (const Property* p = n.FindProperty(key); p != nullptr) {
        // A null in a field with a default is dropped and defaulted before validation.
        if (m.value.is_null() && n.applies_defaults && p->default_value &&
            !g.nodes[p->node].nullable) {
          continue;
        }
        report_.PushField(key);
        Check(g, p->node, m.value, shape);
        report_.Pop();
        continue;
      }
      if (resource && (key == "apiVersion" || key == "kind")) {
        if (!m.value.is_string()) {
          report_.PushField(key);
          report_.ReportType(kStringBit, m.value);
          report_.Pop();
        }
        continue;
      }
      switch (n.extra) {
        case Extra::kSchema:
          report_.PushKey(key);
          Check(g, n.additional, m.value, shape);
          report_.Pop();
          break;
        case Extra::kReject:
          if (shape) {
            report_.PushField(key);
            report_.ReportUnknown();
            report_.Pop();
          }
          break;
        case Extra::kAllow:
          break;
      }
    }
    for (const std::string& name : n.required) {
      if (v.find(name) != nullptr) continue;
      if (const Property* p = n.FindProperty(name);
          n.applies_defaults && p != nullptr && p->default_value) {
        continue;
      }
      report_.PushField(name);
      report_.Report("Required value");
      report_.Pop();
    }
    if (shape && n.embedded_resource) {
      for (std::string_view name : {"apiVersion", "kind"}) {
        const Value* field = v.find(name);
        if (field != nullptr && !(field->is_string() && field->as_string().empty())) continue;
        report_.PushField(name);
        report_.Report("Required value: must not be empty");
        report_.Pop();
      }
    }
  }

  void CheckArray(const Graph& g, const Node& n, const Value& v, bool shape) {
    std::span<const Value> items = v.items();
    if (n.items >= 0) {
      for (size_t i = 0; i < items.size(); ++i) {
        report_.PushIndex(i);
        Check(g, n.items, items[i], shape);
        report_.Pop();
      }
    }
    if (n.checks == nullptr || n.checks->list_type == ListType::kAtomic) return;
    const Checks& c = *n.checks;
    std::map<Value, size_t> seen;
    for (size_t i = 0; i < items.size(); ++i) {
      Value key;
      if (c.list_type == ListType::kSet) {
        key = items[i];
      } else {
        if (!items[i].is_object()) continue;
        key = Value::EmptyObject(c.list_map_keys.size());
        for (const std::string& k : c.list_map_keys) {
          const Value* part = items[i].find(k);
          if (part == nullptr && n.items >= 0) {
            // A missing key takes its default, as the API server fills it in.
            const Property* p = g.nodes[n.items].FindProperty(k);
            if (p != nullptr && p->default_value) part = &*p->default_value;
          }
          if (part != nullptr) key.set(k, *part);
        }
      }
      if (seen.emplace(key, i).second) continue;
      report_.PushIndex(i);
      report_.Report("Duplicate value: " + ShowValue(key));
      report_.Pop();
    }
  }

  void CheckRules(const Checks& c, const Value& v) {
    if (!c.enum_values.empty()) {
      bool found = false;
      for (const Value& e : c.enum_values) {
        if (Compare(e, v) == 0) {
          found = true;
          break;
        }
      }
      if (!found) {
        std::string detail = "Unsupported value: " + ShowValue(v) + ": supported values: ";
        for (size_t i = 0; i < c.enum_values.size(); ++i) {
          if (i > 0) detail += ", ";
          detail += ShowValue(c.enum_values[i]);
        }
        report_.Report(detail);
      }
    }
    if (v.is_number()) {
      CheckNumber(c, v);
    } else if (v.is_string()) {
      CheckString(c, v);
    } else if (v.is_array()) {
      int64_t size = static_cast<int64_t>(v.size());
      if (c.min_items >= 0 && size < c.min_items) {
        report_.ReportInvalid(std::to_string(size),
                              "should have at least " + std::to_string(c.min_items) + " items");
      }
      if (c.max_items >= 0 && size > c.max_items) {
        report_.Report("Too many: " + std::to_string(size) + ": must have at most " +
                       std::to_string(c.max_items) + " items");
      }
    } else if (v.is_object()) {
      int64_t size = static_cast<int64_t>(v.size());
      if (c.min_properties >= 0 && size < c.min_properties) {
        report_.ReportInvalid(
            std::to_string(size),
            "should have at least " + std::to_string(c.min_properties) + " properties");
      }
      if (c.max_properties >= 0 && size > c.max_properties) {
        report_.ReportInvalid(
            std::to_string(size),
            "should have at most " + std::to_string(c.max_properties) + " properties");
      }
    }
  }

  static std::string Bound(double d) {
    std::string out;
    json::FormatNumber(Value::Number(d), &out);
    return out;
  }

  void CheckNumber(const Checks& c, const Value& v) {
    double d = v.as_double();
    if (c.minimum) {
      bool ok = c.exclusive_minimum ? d > *c.minimum : d >= *c.minimum;
      if (!ok) {
        report_.ReportInvalid(ShowValue(v), std::string("should be greater than ") +
                                                (c.exclusive_minimum ? "" : "or equal to ") +
                                                Bound(*c.minimum));
      }
    }
    if (c.maximum) {
      bool ok = c.exclusive_maximum ? d < *c.maximum : d <= *c.maximum;
      if (!ok) {
        report_.ReportInvalid(ShowValue(v), std::string("should be less than ") +
                                                (c.exclusive_maximum ? "" : "or equal to ") +
                                                Bound(*c.maximum));
      }
    }
    if (c.multiple_of) {
      double q = d / *c.multiple_of;
      if (std::fabs(q - std::round(q)) > 1e-9 * std::max(1.0, std::fabs(q))) {
        report_.ReportInvalid(ShowValue(v), "should be a multiple of " + Bound(*c.multiple_of));
      }
    }
  }

  void CheckString(const Checks& c, const Value& v) {
    std::string_view s = v.as_string();
    if (c.min_length >= 0 || c.max_length >= 0) {
      int64_t chars = static_cast<int64_t>(text::CodePointCount(s));
      if (c.min_length >= 0 && chars < c.min_length) {
        report_.ReportInvalid(ShowValue(v),
                              "should be at least " + std::to_string(c.min_length) + " chars long");
      }
      if (c.max_length >= 0 && chars > c.max_length) {
        report_.Report("Too long: may not be more than " + std::to_string(c.max_length) + " bytes");
      }
    }
    if (c.pattern != nullptr && !RE2::PartialMatch(s, *c.pattern)) {
      report_.ReportInvalid(ShowValue(v), "should match '" + c.pattern->pattern() + "'");
    }
  }

  // Runs a branch into a scratch list; true when it holds.
  bool Trial(const Graph& g, int32_t branch, const Value& v, std::vector<Violation>* found) {
    std::vector<Violation>* saved = report_.Redirect(found);
    Check(g, branch, v, false);
    report_.Redirect(saved);
    return found->empty();
  }

  void CheckBranches(const Graph& g, const Checks& c, const Value& v) {
    for (int32_t branch : c.all_of) Check(g, branch, v, false);
    if (!c.any_of.empty()) {
      std::vector<Violation> first;
      bool held = false;
      for (size_t i = 0; i < c.any_of.size() && !held; ++i) {
        std::vector<Violation> found;
        held = Trial(g, c.any_of[i], v, &found);
        if (i == 0) first = std::move(found);
      }
      if (!held) {
        report_.ReportInvalid(ShowValue(v), "must validate at least one schema (anyOf)");
        report_.Append(std::move(first));
      }
    }
    if (!c.one_of.empty()) {
      std::vector<Violation> first;
      size_t held = 0;
      for (size_t i = 0; i < c.one_of.size(); ++i) {
        std::vector<Violation> found;
        if (Trial(g, c.one_of[i], v, &found)) ++held;
        if (i == 0) first = std::move(found);
      }
      if (held != 1) {
        report_.ReportInvalid(ShowValue(v), "must validate one and only one schema (oneOf)");
        if (held == 0) {
          report_.Append(std::move(first));
        }
      }
    }
    if (c.not_schema >= 0) {
      std::vector<Violation> found;
      if (Trial(g, c.not_schema, v, &found)) {
        report_.ReportInvalid(ShowValue(v), "must not validate the schema (not)");
      }
    }
  }

  Reporter report_;
  int depth_ = 0;
  bool too_deep_ = false;
};

}  // namespace

void ValidateResource(const Graph& graph, int32_t root, const GroupVersionKind& gvk, bool custom,
                      const Value& object, const std::map<std::string, Position>* positions,
                      std::vector<Violation>* out) {
  Walker walker(positions, out);
  walker.Resource(graph, root, gvk, custom, object);
}

}  // namespace wmap::schema
