// Natives over arrays and objects: length, keys, has, contains, add, sorting and grouping,
// flatten, indices, transpose, bsearch, entries.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "jq/builtins/common.h"
#include "jq/builtins/registry.h"
#include "jq/eval/value_ops.h"
#include "wmap/text.h"

namespace wmap::jq::builtins {
namespace {

using Args = std::span<const Value>;

// The elements of an array, or the values of an object in key order. False for other kinds.
bool ValuesOf(const Value& v, std::vector<Value>* out) {
  if (v.is_array()) {
    out->assign(v.items().begin(), v.items().end());
    return true;
  }
  if (v.is_object()) {
    out->clear();
    out->reserve(v.size());
    for (const Member* m : v.sorted_members()) out->push_back(m->value);
    return true;
  }
  return false;
}

// gojq's absolute value of a number (length and abs): a number literal loses its minus sign and
// keeps its text otherwise; the int64 minimum becomes a big integer.
Value AbsoluteNumber(const Value& v) {
  if (v.is_integer()) return v.as_int() >= 0 ? v : eval::NegateNumber(v);
  if (v.is_big_integer()) return v.as_big().negative() ? eval::NegateNumber(v) : v;
  if (v.is_number_literal()) return v.literal_text().starts_with('-') ? eval::NegateNumber(v) : v;
  double d = v.as_double();
  return std::signbit(d) ? Value::Number(-d) : v;
}

bool Length(const NativeContext&, const Value& in, Args, Value* out) {
  switch (in.type()) {
    case Type::kNull:
      return Ok(out, Value::Int(0));
    case Type::kNumber:
      return Ok(out, AbsoluteNumber(in));
    case Type::kString:
      return Ok(out, Value::Int(static_cast<int64_t>(text::CodePointCount(in.as_string()))));
    case Type::kArray:
    case Type::kObject:
      return Ok(out, Value::Int(static_cast<int64_t>(in.size())));
    default:
      return Fail(out, FuncTypeError("length", in));
  }
}

bool Abs(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_number()) return Fail(out, FuncTypeError("abs", in));
  return Ok(out, AbsoluteNumber(in));
}

bool TypeOf(const NativeContext&, const Value& in, Args, Value* out) {
  return Ok(out, Value::String(TypeName(in.type())));
}

bool ToArray(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_array()) return Ok(out, in);
  return Ok(out, Value::Array({in}));
}

bool Keys(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_array()) {
    Value r = Value::EmptyArray(in.size());
    auto& items = r.mutable_items();
    for (size_t i = 0; i < in.size(); ++i) items.push_back(Value::Int(static_cast<int64_t>(i)));
    return Ok(out, std::move(r));
  }
  if (in.is_object()) {
    Value r = Value::EmptyArray(in.size());
    auto& items = r.mutable_items();
    for (const Member* m : in.sorted_members()) items.push_back(m->key);
    return Ok(out, std::move(r));
  }
  return Fail(out, FuncTypeError("keys", in));
}

bool KeysUnsorted(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (in.is_object()) {
    Value r = Value::EmptyArray(in.size());
    auto& items = r.mutable_items();
    for (const Member& m : in.members()) items.push_back(m.key);
    return Ok(out, std::move(r));
  }
  if (in.is_array()) return Keys(ctx, in, args, out);
  return Fail(out, FuncTypeError("keys_unsorted", in));
}

bool Has(const NativeContext&, const Value& in, Args args, Value* out) {
  const Value& key = args[0];
  if (in.is_array() && key.is_number()) {
    int64_t i = ClampToInt(key);
    return Ok(out, Value::Bool(i >= 0 && static_cast<uint64_t>(i) < in.size()));
  }
  if (in.is_object() && key.is_string()) {
    return Ok(out, Value::Bool(in.find(key.as_string()) != nullptr));
  }
  if (in.is_null()) return Ok(out, Value::Bool(false));
  return Fail(out, FuncArgsTypeError("has", args, in));
}

// Nesting deeper than this is refused rather than recursed into (the native stack is finite).
constexpr int kMaxContainsDepth = 10000;

