// Natives over strings: conversions (tostring, tonumber, toboolean, tojson, fromjson), case,
// trimming, prefixes, explode/implode, split/1 and join.
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "jq/builtins/common.h"
#include "jq/builtins/registry.h"
#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::jq::builtins {
namespace {

using Args = std::span<const Value>;

bool Utf8ByteLength(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("utf8bytelength", in));
  return Ok(out, Value::Int(static_cast<int64_t>(in.as_string().size())));
}

bool ToJson(const NativeContext& ctx, const Value& in, Args, Value* out) {
  std::string text;
  if (!ChargedCompactJson(ctx, in, &text)) return false;
  return Ok(out, Value::String(std::move(text)));
}

bool ToString(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (in.is_string()) return Ok(out, in);
  return ToJson(ctx, in, args, out);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// gojq's number syntax for tonumber: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
bool ValidNumberText(std::string_view s) {
  size_t i = 0;
  size_t n = s.size();
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  size_t int_digits = 0;
  while (i < n && IsDigit(s[i])) ++i, ++int_digits;
  if (i < n && s[i] == '.') {
    ++i;
    size_t frac_digits = 0;
    while (i < n && IsDigit(s[i])) ++i, ++frac_digits;
    if (int_digits == 0 && frac_digits == 0) return false;
  } else if (int_digits == 0) {
    return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < n && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == n;
}

// The value of validated number text: an exact integer (int64 or big) when the text is an
// integer, a double otherwise (overflow gives ±infinity, as gojq).
Value ParseNumberText(std::string_view s) {
  std::string text(s);
  if (text.find_first_of(".eE") == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    long long i = std::strtoll(text.c_str(), &end, 10);
    if (errno == 0 && end == text.c_str() + text.size()) return Value::Int(i);
    if (std::optional<BigInt> big = BigInt::FromDecimal(text)) return Value::Big(*big);
  }
  return Value::Number(std::strtod(text.c_str(), nullptr));
}

bool ToNumber(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_number()) return Ok(out, in);
  if (!in.is_string()) return Fail(out, FuncTypeError("tonumber", in));
  if (!ValidNumberText(in.as_string())) {
    return Fail(out, FuncWrapError("tonumber", in, "invalid number"));
  }
  return Ok(out, ParseNumberText(in.as_string()));
}

bool ToBoolean(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_bool()) return Ok(out, in);
  if (!in.is_string()) return Fail(out, FuncTypeError("toboolean", in));
  if (in.as_string() == "true") return Ok(out, Value::Bool(true));
  if (in.as_string() == "false") return Ok(out, Value::Bool(false));
  return Fail(out, FuncWrapError("toboolean", in, "invalid boolean"));
}

bool FromJson(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("fromjson", in));
  std::string_view text = in.as_string();
  // Numbers keep their text, as gojq's decoder keeps json.Number.
  json::StreamReader reader(text, {.gojq_numbers = true});
  Value v;
  Error error;
  if (!reader.Next(&v, &error)) return Fail(out, FuncWrapError("fromjson", in, "EOF"));
  if (reader.failed()) return Fail(out, FuncWrapError("fromjson", in, error.message));
  Value extra;
  if (reader.Next(&extra, &error)) return Fail(out, FuncTypeError("fromjson", in));
  return Ok(out, std::move(v));
}

std::string MapAscii(std::string_view s, char from, char to, int delta) {
  std::string r(s);
  for (char& c : r) {
    if (c >= from && c <= to) c = static_cast<char>(c + delta);
  }
  return r;
}

bool AsciiDowncase(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("ascii_downcase", in));
  return Ok(out, Value::String(MapAscii(in.as_string(), 'A', 'Z', 'a' - 'A')));
}

bool AsciiUpcase(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("ascii_upcase", in));
  return Ok(out, Value::String(MapAscii(in.as_string(), 'a', 'z', 'A' - 'a')));
}

