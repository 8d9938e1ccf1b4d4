#include "jq/eval/value_ops.h"

#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "jq/eval/preview.h"
#include "wmap/json.h"

namespace wmap::jq::eval {
namespace {

constexpr double kTwo63 = 9223372036854775808.0;

std::string ExpectedObject(const Value& v) {
  return "expected an object but got: " + TypeErrorPreview(v);
}
std::string ExpectedArray(const Value& v) {
  return "expected an array but got: " + TypeErrorPreview(v);
}

// Byte offset of the codepoint with index `n` in s (s.size() when n is past the end).
size_t CodepointOffset(std::string_view s, int64_t n) {
  size_t i = 0;
  while (i < s.size() && n > 0) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    --n;
  }
  return i;
}

int64_t CodepointCount(std::string_view s) {
  int64_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

Value Indices(const Value& v, const Value& x) {
  Value result = Value::EmptyArray();
  std::span<const Value> hay = v.items();
  std::span<const Value> needle = x.items();
  if (needle.empty() || needle.size() > hay.size()) return result;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    bool match = true;
    for (size_t j = 0; j < needle.size(); ++j) {
      if (Compare(hay[i + j], needle[j]) != 0) {
        match = false;
        break;
      }
    }
    if (match) result.push_back(Value::Int(static_cast<int64_t>(i)));
  }
  return result;
}

bool IsNumberKey(const Value& v) { return v.is_number(); }

// The clamped [start, end) of slicing a sequence of `len` elements (`what`: "an array" or "a
// string") with from and to (null: open); false with the error when an index is not a number.
bool SliceBounds(const Value& from, const Value& to, int64_t len, std::string_view what,
                 int64_t* start, int64_t* end, std::string* error) {
  for (const Value* index : {&from, &to}) {
    if (!index->is_null() && !IsNumberKey(*index)) {
      *error = "expected a number for indexing " + std::string(what) +
               " but got: " + TypeErrorPreview(*index);
      return false;
    }
  }
  *start = from.is_null() ? 0 : ClampIndex(SliceStart(from), 0, len);
  *end = to.is_null() ? len : ClampIndex(SliceEnd(to), *start, len);
  return true;
}

bool SliceArray(const Value& v, const Value& from, const Value& to, Value* out,
                std::string* error) {
  int64_t len = static_cast<int64_t>(v.size());
  int64_t start, end;
  if (!SliceBounds(from, to, len, "an array", &start, &end, error)) return false;
  if (start == 0 && end == len) {
    *out = v;
    return true;
  }
  std::span<const Value> items = v.items();
  *out = Value::Array(std::vector<Value>(items.begin() + start, items.begin() + end));
  return true;
}

bool SliceString(const Value& v, const Value& from, const Value& to, Value* out,
                 std::string* error) {
  std::string_view s = v.as_string();
  int64_t start, end;
  if (!SliceBounds(from, to, CodepointCount(s), "a string", &start, &end, error)) return false;
  size_t b = CodepointOffset(s, start);
  size_t e = CodepointOffset(s, end);
  *out = Value::String(s.substr(b, e - b));
  return true;
}

// Go's int % with truncated division; x % -1 is 0 without overflow.
int64_t TruncMod(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

std::string BinopError(std::string_view name, const Value& l, const Value& r) {
  std::string s = "cannot ";
  s.append(name);
  s.append(": ");
  s.append(TypeErrorPreview(l));
  s.append(" and ");
  s.append(TypeErrorPreview(r));
  return s;
}

Value DeepMerge(const Value& l, const Value& r) {
  Value result = l;
  for (const Member& m : r.members()) {
    const Value* existing = result.find(m.key.as_string());
    if (existing != nullptr && existing->is_object() && m.value.is_object()) {
      Value merged = DeepMerge(*existing, m.value);
      result.set(m.key.as_string(), std::move(merged));
    } else {
      result.set(m.key.as_string(), m.value);
    }
  }
  return result;
}

bool RepeatString(const Value& s, const Value& n, Value* out, std::string* error) {
  double count = n.as_double();
  if (std::isnan(count) || count < 0) {
    *out = Value();
    return true;
  }
  std::string_view text = s.as_string();
  double times = std::floor(count);
  if (!text.empty() && times * static_cast<double>(text.size()) >= 0x10000000) {
    std::string num;
    json::FormatNumber(n, &num);
    *error = "repeat string result too large: " + Preview(s) + " * " + num;
    return false;
  }
  std::string result;
  if (!text.empty()) {
    size_t k = static_cast<size_t>(times);
    result.reserve(text.size() * k);
    for (size_t i = 0; i < k; ++i) result.append(text);
  }
  *out = Value::String(std::move(result));
  return true;
}

// Operands of number arithmetic, without source text. `exact` when neither is a double: the
// operation is then done on integers (promoting to big integers as needed).
struct NumberOperands {
  const Value& a;
  const Value& b;
  bool exact;
};

NumberOperands Numbers(const Value& l, const Value& r) {
  const Value& a = l.plain_number();
  const Value& b = r.plain_number();
  bool exact = (a.is_integer() || a.is_big_integer()) && (b.is_integer() || b.is_big_integer());
  return {a, b, exact};
}

BigInt ToBig(const Value& integer) {
  return integer.is_integer() ? BigInt::FromInt64(integer.as_int()) : integer.as_big();
}

bool IsZero(const Value& integer) {
  return integer.is_integer() ? integer.as_int() == 0 : integer.as_big().is_zero();
}

// Numbers combined by +, - or *: int64 operands stay exact (overflowing into a big integer),
// exact operands (big integers, integral literals) combine exactly, the rest as doubles.
// Returns false when l and r are not both numbers (nothing is written then).
template <typename Overflows, typename Exact, typename Inexact>
bool CombineNumbers(const Value& l, const Value& r, Value* out, Overflows overflows, Exact exact,
                    Inexact inexact) {
  if (l.is_integer() && r.is_integer()) {
    int64_t v;
    *out = !overflows(l.as_int(), r.as_int(), &v)
               ? Value::Int(v)
               : Value::Big(exact(BigInt::FromInt64(l.as_int()), BigInt::FromInt64(r.as_int())));
    return true;
  }
  if (!l.is_number() || !r.is_number()) return false;
  NumberOperands n = Numbers(l, r);
  *out = n.exact ? Value::Big(exact(ToBig(n.a), ToBig(n.b)))
                 : NumberValue(inexact(n.a.as_double(), n.b.as_double()));
  return true;
}

bool Add(const Value& l, const Value& r, Value* out, std::string* error) {
  if (CombineNumbers(
          l, r, out,
          [](int64_t a, int64_t b, int64_t* v) { return __builtin_add_overflow(a, b, v); },
          [](const BigInt& a, const BigInt& b) { return a + b; },
          [](double a, double b) { return a + b; })) {
    return true;
  }
  Type lt = l.type(), rt = r.type();
  // null is the identity; a number literal added to it loses its text, as in gojq.
  if (lt == Type::kNull) {
    *out = r.plain_number();
    return true;
  }
  if (rt == Type::kNull) {
    *out = l.plain_number();
    return true;
  }
  if (lt == Type::kString && rt == Type::kString) {
    std::string s;
    s.reserve(l.as_string().size() + r.as_string().size());
    s.append(l.as_string());
    s.append(r.as_string());
    *out = Value::String(std::move(s));
    return true;
  }
  if (lt == Type::kArray && rt == Type::kArray) {
    if (l.size() == 0) {
      *out = r;
    } else if (r.size() == 0) {
      *out = l;
    } else {
      Value result = l;
      std::vector<Value>& items = result.mutable_items();
      items.insert(items.end(), r.items().begin(), r.items().end());
      *out = std::move(result);
    }
    return true;
  }
  if (lt == Type::kObject && rt == Type::kObject) {
    if (l.size() == 0) {
      *out = r;
    } else if (r.size() == 0) {
      *out = l;
    } else {
      Value result = l;
      for (const Member& m : r.members()) result.set(m.key.as_string(), m.value);
      *out = std::move(result);
    }
    return true;
  }
  *error = BinopError("add", l, r);
  return false;
}

bool Subtract(const Value& l, const Value& r, Value* out, std::string* error) {
  if (CombineNumbers(
          l, r, out,
          [](int64_t a, int64_t b, int64_t* v) { return __builtin_sub_overflow(a, b, v); },
          [](const BigInt& a, const BigInt& b) { return a - b; },
          [](double a, double b) { return a - b; })) {
    return true;
  }
  if (l.is_array() && r.is_array()) {
    std::vector<Value> items;
    items.reserve(l.size());
    for (const Value& x : l.items()) {
      bool found = false;
      for (const Value& y : r.items()) {
        if (Compare(x, y) == 0) {
          found = true;
          break;
        }
      }
      if (!found) items.push_back(x);
    }
    *out = Value::Array(std::move(items));
    return true;
  }
  *error = BinopError("subtract", l, r);
  return false;
}

bool Multiply(const Value& l, const Value& r, Value* out, std::string* error) {
  if (CombineNumbers(
          l, r, out,
          [](int64_t a, int64_t b, int64_t* v) { return __builtin_mul_overflow(a, b, v); },
          [](const BigInt& a, const BigInt& b) { return a * b; },
          [](double a, double b) { return a * b; })) {
    return true;
  }
  if (l.is_object() && r.is_object()) {
    *out = DeepMerge(l, r);
    return true;
  }
  if (l.is_string() && r.is_number()) return RepeatString(l, r, out, error);
  if (r.is_string() && l.is_number()) return RepeatString(r, l, out, error);
  *error = BinopError("multiply", l, r);
  return false;
}

std::string ZeroError(std::string_view verb, const Value& l, const Value& r) {
  std::string s = "cannot ";
  s.append(verb);
  s.push_back(' ');
  s.append(TypeErrorPreview(l));
  s.append(" by: ");
  s.append(TypeErrorPreview(r));
  return s;
}

bool Divide(const Value& l, const Value& r, Value* out, std::string* error) {
  if (l.is_integer() && r.is_integer()) {
    int64_t a = l.as_int(), b = r.as_int();
    if (b == 0) {
      *error = ZeroError("divide", l, r);
      return false;
    }
    if (b == -1) {
      *out = NegateNumber(l);
    } else if (a % b == 0) {
      *out = Value::Int(a / b);
    } else {
      *out = NumberValue(static_cast<double>(a) / static_cast<double>(b));
    }
    return true;
  }
  if (l.is_number() && r.is_number()) {
    NumberOperands n = Numbers(l, r);
    if (n.exact) {
      // Exact when divisible (gojq's big.Int division); otherwise the quotient of the doubles.
      if (IsZero(n.b)) {
        *error = ZeroError("divide", l, r);
        return false;
      }
      BigInt q, rem;
      BigInt::DivMod(ToBig(n.a), ToBig(n.b), &q, &rem);
      *out = rem.is_zero() ? Value::Big(q) : NumberValue(n.a.as_double() / n.b.as_double());
      return true;
    }
    if (r.as_double() == 0.0) {
      *error = ZeroError("divide", l, r);
      return false;
    }
    *out = NumberValue(l.as_double() / r.as_double());
    return true;
  }
  if (l.is_string() && r.is_string()) {
    std::string_view s = l.as_string(), sep = r.as_string();
    Value result = Value::EmptyArray();
    if (s.empty()) {
      *out = std::move(result);
      return true;
    }
    if (sep.empty()) {
      // Go's strings.Split with an empty separator splits into UTF-8 sequences.
      size_t i = 0;
      while (i < s.size()) {
        size_t j = i + 1;
        while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) ++j;
        result.push_back(Value::String(s.substr(i, j - i)));
        i = j;
      }
    } else {
      size_t start = 0;
      while (true) {
        size_t pos = s.find(sep, start);
        if (pos == std::string_view::npos) {
          result.push_back(Value::String(s.substr(start)));
          break;
        }
        result.push_back(Value::String(s.substr(start, pos - start)));
        start = pos + sep.size();
      }
    }
    *out = std::move(result);
    return true;
  }
  *error = BinopError("divide", l, r);
  return false;
}

bool Modulo(const Value& l, const Value& r, Value* out, std::string* error) {
  if (l.is_integer() && r.is_integer()) {
    if (r.as_int() == 0) {
      *error = ZeroError("modulo", l, r);
      return false;
    }
    *out = Value::Int(TruncMod(l.as_int(), r.as_int()));
    return true;
  }
  if (l.is_number() && r.is_number()) {
    NumberOperands n = Numbers(l, r);
    if (n.exact) {
      if (IsZero(n.b)) {
        *error = ZeroError("modulo", l, r);
        return false;
      }
      BigInt rem;
      BigInt::DivMod(ToBig(n.a), ToBig(n.b), nullptr, &rem);
      *out = Value::Big(rem);
      return true;
    }
    double a = l.as_double(), b = r.as_double();
    if (std::isnan(a) || std::isnan(b)) {
      *out = Value::Double(std::nan(""));
      return true;
    }
    int64_t bi = ToIndex(r);
    if (bi == 0) {
      *error = ZeroError("modulo", l, r);
      return false;
    }
    *out = Value::Int(TruncMod(ToIndex(l), bi));
    return true;
  }
  *error = BinopError("modulo", l, r);
  return false;
}

}  // namespace

