// Kubernetes quantities and pod resource requests.
#include <cctype>
#include <cmath>
#include <string>

#include "resolve/extract.h"
#include "wmap/json.h"
#include "wmap/resources.h"
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
