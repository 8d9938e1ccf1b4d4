#include "resolve/gang_plan_support.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "resolve/extract.h"
#include "resolve/saturating.h"
#include "wmap/json.h"
#include "wmap/meta.h"

namespace wmap::resolve {
namespace {

Tally Scaled(const Tally& t, int64_t n) {
  Tally out;
  out.pods = SaturatingMul(t.pods, n);
  out.requests = Times(t.requests, n);
  if (n > 0) out.max_per_pod = t.max_per_pod;
  return out;
}

void Accumulate(Tally* into, const Tally& t) {
  into->pods = SaturatingAdd(into->pods, t.pods);
  AddTo(&into->requests, t.requests);
  MaxInto(&into->max_per_pod, t.max_per_pod);
}

bool HasScaleDefinition(const Definition& d) {
  for (const ComponentDefinition& c : d.components()) {
    if (c.scale) return true;
  }
  return false;
}

int64_t CountLeaves(const Definition& d, size_t c) {
  if (d.Children(c).empty()) return 1;
  int64_t n = 0;
  for (size_t child : d.Children(c)) n += CountLeaves(d, child);
  return n;
}

bool Selected(const InstanceData& instance, const Selection& s) {
  return !s.instance || instance.id == *s.instance;
}

std::string Describe(const Value& v) {
  std::string text = json::ToCompactString(v);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

Result<std::vector<Value>> Run(const Expression& e, const Value& object,
                               const GangVariables& variables) {
  EvalOptions options;
  jq::RunContext context;
  context.budget.deadline = options.EvaluationDeadline();
  context.budget.max_memory_bytes = options.max_memory_bytes;
  std::vector<Value> vars = {Value::String(variables.instance),
                             variables.replica ? Value::Int(*variables.replica) : Value()};
  std::vector<Value> results;
  bool too_many = false;
  std::optional<jq::RunError> error = e.program->Run(object, vars, context, [&](const Value& v) {
    results.push_back(v);
    if (results.size() >= options.max_results) {
      too_many = true;
      return false;
    }
    return true;
  });
  if (error) {
    return MakeError(
        "JQ execution error for expression '" + e.text + "': " + error->message,
        error->kind == jq::ErrorKind::kBudget ? ErrorCode::kLimitExceeded : ErrorCode::kEvaluation);
  }
  if (too_many) {
    return MakeError("query results exceed the allowed number " +
                     std::to_string(options.max_results));
  }
  return results;
}

}  // namespace

Result<const ComponentData*> WorkloadReader::Component(size_t component) {
  auto found = cache_.find(component);
  if (found != cache_.end()) return &found->second;
  const ComponentDefinition& c = definition().components()[component];
  std::string prefix = "component " + c.name;
  auto ids = workload_.InstanceIds(component);
  if (!ids.ok()) return Wrap(prefix, ids.error());
  ComponentData data;
  data.instances.resize(ids->size());
  for (size_t k = 0; k < ids->size(); ++k) data.instances[k].id = (*ids)[k];
  auto scales = workload_.Scales(component);
  if (!scales.ok()) return Wrap(prefix, scales.error());
  auto ppr = workload_.PodsPerReplica(component);
  if (!ppr.ok()) return Wrap(prefix, ppr.error());
  for (size_t k = 0; k < data.instances.size(); ++k) {
    InstanceData& in = data.instances[k];
    if (*scales && k < (*scales)->size()) in.scale = (**scales)[k];
    if (in.scale && in.scale->replicas) in.replicas = *in.scale->replicas;
    in.min_replicas = in.scale && in.scale->min_replicas ? *in.scale->min_replicas : in.replicas;
    if (in.replicas < 0 || in.min_replicas < 0) {
      return MakeError(prefix + " instance \"" + in.id + "\": replicas " +
                       std::to_string(std::min(in.replicas, in.min_replicas)) + " is negative");
    }
    if (*ppr && k < (*ppr)->size()) in.pods_per_replica = (**ppr)[k];
  }
  // Pod templates and the requests of one pod, per instance.
  auto templates = workload_.EffectivePodTemplates(component);
  if (!templates.ok()) return Wrap(prefix, templates.error());
  for (size_t k = 0; *templates && k < (*templates)->size() && k < data.instances.size(); ++k) {
    data.instances[k].pod_template = (**templates)[k];
  }
  for (size_t k = 0; k < data.instances.size(); ++k) {
    InstanceData& in = data.instances[k];
    const Value* found = in.pod_template.is_object() ? in.pod_template.find("spec") : nullptr;
    Value spec = found != nullptr ? *found : Value();
    if (spec.is_null()) continue;
    auto per_pod = EffectivePodResources(spec);
    if (!per_pod.ok()) return Wrap(prefix + " instance \"" + in.id + "\"", per_pod.error());
    in.per_pod = std::move(*per_pod);
  }
  return &cache_.emplace(component, std::move(data)).first->second;
}

Result<int64_t> WorkloadReader::Units(size_t component, const Selection& selection, bool minimum) {
  auto data = Component(component);
  if (!data.ok()) return data.error();
  int64_t units = 0;
  for (const InstanceData& in : (*data)->instances) {
    if (!Selected(in, selection)) continue;
    int64_t replicas = selection.replica ? 1 : (minimum ? in.min_replicas : in.replicas);
    units = SaturatingAdd(units, SaturatingMul(replicas, in.pods_per_replica));
  }
  return units;
}

Result<Tally> WorkloadReader::Subtree(size_t component, const Selection& selection, bool minimum) {
  auto data = Component(component);
  if (!data.ok()) return data.error();
  std::span<const size_t> children = definition().Children(component);
  Tally below;
  for (size_t child : children) {
    auto t = Subtree(child, {}, minimum);
    if (!t.ok()) return t.error();
    Accumulate(&below, *t);
  }
  Tally out;
  for (const InstanceData& in : (*data)->instances) {
    if (!Selected(in, selection)) continue;
    int64_t replicas = selection.replica ? 1 : (minimum ? in.min_replicas : in.replicas);
    int64_t units = SaturatingMul(replicas, in.pods_per_replica);
    if (!children.empty()) {
      Accumulate(&out, Scaled(below, units));
    } else {
      Tally one;
      one.pods = 1;
      one.requests = in.per_pod.requests;
      one.max_per_pod = in.per_pod.requests;
      Accumulate(&out, Scaled(one, units));
    }
  }
  return out;
}

Result<Tally> WorkloadReader::InScope(std::optional<size_t> anchor,
                                      const Selection& anchor_selection, size_t target,
                                      const Selection& selection, bool minimum) {
  if (anchor && *anchor == target) {
    Selection merged = anchor_selection;
    if (selection.instance) merged.instance = selection.instance;
    if (selection.replica) merged.replica = selection.replica;
    return Subtree(target, merged, minimum);
  }
  auto tally = Subtree(target, selection, minimum);
  if (!tally.ok()) return tally.error();
  int64_t multiplier = 1;
  for (int a = definition().Parent(target); a >= 0; a = definition().Parent(a)) {
    bool is_anchor = anchor && static_cast<size_t>(a) == *anchor;
    auto units = Units(a, is_anchor ? anchor_selection : Selection{}, minimum);
    if (!units.ok()) return units.error();
    multiplier = SaturatingMul(multiplier, *units);
    if (is_anchor) break;
  }
  return Scaled(*tally, multiplier);
}

Result<int64_t> WorkloadReader::KartaPods(size_t component,
                                          const std::optional<std::string>& instance) {
  const Definition& d = definition();
  if (!HasScaleDefinition(d)) return CountLeaves(d, component);
  // Counts only: the scales and instance ids, never the pod definitions (whose failure must not
  // change who joins which gang).
  auto ids = workload_.InstanceIds(component);
  if (!ids.ok()) return ids.error();
  auto scales = workload_.Scales(component);
  if (!scales.ok()) return scales.error();
  int64_t own = 0;
  for (size_t k = 0; *scales && k < (*scales)->size() && k < ids->size(); ++k) {
    if (instance && (*ids)[k] != *instance) continue;
    const Scale& scale = (**scales)[k];
    if (scale.replicas && *scale.replicas > 0) own = SaturatingAdd(own, *scale.replicas);
  }
  if (d.Children(component).empty()) return own;
  int64_t children = 0;
  for (size_t child : d.Children(component)) {
    auto n = KartaPods(child);
    if (!n.ok()) return n.error();
    children = SaturatingAdd(children, *n);
  }
  if (children == 0) return own;
  if (own == 0) return children;
  return SaturatingMul(own, children);
}

Result<ResourceList> WorkloadReader::MaxPerPod(size_t component) {
  ResourceList out;
  auto data = Component(component);
  if (!data.ok()) return data.error();
  for (const InstanceData& in : (*data)->instances) MaxInto(&out, in.per_pod.requests);
  for (size_t child : definition().Children(component)) {
    auto r = MaxPerPod(child);
    if (!r.ok()) return r.error();
    MaxInto(&out, *r);
  }
  return out;
}

Result<Value> WorkloadReader::FirstTemplate(size_t component) {
  auto data = Component(component);
  if (!data.ok()) return data.error();
  for (const InstanceData& in : (*data)->instances) {
    if (!in.pod_template.is_null()) return in.pod_template;
  }
  for (size_t child : definition().Children(component)) {
    auto t = FirstTemplate(child);
    if (!t.ok() || !t->is_null()) return t;
  }
  return Value();
}

WorkloadIdentity IdentityOf(const Value& object) {
  WorkloadIdentity id;
  const Value* metadata = object.find("metadata");
  auto text = [&](std::string_view key) {
    const Value* v = metadata ? metadata->find(key) : nullptr;
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  id.name = meta::NameOrGenerated(object);
  id.ns = text("namespace");
  id.uid = text("uid");
  return id;
}

std::string UidPlaceholder(const WorkloadIdentity& id, std::string_view name_template) {
  if (!id.uid.empty()) return id.uid;
  return name_template.find("{workload}") == std::string_view::npos ? id.name : std::string();
}

std::string ExpandTemplate(const std::string& text,
                           const std::map<std::string, std::string>& values) {
  std::string out;
  bool drop_next_dash = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{') {
      size_t close = text.find('}', i);
      if (close != std::string::npos) {
        auto it = values.find(text.substr(i + 1, close - i - 1));
        std::string value = it == values.end() ? "" : it->second;
        i = close;
        if (value.empty()) {
          // Take one adjacent '-' along: the one before, else the one after.
          if (!out.empty() && out.back() == '-') {
            out.pop_back();
          } else {
            drop_next_dash = true;
          }
        } else {
          out += value;
        }
        continue;
      }
    }
    if (drop_next_dash) {
      drop_next_dash = false;
      if (c == '-') continue;
    }
    out += c;
  }
  return out;
}

Result<std::optional<int32_t>> EvaluateCount(const Expression& e, const Value& object,
                                             const GangVariables& variables,
                                             const std::string& what) {
  auto results = Run(e, object, variables);
  if (!results.ok()) return Wrap(what, results.error());
  if (results->empty()) return std::optional<int32_t>();
  std::string want = "want one integer from 0 to 2147483647";
  if (results->size() > 1) {
    return MakeError(what + ": expression '" + e.text + "' (" + e.field + ") gave " +
                     std::to_string(results->size()) + " results, " + want);
  }
  const Value& v = (*results)[0];
  if (v.is_null()) return std::optional<int32_t>();
  auto bad = [&] {
    return MakeError(what + ": expression '" + e.text + "' (" + e.field + ") gave " + Describe(v) +
                     ", " + want);
  };
  if (v.is_string()) {
    std::string_view s = v.as_string();
    int64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || n < 0 ||
        n > std::numeric_limits<int32_t>::max()) {
      return bad();
    }
    return std::optional<int32_t>(static_cast<int32_t>(n));
  }
  if (!v.is_number()) return bad();
  if (v.is_integer()) {
    if (v.as_int() < 0 || v.as_int() > std::numeric_limits<int32_t>::max()) return bad();
    return std::optional<int32_t>(static_cast<int32_t>(v.as_int()));
  }
  double d = v.as_double();
  if (!std::isfinite(d) || std::floor(d) != d || d < 0 || d > 2147483647.0) return bad();
  return std::optional<int32_t>(static_cast<int32_t>(d));
}

Result<std::string> EvaluateText(const Expression& e, const Value& object,
                                 const GangVariables& variables, const std::string& what) {
  auto results = Run(e, object, variables);
  if (!results.ok()) return Wrap(what, results.error());
  if (results->empty()) return std::string();
  if (results->size() > 1 || !((*results)[0].is_string() || (*results)[0].is_null())) {
    std::string got = results->size() > 1 ? std::to_string(results->size()) + " results"
                                          : Describe((*results)[0]);
    return MakeError(what + ": expression '" + e.text + "' (" + e.field + ") gave " + got +
                     ", want one string");
  }
  const Value& v = (*results)[0];
  return v.is_null() ? std::string() : std::string(v.as_string());
}

std::optional<Error> EvaluateSchedulingTexts(const GangDefinition& g, const Value& object,
                                             const GangVariables& variables,
                                             const std::string& what, GangPlan* plan) {
  struct Field {
    const std::optional<Expression>& expression;
    const char* name;
    std::string* into;
  };
  for (const Field& f :
       {Field{g.queue, "queue", &plan->queue},
        Field{g.priority_class_name, "priorityClassName", &plan->priority_class_name},
        Field{g.preemptibility, "preemptibility", &plan->preemptibility}}) {
    if (!f.expression) continue;
    auto r = EvaluateText(*f.expression, object, variables, what + " " + f.name);
    if (!r.ok()) return r.error();
    *f.into = std::move(*r);
  }
  if (g.partial_admission) {
    auto r = EvaluateCount(*g.partial_admission, object, variables, what + " partialAdmission");
    if (!r.ok()) return r.error();
    plan->partial_admission = *r;
  }
  return std::nullopt;
}

Result<std::vector<Value>> EvaluateAll(const Expression& e, const Value& input,
                                       const GangVariables& variables) {
  return Run(e, input, variables);
}

Result<std::optional<int32_t>> MinMemberOverride(const Value& object, const std::string& annotation,
                                                 const std::string& what) {
  const Value* annotations = object.find("metadata");
  annotations = annotations ? annotations->find("annotations") : nullptr;
  const Value* v = annotations ? annotations->find(annotation) : nullptr;
  if (v == nullptr) return std::optional<int32_t>();
  std::string s = v->is_string() ? std::string(v->as_string()) : "";
  int64_t n = 0;
  bool ok = !s.empty() && s.size() <= 10 &&
            std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (ok) n = std::stoll(s);
  if (!ok || n < 1 || n > 2147483647) {
    return MakeError(what + ": annotation " + annotation + " is " + json::ToCompactString(*v) +
                     ", want an integer from 1 to 2147483647");
  }
  return std::optional<int32_t>(static_cast<int32_t>(n));
}

Result<int32_t> ToCount(int64_t n, const std::string& what) {
  if (n > std::numeric_limits<int32_t>::max()) {
    return MakeError(what + ": " + std::to_string(n) +
                     " pods is more than a pod group can count (2147483647)");
  }
  return static_cast<int32_t>(n);
}

}  // namespace wmap::resolve
