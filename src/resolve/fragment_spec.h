// A pod spec assembled from a component's fragments, for what needs a whole spec (resource
// accounting): the containers fragment, or the main container, or a container holding only the
// resources fragment; the resources fragment is the main container's when that container states
// none; resource claims as given.
#ifndef WMAP_RESOLVE_FRAGMENT_SPEC_H_
#define WMAP_RESOLVE_FRAGMENT_SPEC_H_

#include "wmap/value.h"
#include "wmap/workload.h"

namespace wmap::resolve {

Value PodSpecFromFragments(const FragmentedPodSpec& fragments);

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_FRAGMENT_SPEC_H_
