// Handwritten rules of core/v1, apps/v1 and batch/v1 workloads.
#include "schema/builtin_rules.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "schema/formats.h"

namespace wmap::schema {
namespace {

constexpr std::string_view kDnsLabelRule =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool IsDnsLabel(std::string_view s) {
  if (s.empty() || s.size() > 63 || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) {
    return false;
  }
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

std::string_view StringOr(const Value* v, std::string_view fallback) {
  return v != nullptr && v->is_string() ? v->as_string() : fallback;
}

std::string Supported(std::initializer_list<std::string_view> values) {
  std::string out;
  for (std::string_view v : values) {
    if (!out.empty()) out += ", ";
    out += '"';
    out += v;
    out += '"';
  }
  return out;
}

// Reports "Unsupported value" when the string field `name` of `object`, if written, is not one of
// `values`.
void CheckEnum(const Value& object, std::string_view name,
               std::initializer_list<std::string_view> values, Reporter* report) {
  const Value* v = object.find(name);
  if (v == nullptr || !v->is_string()) return;
  for (std::string_view allowed : values) {
    if (v->as_string() == allowed) return;
  }
  report->PushField(name);
  report->Report("Unsupported value: " + ShowValue(*v) +
                 ": supported values: " + Supported(values));
  report->Pop();
}

// The value of a quantity ("500m", "8Gi", "1e3", 2); nullopt when it does not read as one.
std::optional<double> QuantityValue(const Value& v) {
  if (v.is_number()) return v.as_double();
  if (!v.is_string()) return std::nullopt;
  std::string_view s = v.as_string();
  size_t end = 0;
  while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.' ||
                            s[end] == '+' || s[end] == '-')) {
    ++end;
  }
  std::string number(s.substr(0, end));
  char* stop = nullptr;
  double base = std::strtod(number.c_str(), &stop);
  if (number.empty() || stop != number.c_str() + number.size()) return std::nullopt;
  std::string_view suffix = s.substr(end);
  static constexpr std::pair<std::string_view, double> kSuffixes[] = {
      {"", 1},
      {"n", 1e-9},
      {"u", 1e-6},
      {"m", 1e-3},
      {"k", 1e3},
      {"M", 1e6},
      {"G", 1e9},
      {"T", 1e12},
      {"P", 1e15},
      {"E", 1e18},
      {"Ki", 1024.0},
      {"Mi", 1048576.0},
      {"Gi", 1073741824.0},
      {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0},
      {"Ei", 1152921504606846976.0},
  };
  for (const auto& [name, scale] : kSuffixes) {
    if (suffix == name) return base * scale;
  }
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::string exponent(suffix.substr(1));
    char* exp_stop = nullptr;
    long e = std::strtol(exponent.c_str(), &exp_stop, 10);
    if (exp_stop == exponent.c_str() + exponent.size()) return base * std::pow(10.0, e);
  }
  return std::nullopt;
}

// Resources that may not be overcommitted: extended resources ("nvidia.com/gpu") and huge pages.
bool IsOvercommitAllowed(std::string_view name) {
  bool native = name.find('/') == std::string_view::npos || name.starts_with("kubernetes.io/");
  return native && !name.starts_with("hugepages-");
}

std::string QuantityText(const Value& v) {
  if (v.is_string()) return std::string(v.as_string());
  return ShowValue(v);
}

