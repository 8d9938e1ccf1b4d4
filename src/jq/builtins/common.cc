#include "jq/builtins/common.h"

#include <cmath>
#include <limits>

#include "jq/eval/preview.h"
#include "jq/eval/value_ops.h"

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

uint32_t DecodeUtf8(std::string_view s, size_t* pos) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t i = *pos;
  size_t n = s.size();
  unsigned char c = p[i];
  if (c < 0x80) {
    *pos = i + 1;
    return c;
  }
  size_t len;
  uint32_t cp;
  uint32_t min;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
    min = 0x10000;
  } else {
    *pos = i + 1;
    return 0xFFFD;
  }
  if (i + len > n) {
    *pos = i + 1;
    return 0xFFFD;
  }
  for (size_t k = 1; k < len; ++k) {
    if ((p[i + k] & 0xC0) != 0x80) {
      *pos = i + 1;
      return 0xFFFD;
    }
    cp = (cp << 6) | (p[i + k] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    *pos = i + 1;
    return 0xFFFD;
  }
  *pos = i + len;
  return cp;
}

void AppendUtf8(uint32_t c, std::string* out) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

size_t CodepointCount(std::string_view s) {
  size_t count = 0;
  size_t i = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
    } else {
      DecodeUtf8(s, &i);
    }
    ++count;
  }
  return count;
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
