// Typed, position-aware reading of one document against a fixed schema.
//
// A FieldReader walks nested objects of a Value. Each Node knows its JSON pointer (to look up the
// source position), its display path in the document's own spelling ("spec.rootComponent.name"),
// and reports into one shared error list:
// - a field that the schema does not list ("unknown field"), unless the reader is lenient;
// - a value of the wrong JSON type ("must be a string, got number");
// - a required field that is absent.
// A field with a wrong type reads as absent, so one mistake yields one error.
#ifndef WMAP_MODEL_FIELD_READER_H_
#define WMAP_MODEL_FIELD_READER_H_

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::model {

class FieldReader;

// One value of the document, with where it is.
class Node {
 public:
  Node(const FieldReader* reader, const Value* value, std::string pointer, std::string path,
       bool is_member)
      : reader_(reader),
        value_(value),
        pointer_(std::move(pointer)),
        path_(std::move(path)),
        is_member_(is_member) {}

  const Value& value() const { return *value_; }
  const std::string& path() const { return path_; }
  const std::string& pointer() const { return pointer_; }
  // True when the node is an object member (its position is the key's), false for the root or
  // an array item (its position is the value's).
  bool is_member() const { return is_member_; }
  Position position() const;

  // A member: absent (nullopt) when missing. No type check.
  std::optional<Node> Member(std::string_view key) const;
  // The items of an array node (no type check of the items).
  std::vector<Node> Items() const;

  // Reports unknown members of an object node. Returns false (after reporting) when the node is
  // not an object.
  bool ExpectObject(std::initializer_list<std::string_view> known) const;

  // Typed members. `required` reports a missing member. Wrong types are reported and read as
  // absent.
  std::optional<std::string> String(std::string_view key, bool required = false) const;
  std::optional<Node> Object(std::string_view key, bool required = false) const;
  std::optional<Node> Array(std::string_view key, bool required = false) const;

  // Reports an error at this node.
  void Fail(std::string message, std::string hint = "") const;

 private:
  std::optional<Node> Typed(std::string_view key, Type type, bool required) const;

  const FieldReader* reader_;
  const Value* value_;
  std::string pointer_;
  std::string path_;
  bool is_member_;
};

class FieldReader {
 public:
  // positions may be null (no positions known). Errors are appended to *errors.
  FieldReader(std::string file, const std::map<std::string, Position>* positions, bool lenient,
              std::vector<Error>* errors)
      : file_(std::move(file)), positions_(positions), lenient_(lenient), errors_(errors) {}

  Node Root(const Value* value) const { return Node(this, value, "", "", false); }

  Position PositionOf(const std::string& pointer) const;
  bool lenient() const { return lenient_; }
  const std::string& file() const { return file_; }
  void Report(std::string message, Position position, std::string hint) const;

 private:
  std::string file_;
  const std::map<std::string, Position>* positions_;
  bool lenient_;
  std::vector<Error>* errors_;
};

}  // namespace wmap::model

#endif  // WMAP_MODEL_FIELD_READER_H_