// A container's resources: no negative quantities, requests within limits, and requests equal
// to limits (which must be set) for resources that cannot be overcommitted.
void CheckResources(const Value& resources, Reporter* report) {
  const Value* limits = resources.find("limits");
  const Value* requests = resources.find("requests");
  auto negative = [&](const Value* list, std::string_view field) {
    if (list == nullptr) return;
    for (const Member& m : list->members()) {
      std::optional<double> q = QuantityValue(m.value);
      if (!q || *q >= 0) continue;
      report->PushField(field);
      report->PushKey(m.key.as_string());
      report->Report("Invalid value: \"" + QuantityText(m.value) +
                     "\": must be greater than or equal to 0");
      report->Pop();
      report->Pop();
    }
  };
  negative(limits, "limits");
  negative(requests, "requests");
  if (requests == nullptr) return;
  bool limit_missing_reported = false;
  for (const Member& m : requests->members()) {
    std::string_view name = m.key.as_string();
    const Value* limit = limits != nullptr ? limits->find(name) : nullptr;
    std::optional<double> request_value = QuantityValue(m.value);
    if (limit == nullptr) {
      if (!IsOvercommitAllowed(name) && !limit_missing_reported) {
        report->PushField("limits");
        report->Report("Required value: Limit must be set for non overcommitable resources");
        report->Pop();
        limit_missing_reported = true;
      }
      continue;
    }
    std::optional<double> limit_value = QuantityValue(*limit);
    if (!request_value || !limit_value) continue;
    std::string rule;
    if (!IsOvercommitAllowed(name) && *request_value != *limit_value) {
      rule = "must be equal to " + std::string(name) + " limit of " + QuantityText(*limit);
    } else if (*request_value > *limit_value) {
      rule = "must be less than or equal to " + std::string(name) + " limit of " +
             QuantityText(*limit);
    }
    if (rule.empty()) continue;
    report->PushField("requests");
    report->PushKey(name);
    report->Report("Invalid value: \"" + QuantityText(m.value) + "\": " + rule);
    report->Pop();
    report->Pop();
  }
}

void CheckContainers(const Value& spec, std::string_view list, std::set<std::string>* names,
                     Reporter* report) {
  const Value* containers = spec.find(list);
  if (containers == nullptr) return;
  report->PushField(list);
  for (size_t i = 0; i < containers->items().size(); ++i) {
    const Value& c = (*containers)[i];
    if (!c.is_object()) continue;
    report->PushIndex(i);
    if (const Value* name = c.find("name"); name != nullptr && name->is_string()) {
      report->PushField("name");
      if (!IsDnsLabel(name->as_string())) {
        report->Report("Invalid value: " + ShowValue(*name) + ": " + std::string(kDnsLabelRule));
      } else if (!names->insert(std::string(name->as_string())).second) {
        report->Report("Duplicate value: " + ShowValue(*name));
      }
      report->Pop();
    }
    if (StringOr(c.find("image"), "").empty()) {
      report->PushField("image");
      report->Report("Required value");
      report->Pop();
    }
    CheckEnum(c, "imagePullPolicy", {"Always", "IfNotPresent", "Never"}, report);
    if (const Value* resources = c.find("resources"); resources != nullptr) {
      report->PushField("resources");
      CheckResources(*resources, report);
      report->Pop();
    }
    if (const Value* ports = c.find("ports"); ports != nullptr) {
      report->PushField("ports");
      for (size_t p = 0; p < ports->items().size(); ++p) {
        const Value& port = (*ports)[p];
        report->PushIndex(p);
        const Value* number = port.find("containerPort");
        if (number != nullptr && number->is_number() &&
            !(number->as_double() >= 1 && number->as_double() <= 65535)) {
          report->PushField("containerPort");
          report->Report("Invalid value: " + ShowValue(*number) +
                         ": must be between 1 and 65535, inclusive");
          report->Pop();
        }
        CheckEnum(port, "protocol", {"SCTP", "TCP", "UDP"}, report);
        report->Pop();
      }
      report->Pop();
    }
    report->Pop();
  }
  report->Pop();
}

