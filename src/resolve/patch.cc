// JSON merge patches (RFC 7386) and JSON patches (RFC 6902).
#include "wmap/patch.h"
#include "wmap/text.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace wmap {

Value MergePatch(const Value& from, const Value& to) {
  if (!from.is_object() || !to.is_object()) return to;
  Value patch = Value::EmptyObject();
  for (const Member& m : to.members()) {
    std::string_view key = m.key.as_string();
    const Value* before = from.find(key);
    if (before == nullptr) {
      patch.set(key, m.value);
    } else if (*before != m.value) {
      patch.set(key, MergePatch(*before, m.value));
    }
  }
  for (const Member& m : from.members()) {
    std::string_view key = m.key.as_string();
    if (to.find(key) == nullptr) patch.set(key, Value());
  }
  return patch;
}

Value ApplyMergePatch(const Value& target, const Value& patch) {
  if (!patch.is_object()) return patch;
  Value out = target.is_object() ? target : Value::EmptyObject();
  for (const Member& m : patch.members()) {
    std::string_view key = m.key.as_string();
    if (m.value.is_null()) {
      out.erase(key);
      continue;
    }
    const Value* current = out.find(key);
    out.set(key, ApplyMergePatch(current ? *current : Value(), m.value));
  }
  return out;
}

namespace {

void AddOp(std::string_view op, const std::string& path, const Value* value, Value* ops) {
  Value o = Value::EmptyObject();
  o.set("op", Value::String(op));
  o.set("path", Value::String(path));
  if (value != nullptr) o.set("value", *value);
  ops->push_back(std::move(o));
}

void Diff(const Value& from, const Value& to, const std::string& path, Value* ops) {
  if (from == to) return;
  if (from.is_object() && to.is_object()) {
    for (const Member& m : from.members()) {
      if (to.find(m.key.as_string()) == nullptr) {
        AddOp("remove", path + "/" + text::PointerToken(m.key.as_string()), nullptr, ops);
      }
    }
    for (const Member& m : to.members()) {
      std::string child = path + "/" + text::PointerToken(m.key.as_string());
      const Value* before = from.find(m.key.as_string());
      if (before == nullptr) {
        AddOp("add", child, &m.value, ops);
      } else {
        Diff(*before, m.value, child, ops);
      }
    }
    return;
  }
  if (from.is_array() && to.is_array() && from.size() <= to.size()) {
    bool prefix_equal = true;
    for (size_t i = 0; i < from.size() && prefix_equal; ++i) prefix_equal = from[i] == to[i];
    if (from.size() == to.size() || prefix_equal) {
      for (size_t i = 0; i < from.size(); ++i)
        Diff(from[i], to[i], path + "/" + std::to_string(i), ops);
      for (size_t i = from.size(); i < to.size(); ++i) {
        AddOp("add", path + "/" + std::to_string(i), &to[i], ops);
      }
      return;
    }
  }
  AddOp("replace", path, &to, ops);
}

// The member names or indexes of a JSON pointer ("" is the whole document).
Result<std::vector<std::string>> ParsePointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/')
    return Error{"JSON pointer does not start with '/'", "", {}, "", ErrorCode::kInvalidInput};
  for (size_t start = 1;;) {
    size_t slash = pointer.find('/', start);
    tokens.push_back(text::UnescapePointerToken(pointer.substr(start, slash - start)));
    if (slash == std::string_view::npos) return tokens;
    start = slash + 1;
  }
}

// Applies one operation at tokens[depth...] below *node.
std::optional<std::string> ApplyAt(Value* node, const std::vector<std::string>& tokens,
                                   size_t depth, std::string_view op, const Value* value) {
  const std::string& token = tokens[depth];
  bool last = depth + 1 == tokens.size();
  if (node->is_object()) {
    Value* child = node->find_mutable(token);
    if (!last) {
      if (child == nullptr) return "no member \"" + token + "\"";
      return ApplyAt(child, tokens, depth + 1, op, value);
    }
    if (op == "remove") {
      if (!node->erase(token)) return "no member \"" + token + "\" to remove";
      return std::nullopt;
    }
    if (op == "replace" && child == nullptr) return "no member \"" + token + "\" to replace";
    node->set(token, *value);
    return std::nullopt;
  }
  if (node->is_array()) {
    std::vector<Value>& items = node->mutable_items();
    size_t index = items.size();
    if (token != "-") {
      if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) {
        return "bad array index \"" + token + "\"";
      }
      index = std::stoul(token);
    }
    bool appending = op == "add" && last && index == items.size();
    if (index >= items.size() && !appending) return "array index " + token + " out of range";
    if (!last) return ApplyAt(&items[index], tokens, depth + 1, op, value);
    if (op == "remove") {
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(index));
    } else if (op == "replace") {
      items[index] = *value;
    } else {
      items.insert(items.begin() + static_cast<std::ptrdiff_t>(index), *value);
    }
    return std::nullopt;
  }
  return "cannot descend into " + std::string(TypeName(node->type()));
}

}  // namespace

Value JsonPatch(const Value& from, const Value& to) {
  Value ops = Value::EmptyArray();
  Diff(from, to, "", &ops);
  return ops;
}

Result<Value> ApplyJsonPatch(const Value& target, const Value& patch) {
  Value out = target;
  for (size_t i = 0; i < patch.size(); ++i) {
    const Value& operation = patch[i];
    auto fail = [&](const std::string& why) {
      return Error{
          "operation " + std::to_string(i) + ": " + why, "", {}, "", ErrorCode::kInvalidInput};
    };
    const Value* op = operation.find("op");
    const Value* path = operation.find("path");
    const Value* value = operation.find("value");
    if (op == nullptr || !op->is_string() || path == nullptr || !path->is_string()) {
      return fail("needs string members op and path");
    }
    std::string_view name = op->as_string();
    if (name != "add" && name != "remove" && name != "replace") {
      return fail("unsupported op \"" + std::string(name) + "\"");
    }
    if (name != "remove" && value == nullptr) return fail("needs a value");
    Result<std::vector<std::string>> tokens = ParsePointer(path->as_string());
    if (!tokens.ok()) return fail(tokens.error().message);
    if (tokens->empty()) {
      if (name == "remove") return fail("cannot remove the whole document");
      out = *value;
      continue;
    }
    if (std::optional<std::string> e = ApplyAt(&out, *tokens, 0, name, value)) return fail(*e);
  }
  return out;
}

}  // namespace wmap
