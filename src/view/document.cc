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

Value WorkloadReference(const SourceObject& object) {
  Value v = Value::EmptyObject();
  v.set("apiVersion", Value::String(object.ApiVersion()));
  v.set("kind", Value::String(object.Kind()));
  v.set("namespace", Value::String(object.Namespace()));
  v.set("name", Value::String(object.Name()));
  v.set("uid", Value::String(object.Uid()));
  return v;
}

Value SourceLocation(const SourceObject& object) {
  Value v = Value::Object({{"file", Value::String(object.file)},
                           {"line", Value::Int(object.position.line)},
                           {"column", Value::Int(object.position.column)}});
  if (object.list_index >= 0) v.set("item", Value::Int(object.list_index));
  return v;
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
  if (!error.file.empty()) v.set("file", Value::String(error.file));
  if (error.position.known()) {
    v.set("line", Value::Int(error.position.line));
    v.set("column", Value::Int(error.position.column));
  }
  return v;
}

}  // namespace wmap::view
