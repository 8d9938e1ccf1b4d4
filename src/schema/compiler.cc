// JSON schema keywords to graph nodes.
#include "schema/compiler.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace wmap::schema {
namespace {

// Keywords whose presence makes a node more than a wrapper around a single allOf `$ref`.
constexpr std::string_view kShapeKeywords[] = {
    "type",
    "properties",
    "items",
    "additionalProperties",
    "required",
    "enum",
    "anyOf",
    "oneOf",
    "not",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-embedded-resource",
};

// Built-in resource.Quantity accepts numbers as well as strings, whatever type the document
// gives it.
bool IsQuantityName(std::string_view name) {
  constexpr std::string_view kSuffix = "pkg.api.resource.Quantity";
  return name.size() >= kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix;
}

bool Flag(const Value& schema, std::string_view key) {
  const Value* v = schema.find(key);
  return v != nullptr && v->is_bool() && v->as_bool();
}

std::optional<double> NumberOf(const Value& schema, std::string_view key) {
  const Value* v = schema.find(key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->as_double();
}

int64_t CountOf(const Value& schema, std::string_view key) {
  const Value* v = schema.find(key);
  if (v == nullptr || !v->is_number()) return -1;
  double d = v->as_double();
  if (!(d >= 0)) return -1;
  return d > 9e18 ? int64_t{9000000000000000000} : static_cast<int64_t>(d);
}

uint8_t TypeBits(std::string_view type) {
  if (type == "object") return kObjectBit;
  if (type == "array") return kArrayBit;
  if (type == "string") return kStringBit;
  if (type == "integer") return kIntegerBit;
  if (type == "number") return kNumberBit;
  if (type == "boolean") return kBooleanBit;
  return 0;
}

Format FormatOf(std::string_view format) {
  if (format == "int32") return Format::kInt32;
  if (format == "int64") return Format::kInt64;
  if (format == "date-time") return Format::kDateTime;
  if (format == "byte") return Format::kByte;
  return Format::kNone;
}

}  // namespace

const Property* Node::FindProperty(std::string_view name) const {
  auto it = std::lower_bound(properties.begin(), properties.end(), name,
                             [](const Property& p, std::string_view n) { return p.name < n; });
  if (it == properties.end() || it->name != name) return nullptr;
  return &*it;
}

Compiler::Compiler(Graph* graph, Dialect dialect, const Value* definitions, std::string ref_prefix)
    : graph_(graph),
      dialect_(dialect),
      definitions_(definitions),
      ref_prefix_(std::move(ref_prefix)) {}

int32_t Compiler::Compile(const Value& schema) {
  int32_t index = Reference(schema);
  Drain();
  return index;
}

int32_t Compiler::CompileDefinition(std::string_view name) {
  if (definitions_ == nullptr || definitions_->find(name) == nullptr) return -1;
  int32_t index = Named(name);
  Drain();
  return index;
}

int32_t Compiler::AddNode(Node node) {
  graph_->nodes.push_back(std::move(node));
  return static_cast<int32_t>(graph_->nodes.size() - 1);
}

int32_t Compiler::Enqueue(const Value* schema) {
  int32_t index = AddNode(Node{});
  queue_.emplace_back(index, schema);
  return index;
}

void Compiler::Drain() {
  while (!queue_.empty()) {
    auto [index, schema] = queue_.back();
    queue_.pop_back();
    // Fill may add nodes, so the node is assigned only after it is built.
    Node node = Fill(*schema);
    graph_->nodes[index] = std::move(node);
  }
}

int32_t Compiler::Reference(const Value& schema) {
  if (!schema.is_object()) {
    // `true` (or anything that is not a schema object) admits every value.
    if (any_node_ < 0) {
      Node any;
      any.nullable = true;
      any_node_ = AddNode(std::move(any));
    }
    return any_node_;
  }
  if (const Value* ref = schema.find("$ref"); ref != nullptr && ref->is_string()) {
    std::string_view text = ref->as_string();
    if (text.substr(0, ref_prefix_.size()) == ref_prefix_) text.remove_prefix(ref_prefix_.size());
    return Named(text);
  }
  if (const Value* all = schema.find("allOf"); all != nullptr && all->size() == 1 &&
                                               (*all)[0].is_object() &&
                                               (*all)[0].find("$ref") != nullptr) {
    bool wrapper = true;
    for (std::string_view key : kShapeKeywords) {
      if (schema.find(key) != nullptr) {
        wrapper = false;
        break;
      }
    }
    if (wrapper) return Reference((*all)[0]);
  }
  return Enqueue(&schema);
}

int32_t Compiler::Named(std::string_view name) {
  if (auto it = named_.find(std::string(name)); it != named_.end()) return it->second;
  // Follow chains of definitions that are themselves only a `$ref`; a cycle of such
  // definitions (or a dangling reference) admits every value.
  std::vector<std::string> chain;
  std::unordered_set<std::string> seen;
  std::string current(name);
  const Value* target = nullptr;
  bool quantity = false;
  while (true) {
    if (auto it = named_.find(current); it != named_.end()) {
      for (const std::string& n : chain) named_[n] = it->second;
      return it->second;
    }
    chain.push_back(current);
    if (!seen.insert(current).second) break;
    if (IsQuantityName(current)) {
      quantity = true;
      break;
    }
    target = definitions_ == nullptr ? nullptr : definitions_->find(current);
    if (target == nullptr || !target->is_object()) break;
    const Value* ref = target->find("$ref");
    if (ref == nullptr || !ref->is_string()) break;
    std::string_view next = ref->as_string();
    if (next.substr(0, ref_prefix_.size()) == ref_prefix_) next.remove_prefix(ref_prefix_.size());
    current = std::string(next);
    target = nullptr;
  }
  int32_t index;
  if (quantity) {
    Node node;
    node.types = kStringBit | kNumberBit;
    node.format = Format::kQuantity;
    node.nullable = dialect_ == Dialect::kBuiltin;
    index = AddNode(std::move(node));
  } else if (target == nullptr || !target->is_object() || target->find("$ref") != nullptr) {
    index = Reference(Value::Bool(true));
  } else {
    index = Enqueue(target);
  }
  for (const std::string& n : chain) named_[n] = index;
  return index;
}

std::shared_ptr<const RE2> Compiler::Pattern(std::string_view text) {
  auto [it, inserted] = patterns_.try_emplace(std::string(text));
  if (inserted) {
    RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_shared<const RE2>(text, options);
    if (re->ok()) it->second = std::move(re);
  }
  return it->second;
}

Node Compiler::Fill(const Value& schema) {
  Node node;
  if (const Value* type = schema.find("type"); type != nullptr && type->is_string()) {
    node.types = TypeBits(type->as_string());
  }
  node.nullable = dialect_ == Dialect::kBuiltin || Flag(schema, "nullable");
  if (const Value* format = schema.find("format"); format != nullptr && format->is_string()) {
    if (format->as_string() == "int-or-string") {
      node.types = kIntegerBit | kStringBit;
    } else {
      node.format = FormatOf(format->as_string());
      if (node.format == Format::kDateTime && dialect_ == Dialect::kBuiltin) {
        node.format = Format::kDateTimeStrict;
      }
    }
  }
  if (Flag(schema, "x-kubernetes-int-or-string")) node.types = kIntegerBit | kStringBit;
  node.embedded_resource = Flag(schema, "x-kubernetes-embedded-resource");
  // Built-in documents give zero values as defaults ("" for a required name); only custom
  // resources are defaulted from their schema.
  node.applies_defaults = dialect_ == Dialect::kStructural;

  if (const Value* props = schema.find("properties"); props != nullptr && props->is_object()) {
    node.properties.reserve(props->size());
    for (const Member& m : props->members()) {
      Property p{std::string(m.key.as_string()), Reference(m.value), std::nullopt};
      if (const Value* d = m.value.find("default"); d != nullptr && !d->is_null()) {
        p.default_value = *d;
      }
      node.properties.push_back(std::move(p));
    }
    std::sort(node.properties.begin(), node.properties.end(),
              [](const Property& a, const Property& b) { return a.name < b.name; });
  }
  if (const Value* required = schema.find("required"); required != nullptr) {
    for (const Value& r : required->items()) {
      if (r.is_string()) node.required.emplace_back(r.as_string());
    }
  }
  if (const Value* items = schema.find("items"); items != nullptr && items->is_object()) {
    node.items = Reference(*items);
  }

  const Value* additional = schema.find("additionalProperties");
  if (additional != nullptr && additional->is_object()) {
    node.extra = Extra::kSchema;
    node.additional = Reference(*additional);
  } else if (additional != nullptr && additional->is_bool()) {
    node.extra = additional->as_bool() ? Extra::kAllow : Extra::kReject;
  } else if (Flag(schema, "x-kubernetes-preserve-unknown-fields")) {
    node.extra = Extra::kAllow;
  } else if (!node.properties.empty()) {
    node.extra = Extra::kReject;
  } else if (dialect_ == Dialect::kStructural && (node.types & kObjectBit) != 0) {
    node.extra = Extra::kReject;
  } else {
    node.extra = Extra::kAllow;
  }
  FillChecks(schema, &node);
  return node;
}

void Compiler::FillChecks(const Value& schema, Node* node) {
  auto checks = std::make_unique<Checks>();
  bool any = false;
  if (const Value* e = schema.find("enum"); e != nullptr && e->is_array() && e->size() > 0) {
    checks->enum_values.assign(e->items().begin(), e->items().end());
    any = true;
  }
  checks->minimum = NumberOf(schema, "minimum");
  checks->maximum = NumberOf(schema, "maximum");
  // OpenAPI 3.0 and Swagger use booleans; JSON Schema 2019+ uses the bound itself.
  if (std::optional<double> bound = NumberOf(schema, "exclusiveMinimum")) {
    checks->minimum = bound;
    checks->exclusive_minimum = true;
  } else {
    checks->exclusive_minimum = Flag(schema, "exclusiveMinimum");
  }
  if (std::optional<double> bound = NumberOf(schema, "exclusiveMaximum")) {
    checks->maximum = bound;
    checks->exclusive_maximum = true;
  } else {
    checks->exclusive_maximum = Flag(schema, "exclusiveMaximum");
  }
  checks->multiple_of = NumberOf(schema, "multipleOf");
  if (checks->multiple_of && !(*checks->multiple_of > 0)) checks->multiple_of.reset();
  any = any || checks->minimum || checks->maximum || checks->multiple_of;
  checks->min_items = CountOf(schema, "minItems");
  checks->max_items = CountOf(schema, "maxItems");
  checks->min_length = CountOf(schema, "minLength");
  checks->max_length = CountOf(schema, "maxLength");
  checks->min_properties = CountOf(schema, "minProperties");
  checks->max_properties = CountOf(schema, "maxProperties");
  any = any || checks->min_items >= 0 || checks->max_items >= 0 || checks->min_length >= 0 ||
        checks->max_length >= 0 || checks->min_properties >= 0 || checks->max_properties >= 0;
  if (const Value* p = schema.find("pattern"); p != nullptr && p->is_string()) {
    checks->pattern = Pattern(p->as_string());
    any = any || checks->pattern != nullptr;
  }
  // Built-in types only warn about duplicate list-map keys (duplicate container ports are
  // accepted), so uniqueness is a rule of custom resources only.
  const Value* lt = schema.find("x-kubernetes-list-type");
  if (dialect_ == Dialect::kStructural && lt != nullptr && lt->is_string()) {
    if (lt->as_string() == "set") checks->list_type = ListType::kSet;
    if (lt->as_string() == "map") {
      checks->list_type = ListType::kMap;
      if (const Value* keys = schema.find("x-kubernetes-list-map-keys"); keys != nullptr) {
        for (const Value& k : keys->items()) {
          if (k.is_string()) checks->list_map_keys.emplace_back(k.as_string());
        }
      }
    }
    any = any || checks->list_type == ListType::kSet ||
          (checks->list_type == ListType::kMap && !checks->list_map_keys.empty());
  }
  auto branches = [&](std::string_view key, std::vector<int32_t>* out) {
    const Value* list = schema.find(key);
    if (list == nullptr) return;
    for (const Value& s : list->items()) out->push_back(Reference(s));
    any = any || !out->empty();
  };
  branches("allOf", &checks->all_of);
  branches("anyOf", &checks->any_of);
  branches("oneOf", &checks->one_of);
  if (const Value* n = schema.find("not"); n != nullptr && n->is_object()) {
    checks->not_schema = Reference(*n);
    any = true;
  }
  if (any) node->checks = std::move(checks);
}

}  // namespace wmap::schema
