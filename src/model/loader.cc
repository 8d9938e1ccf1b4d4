// Loading: text -> documents -> schema-checked model -> upstream validation -> compiled programs.
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "model/definition_data.h"
#include "model/definition_loader.h"
#include "model/field_reader.h"
#include "model/gang_validator.h"
#include "model/jq_rules.h"
#include "model/source_map.h"
#include "model/validator.h"
#include "wmap/definition.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap {

using model::ComponentPositions;
using model::Node;

std::optional<Expression> DefinitionLoader::Expr(const Node& parent, std::string_view key,
                                                 bool required, bool gang_variables) {
  std::optional<std::string> text = parent.String(key, required);
  if (!text) return std::nullopt;
  Node n = *parent.Member(key);
  Expression e;
  e.text = std::move(*text);
  e.field = n.path();
  e.position = n.position();
  Compile(&e, true, gang_variables);
  return e;
}

std::optional<Expression> DefinitionLoader::ExprItem(const Node& item) {
  if (!item.value().is_string()) {
    item.Fail(item.path() + " must be a string, got " + std::string(TypeName(item.value().type())),
              "write the jq expression as a string");
    return std::nullopt;
  }
  Expression e;
  e.text = std::string(item.value().as_string());
  e.field = item.path();
  e.position = item.position();
  Compile(&e, false, false);
  return e;
}

std::vector<Expression> DefinitionLoader::ExprList(const Node& parent, std::string_view key) {
  std::vector<Expression> out;
  std::optional<Node> list = parent.Array(key);
  if (!list) return out;
  for (const Node& item : list->Items()) {
    if (std::optional<Expression> e = ExprItem(item)) out.push_back(std::move(*e));
  }
  return out;
}

void DefinitionLoader::Compile(Expression* e, bool is_member, bool gang_variables) {
  model::JqFinding finding;
  std::optional<jq::Program> program =
      gang_variables ? model::CompileGangExpression(e->text, e->field, &finding)
                     : model::CompileDefinitionExpression(e->text, e->field, &finding);
  if (program) {
    e->program = std::move(*program);
    return;
  }
  Position at = finding.offset_known ? model::MapScalarOffset(source_, e->position, is_member,
                                                              e->text, finding.offset)
                                     : e->position;
  jq_errors_.push_back(
      Error{finding.message, file_, at, finding.hint, ErrorCode::kInvalidDefinition});
}

std::optional<GroupVersionKind> DefinitionLoader::Gvk(const Node& n) {
  if (!n.ExpectObject({"group", "version", "kind"})) return std::nullopt;
  GroupVersionKind gvk;
  gvk.group = n.String("group", true).value_or("");
  gvk.version = n.String("version", true).value_or("");
  gvk.kind = n.String("kind", true).value_or("");
  return gvk;
}

std::optional<SpecDefinition> DefinitionLoader::Spec(const Node& component) {
  std::optional<Node> n = component.Object("specDefinition");
  if (!n) return std::nullopt;
  if (!n->ExpectObject(
          {"podTemplateSpecPath", "podSpecPath", "metadataPath", "fragmentedPodSpecDefinition"})) {
    return std::nullopt;
  }
  SpecDefinition spec;
  spec.pod_template_spec = Expr(*n, "podTemplateSpecPath");
  spec.pod_spec = Expr(*n, "podSpecPath");
  spec.metadata = Expr(*n, "metadataPath");
  if (std::optional<Node> f = n->Object("fragmentedPodSpecDefinition")) {
    if (f->ExpectObject({"schedulerNamePath", "labelsPath", "annotationsPath", "resourcesPath",
                         "resourceClaimsPath", "podAffinityPath", "nodeAffinityPath",
                         "containersPath", "containerPath", "priorityClassNamePath",
                         "imagePath"})) {
      FragmentedPodSpecDefinition d;
      d.scheduler_name = Expr(*f, "schedulerNamePath");
      d.labels = Expr(*f, "labelsPath");
      d.annotations = Expr(*f, "annotationsPath");
      d.resources = Expr(*f, "resourcesPath");
      d.resource_claims = Expr(*f, "resourceClaimsPath");
      d.pod_affinity = Expr(*f, "podAffinityPath");
      d.node_affinity = Expr(*f, "nodeAffinityPath");
      d.containers = Expr(*f, "containersPath");
      d.container = Expr(*f, "containerPath");
      d.priority_class_name = Expr(*f, "priorityClassNamePath");
      d.image = Expr(*f, "imagePath");
      spec.fragmented = std::move(d);
    }
  }
  return spec;
}

