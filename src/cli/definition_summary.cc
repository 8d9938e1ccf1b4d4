#include "cli/definition_summary.h"

#include <string>
#include <vector>

#include "wmap/view.h"

namespace wmap::cli {
namespace {

// An expression on one line: runs of whitespace become one space.
std::string Flat(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string Code(std::string_view text) {
  std::string flat = Flat(text);
  // A backtick inside the code needs a longer fence.
  if (flat.find('`') != std::string::npos) return "`` " + flat + " ``";
  return "`" + flat + "`";
}

// A markdown table cell: a pipe would end the cell.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string PodSource(const ComponentDefinition& c) {
  if (!c.spec) return "";
  if (c.spec->pod_template_spec) return "pod template " + Code(c.spec->pod_template_spec->text);
  if (c.spec->pod_spec) return "pod spec " + Code(c.spec->pod_spec->text);
  if (c.spec->fragmented) return "pod spec fragments";
  return "";
}

std::string ScaleText(const ComponentDefinition& c) {
  if (!c.scale) return "";
  std::string out;
  auto add = [&](std::string_view label, const std::optional<Expression>& e) {
    if (!e) return;
    if (!out.empty()) out += ", ";
    out += std::string(label) + " " + Code(e->text);
  };
  add("replicas", c.scale->replicas);
  add("min", c.scale->min_replicas);
  add("max", c.scale->max_replicas);
  return out;
}

std::string SelectorText(const ComponentDefinition& c) {
  if (!c.pod_selector) return "";
  std::vector<std::string> parts;
  if (const auto& t = c.pod_selector->component_type) {
    if (t->match_labels) {
      std::string labels;
      for (const auto& [k, v] : *t->match_labels) {
        if (!labels.empty()) labels += ",";
        labels += k + "=" + v;
      }
      parts.push_back("labels " + Code(labels));
    }
    if (t->key_path) {
      std::string s = "type " + Code(t->key_path->text);
      if (t->value) s += " = " + Code(*t->value);
      parts.push_back(s);
    }
  }
  if (c.pod_selector->component_instance_id_path) {
    parts.push_back("instance " + Code(c.pod_selector->component_instance_id_path->text));
  }
  if (c.pod_selector->replica_key_path) {
    parts.push_back("replica " + Code(c.pod_selector->replica_key_path->text));
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

const StatusMapping& MappingOf(const StatusDefinition& s, ResourceStatus status) {
  for (const StatusMapping& m : s.mappings) {
    if (m.status == status) return m;
  }
  return s.mappings.front();  // unreachable: MappedStatuses only names mapped statuses
}

std::string StatusList(const StatusDefinition& s) {
  std::string out;
  for (ResourceStatus r : view::MappedStatuses(s)) {
    if (!out.empty()) out += ", ";
    out += ResourceStatusName(r);
  }
  return out.empty() ? "–" : out;
}

std::string TopologyText(const std::optional<Topology>& t) {
  if (!t) return "";
  std::string out = "topology " + t->topology_name;
  if (!t->required_topology_level.empty()) out += " required " + t->required_topology_level;
  if (!t->preferred_topology_level.empty()) out += " preferred " + t->preferred_topology_level;
  return out;
}

std::string ComponentName(const Definition& d, const std::string& name) {
  int i = d.FindComponent(name);
  if (i < 0) return "`" + name + "`";
  const ComponentDefinition& c = d.components()[static_cast<size_t>(i)];
  return "`" + name + "`" + (c.kind ? " (" + c.kind->kind + ")" : "");
}

}  // namespace

std::string MatcherText(const StatusMatcher& matcher) {
  std::vector<std::string> parts;
  if (!matcher.by_phase.empty()) parts.push_back("phase " + Code(matcher.by_phase));
  for (const ExpectedCondition& c : matcher.by_conditions) {
    std::string s = "condition " + c.type;
    if (c.status) s += "=" + *c.status;
    if (c.reason) s += " (reason " + *c.reason + ")";
    parts.push_back(s);
  }
  if (matcher.by_expression) {
    parts.push_back(Code(matcher.by_expression->expression.text) + " is " +
                    Code(matcher.by_expression->expected_result));
  }
  if (parts.empty()) return "always";
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? " and " : "") + parts[i];
  return out;
}

std::string GangText(const Definition& d) {
  const auto& gang = d.gang_scheduling();
  if (view::GangFormName(d) == "none") return "none";
  std::string out;
  if (!gang->gangs.empty()) {
    out = "gangs ";
    for (size_t i = 0; i < gang->gangs.size(); ++i) {
      out += (i ? ", `" : "`") + gang->gangs[i].name + "`";
    }
    return out + " (see docs/gangs.md)";
  }
  if (gang->pod_group) {
    const PodGroupV2& g = *gang->pod_group;
    out = "one pod group `" + g.name + "` per workload";
    if (g.sub_groups.empty()) {
      out += ", minimum = every pod of the workload at its minimum scale";
    } else {
      out += " with a subgroup per component (";
      for (size_t i = 0; i < g.sub_groups.size(); ++i) {
        if (i) out += ", ";
        out += ComponentName(d, g.sub_groups[i].component_name);
        if (g.sub_groups[i].topology) out += " " + TopologyText(g.sub_groups[i].topology);
      }
      out += "), each needing its component's pods at minimum scale";
    }
    if (g.topology) out += "; " + TopologyText(g.topology);
  }
  for (const PodGroupDefinition& g : gang->pod_groups) {
    if (!out.empty()) out += "; ";
    out += "pod groups `" + g.name + "`: ";
    for (size_t i = 0; i < g.members.size(); ++i) {
      const PodGroupMember& m = g.members[i];
      if (i) out += ", ";
      out += "the pods of " + ComponentName(d, m.component_name);
      if (!m.group_by_key_paths.empty()) {
        out += " grouped by ";
        for (size_t k = 0; k < m.group_by_key_paths.size(); ++k) {
          out += (k ? " and " : "") + Code(m.group_by_key_paths[k].text);
        }
      }
      if (!m.filters.empty()) out += " (filtered)";
    }
    out += ", each group needing the member component's pods at minimum scale";
  }
  return out;
}

std::string DescribeDefinition(const CatalogEntry& entry) {
  const Definition& d = entry.definition;
  std::string out;
  out += "Name:        " + d.name() + "\n";
  out += "Kind:        " + d.root_kind().kind + " (" + d.root_kind().ApiVersion() + ")\n";
  out += "Origin:      " + entry.origin + "\n";
  out += "Components:\n";
  for (size_t i = 0; i < d.components().size(); ++i) {
    const ComponentDefinition& c = d.components()[i];
    int depth = 0;
    for (int p = d.Parent(i); p >= 0; p = d.Parent(static_cast<size_t>(p))) ++depth;
    std::string indent(2 + 2 * depth, ' ');
    out += indent + c.name;
    if (c.kind) out += " (" + view::KindName(*c.kind) + ")";
    out += "\n";
    std::string pods = PodSource(c);
    if (!pods.empty()) out += indent + "  pods:      " + pods + "\n";
    if (c.instance_id_path) {
      out += indent + "  instances: " + Code(c.instance_id_path->text) + "\n";
    }
    std::string scale = ScaleText(c);
    if (!scale.empty()) out += indent + "  scale:     " + scale + "\n";
    if (c.status) out += indent + "  statuses:  " + StatusList(*c.status) + "\n";
    if (c.suspend) out += indent + "  suspend:   yes\n";
    std::string selector = SelectorText(c);
    if (!selector.empty()) out += indent + "  selector:  " + selector + "\n";
  }
  const ComponentDefinition& root = d.root();
  if (root.status) {
    out += view::MappedStatuses(*root.status).empty() ? "Statuses:    none mapped (Undefined)\n"
                                                      : "Statuses:\n";
    for (ResourceStatus status : view::MappedStatuses(*root.status)) {
      const StatusMapping& m = MappingOf(*root.status, status);
      for (const StatusMatcher& matcher : m.matchers) {
        std::string name(ResourceStatusName(m.status));
        out += "  " + name + std::string(name.size() < 13 ? 13 - name.size() : 1, ' ') +
               MatcherText(matcher) + "\n";
      }
    }
  }
  out += "Gang:        " + GangText(d) + "\n";
  if (!d.additional_child_kinds().empty()) {
    out += "Also owns:   ";
    for (size_t i = 0; i < d.additional_child_kinds().size(); ++i) {
      out += (i ? ", " : "") + view::KindName(d.additional_child_kinds()[i]);
    }
    out += "\n";
  }
  return out;
}

std::string DefinitionMarkdown(const CatalogEntry& entry) {
  const Definition& d = entry.definition;
  const GroupVersionKind& k = d.root_kind();
  std::string out = "## " + k.kind + " (`" + k.ApiVersion() + "`)\n\n";
  out += "Definition `" + d.name() + "`";
  if (entry.origin != kBuiltInOrigin) out += " (from `" + entry.origin + "`)";
  out += ".\n\n";
  out += "| component | kind | owner | pods | instances | scale | statuses |\n";
  out += "|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < d.components().size(); ++i) {
    const ComponentDefinition& c = d.components()[i];
    int parent = d.Parent(i);
    std::string pods = PodSource(c);
    std::string scale = ScaleText(c);
    out += "| `" + c.name + "` | " + (c.kind ? view::KindName(*c.kind) : std::string("–")) + " | " +
           (parent < 0 ? std::string("–") : "`" + d.components()[parent].name + "`") + " | " +
           (pods.empty() ? "–" : Cell(pods)) + " | " +
           (c.instance_id_path ? Cell(Code(c.instance_id_path->text)) : std::string("–")) + " | " +
           (scale.empty() ? "–" : Cell(scale)) + " | " +
           (c.status ? StatusList(*c.status) : std::string("–")) + " |\n";
  }
  out += "\n";
  const ComponentDefinition& root = d.root();
  if (root.status && view::MappedStatuses(*root.status).empty()) {
    out += "Status: none mapped; every object reads as Undefined.\n\n";
  } else if (root.status) {
    out += "Status:\n\n";
    for (ResourceStatus status : view::MappedStatuses(*root.status)) {
      const StatusMapping& m = MappingOf(*root.status, status);
      out += "- **" + std::string(ResourceStatusName(m.status)) + "** when ";
      for (size_t i = 0; i < m.matchers.size(); ++i) {
        out += (i ? "; or " : "") + MatcherText(m.matchers[i]);
      }
      out += "\n";
    }
    out += "\n";
  }
  bool suspend = false;
  for (const ComponentDefinition& c : d.components()) suspend = suspend || c.suspend.has_value();
  out += "Suspend and resume: " + std::string(suspend ? "yes" : "no") + ".\n\n";
  out += "Gang scheduling: " + GangText(d) + ".\n\n";
  return out;
}

std::string CatalogMarkdown(const std::vector<const CatalogEntry*>& entries) {
  std::string out =
      "# Built-in definitions\n\n"
      "The workload types `wmap` reads without a `--definition`, generated by\n"
      "`wmap definitions -o markdown` from `catalog/*.yaml` (do not edit by hand; a test fails\n"
      "when this page and the catalog differ). For each type: its components (the objects and\n"
      "pods the controller creates), where the pods, instances and replicas are read, the\n"
      "statuses it reports and when, and how its pods are gang scheduled.\n\n";
  out += "| type | API version | definition | components | statuses | gang |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const CatalogEntry* e : entries) {
    const Definition& d = e->definition;
    const GroupVersionKind& k = d.root_kind();
    std::string components;
    for (size_t i = 0; i < d.components().size(); ++i) {
      components += (i ? ", " : "") + d.components()[i].name;
    }
    std::string_view form = view::GangFormName(d);
    std::string gang_cell = form == "none" ? "–" : std::string(form);
    out += "| " + k.kind + " | `" + k.ApiVersion() + "` | `" + d.name() + "` | " + components +
           " | " + (d.root().status ? StatusList(*d.root().status) : std::string("–")) + " | " +
           gang_cell + " |\n";
  }
  out += "\n";
  for (const CatalogEntry* e : entries) out += DefinitionMarkdown(*e);
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace wmap::cli
