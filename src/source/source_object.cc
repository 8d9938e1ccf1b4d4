// SourceObject: where an object came from and its identifying fields.
#include <string>

#include "wmap/meta.h"
#include "wmap/source.h"

namespace wmap {

std::string SourceObject::Where() const {
  Error e;
  e.file = file;
  e.position = position;
  std::string out = e.ToString();
  // Error::ToString ends with ": " and an empty message.
  if (out.size() >= 2 && out.ends_with(": ")) out.resize(out.size() - 2);
  if (list_index >= 0) out += " items[" + std::to_string(list_index) + "]";
  return out;
}

std::string_view SourceObject::ApiVersion() const { return meta::StringField(value, "apiVersion"); }
std::string_view SourceObject::Kind() const { return meta::StringField(value, "kind"); }
std::string_view SourceObject::Name() const { return meta::MetadataField(value, "name"); }
std::string_view SourceObject::Namespace() const { return meta::MetadataField(value, "namespace"); }
std::string_view SourceObject::Uid() const { return meta::MetadataField(value, "uid"); }

}  // namespace wmap