// Both the input and the argument must be strings for the prefix/suffix builtins.
bool StringPair(std::string_view name, const Value& in, Args args, Value* out) {
  if (!in.is_string() || !args[0].is_string()) {
    return Fail(out, FuncArgsTypeError(name, args, in));
  }
  return true;
}

bool StartsWith(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!StringPair("startswith", in, args, out)) return false;
  return Ok(out, Value::Bool(in.as_string().starts_with(args[0].as_string())));
}

bool EndsWith(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!StringPair("endswith", in, args, out)) return false;
  return Ok(out, Value::Bool(in.as_string().ends_with(args[0].as_string())));
}

bool LtrimStr(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!StringPair("ltrimstr", in, args, out)) return false;
  std::string_view s = in.as_string();
  std::string_view p = args[0].as_string();
  if (p.empty() || !s.starts_with(p)) return Ok(out, in);
  return Ok(out, Value::String(s.substr(p.size())));
}

bool RtrimStr(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!StringPair("rtrimstr", in, args, out)) return false;
  std::string_view s = in.as_string();
  std::string_view p = args[0].as_string();
  if (p.empty() || !s.ends_with(p)) return Ok(out, in);
  return Ok(out, Value::String(s.substr(0, s.size() - p.size())));
}

bool TrimStr(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!StringPair("trimstr", in, args, out)) return false;
  std::string_view s = in.as_string();
  std::string_view p = args[0].as_string();
  if (p.empty()) return Ok(out, in);
  if (s.starts_with(p)) s.remove_prefix(p.size());
  if (s.ends_with(p)) s.remove_suffix(p.size());
  return Ok(out, Value::String(s));
}

// Go's unicode.IsSpace.
bool IsUnicodeSpace(uint32_t c) {
  switch (c) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

size_t LeadingSpaceBytes(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    size_t next = i;
    if (!IsUnicodeSpace(text::DecodeUtf8(s, &next))) break;
    i = next;
  }
  return i;
}

size_t TrailingSpaceStart(std::string_view s) {
  size_t end = s.size();
  while (end > 0) {
    size_t start = end - 1;
    size_t back = 0;
    while (back < 3 && start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) {
      --start;
      ++back;
    }
    size_t pos = start;
    uint32_t c = text::DecodeUtf8(s, &pos);
    if (pos != end || !IsUnicodeSpace(c)) break;
    end = start;
  }
  return end;
}

bool Ltrim(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("ltrim", in));
  std::string_view s = in.as_string();
  return Ok(out, Value::String(s.substr(LeadingSpaceBytes(s))));
}

bool Rtrim(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("rtrim", in));
  std::string_view s = in.as_string();
  return Ok(out, Value::String(s.substr(0, TrailingSpaceStart(s))));
}

bool Trim(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("trim", in));
  std::string_view s = in.as_string();
  s = s.substr(LeadingSpaceBytes(s));
  return Ok(out, Value::String(s.substr(0, TrailingSpaceStart(s))));
}

bool Explode(const NativeContext& ctx, const Value& in, Args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("explode", in));
  std::string_view s = in.as_string();
  // Charged in blocks of code points as they are decoded.
  constexpr size_t kBlock = 4096;
  Value r = Value::EmptyArray();
  auto& items = r.mutable_items();
  size_t i = 0;
  while (i < s.size()) {
    if (items.size() % kBlock == 0 && !ctx.Charge(kBlock * sizeof(Value))) return false;
    items.push_back(Value::Int(text::DecodeUtf8(s, &i)));
  }
  return Ok(out, std::move(r));
}

bool Implode(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("implode", in));
  std::string s;
  s.reserve(in.size());
  for (const Value& c : in.items()) {
    if (!c.is_number()) return Fail(out, FuncTypeError("implode", in));
    int64_t cp = ClampToInt(c);
    text::AppendUtf8(cp < 0 || cp > 0x10FFFF ? 0xFFFD : static_cast<uint32_t>(cp), &s);
  }
  return Ok(out, Value::String(std::move(s)));
}

