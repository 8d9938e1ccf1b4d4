// Recognises the three document shapes and indexes their kinds.
#include "schema/documents.h"

#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "schema/compiler.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::schema {
namespace {

std::string_view StringAt(const Value& v, std::initializer_list<std::string_view> path) {
  const Value* cur = &v;
  for (std::string_view key : path) {
    cur = cur->find(key);
    if (cur == nullptr) return {};
  }
  return cur->is_string() ? cur->as_string() : std::string_view();
}

const Value* At(const Value& v, std::initializer_list<std::string_view> path) {
  const Value* cur = &v;
  for (std::string_view key : path) {
    cur = cur->find(key);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

Error DocumentError(std::string_view name, std::string message) {
  Error e;
  e.file = std::string(name);
  e.message = std::move(message);
  return e;
}

// One CustomResourceDefinition: a kind entry per version.
std::optional<Error> AddCrd(const Value& crd, std::string_view name, CompiledDocument* out) {
  std::string_view group = StringAt(crd, {"spec", "group"});
  std::string_view kind = StringAt(crd, {"spec", "names", "kind"});
  if (group.empty() || kind.empty()) {
    return DocumentError(name, "CustomResourceDefinition without spec.group or spec.names.kind");
  }
  Compiler compiler(out->graph.get(), Dialect::kStructural, nullptr, "");
  // apiextensions.k8s.io/v1beta1 keeps one schema for every version.
  const Value* shared = At(crd, {"spec", "validation", "openAPIV3Schema"});
  int32_t shared_root = -1;
  auto add = [&](std::string_view version, const Value* schema, bool served) {
    int32_t root;
    if (schema != nullptr) {
      root = compiler.Compile(*schema);
    } else {
      if (shared_root < 0) {
        shared_root = compiler.Compile(shared != nullptr ? *shared : Value::Bool(true));
      }
      root = shared_root;
    }
    out->kinds.push_back(
        KindEntry{GroupVersionKind{std::string(group), std::string(version), std::string(kind)},
                  root, true, served});
  };
  const Value* versions = At(crd, {"spec", "versions"});
  if (versions != nullptr && versions->size() > 0) {
    for (const Value& v : versions->items()) {
      std::string_view version = StringAt(v, {"name"});
      if (version.empty()) continue;
      const Value* served = v.find("served");
      add(version, At(v, {"schema", "openAPIV3Schema"}),
          served == nullptr || !served->is_bool() || served->as_bool());
    }
  } else if (std::string_view version = StringAt(crd, {"spec", "version"}); !version.empty()) {
    add(version, nullptr, true);
  } else {
    return DocumentError(name, "CustomResourceDefinition without spec.versions");
  }
  return std::nullopt;
}

// Kinds named by `x-kubernetes-group-version-kind` on definitions.
void AddTaggedKinds(const Value& definitions, Compiler* compiler, CompiledDocument* out,
                    std::set<std::tuple<std::string, std::string, std::string>>* seen) {
  for (const Member& m : definitions.members()) {
    const Value* gvks = m.value.find("x-kubernetes-group-version-kind");
    if (gvks == nullptr) continue;
    int32_t root = -1;
    for (const Value& g : gvks->items()) {
      GroupVersionKind gvk{std::string(StringAt(g, {"group"})),
                           std::string(StringAt(g, {"version"})),
                           std::string(StringAt(g, {"kind"}))};
      if (gvk.version.empty() || gvk.kind.empty()) continue;
      if (!seen->emplace(gvk.group, gvk.version, gvk.kind).second) continue;
      if (root < 0) root = compiler->CompileDefinition(m.key.as_string());
      out->kinds.push_back(KindEntry{std::move(gvk), root, false, true});
    }
  }
}

// Swagger documents without kind tags (KubeVirt's): the body of each collection's create
// operation names the definition; the path names group and version; the kind is the
// definition's name after its last dot.
void AddPathKinds(const Value& doc, Compiler* compiler, CompiledDocument* out,
                  std::set<std::tuple<std::string, std::string, std::string>>* seen) {
  const Value* paths = doc.find("paths");
  if (paths == nullptr) return;
  for (const Member& m : paths->members()) {
    std::vector<std::string_view> parts;
    std::string_view path = m.key.as_string();
    size_t start = 1;
    while (start <= path.size()) {
      size_t slash = path.find('/', start);
      if (slash == std::string_view::npos) slash = path.size();
      parts.push_back(path.substr(start, slash - start));
      start = slash + 1;
    }
    std::string_view group, version;
    size_t rest;
    if (parts.size() >= 3 && parts[0] == "api") {
      version = parts[1];
      rest = 2;
    } else if (parts.size() >= 4 && parts[0] == "apis") {
      group = parts[1];
      version = parts[2];
      rest = 3;
    } else {
      continue;
    }
    size_t tail = parts.size() - rest;
    bool collection =
        tail == 1 || (tail == 3 && parts[rest] == "namespaces" && parts[rest + 1].starts_with("{"));
    if (!collection || parts.back().starts_with("{")) continue;
    const Value* params = At(m.value, {"post", "parameters"});
    if (params == nullptr) continue;
    for (const Value& p : params->items()) {
      if (StringAt(p, {"in"}) != "body") continue;
      std::string_view ref = StringAt(p, {"schema", "$ref"});
      constexpr std::string_view kPrefix = "#/definitions/";
      if (!ref.starts_with(kPrefix)) continue;
      std::string_view def = ref.substr(kPrefix.size());
      size_t dot = def.rfind('.');
      std::string_view kind = dot == std::string_view::npos ? def : def.substr(dot + 1);
      if (kind.empty() || !seen->emplace(group, version, kind).second) continue;
      int32_t root = compiler->CompileDefinition(def);
      if (root < 0) continue;
      out->kinds.push_back(
          KindEntry{GroupVersionKind{std::string(group), std::string(version), std::string(kind)},
                    root, false, true});
    }
  }
}

std::optional<Error> AddOne(const Value& doc, std::string_view name, CompiledDocument* out) {
  if (!doc.is_object()) return DocumentError(name, "schema document is not an object");
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  if (StringAt(doc, {"kind"}) == "CustomResourceDefinition") return AddCrd(doc, name, out);
  if (const Value* schemas = At(doc, {"components", "schemas"});
      schemas != nullptr && doc.find("openapi") != nullptr) {
    Compiler compiler(out->graph.get(), Dialect::kBuiltin, schemas, "#/components/schemas/");
    AddTaggedKinds(*schemas, &compiler, out, &seen);
    return std::nullopt;
  }
  if (const Value* defs = doc.find("definitions"); defs != nullptr && doc.find("swagger")) {
    Compiler compiler(out->graph.get(), Dialect::kBuiltin, defs, "#/definitions/");
    AddTaggedKinds(*defs, &compiler, out, &seen);
    AddPathKinds(doc, &compiler, out, &seen);
    return std::nullopt;
  }
  return DocumentError(name, "not a CustomResourceDefinition, OpenAPI v3 or Swagger 2.0 document");
}

}  // namespace

Result<CompiledDocument> CompileDocument(std::string_view text, std::string_view name) {
  CompiledDocument out;
  out.graph = std::make_unique<Graph>();
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    Result<Value> doc = json::Parse(text);
    if (!doc.ok()) {
      Error e = doc.error();
      e.file = std::string(name);
      return e;
    }
    if (std::optional<Error> e = AddOne(*doc, name, &out)) return *e;
    return out;
  }
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(text);
  if (!docs.ok()) {
    Error e = docs.error();
    e.file = std::string(name);
    return e;
  }
  for (const yaml::Document& d : *docs) {
    if (d.value.is_null()) continue;
    if (std::optional<Error> e = AddOne(d.value, name, &out)) {
      e->position = d.start;
      return *e;
    }
  }
  return out;
}

}  // namespace wmap::schema
