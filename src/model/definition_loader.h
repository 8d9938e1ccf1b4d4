// The loader of one definition document (Karta or WorkloadDefinition): schema checks with
// positions, the typed model, and the compiled expressions. Used by LoadDefinitions and
// LoadDefinitionValue only.
#ifndef WMAP_MODEL_DEFINITION_LOADER_H_
#define WMAP_MODEL_DEFINITION_LOADER_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/definition_data.h"
#include "model/field_reader.h"
#include "wmap/definition.h"
#include "wmap/status.h"

namespace wmap {

// Builds one Definition from one document. Error order: schema findings (document order), then
// upstream's validator findings, then the `gangs` findings, then the jq findings. One loader
// reads one document. Hidden: it is a friend of the exported Definition, not part of the API.
class __attribute__((visibility("hidden"))) DefinitionLoader {
 public:
  DefinitionLoader(std::string_view source, std::string file,
                   const std::map<std::string, Position>* positions, const LoadOptions& options)
      : source_(source),
        file_(std::move(file)),
        options_(options),
        reader_(file_, positions, options.lenient, &schema_errors_) {}

  std::optional<Definition> Load(const Value& document, std::vector<Error>* errors);

 private:
  // Field helpers ---------------------------------------------------------------------------
  // `gang_variables`: the expression may use $instance and $replica (the `gangs` form).
  std::optional<Expression> Expr(const model::Node& parent, std::string_view key,
                                 bool required = false, bool gang_variables = false);
  std::optional<Expression> ExprItem(const model::Node& item);
  std::vector<Expression> ExprList(const model::Node& parent, std::string_view key);
  void Compile(Expression* e, bool is_member, bool gang_variables);
  // In a Karta, reports `key` of `n` (when present) as an unknown field that needs the
  // WorkloadDefinition format. Returns true when the field may be read.
  bool ExtensionAllowed(const model::Node& n, std::string_view key);
  bool extended() const { return format_ == DefinitionFormat::kWorkloadDefinition; }

  // Schema ----------------------------------------------------------------------------------
  std::optional<GroupVersionKind> Gvk(const model::Node& n);
  ComponentDefinition Component(const model::Node& n, model::ComponentPositions* positions);
  std::optional<SpecDefinition> Spec(const model::Node& component);
  std::optional<StatusDefinition> Status(const model::Node& component);
  std::vector<StatusMatcher> Matchers(const model::Node& list);
  std::optional<SuspendDefinition> Suspend(const model::Node& component);
  std::vector<SuspendAction> Actions(const model::Node& suspend, std::string_view key);
  std::optional<PodSelector> Selector(const model::Node& component,
                                      model::ComponentPositions* positions);
  std::optional<GangScheduling> Gang(const model::Node& spec);
  std::optional<Topology> TopologyOf(const model::Node& parent);

  // The `gangs` form (gang_loader.cc) ---------------------------------------------------------
  std::vector<GangDefinition> Gangs(const model::Node& list);
  GangDefinition GangOf(const model::Node& n);
  GangSubGroupDefinition SubGroupOf(const model::Node& n, int depth);
  // {expression: <jq>}; absent when the member is absent.
  std::optional<Expression> ExpressionObject(const model::Node& parent, std::string_view key);
  // Topology of the `gangs` form: topologyName required, at least one level.
  std::optional<Topology> GangTopologyOf(const model::Node& parent);
  std::optional<bool> Bool(const model::Node& parent, std::string_view key);

  std::string_view source_;
  std::string file_;
  LoadOptions options_;
  DefinitionFormat format_ = DefinitionFormat::kKarta;
  std::vector<Error> schema_errors_;
  std::vector<Error> jq_errors_;
  model::FieldReader reader_;
  std::vector<Position> member_positions_;
  // Positions and fields of the gang form's parts the validator reports on.
  model::GangPositions gang_positions_;
};

}  // namespace wmap

#endif  // WMAP_MODEL_DEFINITION_LOADER_H_
