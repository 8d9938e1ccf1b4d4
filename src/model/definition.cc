// Definition accessors and the small value types of the model.
#include "wmap/definition.h"
#include "model/definition_data.h"

namespace wmap {

std::string GroupVersionKind::ApiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string GroupVersionKind::ToString() const { return ApiVersion() + ", Kind=" + kind; }

std::string_view ResourceStatusName(ResourceStatus status) {
  switch (status) {
    case ResourceStatus::kInitializing:
      return "Initializing";
    case ResourceStatus::kRunning:
      return "Running";
    case ResourceStatus::kCompleted:
      return "Completed";
    case ResourceStatus::kFailed:
      return "Failed";
    case ResourceStatus::kDegraded:
      return "Degraded";
    case ResourceStatus::kUndefined:
      return "Undefined";
    case ResourceStatus::kSuspended:
      return "Suspended";
    case ResourceStatus::kSuspending:
      return "Suspending";
    case ResourceStatus::kResuming:
      return "Resuming";
  }
  return "Undefined";
}

bool ComponentDefinition::HasPodDefinition() const {
  return spec && (spec->pod_template_spec || spec->pod_spec || spec->fragmented);
}

const std::string& Definition::name() const { return data_->name; }
const Value& Definition::metadata() const { return data_->metadata; }
const std::string& Definition::file() const { return data_->file; }
const GroupVersionKind& Definition::root_kind() const { return data_->root_kind; }

std::span<const ComponentDefinition> Definition::components() const { return data_->components; }

int Definition::FindComponent(std::string_view name) const {
  for (size_t i = 0; i < data_->components.size(); ++i) {
    if (data_->components[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Definition::Parent(size_t i) const { return data_->parents[i]; }

std::span<const size_t> Definition::Children(size_t i) const { return data_->children[i]; }

const std::vector<GroupVersionKind>& Definition::additional_child_kinds() const {
  return data_->additional_child_kinds;
}

const std::optional<GangScheduling>& Definition::gang_scheduling() const { return data_->gang; }

DefinitionFormat Definition::format() const { return data_->format; }

}  // namespace wmap
