// The metav1.ObjectMeta schema and the apimachinery name rules.
#include "schema/object_meta.h"

#include <vector>

#include "schema/compiler.h"
#include "schema/formats.h"
#include "wmap/json.h"

namespace wmap::schema {
namespace {

constexpr size_t kMaxAnnotationBytes = 256 * 1024;

// Field names and types of metav1.ObjectMeta, OwnerReference and ManagedFieldsEntry.
constexpr std::string_view kObjectMetaSchema = R"({
  "type": "object",
  "properties": {
    "name": {"type": "string"},
    "generateName": {"type": "string"},
    "namespace": {"type": "string"},
    "selfLink": {"type": "string"},
    "uid": {"type": "string"},
    "resourceVersion": {"type": "string"},
    "generation": {"type": "integer", "format": "int64"},
    "creationTimestamp": {"type": "string", "format": "date-time"},
    "deletionTimestamp": {"type": "string", "format": "date-time"},
    "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    "finalizers": {"type": "array", "items": {"type": "string"},
                   "x-kubernetes-list-type": "set"},
    "ownerReferences": {
      "type": "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["uid"],
      "items": {
        "type": "object",
        "required": ["apiVersion", "kind", "name", "uid"],
        "properties": {
          "apiVersion": {"type": "string"},
          "kind": {"type": "string"},
          "name": {"type": "string"},
          "uid": {"type": "string"},
          "controller": {"type": "boolean"},
          "blockOwnerDeletion": {"type": "boolean"}
        }
      }
    },
    "managedFields": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "apiVersion": {"type": "string"},
          "fieldsType": {"type": "string"},
          "fieldsV1": {"type": "object"},
          "manager": {"type": "string"},
          "operation": {"type": "string"},
          "subresource": {"type": "string"},
          "time": {"type": "string", "format": "date-time"}
        }
      }
    }
  }
})";

struct MetaGraph {
  Graph graph;
  MetaGraph() {
    Result<Value> schema = json::Parse(kObjectMetaSchema);
    Compiler compiler(&graph, Dialect::kBuiltin, nullptr, "");
    // The text above is a constant: it always parses.
    if (schema.ok()) compiler.Compile(*schema);
  }
};

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsDnsLabel(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool IsDnsSubdomain(std::string_view s) {
  if (s.empty()) return false;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    if (!IsDnsLabel(s.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

constexpr std::string_view kSubdomainRule =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr std::string_view kNamePartRule =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr std::string_view kLabelValueRule =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
    "or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

}  // namespace

const Graph& ObjectMetaGraph() {
  static const MetaGraph meta;
  return meta.graph;
}

std::string CheckDnsSubdomain(std::string_view name) {
  std::string out;
  if (name.size() > 253) out = "must be no more than 253 characters";
  if (!IsDnsSubdomain(name)) {
    if (!out.empty()) out += "; ";
    out += kSubdomainRule;
  }
  return out;
}

std::string CheckLabelKey(std::string_view key) {
  std::string_view name = key;
  std::string out;
  auto add = [&](std::string_view text) {
    if (!out.empty()) out += "; ";
    out += text;
  };
  if (size_t slash = key.find('/'); slash != std::string_view::npos) {
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      add("prefix part must be non-empty");
    } else {
      if (prefix.size() > 253) add("prefix part must be no more than 253 characters");
      if (!IsDnsSubdomain(prefix)) add(std::string("prefix part ") + std::string(kSubdomainRule));
    }
    if (name.find('/') != std::string_view::npos) {
      return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and "
             "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "
             "or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix "
             "and '/' (e.g. 'example.com/MyName')";
    }
  }
  if (name.empty()) {
    add("name part must be non-empty");
  } else {
    if (name.size() > 63) add("name part must be no more than 63 characters");
    if (!IsQualifiedNamePart(name)) add(kNamePartRule);
  }
  return out;
}

std::string CheckLabelValue(std::string_view value) {
  std::string out;
  if (value.size() > 63) out = "must be no more than 63 characters";
  if (!value.empty() && !IsQualifiedNamePart(value)) {
    if (!out.empty()) out += "; ";
    out += kLabelValueRule;
  }
  return out;
}

void CheckMetadataRules(const Value& meta, Reporter* report) {
  const Value* name = meta.find("name");
  const Value* generate = meta.find("generateName");
  if (name != nullptr && name->is_string() && !name->as_string().empty()) {
    if (std::string rule = CheckDnsSubdomain(name->as_string()); !rule.empty()) {
      report->PushField("name");
      report->Report("Invalid value: " + ShowValue(*name) + ": " + rule);
      report->Pop();
    }
  } else if (generate == nullptr || !generate->is_string() || generate->as_string().empty()) {
    report->PushField("name");
    report->Report("Required value: name or generateName is required");
    report->Pop();
  }
  if (const Value* labels = meta.find("labels"); labels != nullptr && labels->is_object()) {
    report->PushField("labels");
    for (const Member& m : labels->members()) {
      if (std::string rule = CheckLabelKey(m.key.as_string()); !rule.empty()) {
        report->Report("Invalid value: " + ShowValue(m.key) + ": " + rule);
      }
      if (!m.value.is_string()) continue;
      if (std::string rule = CheckLabelValue(m.value.as_string()); !rule.empty()) {
        report->Report("Invalid value: " + ShowValue(m.value) + ": " + rule);
      }
    }
    report->Pop();
  }
  if (const Value* owners = meta.find("ownerReferences"); owners != nullptr) {
    std::vector<std::string> controllers;
    for (const Value& ref : owners->items()) {
      const Value* controller = ref.find("controller");
      if (controller == nullptr || !controller->is_bool() || !controller->as_bool()) continue;
      const Value* kind = ref.find("kind");
      const Value* name = ref.find("name");
      controllers.push_back(
          std::string(kind != nullptr && kind->is_string() ? kind->as_string() : "") + "/" +
          std::string(name != nullptr && name->is_string() ? name->as_string() : ""));
    }
    if (controllers.size() > 1) {
      std::string detail =
          "Invalid value: " + std::to_string(owners->size()) +
          " references: Only one reference can have Controller set to true. Found \"true\" in "
          "references for ";
      for (size_t i = 0; i < controllers.size(); ++i) {
        if (i > 0) detail += " and ";
        detail += controllers[i];
      }
      report->PushField("ownerReferences");
      report->Report(detail);
      report->Pop();
    }
  }
  if (const Value* notes = meta.find("annotations"); notes != nullptr && notes->is_object()) {
    report->PushField("annotations");
    size_t total = 0;
    for (const Member& m : notes->members()) {
      std::string lower(m.key.as_string());
      for (char& ch : lower) {
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      }
      if (std::string rule = CheckLabelKey(lower); !rule.empty()) {
        report->Report("Invalid value: " + ShowValue(m.key) + ": " + rule);
      }
      total += m.key.as_string().size() + (m.value.is_string() ? m.value.as_string().size() : 0);
    }
    if (total > kMaxAnnotationBytes) {
      report->Report("Too long: may not be more than " + std::to_string(kMaxAnnotationBytes) +
                     " bytes");
    }
    report->Pop();
  }
}

}  // namespace wmap::schema