// Splits s on every occurrence of sep (Go's strings.Split: an empty sep splits into code
// points), charging each piece as it is made; false once the budget is spent.
bool SplitString(const NativeContext& ctx, std::string_view s, std::string_view sep, Value* out) {
  Value r = Value::EmptyArray();
  auto& items = r.mutable_items();
  auto piece = [&](size_t start, size_t end) {
    if (!ctx.Charge(PieceBytes(end - start))) return false;
    items.push_back(Value::String(s.substr(start, end - start)));
    return true;
  };
  if (sep.empty()) {
    size_t i = 0;
    while (i < s.size()) {
      size_t start = i;
      text::DecodeUtf8(s, &i);
      if (!piece(start, i)) return false;
    }
  } else {
    size_t start = 0;
    while (true) {
      size_t found = s.find(sep, start);
      if (found == std::string_view::npos) break;
      if (!piece(start, found)) return false;
      start = found + sep.size();
    }
    if (!piece(start, s.size())) return false;
  }
  *out = std::move(r);
  return true;
}

bool Split(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (!in.is_string()) return Fail(out, FuncTypeError("split", in));
  if (!args[0].is_string()) return Fail(out, FuncTypeError("split", args[0]));
  return SplitString(ctx, in.as_string(), args[0].as_string(), out);
}

// join: the separator goes between elements with `+` semantics (null adds nothing, any other
// non-string is an add error); null elements add "", booleans and numbers their JSON text.
bool Join(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  std::vector<Value> values;
  if (in.is_array()) {
    values.assign(in.items().begin(), in.items().end());
  } else if (in.is_object()) {
    for (const Member* m : in.sorted_members()) values.push_back(m->value);
  } else {
    return Fail(out, FuncArgsTypeError("join", args, in));
  }
  const Value& sep = args[0];
  std::string acc;
  size_t charged = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    // The text is charged as it grows, in steps of at least kChargeStep bytes.
    constexpr size_t kChargeStep = 64 * 1024;
    if (acc.size() - charged >= kChargeStep) {
      if (!ctx.Charge(acc.size() - charged)) return false;
      charged = acc.size();
    }
    if (i > 0) {
      if (sep.is_string()) {
        acc.append(sep.as_string());
      } else if (!sep.is_null()) {
        return Fail(out, AddError(Value::String(acc), sep));
      }
    }
    const Value& x = values[i];
    switch (x.type()) {
      case Type::kNull:
        break;
      case Type::kString:
        acc.append(x.as_string());
        break;
      case Type::kBoolean:
        acc.append(x.as_bool() ? "true" : "false");
        break;
      case Type::kNumber:
        json::FormatNumber(x, &acc);
        break;
      default:
        return Fail(out, AddError(Value::String(acc), x));
    }
  }
  if (!ctx.Charge(acc.size() - charged)) return false;
  return Ok(out, Value::String(std::move(acc)));
}

constexpr NativeSpec kNatives[] = {
    {"utf8bytelength", 0, Utf8ByteLength},
    {"tojson", 0, ToJson},
    {"tostring", 0, ToString},
    {"tonumber", 0, ToNumber},
    {"toboolean", 0, ToBoolean},
    {"fromjson", 0, FromJson},
    {"ascii_downcase", 0, AsciiDowncase},
    {"ascii_upcase", 0, AsciiUpcase},
    {"startswith", 1, StartsWith},
    {"endswith", 1, EndsWith},
    {"ltrimstr", 1, LtrimStr},
    {"rtrimstr", 1, RtrimStr},
    {"trimstr", 1, TrimStr},
    {"ltrim", 0, Ltrim},
    {"rtrim", 0, Rtrim},
    {"trim", 0, Trim},
    {"explode", 0, Explode},
    {"implode", 0, Implode},
    {"split", 1, Split},
    {"join", 1, Join},
};

}  // namespace

std::span<const NativeSpec> StringNatives() { return kNatives; }

}  // namespace wmap::jq::builtins