// jq's containment. Returns 1 (contains), 0 (does not), -1 (type error at the top level) or -2
// (nesting too deep). Errors below the top level count as "does not contain", as in gojq.
int ContainsImpl(const Value& l, const Value& r, int depth) {
  if (l.type() != r.type()) return -1;
  if (l.is_bool() && l.as_bool() != r.as_bool()) return -1;
  if (depth > kMaxContainsDepth) return -2;
  switch (l.type()) {
    case Type::kNull:
    case Type::kBoolean:
      return 1;
    case Type::kNumber:
      return Compare(l, r) == 0 ? 1 : 0;
    case Type::kString:
      return l.as_string().find(r.as_string()) != std::string_view::npos ? 1 : 0;
    case Type::kArray:
      for (const Value& want : r.items()) {
        bool found = false;
        for (const Value& have : l.items()) {
          int c = ContainsImpl(have, want, depth + 1);
          if (c == -2) return -2;
          if (c == 1) {
            found = true;
            break;
          }
        }
        if (!found) return 0;
      }
      return 1;
    case Type::kObject:
      if (l.size() < r.size()) return 0;
      for (const Member& m : r.members()) {
        const Value* have = l.find(m.key.as_string());
        if (have == nullptr) return 0;
        int c = ContainsImpl(*have, m.value, depth + 1);
        if (c == -2) return -2;
        if (c != 1) return 0;
      }
      return 1;
  }
  return 0;
}

bool Contains(const NativeContext&, const Value& in, Args args, Value* out) {
  int c = ContainsImpl(in, args[0], 0);
  if (c == -2)
    return Fail(out, FuncArgsWrapError("contains", args, in, "containment check too deep"));
  if (c < 0) return Fail(out, FuncArgsTypeError("contains", args, in));
  return Ok(out, Value::Bool(c == 1));
}

// Appends to *out the start offsets (in elements) of every occurrence of `needle` in `hay`.
void ArrayIndices(std::span<const Value> hay, std::span<const Value> needle, size_t limit_first,
                  bool reverse, std::vector<int64_t>* out) {
  if (needle.empty() || needle.size() > hay.size()) return;
  size_t last = hay.size() - needle.size();
  auto matches = [&](size_t i) {
    for (size_t k = 0; k < needle.size(); ++k) {
      if (Compare(hay[i + k], needle[k]) != 0) return false;
    }
    return true;
  };
  if (reverse) {
    for (size_t i = last + 1; i-- > 0;) {
      if (matches(i)) {
        out->push_back(static_cast<int64_t>(i));
        if (out->size() >= limit_first) return;
      }
    }
  } else {
    for (size_t i = 0; i <= last; ++i) {
      if (matches(i)) {
        out->push_back(static_cast<int64_t>(i));
        if (out->size() >= limit_first) return;
      }
    }
  }
}

// Code point offsets of every (overlapping) occurrence of `needle` in `hay`.
void StringIndices(std::string_view hay, std::string_view needle, std::vector<int64_t>* out) {
  if (needle.empty()) return;
  size_t cp = 0;   // code points before byte `pos`
  size_t pos = 0;  // a code point boundary
  size_t found = hay.find(needle);
  while (found != std::string_view::npos) {
    while (pos < found) {
      text::DecodeUtf8(hay, &pos);
      ++cp;
    }
    if (pos == found) out->push_back(static_cast<int64_t>(cp));
    found = hay.find(needle, found + 1);
  }
}

enum class IndexMode { kAll, kFirst, kLast };

bool IndexCommon(std::string_view name, IndexMode mode, const Value& in, Args args, Value* out) {
  const Value& x = args[0];
  std::vector<int64_t> found;
  if (in.is_null()) return Ok(out, Value());
  if (in.is_array()) {
    std::span<const Value> needle = x.is_array() ? x.items() : std::span<const Value>(&x, 1);
    size_t limit = mode == IndexMode::kAll ? SIZE_MAX : 1;
    ArrayIndices(in.items(), needle, limit, mode == IndexMode::kLast, &found);
  } else if (in.is_string() && x.is_string()) {
    StringIndices(in.as_string(), x.as_string(), &found);
    // Only the first or last index matters for kFirst and kLast; swapping instead of resizing
    // keeps GCC 12's -Warray-bounds quiet at -O3.
    if (mode == IndexMode::kLast && found.size() > 1) std::swap(found.front(), found.back());
  } else {
    return Fail(out, FuncArgsTypeError(name, args, in));
  }
  if (mode != IndexMode::kAll) {
    return Ok(out, found.empty() ? Value() : Value::Int(found[0]));
  }
  Value r = Value::EmptyArray(found.size());
  auto& items = r.mutable_items();
  for (int64_t i : found) items.push_back(Value::Int(i));
  return Ok(out, std::move(r));
}