std::vector<StatusMatcher> DefinitionLoader::Matchers(const Node& list) {
  std::vector<StatusMatcher> out;
  for (const Node& item : list.Items()) {
    if (!item.ExpectObject({"byPhase", "byConditions", "byExpression"})) continue;
    StatusMatcher m;
    m.by_phase = item.String("byPhase").value_or("");
    if (std::optional<Node> conditions = item.Array("byConditions")) {
      for (const Node& c : conditions->Items()) {
        if (!c.ExpectObject({"type", "status", "reason"})) continue;
        ExpectedCondition expected;
        expected.type = c.String("type", true).value_or("");
        expected.status = c.String("status");
        expected.reason = c.String("reason");
        m.by_conditions.push_back(std::move(expected));
      }
    }
    if (std::optional<Node> e = item.Object("byExpression")) {
      if (e->ExpectObject({"expression", "expectedResult"})) {
        std::optional<Expression> expression = Expr(*e, "expression", true);
        std::optional<std::string> expected = e->String("expectedResult", true);
        if (expression) {
          ExpressionMatcher matcher;
          matcher.expression = std::move(*expression);
          matcher.expected_result = expected.value_or("");
          if (matcher.expression.program) {
            std::string body = matcher.expression.text.empty() ? "." : matcher.expression.text;
            matcher.comparison = model::CompileInternal("(" + body + "\n) | tostring");
          }
          m.by_expression = std::move(matcher);
        }
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<StatusDefinition> DefinitionLoader::Status(const Node& component) {
  std::optional<Node> n = component.Object("statusDefinition");
  if (!n) return std::nullopt;
  if (!n->ExpectObject({"phaseDefinition", "conditionsDefinition", "statusMappings"})) {
    return std::nullopt;
  }
  StatusDefinition status;
  if (std::optional<Node> phase = n->Object("phaseDefinition")) {
    if (phase->ExpectObject({"path"})) status.phase = Expr(*phase, "path", true);
  }
  if (std::optional<Node> c = n->Object("conditionsDefinition")) {
    if (c->ExpectObject(
            {"path", "typeFieldName", "statusFieldName", "messageFieldName", "reasonFieldName"})) {
      std::optional<Expression> path = Expr(*c, "path", true);
      if (path) {
        ConditionsDefinition d;
        d.path = std::move(*path);
        bool defaults = options_.apply_crd_defaults;
        d.type_field_name = c->String("typeFieldName").value_or(defaults ? "type" : "");
        d.status_field_name = c->String("statusFieldName").value_or(defaults ? "status" : "");
        d.message_field_name = c->String("messageFieldName");
        d.reason_field_name = c->String("reasonFieldName");
        if (defaults && !d.message_field_name) d.message_field_name = "message";
        if (defaults && !d.reason_field_name) d.reason_field_name = "reason";
        status.conditions = std::move(d);
      }
    }
  }
  static constexpr std::pair<ResourceStatus, std::string_view> kOrder[] = {
      {ResourceStatus::kResuming, "resuming"},
      {ResourceStatus::kSuspending, "suspending"},
      {ResourceStatus::kSuspended, "suspended"},
      {ResourceStatus::kRunning, "running"},
      {ResourceStatus::kFailed, "failed"},
      {ResourceStatus::kCompleted, "completed"},
      {ResourceStatus::kInitializing, "initializing"},
      {ResourceStatus::kDegraded, "degraded"},
  };
  std::optional<Node> mappings = n->Object("statusMappings", true);
  if (mappings) {
    mappings->ExpectObject({"initializing", "running", "completed", "failed", "degraded",
                            "suspended", "suspending", "resuming"});
  }
  // Matchers are read in document field order (so errors come in file order), then placed in
  // evaluation order.
  std::vector<std::pair<std::string_view, std::vector<StatusMatcher>>> read;
  if (mappings && mappings->value().is_object()) {
    for (const Member& m : mappings->value().members()) {
      std::string_view key = m.key.as_string();
      std::optional<Node> list = mappings->Array(key);
      if (list) read.emplace_back(key, Matchers(*list));
    }
  }
  for (const auto& [which, key] : kOrder) {
    StatusMapping mapping{which, {}};
    for (auto& [k, matchers] : read) {
      if (k == key) mapping.matchers = std::move(matchers);
    }
    status.mappings.push_back(std::move(mapping));
  }
  return status;
}

std::vector<SuspendAction> DefinitionLoader::Actions(const Node& suspend, std::string_view key) {
  std::vector<SuspendAction> out;
  std::optional<Node> list = suspend.Array(key, true);
  if (!list) return out;
  if (list->value().size() == 0) {
    list->Fail(list->path() + " must have at least 1 item",
               "give at least one {path, value} action");
  }
  for (const Node& item : list->Items()) {
    if (!item.ExpectObject({"path", "value"})) continue;
    std::optional<Expression> path = Expr(item, "path", true);
    std::optional<std::string> value = item.String("value", true);
    if (!path || !value) continue;
    SuspendAction action;
    action.path = std::move(*path);
    action.value_text = *value;
    Result<Value> decoded = json::Parse(*value);
    if (decoded.ok()) action.value = std::move(decoded.value());
    out.push_back(std::move(action));
  }
  return out;
}

std::optional<SuspendDefinition> DefinitionLoader::Suspend(const Node& component) {
  std::optional<Node> n = component.Object("suspendDefinition");
  if (!n || !n->ExpectObject({"suspendActions", "resumeActions"})) return std::nullopt;
  SuspendDefinition d;
  d.suspend_actions = Actions(*n, "suspendActions");
  d.resume_actions = Actions(*n, "resumeActions");
  return d;
}

std::optional<PodSelector> DefinitionLoader::Selector(const Node& component,
                                                      ComponentPositions* positions) {
  std::optional<Node> n = component.Object("podSelector");
  if (!n) return std::nullopt;
  positions->pod_selector = n->position();
  if (!n->ExpectObject({"componentTypeSelector", "componentInstanceSelector", "replicaSelector"})) {
    return std::nullopt;
  }
  PodSelector selector;
  if (std::optional<Node> t = n->Object("componentTypeSelector")) {
    positions->type_selector = t->position();
    if (t->ExpectObject({"keyPath", "value", "matchLabels"})) {
      ComponentTypeSelector s;
      s.key_path = Expr(*t, "keyPath");
      if (s.key_path && s.key_path->text.empty()) {
        t->Member("keyPath")->Fail(t->path() + ".keyPath in body should be at least 1 chars long",
                                   "give the jq path of the pod field to test");
      }
      s.value = t->String("value");
      if (std::optional<Node> labels = t->Object("matchLabels")) {
        positions->match_labels = labels->position();
        std::vector<std::pair<std::string, std::string>> sorted;
        for (const Member& m : labels->value().members()) {
          std::optional<std::string> v = labels->String(m.key.as_string());
          if (v) sorted.emplace_back(std::string(m.key.as_string()), *v);
        }
        std::sort(sorted.begin(), sorted.end());
        s.match_labels = std::move(sorted);
      }
      if (s.key_path && s.key_path->program && s.value) {
        std::string body = s.key_path->text;
        s.value_comparison = model::CompileInternal(
            "(" + body + "\n) == " + json::ToCompactString(Value::String(*s.value)));
      }
      selector.component_type = std::move(s);
    }
  }
  if (std::optional<Node> i = n->Object("componentInstanceSelector")) {
    positions->instance_selector = i->position();
    selector.has_component_instance_selector = true;
    if (i->ExpectObject({"idPath"})) selector.component_instance_id_path = Expr(*i, "idPath", true);
  }
  if (std::optional<Node> r = n->Object("replicaSelector")) {
    selector.has_replica_selector = true;
    if (r->ExpectObject({"keyPath"})) selector.replica_key_path = Expr(*r, "keyPath", true);
  }
  return selector;
}

ComponentDefinition DefinitionLoader::Component(const Node& n, ComponentPositions* positions) {
  ComponentDefinition c;
  positions->node = n.position();
  c.position = n.position();
  if (!n.ExpectObject({"name", "kind", "ownerRef", "specDefinition", "scaleDefinition",
                       "statusDefinition", "suspendDefinition", "instanceIdPath", "podSelector"})) {
    return c;
  }
  auto pos = [&](std::string_view key) {
    std::optional<Node> m = n.Member(key);
    return m ? m->position() : Position{};
  };
  positions->name = pos("name");
  positions->kind = pos("kind");
  positions->owner_ref = pos("ownerRef");
  positions->spec = pos("specDefinition");
  positions->status = pos("statusDefinition");
  positions->instance_id_path = pos("instanceIdPath");
  c.name = n.String("name", true).value_or("");
  if (std::optional<Node> kind = n.Object("kind")) c.kind = Gvk(*kind);
  c.owner_ref = n.String("ownerRef");
  c.spec = Spec(n);
  if (std::optional<Node> scale = n.Object("scaleDefinition")) {
    if (scale->ExpectObject(
            {"replicasPath", "minReplicasPath", "maxReplicasPath", "podsPerReplicaPath"})) {
      ScaleDefinition s;
      s.replicas = Expr(*scale, "replicasPath");
      s.min_replicas = Expr(*scale, "minReplicasPath");
      s.max_replicas = Expr(*scale, "maxReplicasPath");
      if (ExtensionAllowed(*scale, "podsPerReplicaPath")) {
        s.pods_per_replica = Expr(*scale, "podsPerReplicaPath");
      }
      c.scale = std::move(s);
    }
  }
  c.status = Status(n);
  c.suspend = Suspend(n);
  c.instance_id_path = Expr(n, "instanceIdPath");
  c.pod_selector = Selector(n, positions);
  return c;
}

std::optional<Topology> DefinitionLoader::TopologyOf(const Node& parent) {
  std::optional<Node> n = parent.Object("topology");
  if (!n || !n->ExpectObject({"topologyName", "preferredTopologyLevel", "requiredTopologyLevel"})) {
    return std::nullopt;
  }
  Topology t;
  t.topology_name = n->String("topologyName", true).value_or("");
  t.preferred_topology_level = n->String("preferredTopologyLevel", true).value_or("");
  t.required_topology_level = n->String("requiredTopologyLevel", true).value_or("");
  return t;
}

std::optional<GangScheduling> DefinitionLoader::Gang(const Node& spec) {
  std::optional<Node> instructions = spec.Object("optimizationInstructions");
  if (!instructions || !instructions->ExpectObject({"gangScheduling"})) return std::nullopt;
  std::optional<Node> n = instructions->Object("gangScheduling");
  if (!n || !n->ExpectObject({"podGroups", "podGroup", "gangs"})) return std::nullopt;
  GangScheduling gang;
  if (std::optional<Node> groups = n->Array("podGroups")) {
    for (const Node& g : groups->Items()) {
      if (!g.ExpectObject({"name", "members"})) continue;
      PodGroupDefinition group;
      group.name = g.String("name", true).value_or("");
      if (std::optional<Node> members = g.Array("members")) {
        for (const Node& m : members->Items()) {
          if (!m.ExpectObject({"componentName", "groupByKeyPaths", "filters"})) continue;
          PodGroupMember member;
          member.component_name = m.String("componentName", true).value_or("");
          std::optional<Node> name = m.Member("componentName");
          member_positions_.push_back(name ? name->position() : m.position());
          member.group_by_key_paths = ExprList(m, "groupByKeyPaths");
          member.filters = ExprList(m, "filters");
          group.members.push_back(std::move(member));
        }
      }
      gang.pod_groups.push_back(std::move(group));
    }
  }
  if (std::optional<Node> g = n->Object("podGroup")) {
    if (g->ExpectObject({"name", "subGroups", "topology"})) {
      PodGroupV2 group;
      group.name = g->String("name").value_or("");
      if (std::optional<Node> subs = g->Array("subGroups")) {
        for (const Node& s : subs->Items()) {
          if (!s.ExpectObject({"componentName", "topology"})) continue;
          SubGroup sub;
          sub.component_name = s.String("componentName", true).value_or("");
          sub.topology = TopologyOf(s);
          group.sub_groups.push_back(std::move(sub));
        }
      }
      group.topology = TopologyOf(*g);
      gang.pod_group = std::move(group);
    }
  }
  if (ExtensionAllowed(*n, "gangs")) {
    if (std::optional<Node> gangs = n->Array("gangs")) gang.gangs = Gangs(*gangs);
  }
  return gang;
}

std::optional<Definition> DefinitionLoader::Load(const Value& document,
                                                 std::vector<Error>* errors) {
  Node root = reader_.Root(&document);
  auto data = std::make_shared<Definition::Data>();
  data->file = file_;
  std::vector<ComponentPositions> positions;
  bool structure_ok = false;
  if (root.ExpectObject({"apiVersion", "kind", "metadata", "spec", "status"})) {
    std::optional<std::string> api_version = root.String("apiVersion", true);
    std::optional<std::string> kind = root.String("kind", true);
    if (api_version && kind && *api_version == "workloadmap.dev/v1alpha1" &&
        *kind == "WorkloadDefinition") {
      format_ = DefinitionFormat::kWorkloadDefinition;
      data->format = format_;
    } else if (api_version && kind && (*api_version != "run.ai/v1alpha1" || *kind != "Karta")) {
      root.Fail("not a definition: apiVersion \"" + *api_version + "\", kind \"" + *kind + "\"",
                "a definition has apiVersion: run.ai/v1alpha1 and kind: Karta, or apiVersion: "
                "workloadmap.dev/v1alpha1 and kind: WorkloadDefinition");
    }
    if (std::optional<Node> metadata = root.Object("metadata")) {
      data->metadata = metadata->value();
      if (const Value* name = metadata->value().find("name"); name && name->is_string()) {
        data->name = std::string(name->as_string());
      }
    }
    if (std::optional<Node> spec = root.Object("spec", true)) {
      if (spec->ExpectObject({"structureDefinition", "optimizationInstructions"})) {
        if (std::optional<Node> s = spec->Object("structureDefinition", true)) {
          if (s->ExpectObject({"rootComponent", "childComponents", "additionalChildKinds"})) {
            if (std::optional<Node> r = s->Object("rootComponent", true)) {
              positions.emplace_back();
              data->components.push_back(Component(*r, &positions.back()));
              structure_ok = true;
            }
            if (std::optional<Node> children = s->Array("childComponents")) {
              for (const Node& c : children->Items()) {
                positions.emplace_back();
                data->components.push_back(Component(c, &positions.back()));
              }
            }
            if (std::optional<Node> kinds = s->Array("additionalChildKinds")) {
              for (const Node& k : kinds->Items()) {
                if (std::optional<GroupVersionKind> gvk = Gvk(k)) {
                  data->additional_child_kinds.push_back(std::move(*gvk));
                }
              }
            }
          }
        }
        data->gang = Gang(*spec);
      }
    }
  }
  size_t first = errors->size();
  errors->insert(errors->end(), schema_errors_.begin(), schema_errors_.end());
  if (structure_ok) {
    model::StructureInput input{&data->components, &positions, &data->gang, &member_positions_,
                                file_};
    if (model::ValidateStructure(input, errors)) {
      model::ValidateGangs(data->components, data->gang, gang_positions_, file_, errors);
      errors->insert(errors->end(), jq_errors_.begin(), jq_errors_.end());
    }
  }
  if (errors->size() != first || !structure_ok) return std::nullopt;

  // Indexes: parents and children (the validator guaranteed a tree).
  const auto& components = data->components;
  data->parents.assign(components.size(), -1);
  data->children.assign(components.size(), {});
  std::unordered_map<std::string_view, size_t> first_named;  // the first component of a name
  for (size_t j = 0; j < components.size(); ++j) first_named.emplace(components[j].name, j);
  for (size_t i = 1; i < components.size(); ++i) {
    auto it = first_named.find(*components[i].owner_ref);
    if (it == first_named.end()) continue;
    data->parents[i] = static_cast<int>(it->second);
    data->children[it->second].push_back(i);
  }
  data->root_kind = *components[0].kind;
  return Definition(std::move(data));
}

namespace {

std::string DisplayName(std::string_view file) {
  return file.empty() ? std::string("<input>") : std::string(file);
}

}  // namespace

LoadResult LoadDefinitions(std::string_view text, std::string_view file,
                           const LoadOptions& options) {
  LoadResult result;
  yaml::ReadOptions read_options;
  read_options.record_positions = true;
  Result<std::vector<yaml::Document>> documents = yaml::ParseStream(text, read_options);
  if (!documents.ok()) {
    Error e = documents.error();
    e.file = DisplayName(file);
    if (e.hint.empty()) e.hint = "the file must be YAML or JSON";
    result.errors.push_back(std::move(e));
    return result;
  }
  result.documents = documents->size();
  if (documents->empty()) {
    result.errors.push_back(Error{"no definition found (the input is empty)",
                                  DisplayName(file),
                                  {},
                                  "give a document with apiVersion: run.ai/v1alpha1, kind: Karta",
                                  ErrorCode::kInvalidDefinition});
    return result;
  }
  for (const yaml::Document& doc : *documents) {
    DefinitionLoader loader(text, DisplayName(file), &doc.positions, options);
    if (std::optional<Definition> d = loader.Load(doc.value, &result.errors)) {
      result.definitions.push_back(std::move(*d));
    }
  }
  return result;
}

LoadResult LoadDefinitionValue(const Value& document, std::string_view file,
                               const LoadOptions& options) {
  LoadResult result;
  DefinitionLoader loader("", DisplayName(file), nullptr, options);
  if (std::optional<Definition> d = loader.Load(document, &result.errors)) {
    result.definitions.push_back(std::move(*d));
  }
  return result;
}

}  // namespace wmap
