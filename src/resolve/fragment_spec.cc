#include "resolve/fragment_spec.h"

namespace wmap::resolve {

Value PodSpecFromFragments(const FragmentedPodSpec& f) {
  Value spec = Value::EmptyObject();
  if (f.containers.is_array()) {
    spec.set("containers", f.containers);
  } else if (f.container.is_object()) {
    Value main = f.container;
    const Value* own = main.find("resources");
    if ((own == nullptr || own->is_null()) && f.resources.is_object()) {
      main.set("resources", f.resources);
    }
    spec.set("containers", Value::Array({main}));
  } else if (f.resources.is_object()) {
    spec.set("containers", Value::Array({Value::Object({{"resources", f.resources}})}));
  } else {
    spec.set("containers", Value::EmptyArray());
  }
  if (f.resource_claims.is_array()) spec.set("resourceClaims", f.resource_claims);
  return spec;
}

}  // namespace wmap::resolve