Value NumberValue(double d) {
  // Up to 2^53 the integer prints as the double does; beyond, a double prints its shortest
  // digits (gojq's float formatting), which an int64 would not.
  constexpr double kTwo53 = 9007199254740992.0;
  if (d >= -kTwo53 && d <= kTwo53 && d == std::trunc(d) && !(d == 0 && std::signbit(d))) {
    return Value::Int(static_cast<int64_t>(d));
  }
  return Value::Double(d);
}

int64_t ToIndex(const Value& number) {
  if (number.is_integer()) return number.as_int();
  double d = number.as_double();
  if (std::isnan(d)) return std::numeric_limits<int64_t>::min();
  if (d >= kTwo63) return std::numeric_limits<int64_t>::max();
  if (d < -kTwo63) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

int64_t SliceStart(const Value& number) {
  if (number.is_integer()) return number.as_int();
  double d = number.as_double();
  if (std::isnan(d)) return 0;
  return ToIndex(Value::Double(std::floor(d)));
}

int64_t SliceEnd(const Value& number) {
  if (number.is_integer()) return number.as_int();
  double d = number.as_double();
  if (std::isnan(d)) return std::numeric_limits<int64_t>::max();
  return ToIndex(Value::Double(std::ceil(d)));
}

int64_t ClampIndex(int64_t i, int64_t min, int64_t max) {
  if (i < 0) i = (i < std::numeric_limits<int64_t>::min() + max) ? min : i + max;
  if (i < min) return min;
  if (i < max) return i;
  return max;
}

bool IndexField(const Value& v, std::string_view name, Value* out, std::string* error) {
  if (v.is_object()) {
    const Value* found = v.find(name);
    *out = found ? *found : Value();
    return true;
  }
  if (v.is_null()) {
    *out = Value();
    return true;
  }
  *error = ExpectedObject(v);
  return false;
}

bool IndexValue(const Value& v, const Value& key, Value* out, std::string* error) {
  switch (key.type()) {
    case Type::kString:
      return IndexField(v, key.as_string(), out, error);
    case Type::kNumber: {
      if (v.is_null()) {
        *out = Value();
        return true;
      }
      int64_t i = ToIndex(key);
      if (v.is_array()) {
        int64_t len = static_cast<int64_t>(v.size());
        int64_t j = ClampIndex(i, -1, len);
        *out = (j >= 0 && j < len) ? v[static_cast<size_t>(j)] : Value();
        return true;
      }
      if (v.is_string()) {
        std::string_view s = v.as_string();
        int64_t len = CodepointCount(s);
        int64_t j = ClampIndex(i, -1, len);
        if (j >= 0 && j < len) {
          size_t b = CodepointOffset(s, j);
          size_t e = CodepointOffset(s, j + 1);
          *out = Value::String(s.substr(b, e - b));
        } else {
          *out = Value();
        }
        return true;
      }
      *error = ExpectedArray(v);
      return false;
    }
    case Type::kArray:
      if (v.is_null()) {
        *out = Value();
        return true;
      }
      if (v.is_array()) {
        *out = Indices(v, key);
        return true;
      }
      *error = ExpectedArray(v);
      return false;
    case Type::kObject: {
      if (v.is_null()) {
        *out = Value();
        return true;
      }
      const Value* start = key.find("start");
      const Value* end = key.find("end");
      if (start == nullptr || end == nullptr) {
        *error = "expected \"start\" and \"end\" for slicing but got: " + TypeErrorPreview(key);
        return false;
      }
      return SliceValue(v, *start, *end, out, error);
    }
    default:
      if (v.is_array()) {
        *error = "expected a number for indexing an array but got: " + TypeErrorPreview(key);
      } else if (v.is_string()) {
        *error = "expected a number for indexing a string but got: " + TypeErrorPreview(key);
      } else {
        *error = "expected a string for object key but got: " + TypeErrorPreview(key);
      }
      return false;
  }
}

bool SliceValue(const Value& v, const Value& from, const Value& to, Value* out,
                std::string* error) {
  switch (v.type()) {
    case Type::kNull:
      *out = Value();
      return true;
    case Type::kArray:
      return SliceArray(v, from, to, out, error);
    case Type::kString:
      return SliceString(v, from, to, out, error);
    default:
      *error = ExpectedArray(v);
      return false;
  }
}

std::string IterateError(const Value& v) { return "cannot iterate over: " + TypeErrorPreview(v); }

bool BinaryOperation(ast::BinaryOp op, const Value& l, const Value& r, Value* out,
                     std::string* error) {
  switch (op) {
    case ast::BinaryOp::kAdd:
      return Add(l, r, out, error);
    case ast::BinaryOp::kSub:
      return Subtract(l, r, out, error);
    case ast::BinaryOp::kMul:
      return Multiply(l, r, out, error);
    case ast::BinaryOp::kDiv:
      return Divide(l, r, out, error);
    case ast::BinaryOp::kMod:
      return Modulo(l, r, out, error);
    case ast::BinaryOp::kEq:
      *out = Value::Bool(Compare(l, r) == 0);
      return true;
    case ast::BinaryOp::kNe:
      *out = Value::Bool(Compare(l, r) != 0);
      return true;
    case ast::BinaryOp::kLt:
      *out = Value::Bool(Compare(l, r) < 0);
      return true;
    case ast::BinaryOp::kLe:
      *out = Value::Bool(Compare(l, r) <= 0);
      return true;
    case ast::BinaryOp::kGt:
      *out = Value::Bool(Compare(l, r) > 0);
      return true;
    case ast::BinaryOp::kGe:
      *out = Value::Bool(Compare(l, r) >= 0);
      return true;
    case ast::BinaryOp::kAnd:
    case ast::BinaryOp::kOr:
    case ast::BinaryOp::kAlt:
      break;
  }
  *error = "unsupported operator";
  return false;
}

Value NegateNumber(const Value& v) {
  if (v.is_integer()) {
    if (v.as_int() == std::numeric_limits<int64_t>::min()) {
      return Value::Big(-BigInt::FromInt64(v.as_int()));
    }
    return Value::Int(-v.as_int());
  }
  if (v.is_big_integer()) return Value::Big(-v.as_big());
  if (v.is_number_literal()) {
    // gojq negates the text: the literal stays as written, with the sign toggled.
    std::string_view text = v.literal_text();
    std::string negated =
        text.starts_with('-') ? std::string(text.substr(1)) : "-" + std::string(text);
    Value number = NegateNumber(v.plain_number());
    std::string printed;
    json::FormatNumber(number, &printed);
    if (printed == negated) return number;
    return Value::NumberLiteral(number, negated);
  }
  return Value::Double(-v.as_double());
}

bool Negate(const Value& v, Value* out, std::string* error) {
  if (v.is_number()) {
    *out = NegateNumber(v);
    return true;
  }
  *error = "cannot negate: " + TypeErrorPreview(v);
  return false;
}

}  // namespace wmap::jq::eval
