// Status: phase, conditions and the matched statuses (upstream's ExtractStatus semantics).
#include <unordered_map>

#include "resolve/extract.h"
#include "wmap/workload.h"

namespace wmap {

using resolve::MakeError;
using resolve::Wrap;

namespace {

std::optional<std::string> ReadString(const Value& object, std::string_view key) {
  const Value* v = object.find(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

Result<std::vector<Condition>> ExtractConditions(const std::optional<ConditionsDefinition>& def,
                                                 const Value& object, const EvalOptions& options) {
  std::vector<Condition> conditions;
  if (!def) return conditions;
  constexpr std::string_view kPrefix = "failed to extract conditions";
  Result<std::vector<Value>> results =
      resolve::Evaluate(*def->path.program, def->path.text, object, options);
  if (!results.ok()) return Wrap(kPrefix, results.error());
  if (std::optional<Error> e =
          resolve::DecodeAll(resolve::GoType::kConditionList, &results.value())) {
    return Wrap(kPrefix, *e);
  }
  for (const Value& list : *results) {
    if (!list.is_array()) continue;  // null: no conditions
    for (const Value& item : list.items()) {
      Condition c;
      if (item.is_object()) {
        c.type = ReadString(item, def->type_field_name).value_or("");
        c.status = ReadString(item, def->status_field_name);
        if (def->message_field_name) {
          c.message = ReadString(item, *def->message_field_name).value_or("");
        }
        if (def->reason_field_name) c.reason = ReadString(item, *def->reason_field_name);
      }
      conditions.push_back(std::move(c));
    }
  }
  return conditions;
}

// One matcher: the AND of its criteria; an error when its expression fails.
Result<bool> Match(const StatusMatcher& m, const std::optional<std::string>& phase,
                   const std::unordered_map<std::string, const Condition*>& by_type,
                   const Value& object, const EvalOptions& options) {
  if (!m.by_phase.empty() && (!phase || *phase != m.by_phase)) return false;
  for (const ExpectedCondition& expected : m.by_conditions) {
    auto it = by_type.find(expected.type);
    if (it == by_type.end()) return false;
    const Condition& actual = *it->second;
    std::string want = expected.status.value_or("");
    if (!want.empty() && want != actual.status.value_or("")) return false;
    want = expected.reason.value_or("");
    if (!want.empty() && want != actual.reason.value_or("")) return false;
  }
  if (m.by_expression) {
    const ExpressionMatcher& e = *m.by_expression;
    std::string text = "(" + e.expression.text + ") | tostring";
    if (!e.comparison) return MakeError("failed to evaluate ByExpression: cannot compile " + text);
    Result<std::vector<Value>> results = resolve::Evaluate(*e.comparison, text, object, options);
    if (!results.ok()) return Wrap("failed to evaluate ByExpression", results.error());
    if (results->empty() || (*results)[0].is_null()) return false;
    const Value& first = (*results)[0];
    if (!first.is_string()) {
      return MakeError("expression result did not convert to a string, got " +
                       std::string(TypeName(first.type())));
    }
    return first.as_string() == e.expected_result;
  }
  return true;
}

}  // namespace

Result<std::optional<WorkloadStatus>> Workload::Status(size_t component) const {
  const ComponentDefinition& c = definition_.components()[component];
  if (!c.status) return std::optional<WorkloadStatus>();
  constexpr std::string_view kPrefix = "failed to extract status";
  const StatusDefinition& def = *c.status;
  WorkloadStatus status;
  if (def.phase) {
    Result<std::vector<Value>> phases =
        resolve::Evaluate(*def.phase->program, def.phase->text, object_, options_);
    if (!phases.ok()) return Wrap(kPrefix, Wrap("failed to extract phase", phases.error()));
    if (std::optional<Error> e = resolve::DecodeAll(resolve::GoType::kString, &phases.value())) {
      return Wrap(kPrefix, Wrap("failed to extract phase", *e));
    }
    if (!phases->empty()) status.phase = std::string((*phases)[0].as_string());
  }
  Result<std::vector<Condition>> conditions = ExtractConditions(def.conditions, object_, options_);
  if (!conditions.ok()) return Wrap(kPrefix, conditions.error());
  status.conditions = std::move(conditions.value());

  // The last condition of a type wins.
  std::unordered_map<std::string, const Condition*> by_type;
  for (const Condition& cond : status.conditions) by_type[cond.type] = &cond;

  for (const StatusMapping& mapping : def.mappings) {
    for (const StatusMatcher& matcher : mapping.matchers) {
      Result<bool> matched = Match(matcher, status.phase, by_type, object_, options_);
      if (!matched.ok()) {
        return Wrap(kPrefix, Wrap("failed to match status",
                                  Wrap("failed to evaluate matcher", matched.error())));
      }
      if (*matched) {
        status.matched.push_back(mapping.status);
        break;
      }
    }
  }
  if (status.matched.empty()) status.matched.push_back(ResourceStatus::kUndefined);
  return std::optional<WorkloadStatus>(std::move(status));
}

}  // namespace wmap
