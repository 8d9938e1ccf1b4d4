#include "model/field_reader.h"
#include "wmap/text.h"

#include <algorithm>

namespace wmap::model {
namespace {

// Levenshtein distance, for "did you mean" hints (names are short).
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string ChildPath(const std::string& parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return parent + "." + std::string(key);
}

}  // namespace

Position FieldReader::PositionOf(const std::string& pointer) const {
  if (positions_ == nullptr) return {};
  auto it = positions_->find(pointer);
  return it == positions_->end() ? Position{} : it->second;
}

void FieldReader::Report(std::string message, Position position, std::string hint) const {
  errors_->push_back(
      Error{std::move(message), file_, position, std::move(hint), ErrorCode::kInvalidDefinition});
}

Position Node::position() const { return reader_->PositionOf(pointer_); }

void Node::Fail(std::string message, std::string hint) const {
  reader_->Report(std::move(message), position(), std::move(hint));
}

std::optional<Node> Node::Member(std::string_view key) const {
  const Value* v = value_->find(key);
  if (v == nullptr) return std::nullopt;
  return Node(reader_, v, pointer_ + "/" + text::PointerToken(key), ChildPath(path_, key), true);
}

std::vector<Node> Node::Items() const {
  std::vector<Node> out;
  if (!value_->is_array()) return out;
  out.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i) {
    out.emplace_back(reader_, &(*value_)[i], pointer_ + "/" + std::to_string(i),
                     path_ + "[" + std::to_string(i) + "]", false);
  }
  return out;
}

bool Node::ExpectObject(std::initializer_list<std::string_view> known) const {
  if (!value_->is_object()) {
    Fail((path_.empty() ? std::string("document") : path_) + " must be an object, got " +
         std::string(TypeName(value_->type())));
    return false;
  }
  if (reader_->lenient()) return true;
  for (const wmap::Member& m : value_->members()) {
    std::string_view key = m.key.as_string();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string hint;
    size_t best = 3;  // suggest only close names
    for (std::string_view candidate : known) {
      size_t d = EditDistance(key, candidate);
      if (d < best) {
        best = d;
        hint = "did you mean \"" + std::string(candidate) + "\"?";
      }
    }
    if (hint.empty()) {
      hint = "known fields here:";
      for (std::string_view candidate : known) hint += " " + std::string(candidate);
    }
    Node member(reader_, &m.value, pointer_ + "/" + text::PointerToken(key), ChildPath(path_, key),
                true);
    member.Fail("unknown field \"" + member.path() + "\"", hint);
  }
  return true;
}

std::optional<Node> Node::Typed(std::string_view key, Type type, bool required) const {
  std::optional<Node> member = Member(key);
  if (!member) {
    if (required) {
      Fail("missing required field \"" + ChildPath(path_, key) + "\"",
           "add \"" + std::string(key) + "\"");
    }
    return std::nullopt;
  }
  if (member->value().type() != type) {
    // A YAML null for an optional field reads as absent, as a Go decoder leaves it unset.
    if (member->value().is_null() && !required) return std::nullopt;
    member->Fail(member->path() + " must be " +
                 (type == Type::kArray || type == Type::kObject ? "an " : "a ") +
                 std::string(TypeName(type)) + ", got " +
                 std::string(TypeName(member->value().type())));
    return std::nullopt;
  }
  return member;
}

std::optional<std::string> Node::String(std::string_view key, bool required) const {
  std::optional<Node> n = Typed(key, Type::kString, required);
  if (!n) return std::nullopt;
  return std::string(n->value().as_string());
}

std::optional<Node> Node::Object(std::string_view key, bool required) const {
  return Typed(key, Type::kObject, required);
}

std::optional<Node> Node::Array(std::string_view key, bool required) const {
  return Typed(key, Type::kArray, required);
}

}  // namespace wmap::model
