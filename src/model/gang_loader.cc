// Reading the WorkloadDefinition extensions: the `gangs` form and the gate that keeps them out of
// a Karta.
#include <string>

#include "model/definition_loader.h"

namespace wmap {

using model::Node;

namespace {

// Deeper nesting is refused; real workloads need three or four levels.
constexpr int kMaxSubGroupDepth = 32;

}  // namespace

bool DefinitionLoader::ExtensionAllowed(const Node& n, std::string_view key) {
  if (extended()) return true;
  std::optional<Node> member = n.Member(key);
  if (member && !reader_.lenient()) {
    member->Fail("unknown field \"" + member->path() + "\"",
                 "this field needs apiVersion workloadmap.dev/v1alpha1 (kind WorkloadDefinition); "
                 "an API server with the run.ai Karta CRD would drop it");
  }
  return false;
}

std::optional<bool> DefinitionLoader::Bool(const Node& parent, std::string_view key) {
  std::optional<Node> member = parent.Member(key);
  if (!member || member->value().is_null()) return std::nullopt;
  if (!member->value().is_bool()) {
    member->Fail(member->path() + " must be a boolean, got " +
                 std::string(TypeName(member->value().type())));
    return std::nullopt;
  }
  return member->value().as_bool();
}

std::optional<Expression> DefinitionLoader::ExpressionObject(const Node& parent,
                                                             std::string_view key) {
  std::optional<Node> n = parent.Object(key);
  if (!n || !n->ExpectObject({"expression"})) return std::nullopt;
  return Expr(*n, "expression", true, true);
}

std::optional<Topology> DefinitionLoader::GangTopologyOf(const Node& parent) {
  std::optional<Node> n = parent.Object("topology");
  if (!n || !n->ExpectObject({"topologyName", "preferredTopologyLevel", "requiredTopologyLevel"})) {
    return std::nullopt;
  }
  Topology t;
  t.topology_name = n->String("topologyName", true).value_or("");
  t.preferred_topology_level = n->String("preferredTopologyLevel").value_or("");
  t.required_topology_level = n->String("requiredTopologyLevel").value_or("");
  if (t.topology_name.empty() && n->Member("topologyName")) {
    n->Fail(n->path() + ".topologyName must not be empty", "name the Topology resource to use");
  }
  if (t.preferred_topology_level.empty() && t.required_topology_level.empty()) {
    n->Fail(n->path() + " needs requiredTopologyLevel or preferredTopologyLevel",
            "give the node label level the pods must (required) or should (preferred) share");
  }
  return t;
}

GangSubGroupDefinition DefinitionLoader::SubGroupOf(const Node& n, int depth) {
  GangSubGroupDefinition sub;
  sub.field = n.path();
  sub.position = n.position();
  if (!n.ExpectObject({"componentName", "name", "forEachInstance", "forEachReplica", "minMember",
                       "optional", "minSubGroup", "topology", "subGroups"})) {
    return sub;
  }
  for (std::string_view key : {"componentName", "name", "forEachInstance", "forEachReplica",
                               "minMember", "optional", "minSubGroup"}) {
    if (std::optional<Node> m = n.Member(key)) gang_positions_.by_field[m->path()] = m->position();
  }
  sub.component_name = n.String("componentName").value_or("");
  sub.name = n.String("name");
  sub.for_each_instance = Bool(n, "forEachInstance").value_or(false);
  sub.for_each_replica = Bool(n, "forEachReplica").value_or(false);
  sub.optional = Bool(n, "optional").value_or(false);
  sub.min_member = ExpressionObject(n, "minMember");
  sub.min_sub_group = ExpressionObject(n, "minSubGroup");
  sub.topology = GangTopologyOf(n);
  if (std::optional<Node> children = n.Array("subGroups")) {
    if (depth >= kMaxSubGroupDepth) {
      children->Fail(
          "subGroups nested deeper than " + std::to_string(kMaxSubGroupDepth) + " levels",
          "flatten the subgroup tree");
    } else {
      for (const Node& child : children->Items()) {
        sub.sub_groups.push_back(SubGroupOf(child, depth + 1));
      }
    }
  }
  return sub;
}

GangDefinition DefinitionLoader::GangOf(const Node& n) {
  GangDefinition gang;
  gang.field = n.path();
  gang.position = n.position();
  gang.min_member_override_annotation = "workloadmap.dev/min-member";
  if (!n.ExpectObject({"name", "computed", "forEachInstanceOf", "forEachReplica", "nameTemplate",
                       "minMember", "minSubGroup", "minMemberOverrideAnnotation", "queue",
                       "priorityClassName", "preemptibility", "partialAdmission", "topology",
                       "subGroups"})) {
    return gang;
  }
  if (std::optional<Node> c = n.Member("computed")) {
    gang_positions_.by_field[c->path()] = c->position();
    if (c->ExpectObject({"gangs", "podGang", "podSubGroup"})) {
      std::optional<Expression> gangs = ExpressionObject(*c, "gangs");
      std::optional<Expression> pod_gang = ExpressionObject(*c, "podGang");
      if (!gangs) {
        c->Fail(c->path() + ".gangs is required",
                "an expression over the workload giving one object per gang");
      }
      if (!pod_gang) {
        c->Fail(c->path() + ".podGang is required",
                "an expression over a pod giving the name of its gang, e.g. "
                ".metadata.labels[\"grove.io/podgang\"]");
      }
      if (gangs && pod_gang) {
        gang.computed = ComputedGangs{std::move(*gangs), std::move(*pod_gang),
                                      ExpressionObject(*c, "podSubGroup")};
      }
    }
  }
  for (std::string_view key : {"name", "forEachInstanceOf", "forEachReplica", "nameTemplate",
                               "minMemberOverrideAnnotation"}) {
    if (std::optional<Node> m = n.Member(key)) gang_positions_.by_field[m->path()] = m->position();
  }
  gang.name = n.String("name", true).value_or("");
  gang.for_each_instance_of = n.String("forEachInstanceOf");
  gang.for_each_replica = Bool(n, "forEachReplica").value_or(false);
  gang.name_template = n.String("nameTemplate");
  gang.min_member = ExpressionObject(n, "minMember");
  gang.min_sub_group = ExpressionObject(n, "minSubGroup");
  if (std::optional<std::string> key = n.String("minMemberOverrideAnnotation")) {
    gang.min_member_override_annotation = *key;
  }
  gang.queue = ExpressionObject(n, "queue");
  gang.priority_class_name = ExpressionObject(n, "priorityClassName");
  gang.preemptibility = ExpressionObject(n, "preemptibility");
  gang.partial_admission = ExpressionObject(n, "partialAdmission");
  gang.topology = GangTopologyOf(n);
  if (std::optional<Node> subs = n.Array("subGroups")) {
    for (const Node& s : subs->Items()) gang.sub_groups.push_back(SubGroupOf(s, 1));
  }
  return gang;
}

std::vector<GangDefinition> DefinitionLoader::Gangs(const Node& list) {
  gang_positions_.by_field[list.path()] = list.position();
  std::vector<GangDefinition> out;
  for (const Node& item : list.Items()) out.push_back(GangOf(item));
  return out;
}

}  // namespace wmap
