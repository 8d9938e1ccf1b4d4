// Objects of lists and watch events as the rest of the tree reads them.
#ifndef WMAP_KUBE_OBJECT_KIND_H_
#define WMAP_KUBE_OBJECT_KIND_H_

#include "wmap/kube.h"
#include "wmap/value.h"

namespace wmap::kube {

// The item with apiVersion and kind first, as `resource` says (list items leave them out).
Value WithKind(Value item, const ApiResource& resource);

}  // namespace wmap::kube

#endif  // WMAP_KUBE_OBJECT_KIND_H_