bool Indices(const NativeContext&, const Value& in, Args args, Value* out) {
  return IndexCommon("indices", IndexMode::kAll, in, args, out);
}
bool Index(const NativeContext&, const Value& in, Args args, Value* out) {
  return IndexCommon("index", IndexMode::kFirst, in, args, out);
}
bool Rindex(const NativeContext&, const Value& in, Args args, Value* out) {
  return IndexCommon("rindex", IndexMode::kLast, in, args, out);
}

// Sums values with jq's `+`, skipping nulls; strings and containers are accumulated in place so
// the whole sum is linear in the size of the result.
// Each value added is charged (its string bytes or element count) before it is appended.
bool SumValues(const NativeContext& ctx, std::span<const Value> values, Value* out) {
  Value acc;
  std::string text;
  bool text_pending = false;
  for (const Value& x : values) {
    if (x.is_null()) continue;
    size_t cost = x.is_string()
                      ? x.as_string().size()
                      : (x.is_array() || x.is_object() ? x.size() * 2 * sizeof(Value) : 0);
    if (cost > 0 && !ctx.Charge(cost)) return false;
    if (x.is_string() && (text_pending || acc.is_null())) {
      text.append(x.as_string());
      text_pending = true;
      continue;
    }
    if (text_pending) {
      acc = Value::String(std::move(text));
      text.clear();
      text_pending = false;
    }
    if (x.is_array() && (acc.is_null() || acc.is_array())) {
      if (acc.is_null()) acc = Value::EmptyArray(x.size());
      auto& items = acc.mutable_items();
      items.insert(items.end(), x.items().begin(), x.items().end());
      continue;
    }
    if (x.is_object() && (acc.is_null() || acc.is_object())) {
      if (acc.is_null()) {
        acc = x;
      } else {
        for (const Member& m : x.members()) acc.set(m.key.as_string(), m.value);
      }
      continue;
    }
    Value sum;
    if (!AddValues(acc, x, &sum)) {
      *out = std::move(sum);
      return false;
    }
    acc = std::move(sum);
  }
  if (text_pending) acc = Value::String(std::move(text));
  return Ok(out, std::move(acc));
}

bool Add(const NativeContext& ctx, const Value& in, Args, Value* out) {
  std::vector<Value> values;
  if (!ValuesOf(in, &values)) return Fail(out, FuncTypeError("add", in));
  Value result;
  if (!SumValues(ctx, values, &result)) {
    *out = std::move(result);
    return false;
  }
  return Ok(out, std::move(result));
}

bool Reverse(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_array()) {
    std::vector<Value> items(in.items().rbegin(), in.items().rend());
    return Ok(out, Value::Array(std::move(items)));
  }
  if (in.is_string()) {
    std::string_view s = in.as_string();
    std::vector<std::pair<size_t, size_t>> runes;
    size_t i = 0;
    while (i < s.size()) {
      size_t start = i;
      text::DecodeUtf8(s, &i);
      runes.emplace_back(start, i - start);
    }
    std::string r;
    r.reserve(s.size());
    for (auto it = runes.rbegin(); it != runes.rend(); ++it)
      r.append(s.substr(it->first, it->second));
    return Ok(out, Value::String(std::move(r)));
  }
  if (in.is_null()) return Ok(out, Value::EmptyArray());
  return Fail(out, FuncTypeError("reverse", in));
}

bool Flatten(const NativeContext&, const Value& in, Args args, Value* out) {
  std::vector<Value> values;
  if (!ValuesOf(in, &values)) return Fail(out, FuncTypeError("flatten", in));
  double depth = -1;
  if (!args.empty()) {
    if (!args[0].is_number()) return Fail(out, FuncTypeError("flatten", args[0]));
    depth = args[0].as_double();
    if (!(depth >= 0)) {
      return Fail(out, "flatten depth should not be negative: " + Preview(args[0]));
    }
  }
  // Iterative depth-first walk: a stack of (array, next index, remaining depth).
  struct Frame {
    std::span<const Value> items;
    size_t next;
    double depth;
  };
  Value result = Value::EmptyArray(values.size());
  auto& items = result.mutable_items();
  std::vector<Frame> stack;
  stack.push_back({values, 0, depth});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next == f.items.size()) {
      stack.pop_back();
      continue;
    }
    const Value& v = f.items[f.next++];
    if (v.is_array() && f.depth != 0) {
      stack.push_back({v.items(), 0, f.depth - 1});
    } else {
      items.push_back(v);
    }
  }
  return Ok(out, std::move(result));
}

