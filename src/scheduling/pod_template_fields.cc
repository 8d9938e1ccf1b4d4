#include "scheduling/pod_template_fields.h"

#include <algorithm>
#include <array>
#include <string>

namespace wmap::scheduling {
namespace {

constexpr std::array<std::string_view, 42> kPodSpecFields = {
    "activeDeadlineSeconds",
    "affinity",
    "automountServiceAccountToken",
    "containers",
    "dnsConfig",
    "dnsPolicy",
    "enableServiceLinks",
    "ephemeralContainers",
    "hostAliases",
    "hostIPC",
    "hostNetwork",
    "hostPID",
    "hostUsers",
    "hostname",
    "hostnameOverride",
    "imagePullSecrets",
    "initContainers",
    "nodeName",
    "nodeSelector",
    "os",
    "overhead",
    "preemptionPolicy",
    "priority",
    "priorityClassName",
    "readinessGates",
    "resourceClaims",
    "resources",
    "restartPolicy",
    "runtimeClassName",
    "schedulerName",
    "schedulingGates",
    "schedulingGroup",
    "securityContext",
    "serviceAccount",
    "serviceAccountName",
    "setHostnameAsFQDN",
    "shareProcessNamespace",
    "subdomain",
    "terminationGracePeriodSeconds",
    "tolerations",
    "topologySpreadConstraints",
    "volumes",
};  // sorted: lookups are binary searches

constexpr std::array<std::string_view, 25> kContainerFields = {
    "args",
    "command",
    "env",
    "envFrom",
    "image",
    "imagePullPolicy",
    "lifecycle",
    "livenessProbe",
    "name",
    "ports",
    "readinessProbe",
    "resizePolicy",
    "resources",
    "restartPolicy",
    "restartPolicyRules",
    "securityContext",
    "startupProbe",
    "stdin",
    "stdinOnce",
    "terminationMessagePath",
    "terminationMessagePolicy",
    "tty",
    "volumeDevices",
    "volumeMounts",
    "workingDir",
};

bool Has(std::span<const std::string_view> sorted, std::string_view key) {
  return std::binary_search(sorted.begin(), sorted.end(), key);
}

// The members of `v` named in `fields`, without nulls.
Value Only(const Value& v, std::span<const std::string_view> fields) {
  Value out = Value::EmptyObject();
  for (const Member& m : v.members()) {
    if (!m.value.is_null() && Has(fields, m.key.as_string())) out.set(m.key.as_string(), m.value);
  }
  return out;
}

Value Containers(const Value& list) {
  Value out = Value::EmptyArray(list.items().size());
  for (const Value& c : list.items()) {
    out.push_back(c.is_object() ? Only(c, kContainerFields) : c);
  }
  return out;
}

}  // namespace

std::span<const std::string_view> PodSpecFields() { return kPodSpecFields; }
std::span<const std::string_view> ContainerFields() { return kContainerFields; }

Value PodTemplateSpecOf(const Value& t) {
  if (!t.is_object()) return t;
  Value out = Value::EmptyObject();
  if (const Value* metadata = t.find("metadata"); metadata != nullptr && metadata->is_object()) {
    Value kept = Value::EmptyObject();
    for (std::string_view key : {"labels", "annotations"}) {
      const Value* map = metadata->find(key);
      if (map == nullptr || !map->is_object()) continue;
      Value entries = Value::EmptyObject();
      for (const Member& m : map->members()) {
        if (!m.value.is_null()) entries.set(m.key.as_string(), m.value);
      }
      if (entries.size() > 0) kept.set(key, std::move(entries));
    }
    if (kept.size() > 0) out.set("metadata", std::move(kept));
  }
  if (const Value* spec = t.find("spec"); spec != nullptr && spec->is_object()) {
    Value kept = Only(*spec, kPodSpecFields);
    for (std::string_view key : {"containers", "initContainers"}) {
      if (const Value* list = kept.find(key); list != nullptr && list->is_array()) {
        kept.set(key, Containers(*list));
      }
    }
    out.set("spec", std::move(kept));
  }
  return out;
}

}  // namespace wmap::scheduling
