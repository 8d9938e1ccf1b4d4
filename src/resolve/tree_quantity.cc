// Kubernetes quantities and pod resource requests.
#include <cctype>
#include <cmath>
#include <string>

#include "resolve/extract.h"
#include "wmap/json.h"
#include "wmap/tree.h"

namespace wmap {

using resolve::MakeError;

namespace {

Error BadQuantity(std::string_view text) {
  return MakeError(
      "quantities must match the regular expression "
      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': '" +
      std::string(text) + "'");
}

// The multiplier of a suffix; nullopt when it is not one.
std::optional<double> SuffixScale(std::string_view s) {
  if (s.empty()) return 1.0;
  if (s.size() == 2 && s[1] == 'i') {
    const std::string_view binary = "KMGTPE";
    size_t i = binary.find(s[0]);
    if (i == std::string_view::npos) return std::nullopt;
    return std::ldexp(1.0, static_cast<int>(10 * (i + 1)));
  }
  if (s.size() == 1) {
    switch (s[0]) {
      case 'n':
        return 1e-9;
      case 'u':
        return 1e-6;
      case 'm':
        return 1e-3;
      case 'k':
        return 1e3;
      case 'M':
        return 1e6;
      case 'G':
        return 1e9;
      case 'T':
        return 1e12;
      case 'P':
        return 1e15;
      case 'E':
        return 1e18;
      default:
        return std::nullopt;
    }
  }
  if (s[0] == 'e' || s[0] == 'E') {
    std::string_view exp = s.substr(1);
    size_t i = 0;
    if (i < exp.size() && (exp[i] == '+' || exp[i] == '-')) ++i;
    if (i == exp.size()) return std::nullopt;
    for (size_t j = i; j < exp.size(); ++j) {
      if (!std::isdigit(static_cast<unsigned char>(exp[j]))) return std::nullopt;
    }
    return std::pow(10.0, std::stod(std::string(exp)));
  }
  return std::nullopt;
}

int64_t CeilTo(double v, double unit) { return static_cast<int64_t>(std::ceil(v / unit - 1e-9)); }

}  // namespace

Result<double> ParseQuantity(std::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  size_t digits_start = i;
  bool digits = false, dot = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digits) return BadQuantity(text);
  std::optional<double> scale = SuffixScale(text.substr(i));
  if (!scale) return BadQuantity(text);
  double mantissa = std::stod(std::string(text.substr(digits_start, i - digits_start)));
  return (negative ? -mantissa : mantissa) * *scale;
}

Result<double> ParseQuantity(const Value& quantity) {
  if (quantity.is_number()) return quantity.as_double();
  if (quantity.is_string()) return ParseQuantity(quantity.as_string());
  return MakeError("a quantity must be a string or a number, got " +
                   json::ToCompactString(quantity));
}

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

namespace {

// Adds the cpu, memory and GPU quantities of one resource map to *total.
std::optional<Error> AddResourceMap(const Value& map, const Value* skip, ResourceTotals* total) {
  for (const Member& m : map.members()) {
    std::string_view name = m.key.as_string();
    if (skip != nullptr && skip->find(name) != nullptr) continue;
    Result<double> q = ParseQuantity(m.value);
    if (!q.ok()) return resolve::Wrap("resource " + std::string(name), q.error());
    if (name == "cpu") {
      total->cpu_millicores += CeilTo(*q, 1e-3);
    } else if (name == "memory") {
      total->memory_bytes += CeilTo(*q, 1.0);
    } else if (IsGpuResource(name)) {
      total->gpus += CeilTo(*q, 1.0);
    }
  }
  return std::nullopt;
}

// One container's requests: a resource named in requests counts from there; one only in
// limits counts from limits (the API server defaults requests to limits).
Result<ResourceTotals> ContainerRequests(const Value& container) {
  ResourceTotals total;
  const Value* resources = container.find("resources");
  if (resources == nullptr) return total;
  const Value* requests = resources->find("requests");
  const Value* limits = resources->find("limits");
  bool has_requests = requests != nullptr && requests->is_object();
  if (has_requests) {
    if (auto e = AddResourceMap(*requests, nullptr, &total)) return *e;
  }
  if (limits != nullptr && limits->is_object()) {
    if (auto e = AddResourceMap(*limits, has_requests ? requests : nullptr, &total)) return *e;
  }
  return total;
}

ResourceTotals Max(const ResourceTotals& a, const ResourceTotals& b) {
  return {std::max(a.cpu_millicores, b.cpu_millicores), std::max(a.memory_bytes, b.memory_bytes),
          std::max(a.gpus, b.gpus)};
}

bool IsSidecar(const Value& init_container) {
  const Value* policy = init_container.find("restartPolicy");
  return policy != nullptr && policy->is_string() && policy->as_string() == "Always";
}

}  // namespace

Result<ResourceTotals> PodSpecRequests(const Value& pod_spec) {
  ResourceTotals apps;
  if (const Value* containers = pod_spec.find("containers"); containers && containers->is_array()) {
    for (const Value& container : containers->items()) {
      Result<ResourceTotals> r = ContainerRequests(container);
      if (!r.ok()) return r.error();
      apps += *r;
    }
  }
  // Init containers run one at a time before the app containers; sidecars (restartPolicy
  // Always) keep running, so each later init container and the app containers add to them.
  ResourceTotals sidecars;
  ResourceTotals init_peak;
  if (const Value* inits = pod_spec.find("initContainers"); inits && inits->is_array()) {
    for (const Value& container : inits->items()) {
      Result<ResourceTotals> r = ContainerRequests(container);
      if (!r.ok()) return r.error();
      if (IsSidecar(container)) {
        sidecars += *r;
      } else {
        ResourceTotals during = *r;
        during += sidecars;
        init_peak = Max(init_peak, during);
      }
    }
  }
  apps += sidecars;
  ResourceTotals total = Max(apps, init_peak);
  if (const Value* overhead = pod_spec.find("overhead"); overhead && overhead->is_object()) {
    if (auto e = AddResourceMap(*overhead, nullptr, &total)) return *e;
  }
  return total;
}

}  // namespace wmap
