// Pod templates as an object that embeds core/v1 PodTemplateSpec accepts them (Kueue's pod
// sets): what a definition reads as a template may hold more (a Pod's own metadata, a serving
// framework's fields beside the containers), which a strict API server refuses and a lenient one
// prunes.
#ifndef WMAP_SCHEDULING_POD_TEMPLATE_FIELDS_H_
#define WMAP_SCHEDULING_POD_TEMPLATE_FIELDS_H_

#include <span>
#include <string_view>

#include "wmap/value.h"

namespace wmap::scheduling {

// The fields of core/v1 PodSpec and Container as Kubernetes 1.37 has them, sorted.
std::span<const std::string_view> PodSpecFields();
std::span<const std::string_view> ContainerFields();

// `t` ({"metadata"?, "spec"?}) with metadata reduced to its labels and annotations (null
// entries dropped), spec to the PodSpec fields, and each container and init container to the
// Container fields. Null stays null.
Value PodTemplateSpecOf(const Value& t);

}  // namespace wmap::scheduling

#endif  // WMAP_SCHEDULING_POD_TEMPLATE_FIELDS_H_
