// The cpu, memory and GPU totals of pod resource requests.
#include <string>

#include "wmap/resources.h"
#include "wmap/tree.h"

namespace wmap {

ResourceTotals& ResourceTotals::operator+=(const ResourceTotals& o) {
  cpu_millicores += o.cpu_millicores;
  memory_bytes += o.memory_bytes;
  gpus += o.gpus;
  return *this;
}

ResourceTotals ResourceTotals::operator*(int64_t n) const {
  return {cpu_millicores * n, memory_bytes * n, gpus * n};
}

bool IsGpuResource(std::string_view name) {
  return name == "nvidia.com/gpu" || name == "amd.com/gpu" || name == "gpu.intel.com/i915" ||
         name == "gpu.intel.com/xe";
}

Result<ResourceTotals> PodSpecRequests(const Value& pod_spec) {
  Result<PodResources> resources = EffectivePodResources(pod_spec);
  if (!resources.ok()) return resources.error();
  ResourceTotals total;
  for (const auto& [name, amount] : resources->requests) {
    if (name == "cpu") {
      total.cpu_millicores = amount;
    } else if (name == "memory") {
      total.memory_bytes = amount;
    } else if (IsGpuResource(name)) {
      total.gpus += amount;
    }
  }
  return total;
}

}  // namespace wmap