// A pod spec at the reporter's path; `restart` lists the restart policies its owner admits (the
// first is what an absent policy defaults to).
void CheckPodSpec(const Value& spec, std::initializer_list<std::string_view> restart,
                  Reporter* report) {
  if (!spec.is_object()) return;
  const Value* containers = spec.find("containers");
  if (containers == nullptr || containers->size() == 0) {
    report->PushField("containers");
    report->Report("Required value");
    report->Pop();
  }
  std::set<std::string> names;
  CheckContainers(spec, "initContainers", &names, report);
  CheckContainers(spec, "containers", &names, report);
  CheckEnum(spec, "restartPolicy", {"Always", "OnFailure", "Never"}, report);
  CheckEnum(spec, "dnsPolicy", {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"},
            report);
  std::string_view policy = StringOr(spec.find("restartPolicy"), "Always");
  bool admitted = false;
  for (std::string_view r : restart) admitted = admitted || r == policy;
  bool known = policy == "Always" || policy == "OnFailure" || policy == "Never";
  if (!admitted && known) {
    report->PushField("restartPolicy");
    report->Report("Unsupported value: \"" + std::string(policy) +
                   "\": supported values: " + Supported(restart));
    report->Pop();
  }
}

// Whether a label selector (matchLabels and matchExpressions) selects `labels`.
bool Selects(const Value& selector, const Value& labels) {
  if (const Value* match = selector.find("matchLabels"); match != nullptr) {
    for (const Member& m : match->members()) {
      const Value* have = labels.find(m.key.as_string());
      if (have == nullptr || *have != m.value) return false;
    }
  }
  if (const Value* exprs = selector.find("matchExpressions"); exprs != nullptr) {
    for (const Value& e : exprs->items()) {
      const Value* have = labels.find(StringOr(e.find("key"), ""));
      std::string_view op = StringOr(e.find("operator"), "");
      bool listed = false;
      if (const Value* values = e.find("values"); values != nullptr && have != nullptr) {
        for (const Value& v : values->items()) listed = listed || v == *have;
      }
      if (op == "In" && !listed) return false;
      if (op == "NotIn" && listed) return false;
      if (op == "Exists" && have == nullptr) return false;
      if (op == "DoesNotExist" && have != nullptr) return false;
    }
  }
  return true;
}

// The template of a controller: its labels match spec.selector (when written; a Job's may be
// generated) and its pod spec holds. Missing selectors and templates are the schema's `required`.
void CheckController(const Value& spec, std::initializer_list<std::string_view> restart,
                     Reporter* report) {
  if (!spec.is_object()) return;
  const Value* selector = spec.find("selector");
  const Value* tmpl = spec.find("template");
  if (tmpl == nullptr || !tmpl->is_object()) return;
  if (selector != nullptr && selector->is_object()) {
    const Value* meta = tmpl->find("metadata");
    const Value* labels = meta != nullptr ? meta->find("labels") : nullptr;
    Value none = Value::EmptyObject();
    if (!Selects(*selector, labels != nullptr && labels->is_object() ? *labels : none)) {
      report->PushField("template");
      report->PushField("metadata");
      report->PushField("labels");
      report->Report("Invalid value: " + ShowValue(labels != nullptr ? *labels : none) +
                     ": `selector` does not match template `labels`");
      report->Pop();
      report->Pop();
      report->Pop();
    }
  }
  if (const Value* pod = tmpl->find("spec"); pod != nullptr) {
    report->PushField("template");
    report->PushField("spec");
    CheckPodSpec(*pod, restart, report);
    report->Pop();
    report->Pop();
  }
}

}  // namespace

void CheckBuiltinRules(const GroupVersionKind& gvk, const Value& object, Reporter* report) {
  const Value* spec = object.find("spec");
  if (spec == nullptr || !spec->is_object()) return;
  report->PushField("spec");
  if (gvk.group.empty() && gvk.kind == "Pod") {
    CheckPodSpec(*spec, {"Always", "OnFailure", "Never"}, report);
  } else if (gvk.group == "apps" && (gvk.kind == "Deployment" || gvk.kind == "ReplicaSet" ||
                                     gvk.kind == "StatefulSet" || gvk.kind == "DaemonSet")) {
    CheckController(*spec, {"Always"}, report);
  } else if (gvk.group == "batch" && gvk.kind == "Job") {
    CheckController(*spec, {"OnFailure", "Never"}, report);
  } else if (gvk.group == "batch" && gvk.kind == "CronJob") {
    const Value* job = spec->find("jobTemplate");
    const Value* job_spec = job != nullptr ? job->find("spec") : nullptr;
    if (job_spec != nullptr) {
      report->PushField("jobTemplate");
      report->PushField("spec");
      CheckController(*job_spec, {"OnFailure", "Never"}, report);
      report->Pop();
      report->Pop();
    }
  }
  report->Pop();
}

}  // namespace wmap::schema
