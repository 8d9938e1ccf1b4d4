// The Kubernetes Workload API with CompositePodGroups (scheduling.k8s.io/v1alpha3, Kubernetes
// 1.37 behind the CompositePodGroup gate): a gang's subgroup tree kept as a tree.
//
// The Workload holds templates, which describe shapes: one composite template per definition
// gang, a nested composite template per parent subgroup and a pod group template per leaf, where
// subgroups made per replica of one instance share a template (the largest minimum). The objects
// are instances: per planned gang a CompositePodGroup for its root, one per parent subgroup
// (parentCompositePodGroupName linking them), and a PodGroup per leaf, which the pods join.
//
// Invariants: template names are DNS labels unique in the whole Workload; a list holds at most 8
// templates and composites nest at most 4 deep (both refused otherwise); every composite
// template has a child; every object names a template of its Workload and, below the root, an
// emitted parent.
#include <algorithm>
#include <map>
#include <set>

#include "scheduling/workload_api.h"

namespace wmap::scheduling {
namespace {

constexpr size_t kMaxTemplatesPerList = 8;
constexpr size_t kMaxCompositeDepth = 4;

// {"gang": {"minGroupCount": N}} when N children are needed, else {"basic": {}}.
Value CompositePolicy(int64_t min_groups) {
  return min_groups >= 1
             ? Value::Object({{"gang", Value::Object({{"minGroupCount", Value::Int(min_groups)}})}})
             : Value::Object({{"basic", Value::EmptyObject()}});
}

// A subgroup's name without its replica: the shape its replicas share.
std::string ShapeName(const SubGroupPlan& s) {
  if (s.replica && s.name.size() > s.replica->size() && s.name.ends_with(*s.replica)) {
    std::string shape = s.name.substr(0, s.name.size() - s.replica->size());
    while (!shape.empty() && (shape.back() == '-' || shape.back() == '_')) shape.pop_back();
    if (!shape.empty()) return shape;
  }
  return s.name;
}

struct TemplateNode {
  std::string name;  // unique DNS label
  bool composite = false;
  int64_t min = 0;  // composite: groups needed; leaf: pods needed
  std::vector<size_t> children;
};

// The template tree of every definition gang, and which template each gang and subgroup uses.
class TemplateTree {
 public:
  // The template of a gang (root composite) or of one of its subgroups.
  size_t Root(const GangPlan& g) {
    return Node(TemplateName(g), TemplateName(g), true, g.min_sub_group, std::nullopt);
  }
  size_t Sub(size_t parent, const SubGroupPlan& s, bool leaf) {
    const std::string key = std::to_string(parent) + "/" + ShapeName(s);
    return Node(key, DnsLabel(ShapeName(s)), !leaf, leaf ? s.min_member : s.min_sub_group, parent);
  }
  const std::vector<TemplateNode>& nodes() const { return nodes_; }
  std::vector<size_t> roots() const { return roots_; }

