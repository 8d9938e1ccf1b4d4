#include "jq/builtins/common.h"

#include <cmath>
#include <limits>

#include "jq/eval/preview.h"
#include "jq/eval/value_ops.h"
#include "wmap/json.h"

namespace wmap::jq::builtins {
namespace {

std::string JoinArgPreviews(std::string_view name, std::span<const Value> args) {
  std::string s(name);
  s.push_back('(');
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) s.append("; ");
    s.append(Preview(args[i]));
  }
  s.push_back(')');
  return s;
}

}  // namespace

bool ChargedCompactJson(const NativeContext& ctx, const Value& v, std::string* out) {
  // The writer hands over every kSpillBytes written; what was written since the last charge is
  // charged then. Once the budget is spent the text is dropped as it comes, so memory stays
  // bounded while the writer finishes its walk.
  constexpr size_t kSpillBytes = 64 * 1024;
  size_t charged = 0;
  bool spent = false;
  json::WriteOptions options;
  options.indent = 0;
  options.spill_bytes = kSpillBytes;
  options.spill = [&] {
    if (!spent && out->size() - charged >= kSpillBytes) {
      spent = !ctx.Charge(out->size() - charged);
      charged = out->size();
    }
    if (spent) {
      out->clear();
      charged = 0;
    }
  };
  json::Write(v, options, out);
  if (spent) return false;
  return ctx.Charge(out->size() - charged);
}

std::string FuncTypeError(std::string_view name, const Value& v) {
  std::string s(name);
  s.append(" cannot be applied to: ");
  s.append(TypePreview(v));
  return s;
}

std::string FuncArgsTypeError(std::string_view name, std::span<const Value> args, const Value& v) {
  return FuncTypeError(JoinArgPreviews(name, args), v);
}

std::string FuncWrapError(std::string_view name, const Value& v, std::string_view reason) {
  std::string s(name);
  s.append(" cannot be applied to ");
  s.append(Preview(v));
  s.append(": ");
  s.append(reason);
  return s;
}

std::string FuncArgsWrapError(std::string_view name, std::span<const Value> args, const Value& v,
                              std::string_view reason) {
  return FuncWrapError(JoinArgPreviews(name, args), v, reason);
}

Value NumberResult(double d) { return eval::NumberValue(d); }

int64_t ClampToInt(const Value& number) {
  if (number.is_integer()) return number.as_int();
  double d = number.as_double();
  if (std::isnan(d)) return std::numeric_limits<int64_t>::min();
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

std::string AddError(const Value& l, const Value& r) {
  std::string s = "cannot add: ";
  s.append(TypePreview(l));
  s.append(" and ");
  s.append(TypePreview(r));
  return s;
}

bool AddValues(const Value& l, const Value& r, Value* out) {
  // A number literal added to null loses its text, as in gojq.
  if (r.is_null()) return Ok(out, l.plain_number());
  if (l.is_null()) return Ok(out, r.plain_number());
  if (l.type() != r.type()) return Fail(out, AddError(l, r));
  switch (l.type()) {
    case Type::kNumber: {
      if (l.is_integer() && r.is_integer()) {
        int64_t sum;
        if (!__builtin_add_overflow(l.as_int(), r.as_int(), &sum)) return Ok(out, Value::Int(sum));
      }
      std::string error;
      if (!eval::BinaryOperation(ast::BinaryOp::kAdd, l, r, out, &error)) return Fail(out, error);
      return true;
    }
    case Type::kString: {
      std::string s;
      s.reserve(l.as_string().size() + r.as_string().size());
      s.append(l.as_string());
      s.append(r.as_string());
      return Ok(out, Value::String(std::move(s)));
    }
    case Type::kArray: {
      Value a = l;
      auto& items = a.mutable_items();
      items.insert(items.end(), r.items().begin(), r.items().end());
      return Ok(out, std::move(a));
    }
    case Type::kObject: {
      Value o = l;
      for (const Member& m : r.members()) o.set(m.key.as_string(), m.value);
      return Ok(out, std::move(o));
    }
    default:
      return Fail(out, AddError(l, r));
  }
}

}  // namespace wmap::jq::builtins