// Min or max of `values` keyed by `keys`: the first minimum, the last maximum (gojq).
Value MinMaxBy(std::span<const Value> values, std::span<const Value> keys, bool is_min) {
  if (values.empty()) return Value();
  size_t best = 0;
  for (size_t i = 1; i < keys.size(); ++i) {
    bool greater = Compare(keys[best], keys[i]) > 0;
    if (greater == is_min) best = i;
  }
  return values[best];
}

bool Min(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("min", in));
  return Ok(out, MinMaxBy(in.items(), in.items(), true));
}
bool Max(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("max", in));
  return Ok(out, MinMaxBy(in.items(), in.items(), false));
}

// Checks the (input, keys) pair of the `_xxx_by` helpers. The public name is used in errors.
bool CheckKeyed(std::string_view name, const Value& in, Args args, Value* out) {
  // gojq names only the filter, not the internal key array, in this message.
  if (!in.is_array() || !args[0].is_array()) return Fail(out, FuncTypeError(name, in));
  if (in.size() != args[0].size()) {
    return Fail(out, FuncArgsWrapError(name, args, in, "length mismatch"));
  }
  return true;
}

bool MinBy(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!CheckKeyed("min_by", in, args, out)) return false;
  return Ok(out, MinMaxBy(in.items(), args[0].items(), true));
}
bool MaxBy(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!CheckKeyed("max_by", in, args, out)) return false;
  return Ok(out, MinMaxBy(in.items(), args[0].items(), false));
}

// Sorting n keys is charged as n log n units of work before it starts (false once a budget is
// spent); comparing deep keys costs more, but each comparison is bounded by the keys' size.
bool ChargeSort(const NativeContext& ctx, size_t n) {
  size_t log = 1;
  while ((size_t{1} << log) < n && log < 63) ++log;
  return ctx.Work(n * log);
}

// Indices of `keys` in stable sorted order.
std::vector<size_t> SortedOrder(std::span<const Value> keys) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return Compare(keys[a], keys[b]) < 0; });
  return order;
}

Value Permute(std::span<const Value> values, const std::vector<size_t>& order) {
  Value r = Value::EmptyArray(order.size());
  auto& items = r.mutable_items();
  for (size_t i : order) items.push_back(values[i]);
  return r;
}

bool Sort(const NativeContext& ctx, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("sort", in));
  if (!ChargeSort(ctx, in.size())) return false;
  return Ok(out, Permute(in.items(), SortedOrder(in.items())));
}
bool SortBy(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (!CheckKeyed("sort_by", in, args, out)) return false;
  if (!ChargeSort(ctx, in.size())) return false;
  return Ok(out, Permute(in.items(), SortedOrder(args[0].items())));
}

Value Groups(std::span<const Value> values, std::span<const Value> keys) {
  std::vector<size_t> order = SortedOrder(keys);
  Value r = Value::EmptyArray();
  auto& groups = r.mutable_items();
  const Value* last = nullptr;
  for (size_t i : order) {
    if (last == nullptr || Compare(*last, keys[i]) != 0) {
      groups.push_back(Value::EmptyArray());
      last = &keys[i];
    }
    groups.back().push_back(values[i]);
  }
  return r;
}

bool GroupBy(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (!CheckKeyed("group_by", in, args, out)) return false;
  if (!ChargeSort(ctx, in.size())) return false;
  return Ok(out, Groups(in.items(), args[0].items()));
}

Value Uniques(std::span<const Value> values, std::span<const Value> keys) {
  std::vector<size_t> order = SortedOrder(keys);
  Value r = Value::EmptyArray();
  auto& items = r.mutable_items();
  const Value* last = nullptr;
  for (size_t i : order) {
    if (last == nullptr || Compare(*last, keys[i]) != 0) {
      items.push_back(values[i]);
      last = &keys[i];
    }
  }
  return r;
}

bool Unique(const NativeContext& ctx, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("unique", in));
  if (!ChargeSort(ctx, in.size())) return false;
  return Ok(out, Uniques(in.items(), in.items()));
}
bool UniqueBy(const NativeContext& ctx, const Value& in, Args args, Value* out) {
  if (!CheckKeyed("unique_by", in, args, out)) return false;
  if (!ChargeSort(ctx, in.size())) return false;
  return Ok(out, Uniques(in.items(), args[0].items()));
}

