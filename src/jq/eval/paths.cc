#include "jq/eval/paths.h"

#include <vector>

#include "jq/eval/preview.h"
#include "jq/eval/value_ops.h"

namespace wmap::jq::eval {
namespace {

constexpr int64_t kMaxArrayIndex = 0x8000000;

// The placeholder for deleted elements while delpaths runs: a heap string compared by identity,
// so no user value can be mistaken for it.
const Value& Deleted() {
  static const Value* marker =
      new Value(Value::String(std::string("\x01wmap-deleted-path-marker\x01", 27)));
  return *marker;
}
bool IsDeleted(const Value& v) { return v.identical(Deleted()); }

// An error inside an update; `wrap` says whether the caller prefixes "setpath(...) cannot be
// applied to ...".
struct UpdateError {
  std::string message;
  bool wrap = true;
};

// Applies one path update in place. On an error the value is left as it was (every level checks
// before it changes anything, and undoes its own change when a deeper level fails), so messages
// can show the input.
class Updater {
 public:
  Updater(Runtime& rt, std::span<const Value> path, const Value& n, bool deleting)
      : rt_(rt), path_(path), n_(n), deleting_(deleting) {}

  // Returns kOk, kError with error() set, or a budget status.
  Status Update(Value& v, size_t i) {
    if (i == path_.size()) {
      v = deleting_ ? Deleted() : n_;
      return Status::kOk;
    }
    CallScope scope(rt_);
    if (scope.status() != Status::kOk) return scope.status();
    const Value& key = path_[i];
    if (IsDeleted(v)) return Status::kOk;
    switch (key.type()) {
      case Type::kString:
        if (!v.is_null() && !v.is_object()) {
          return Fail("expected an object but got: " + TypeErrorPreview(v));
        }
        return UpdateObject(v, key, i);
      case Type::kNumber:
        if (!v.is_null() && !v.is_array()) {
          return Fail("expected an array but got: " + TypeErrorPreview(v));
        }
        return UpdateIndex(v, ToIndex(key), i);
      case Type::kObject:
        if (!v.is_null() && !v.is_array()) {
          return Fail("expected an array but got: " + TypeErrorPreview(v));
        }
        return UpdateSlice(v, key, i);
      default:
        if (v.is_array()) {
          return Fail("expected a number for indexing an array but got: " + TypeErrorPreview(key));
        }
        return Fail("expected a string for object key but got: " + TypeErrorPreview(key));
    }
  }

  UpdateError& error() { return error_; }

 private:
  Status Fail(std::string message, bool wrap = true) {
    error_.message = std::move(message);
    error_.wrap = wrap;
    return Status::kError;
  }

  Status UpdateObject(Value& v, const Value& key, size_t i) {
    std::string_view k = key.as_string();
    if (v.find(k) == nullptr) {
      if (deleting_) return Status::kOk;
      bool was_null = v.is_null();
      if (was_null) v = Value::EmptyObject();
      v.set(k, Value());
      Status s = Update(*v.find_mutable(k), i + 1);
      if (s != Status::kOk) {
        if (was_null) {
          v = Value();
        } else {
          v.erase(k);
        }
      }
      return s;
    }
    return Update(*v.find_mutable(k), i + 1);
  }

  Status UpdateIndex(Value& v, int64_t index, size_t i) {
    int64_t len = static_cast<int64_t>(v.size());
    int64_t j = ClampIndex(index, -1, len);
    if (j < 0) {
      if (deleting_) return Status::kOk;
      return Fail("array index should not be negative: " + std::to_string(index));
    }
    if (j < len) return Update(v.mutable_items()[static_cast<size_t>(j)], i + 1);
    if (deleting_) return Status::kOk;
    if (index >= kMaxArrayIndex) {
      return Fail("array index too large: " + std::to_string(index), false);
    }
    Status s = rt_.Charge((static_cast<size_t>(index) + 1 - v.size()) * sizeof(Value));
    if (s != Status::kOk) return s;
    bool was_null = v.is_null();
    if (was_null) v = Value::EmptyArray();
    std::vector<Value>& items = v.mutable_items();
    size_t old_size = items.size();
    items.resize(static_cast<size_t>(index) + 1);
    s = Update(items[static_cast<size_t>(index)], i + 1);
    if (s != Status::kOk) {
      if (was_null) {
        v = Value();
      } else {
        v.mutable_items().resize(old_size);
      }
    }
    return s;
  }

