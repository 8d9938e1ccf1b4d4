// The parts every document shares: the version header, the workload reference, the source
// location and the error document.
#include <string>

#include "wmap/meta.h"
#include "wmap/view.h"

namespace wmap::view {

Value Document(std::string_view kind) {
  Value v = Value::EmptyObject();
  v.set("apiVersion", Value::String(kApiVersion));
  v.set("kind", Value::String(kind));
  return v;
}

Value WorkloadReference(std::string_view api_version, std::string_view kind,
                        std::string_view namespace_name, std::string_view name,
                        std::string_view uid, std::string_view generate_name) {
  Value v = Value::Object({{"apiVersion", Value::String(api_version)},
                           {"kind", Value::String(kind)},
                           {"namespace", Value::String(namespace_name)},
                           {"name", Value::String(name)},
                           {"uid", Value::String(uid)}});
  if (name.empty() && !generate_name.empty()) {
    v.set("generateName", Value::String(generate_name));
  }
  return v;
}

Value WorkloadReference(const SourceObject& object) {
  return WorkloadReference(object.ApiVersion(), object.Kind(), object.Namespace(), object.Name(),
                           object.Uid(), meta::MetadataField(object.value, "generateName"));
}

std::string DisplayName(std::string_view name, std::string_view generate_name) {
  if (!name.empty() || generate_name.empty()) return std::string(name);
  return std::string(generate_name) + "*";
}

Value SourceLocation(std::string_view file, Position position, int list_index) {
  Value v = Value::Object({{"file", Value::String(file)},
                           {"line", Value::Int(position.line)},
                           {"column", Value::Int(position.column)}});
  if (list_index >= 0) v.set("item", Value::Int(list_index));
  return v;
}

Value SourceLocation(const SourceObject& object) {
  return SourceLocation(object.file, object.position, object.list_index);
}

std::string KindName(const GroupVersionKind& kind) {
  std::string out = kind.kind + "." + kind.version;
  if (!kind.group.empty()) out += "." + kind.group;
  return out;
}

Value ErrorDocument(const Error& error) {
  Value v = Document("Error");
  v.set("error", Value::String(ErrorCodeInfo(error.code).name));
  v.set("message", Value::String(error.message));
  v.set("hint", Value::String(error.hint));
  if (!error.field.empty()) v.set("field", Value::String(error.field));
  if (!error.file.empty()) v.set("file", Value::String(error.file));
  if (error.position.known()) {
    v.set("line", Value::Int(error.position.line));
    v.set("column", Value::Int(error.position.column));
  }
  return v;
}

}  // namespace wmap::view