bool Transpose(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("transpose", in));
  size_t width = 0;
  for (const Value& row : in.items()) {
    if (!row.is_array()) return Fail(out, FuncTypeError("transpose", in));
    width = std::max(width, row.size());
  }
  Value r = Value::EmptyArray(width);
  auto& cols = r.mutable_items();
  for (size_t j = 0; j < width; ++j) {
    Value col = Value::EmptyArray(in.size());
    auto& cells = col.mutable_items();
    for (const Value& row : in.items()) cells.push_back(j < row.size() ? row[j] : Value());
    cols.push_back(std::move(col));
  }
  return Ok(out, std::move(r));
}

bool Bsearch(const NativeContext&, const Value& in, Args args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncArgsTypeError("bsearch", args, in));
  auto items = in.items();
  size_t lo = 0;
  size_t hi = items.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (Compare(items[mid], args[0]) >= 0) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  if (lo < items.size() && Compare(items[lo], args[0]) == 0) {
    return Ok(out, Value::Int(static_cast<int64_t>(lo)));
  }
  return Ok(out, Value::Int(-static_cast<int64_t>(lo) - 1));
}

Value Entry(Value key, Value value) {
  Value e = Value::EmptyObject(2);
  e.set("key", std::move(key));
  e.set("value", std::move(value));
  return e;
}

bool ToEntries(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_array()) {
    Value r = Value::EmptyArray(in.size());
    auto& items = r.mutable_items();
    for (size_t i = 0; i < in.size(); ++i) {
      items.push_back(Entry(Value::Int(static_cast<int64_t>(i)), in[i]));
    }
    return Ok(out, std::move(r));
  }
  if (in.is_object()) {
    Value r = Value::EmptyArray(in.size());
    auto& items = r.mutable_items();
    for (const Member* m : in.sorted_members()) items.push_back(Entry(m->key, m->value));
    return Ok(out, std::move(r));
  }
  return Fail(out, FuncTypeError("to_entries", in));
}

bool FromEntries(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_array()) return Fail(out, FuncTypeError("from_entries", in));
  static constexpr std::string_view kKeyNames[] = {"key", "Key", "name", "Name", "k", "K"};
  static constexpr std::string_view kValueNames[] = {"value", "Value", "v", "V"};
  Value r = Value::EmptyObject(in.size());
  for (const Value& e : in.items()) {
    if (!e.is_object()) return Fail(out, FuncTypeError("from_entries", e));
    const Value* key = nullptr;
    for (std::string_view name : kKeyNames) {
      const Value* k = e.find(name);
      if (k != nullptr && k->truthy()) {
        key = k;
        break;
      }
    }
    if (key == nullptr || !key->is_string()) {
      return Fail(out, "expected a string for object key but got: " +
                           TypePreview(key == nullptr ? Value() : *key));
    }
    Value value;
    for (std::string_view name : kValueNames) {
      if (const Value* v = e.find(name)) {
        value = *v;
        break;
      }
    }
    r.set(key->as_string(), std::move(value));
  }
  return Ok(out, std::move(r));
}

constexpr NativeSpec kNatives[] = {
    {"length", 0, Length},
    {"abs", 0, Abs},
    {"type", 0, TypeOf},
    {"toarray", 0, ToArray},
    {"keys", 0, Keys},
    {"keys_unsorted", 0, KeysUnsorted},
    {"has", 1, Has},
    {"contains", 1, Contains},
    {"indices", 1, Indices},
    {"index", 1, Index},
    {"rindex", 1, Rindex},
    {"add", 0, Add},
    {"reverse", 0, Reverse},
    {"flatten", 0, Flatten},
    {"flatten", 1, Flatten},
    {"min", 0, Min},
    {"max", 0, Max},
    {"_min_by", 1, MinBy},
    {"_max_by", 1, MaxBy},
    {"sort", 0, Sort},
    {"_sort_by", 1, SortBy},
    {"_group_by", 1, GroupBy},
    {"unique", 0, Unique},
    {"_unique_by", 1, UniqueBy},
    {"transpose", 0, Transpose},
    {"bsearch", 1, Bsearch},
    {"to_entries", 0, ToEntries},
    {"from_entries", 0, FromEntries},
};

}  // namespace

std::span<const NativeSpec> CollectionNatives() { return kNatives; }

}  // namespace wmap::jq::builtins
