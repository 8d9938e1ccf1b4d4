#include "resolve/extract.h"

#include <charconv>
#include <cmath>

#include "wmap/json.h"

namespace wmap::resolve {
namespace {

// Go's name of a JSON value's kind in unmarshal errors ("bool" where JSON says "boolean").
std::string_view JsonKind(const Value& v) { return v.is_bool() ? "bool" : TypeName(v.type()); }

struct GoTypeInfo {
  std::string_view percent_t;   // %T of the destination element
  std::string_view value_type;  // "Go value of type ..." in unmarshal errors
  Type json_type;               // what decodes (null always decodes)
};

GoTypeInfo Info(GoType t) {
  switch (t) {
    case GoType::kString:
      return {"string", "string", Type::kString};
    case GoType::kPodTemplateSpec:
      return {"v1.PodTemplateSpec", "v1.PodTemplateSpec", Type::kObject};
    case GoType::kPodSpec:
      return {"v1.PodSpec", "v1.PodSpec", Type::kObject};
    case GoType::kObjectMeta:
      return {"v1.ObjectMeta", "v1.ObjectMeta", Type::kObject};
    case GoType::kStringMap:
      return {"map[string]string", "map[string]string", Type::kObject};
    case GoType::kResources:
      return {"*v1.ResourceRequirements", "v1.ResourceRequirements", Type::kObject};
    case GoType::kResourceClaims:
      return {"[]v1.PodResourceClaim", "[]v1.PodResourceClaim", Type::kArray};
    case GoType::kPodAffinity:
      return {"*v1.PodAffinity", "v1.PodAffinity", Type::kObject};
    case GoType::kNodeAffinity:
      return {"*v1.NodeAffinity", "v1.NodeAffinity", Type::kObject};
    case GoType::kContainers:
      return {"[]v1.Container", "[]v1.Container", Type::kArray};
    case GoType::kContainer:
      return {"*v1.Container", "v1.Container", Type::kObject};
    case GoType::kConditionList:
      return {"[]map[string]interface {}", "[]map[string]interface {}", Type::kArray};
  }
  return {"interface {}", "interface {}", Type::kNull};
}

std::string ConvertError(size_t index, std::string_view percent_t, std::string_view json_error) {
  return "failed to convert object at index " + std::to_string(index) + " to type " +
         std::string(percent_t) +
         ": failed to unmarshal to destination: " + std::string(json_error);
}

std::string CannotUnmarshal(const Value& v, std::string_view go_type) {
  return "json: cannot unmarshal " + std::string(JsonKind(v)) + " into Go value of type " +
         std::string(go_type);
}

// Go's %q of a string (close enough for messages: JSON escaping).
std::string GoQuote(std::string_view s) {
  std::string out;
  json::WriteString(s, false, &out);
  return out;
}

}  // namespace

Error MakeError(std::string message, ErrorCode code) { return Error::Of(code, std::move(message)); }

Error Wrap(std::string_view prefix, const Error& cause) {
  Error e = cause;
  e.message = std::string(prefix) + ": " + cause.message;
  return e;
}

Result<std::vector<Value>> Evaluate(const jq::Program& program, std::string_view text,
                                    const Value& input, const EvalOptions& options) {
  jq::RunContext context;
  context.budget.deadline = options.EvaluationDeadline();
  context.budget.max_memory_bytes = options.max_memory_bytes;
  std::vector<Value> results;
  bool too_many = false;
  std::optional<jq::RunError> error = program.Run(input, {}, context, [&](const Value& v) {
    results.push_back(v);
    if (options.max_results > 0 && results.size() >= options.max_results) {
      too_many = true;
      return false;
    }
    return true;
  });
  if (error) {
    return MakeError(
        "JQ execution error for expression '" + std::string(text) + "': " + error->message,
        error->kind == jq::ErrorKind::kBudget ? ErrorCode::kLimitExceeded : ErrorCode::kEvaluation);
  }
  if (too_many) {
    return MakeError("query results exceed the allowed number " +
                     std::to_string(options.max_results));
  }
  return results;
}

Result<std::vector<Value>> EvaluateOptional(const std::optional<Expression>& e, const Value& input,
                                            const EvalOptions& options) {
  if (!e) return std::vector<Value>{};
  return Evaluate(*e->program, e->text, input, options);
}

std::optional<Error> DecodeAll(GoType type, std::vector<Value>* values) {
  GoTypeInfo info = Info(type);
  for (size_t i = 0; i < values->size(); ++i) {
    Value& v = (*values)[i];
    if (v.is_null()) {
      if (type == GoType::kString) v = Value::String("");
      continue;
    }
    if (v.type() != info.json_type) {
      return MakeError(ConvertError(i, info.percent_t, CannotUnmarshal(v, info.value_type)));
    }
    if (type == GoType::kStringMap) {
      for (const Member& m : v.members()) {
        if (!m.value.is_string() && !m.value.is_null()) {
          return MakeError(ConvertError(i, info.percent_t, CannotUnmarshal(m.value, "string")));
        }
      }
    } else if (type == GoType::kConditionList) {
      for (const Value& item : v.items()) {
        if (!item.is_object() && !item.is_null()) {
          return MakeError(
              ConvertError(i, info.percent_t, CannotUnmarshal(item, "map[string]interface {}")));
        }
      }
    }
  }
  return std::nullopt;
}

Result<std::vector<std::optional<int32_t>>> DecodeReplicas(const std::vector<Value>& values) {
  std::vector<std::optional<int32_t>> out;
  out.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    if (v.is_null()) {
      out.emplace_back();
      continue;
    }
    if (v.is_string()) {
      std::string_view s = v.as_string();
      int32_t parsed = 0;
      std::string_view digits = s;
      if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), parsed);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
          (s[0] == '+' && digits[0] == '-')) {
        return MakeError("replicas value " + GoQuote(s) + " at index " + std::to_string(i) +
                         " is not a number");
      }
      out.emplace_back(parsed);
      continue;
    }
    if (!v.is_number()) {
      return MakeError(ConvertError(i, "*int32", CannotUnmarshal(v, "int32")));
    }
    double d = v.as_double();
    bool integral = v.is_integer() ? true : std::floor(d) == d;
    bool in_range = v.is_integer() ? (v.as_int() >= INT32_MIN && v.as_int() <= INT32_MAX)
                                   : (d >= INT32_MIN && d <= INT32_MAX);
    if (!integral || !in_range) {
      std::string text;
      json::FormatNumber(v, &text);
      return MakeError(ConvertError(
          i, "*int32", "json: cannot unmarshal number " + text + " into Go value of type int32"));
    }
    out.emplace_back(v.is_integer() ? static_cast<int32_t>(v.as_int()) : static_cast<int32_t>(d));
  }
  return out;
}

}  // namespace wmap::resolve
