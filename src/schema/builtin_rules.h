// A few of the API server's handwritten rules for built-in workload kinds, the ones a
// hand-written manifest most often breaks while its schema holds: pod specs (containers present,
// container names, images, enumerated policies, port ranges, resource requests against limits)
// and, for controllers, the restart policies they admit and a selector that matches the
// template's labels.
#ifndef WMAP_SCHEMA_BUILTIN_RULES_H_
#define WMAP_SCHEMA_BUILTIN_RULES_H_

#include "schema/reporter.h"
#include "wmap/schema.h"
#include "wmap/value.h"

namespace wmap::schema {

// Reports the rules for `object` of built-in kind `gvk` (v1 Pod; apps/v1 Deployment, ReplicaSet,
// StatefulSet, DaemonSet; batch/v1 Job, CronJob); other kinds have none. The reporter's path must
// be at the root.
void CheckBuiltinRules(const GroupVersionKind& gvk, const Value& object, Reporter* report);

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_BUILTIN_RULES_H_