  Status UpdateSlice(Value& v, const Value& key, size_t i) {
    const Value* s = key.find("start");
    const Value* e = key.find("end");
    if (s == nullptr || e == nullptr) {
      return Fail("expected \"start\" and \"end\" for slicing but got: " + TypeErrorPreview(key));
    }
    int64_t len = static_cast<int64_t>(v.size());
    int64_t start = 0, end = len;
    if (s->is_number()) {
      start = ClampIndex(SliceStart(*s), 0, len);
    } else if (!s->is_null()) {
      return Fail("expected a number for indexing an array but got: " + TypeErrorPreview(*s));
    }
    if (e->is_number()) {
      end = ClampIndex(SliceEnd(*e), start, len);
    } else if (!e->is_null()) {
      return Fail("expected a number for indexing an array but got: " + TypeErrorPreview(*e));
    }
    if (start == end && deleting_) return Status::kOk;
    bool last = i + 1 == path_.size();
    if (last && deleting_) {
      std::vector<Value>& items = v.mutable_items();
      for (int64_t k = start; k < end; ++k) items[static_cast<size_t>(k)] = Deleted();
      return Status::kOk;
    }
    if (last && !n_.is_array()) {
      return Fail("expected an array but got: " + TypeErrorPreview(n_));
    }
    if (last && static_cast<int64_t>(n_.size()) == end - start) {
      if (v.is_null()) v = Value::EmptyArray();
      std::vector<Value>& items = v.mutable_items();
      for (int64_t k = start; k < end; ++k) {
        items[static_cast<size_t>(k)] = n_[static_cast<size_t>(k - start)];
      }
      return Status::kOk;
    }
    std::span<const Value> items = v.is_array() ? v.items() : std::span<const Value>();
    Value part = Value::Array(std::vector<Value>(items.begin() + start, items.begin() + end));
    Status st = Update(part, i + 1);
    if (st != Status::kOk) return st;
    std::vector<Value> result;
    if (part.is_array()) {
      result.reserve(items.size() - static_cast<size_t>(end - start) + part.size());
      result.insert(result.end(), items.begin(), items.begin() + start);
      result.insert(result.end(), part.items().begin(), part.items().end());
      result.insert(result.end(), items.begin() + end, items.end());
    } else if (IsDeleted(part)) {
      result.assign(items.begin(), items.end());
      for (int64_t k = start; k < end; ++k) result[static_cast<size_t>(k)] = part;
    } else {
      return Fail("expected an array but got: " + TypeErrorPreview(part));
    }
    st = rt_.Charge(result.size() * sizeof(Value));
    if (st != Status::kOk) return st;
    v = Value::Array(std::move(result));
    return Status::kOk;
  }