 private:
  size_t Node(const std::string& key, std::string name, bool composite, int64_t min,
              std::optional<size_t> parent) {
    auto [it, inserted] = index_.emplace(key, nodes_.size());
    if (!inserted) {
      nodes_[it->second].min = std::max(nodes_[it->second].min, min);
      return it->second;
    }
    if (name.empty()) name = "group";
    std::string unique = name;
    for (int n = 2; !names_.insert(unique).second; ++n) {
      unique = ShortenName(name, 58) + "-" + std::to_string(n);
    }
    nodes_.push_back(TemplateNode{unique, composite, min, {}});
    if (parent) {
      nodes_[*parent].children.push_back(it->second);
    } else {
      roots_.push_back(it->second);
    }
    return it->second;
  }
  std::vector<TemplateNode> nodes_;
  std::vector<size_t> roots_;
  std::map<std::string, size_t> index_;
  std::set<std::string> names_;
};

Error TooBig(const std::string& what) {
  return Error{"the Workload's template tree " + what,
               "",
               {},
               "use --api-version v1beta1, which flattens each gang into one PodGroup",
               ErrorCode::kUnsupported};
}

// The template value of node `i`, checking the API's limits.
Result<Value> TemplateValue(const TemplateTree& tree, size_t i, size_t depth,
                            const std::string& priority_class) {
  const TemplateNode& n = tree.nodes()[i];
  Value v = Value::Object({{"name", Value::String(n.name)}});
  if (!n.composite) {
    v.set("schedulingPolicy", Policy(n.min));
  } else {
    if (depth > kMaxCompositeDepth) {
      return TooBig("nests composites " + std::to_string(depth) + " deep; at most " +
                    std::to_string(kMaxCompositeDepth) + " are allowed");
    }
    v.set("schedulingPolicy", CompositePolicy(n.min));
    Value pods = Value::EmptyArray();
    Value composites = Value::EmptyArray();
    for (size_t child : n.children) {
      Result<Value> c = TemplateValue(tree, child, depth + 1, priority_class);
      if (!c.ok()) return c.error();
      (tree.nodes()[child].composite ? composites : pods).push_back(std::move(*c));
    }
    for (const Value* list : {&pods, &composites}) {
      if (list->size() > kMaxTemplatesPerList) {
        return TooBig("gives template " + n.name + " " + std::to_string(list->size()) +
                      " children of one kind; a list holds at most " +
                      std::to_string(kMaxTemplatesPerList));
      }
    }
    if (pods.size() > 0) v.set("podGroupTemplates", std::move(pods));
    if (composites.size() > 0) v.set("compositePodGroupTemplates", std::move(composites));
  }
  if (!priority_class.empty()) v.set("priorityClassName", Value::String(priority_class));
  return v;
}

}  // namespace

Result<SchedulerObjects> EmitWorkloadApiComposite(const EmitContext& c) {
  SchedulerObjects out;
  const std::string api_version = "scheduling.k8s.io/" + c.api_version;
  const std::string priority_class = PriorityClassOf(c.plans, &out.warnings);
  TemplateTree tree;
  // Per gang: the template of the root and of each subgroup.
  std::vector<std::map<std::string, size_t>> template_of(c.plans.gangs.size());
  std::vector<size_t> root_of(c.plans.gangs.size());
  for (size_t k = 0; k < c.plans.gangs.size(); ++k) {
    const GangPlan& g = c.plans.gangs[k];
    root_of[k] = tree.Root(g);
    if (g.sub_groups.empty()) {
      // A gang without subgroups: a composite root around one pod group template of its pods.
      SubGroupPlan all;
      all.name = TemplateName(g) + "-pods";
      all.min_member = static_cast<int32_t>(EffectiveMinPods(g));
      template_of[k][""] = tree.Sub(root_of[k], all, true);
      continue;
    }
    for (const SubGroupPlan& s : g.sub_groups) {  // parents precede their children
      const size_t parent = s.parent.empty() ? root_of[k] : template_of[k][s.parent];
      template_of[k][s.name] = tree.Sub(parent, s, IsLeaf(g, s));
    }
  }
  Value templates = Value::EmptyArray();
  for (size_t root : tree.roots()) {
    Result<Value> t = TemplateValue(tree, root, 1, priority_class);
    if (!t.ok()) return t.error();
    templates.push_back(std::move(*t));
  }
  if (templates.size() > kMaxTemplatesPerList) {
    return TooBig("has " + std::to_string(templates.size()) + " gangs' templates; at most " +
                  std::to_string(kMaxTemplatesPerList) + " are allowed");
  }
  Value spec = Value::Object({{"controllerRef", ControllerRef(c.identity)},
                              {"compositePodGroupTemplates", std::move(templates)}});
  out.objects.push_back(MakeObject(api_version, "Workload", ObjectMeta(c.identity, c.identity.name),
                                   std::move(spec)));

  auto group = [&](std::string_view kind, const std::string& name, size_t node,
                   const std::string& parent, Value policy) {
    Value s = Value::Object(
        {{"workloadRef", Value::Object({{"workloadName", Value::String(c.identity.name)},
                                        {"templateName", Value::String(tree.nodes()[node].name)}})},
         {"schedulingPolicy", std::move(policy)}});
    if (!parent.empty()) s.set("parentCompositePodGroupName", Value::String(parent));
    if (!priority_class.empty()) s.set("priorityClassName", Value::String(priority_class));
    out.objects.push_back(
        MakeObject(api_version, kind, ObjectMeta(c.identity, name), std::move(s)));
  };
  std::set<std::string> names;
  std::vector<std::pair<TemplateRef, std::string>> owners;
  for (size_t k = 0; k < c.plans.gangs.size(); ++k) {
    const GangPlan& g = c.plans.gangs[k];
    const std::string root = PodGroupName(g);
    std::map<std::string, std::string> object_of;  // subgroup -> its object's name
    auto unique = [&](const std::string& name) -> Result<std::string> {
      if (names.insert(name).second) return name;
      return Error{"gang " + g.name + " makes " + name + ", which another gang makes too",
                   "",
                   {},
                   "give the definition's gangs distinct name templates",
                   ErrorCode::kInvalidDefinition};
    };
    if (Result<std::string> r = unique(root); !r.ok()) return r.error();
    group("CompositePodGroup", root, root_of[k], "", CompositePolicy(g.min_sub_group));
    if (g.topology) {
      out.warnings.push_back("gang " + g.name +
                             ": topology left out (schedulingConstraints needs the "
                             "TopologyAwareWorkloadScheduling feature gate)");
    }
    if (g.sub_groups.empty()) {
      Result<std::string> name = unique(DnsObjectName(g.name + "-pods"));
      if (!name.ok()) return name.error();
      group("PodGroup", *name, template_of[k][""], root, Policy(EffectiveMinPods(g)));
      Result<std::vector<TemplateRef>> refs = GangTemplates(c, g);
      if (!refs.ok()) return refs.error();
      for (const TemplateRef& ref : *refs) owners.emplace_back(ref, *name);
      continue;
    }
    for (const SubGroupPlan& s : g.sub_groups) {
      Result<std::string> name = unique(DnsObjectName(g.name + "-" + s.name));
      if (!name.ok()) return name.error();
      object_of[s.name] = *name;
      const std::string parent = s.parent.empty() ? root : object_of[s.parent];
      const size_t node = template_of[k][s.name];
      if (!IsLeaf(g, s)) {
        group("CompositePodGroup", *name, node, parent, CompositePolicy(s.min_sub_group));
        continue;
      }
      group("PodGroup", *name, node, parent, Policy(s.min_member));
      if (!s.component) continue;
      GangPlan one = g;
      one.sub_groups = {s};
      Result<std::vector<TemplateRef>> refs = GangTemplates(c, one);
      if (!refs.ok()) return refs.error();
      for (const TemplateRef& ref : *refs) owners.emplace_back(ref, *name);
    }
    if (std::any_of(g.sub_groups.begin(), g.sub_groups.end(),
                    [](const SubGroupPlan& s) { return s.topology.has_value(); })) {
      out.warnings.push_back("gang " + g.name +
                             ": subgroup topology left out (schedulingConstraints needs the "
                             "TopologyAwareWorkloadScheduling feature gate)");
    }
  }
  if (std::optional<Error> e = SetSchedulingGroups(c, owners, &out)) return *e;
  return out;
}

}  // namespace wmap::scheduling
