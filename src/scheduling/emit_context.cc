#include "scheduling/emit_context.h"

#include <cctype>
#include <cstdint>
#include <utility>

#include "wmap/meta.h"

namespace wmap::scheduling {
namespace {

std::string StringField(const Value& object, std::string_view key) {
  const Value* v = object.find(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

WorkloadIdentity WorkloadIdentity::Of(const Value& object) {
  WorkloadIdentity id;
  id.api_version = StringField(object, "apiVersion");
  id.kind = StringField(object, "kind");
  if (const Value* meta = object.find("metadata"); meta != nullptr) {
    id.name = meta::NameOrGenerated(object);
    id.namespace_name = StringField(*meta, "namespace");
    id.uid = StringField(*meta, "uid");
  }
  return id;
}

std::string WorkloadIdentity::Group() const {
  size_t slash = api_version.find('/');
  return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

Value ObjectMeta(const WorkloadIdentity& identity, std::string_view name) {
  Value meta = Value::EmptyObject();
  meta.set("name", Value::String(name));
  if (!identity.namespace_name.empty()) {
    meta.set("namespace", Value::String(identity.namespace_name));
  }
  if (!identity.uid.empty()) {
    meta.set("ownerReferences",
             Value::Array({Value::Object({{"apiVersion", Value::String(identity.api_version)},
                                          {"kind", Value::String(identity.kind)},
                                          {"name", Value::String(identity.name)},
                                          {"uid", Value::String(identity.uid)},
                                          {"controller", Value::Bool(true)},
                                          {"blockOwnerDeletion", Value::Bool(true)}})}));
  }
  return meta;
}

Value MakeObject(std::string_view api_version, std::string_view kind, Value metadata, Value spec) {
  return Value::Object({{"apiVersion", Value::String(api_version)},
                        {"kind", Value::String(kind)},
                        {"metadata", std::move(metadata)},
                        {"spec", std::move(spec)}});
}

PodPatches::Patch& PodPatches::For(const std::string& pod) {
  auto [it, inserted] = patches_.try_emplace(pod);
  if (inserted) order_.push_back(pod);
  return it->second;
}

void PodPatches::Label(const std::string& pod, std::string_view key, std::string_view value) {
  For(pod).labels.set(key, Value::String(value));
}

void PodPatches::Annotate(const std::string& pod, std::string_view key, std::string_view value) {
  For(pod).annotations.set(key, Value::String(value));
}

void PodPatches::SetSpec(const std::string& pod, std::string_view key, Value value) {
  For(pod).spec.set(key, std::move(value));
}

std::vector<Value> PodPatches::Take() {
  std::vector<Value> out;
  out.reserve(order_.size());
  for (const std::string& pod : order_) {
    Patch& p = patches_[pod];
    Value meta = Value::EmptyObject();
    meta.set("name", Value::String(pod));
    if (!identity_.namespace_name.empty()) {
      meta.set("namespace", Value::String(identity_.namespace_name));
    }
    if (p.labels.size() > 0) meta.set("labels", std::move(p.labels));
    if (p.annotations.size() > 0) meta.set("annotations", std::move(p.annotations));
    Value patch = Value::Object({{"metadata", std::move(meta)}});
    if (p.spec.size() > 0) patch.set("spec", std::move(p.spec));
    out.push_back(std::move(patch));
  }
  order_.clear();
  patches_.clear();
  return out;
}

bool IsLeaf(const GangPlan& gang, const SubGroupPlan& sub_group) {
  for (const SubGroupPlan& other : gang.sub_groups) {
    if (other.parent == sub_group.name) return false;
  }
  return true;
}

int64_t EffectiveMinPods(const GangPlan& gang) {
  if (gang.min_member > 0 || gang.sub_groups.empty()) return gang.min_member;
  int64_t sum = 0;
  for (const SubGroupPlan& s : gang.sub_groups) {
    if (IsLeaf(gang, s)) sum += s.min_member;
  }
  return sum;
}

namespace {

std::string CleanDnsName(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      out += static_cast<char>(std::tolower(u));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return ShortenName(out, limit);
}

}  // namespace

std::string DnsLabel(std::string_view text) { return CleanDnsName(text, 63); }

std::string DnsObjectName(std::string_view text) { return CleanDnsName(text, 253); }

std::string ObjectNameOf(std::string_view gang) {
  bool valid = !gang.empty() && gang.size() <= 253;
  for (size_t i = 0; valid && i < gang.size(); ++i) {
    const char c = gang[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    const bool edge = i == 0 || i + 1 == gang.size();
    valid = alnum || (!edge && (c == '-' || c == '.'));
  }
  return valid ? std::string(gang) : DnsObjectName(gang);
}

std::string ShortenName(std::string_view name, size_t limit) {
  if (name.size() <= limit) return std::string(name);
  // FNV-1a of the whole name: the same name always gets the same suffix, and names that share
  // the kept prefix still differ.
  uint32_t hash = 2166136261u;
  for (char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string suffix = "-";
  for (int shift = 28; shift >= 0; shift -= 4) suffix += kHex[(hash >> shift) & 15];
  std::string out(name.substr(0, limit - suffix.size()));
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
  return out + suffix;
}

const GangPlan* FindGang(const GangPlans& plans, std::string_view name) {
  for (const GangPlan& g : plans.gangs) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

}  // namespace wmap::scheduling