  Runtime& rt_;
  std::span<const Value> path_;
  const Value& n_;
  bool deleting_;
  UpdateError error_;
};

// Removes deletion markers from containers built during delpaths (those not shared with the
// input, which cannot contain markers).
Status RemoveDeleted(Runtime& rt, Value& v) {
  if (v.use_count() != 1) return Status::kOk;
  CallScope scope(rt);
  if (scope.status() != Status::kOk) return scope.status();
  if (v.is_array()) {
    std::vector<Value>& items = v.mutable_items();
    size_t j = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      if (IsDeleted(items[i])) continue;
      if (j != i) items[j] = std::move(items[i]);
      Status s = RemoveDeleted(rt, items[j]);
      if (s != Status::kOk) return s;
      ++j;
    }
    items.resize(j);
  } else if (v.is_object()) {
    std::vector<std::string> gone;
    for (const Member& m : v.members()) {
      if (IsDeleted(m.value)) gone.emplace_back(m.key.as_string());
    }
    for (const std::string& k : gone) v.erase(k);
    std::vector<std::string> keys;
    for (const Member& m : v.members()) {
      if (m.value.use_count() == 1 && (m.value.is_array() || m.value.is_object())) {
        keys.emplace_back(m.key.as_string());
      }
    }
    for (const std::string& k : keys) {
      Value* child = v.find_mutable(k);
      Status s = RemoveDeleted(rt, *child);
      if (s != Status::kOk) return s;
    }
  }
  return Status::kOk;
}

std::string Call(std::string_view name, const Value& a) {
  std::string s(name);
  s.push_back('(');
  s.append(Preview(a));
  s.push_back(')');
  return s;
}

}  // namespace

Status GetPath(Runtime& rt, const Value& v, const Value& path, Value* out) {
  if (!path.is_array()) {
    return rt.Fail("getpath cannot be applied to: " + TypeErrorPreview(path));
  }
  Value cur = v;
  for (const Value& key : path.items()) {
    if (cur.is_null() || cur.is_array() || cur.is_object()) {
      Value next;
      std::string error;
      if (!IndexValue(cur, key, &next, &error)) {
        return rt.Fail(Call("getpath", path) + " cannot be applied to " + Preview(v) + ": " +
                       error);
      }
      cur = std::move(next);
    } else {
      return rt.Fail(Call("getpath", path) + " cannot be applied to: " + TypeErrorPreview(v));
    }
  }
  *out = std::move(cur);
  return Status::kOk;
}

Status SetPath(Runtime& rt, Value v, const Value& path, const Value& n, Value* out) {
  if (!path.is_array()) {
    return rt.Fail("setpath cannot be applied to: " + TypeErrorPreview(path));
  }
  Updater updater(rt, path.items(), n, false);
  Status s = updater.Update(v, 0);
  if (s == Status::kError) {
    UpdateError& e = updater.error();
    if (!e.wrap) return rt.Fail(std::move(e.message));
    return rt.Fail("setpath(" + Preview(path) + "; " + Preview(n) + ") cannot be applied to " +
                   Preview(v) + ": " + e.message);
  }
  if (s == Status::kOk) *out = std::move(v);
  return s;
}

Status DelPaths(Runtime& rt, const Value& v, const Value& paths, Value* out) {
  if (!paths.is_array()) {
    return rt.Fail("delpaths cannot be applied to: " + TypeErrorPreview(paths));
  }
  Value cur = v;
  if (paths.size() == 0) {
    *out = std::move(cur);
    return Status::kOk;
  }
  for (const Value& path : paths.items()) {
    if (!path.is_array()) {
      return rt.Fail(Call("delpaths", paths) + " cannot be applied to " + Preview(v) +
                     ": expected an array but got: " + TypeErrorPreview(path));
    }
    static const Value kNull;
    Updater updater(rt, path.items(), kNull, true);
    Status s = updater.Update(cur, 0);
    if (s == Status::kError) {
      UpdateError& e = updater.error();
      if (!e.wrap) return rt.Fail(std::move(e.message));
      return rt.Fail(Call("delpaths", paths) + " cannot be applied to " + Preview(v) + ": " +
                     e.message);
    }
    if (s != Status::kOk) return s;
  }
  if (IsDeleted(cur)) {
    *out = Value();
    return Status::kOk;
  }
  Status s = RemoveDeleted(rt, cur);
  if (s != Status::kOk) return s;
  *out = std::move(cur);
  return Status::kOk;
}

}  // namespace wmap::jq::eval
