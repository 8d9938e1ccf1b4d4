// Evaluation of definition expressions against an object, and the decoding of results into the
// types upstream decodes them into, with the errors a Go user of upstream's library sees.
#ifndef WMAP_RESOLVE_EXTRACT_H_
#define WMAP_RESOLVE_EXTRACT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/definition.h"
#include "wmap/jq.h"
#include "wmap/status.h"
#include "wmap/value.h"
#include "wmap/workload.h"

namespace wmap::resolve {

// Every output of `program` on `input`. Errors read as upstream's runner words them:
// "JQ execution error for expression '<text>': <message>", and
// "query results exceed the allowed number <N>" once N results are reached.
Result<std::vector<Value>> Evaluate(const jq::Program& program, std::string_view text,
                                    const Value& input, const EvalOptions& options);

// Go's decoding of one result (a JSON round trip into the target type).
enum class GoType {
  kString,           // string: null reads as ""
  kPodTemplateSpec,  // v1.PodTemplateSpec (object or null)
  kPodSpec,          // v1.PodSpec
  kObjectMeta,       // v1.ObjectMeta
  kStringMap,        // map[string]string
  kResources,        // *v1.ResourceRequirements
  kResourceClaims,   // []v1.PodResourceClaim
  kPodAffinity,      // *v1.PodAffinity
  kNodeAffinity,     // *v1.NodeAffinity
  kContainers,       // []v1.Container
  kContainer,        // *v1.Container
  kConditionList,    // []map[string]interface {}
};

// Checks every result against `type`; the error names the first bad index as upstream does
// ("failed to convert object at index 0 to type string: failed to unmarshal to destination:
// json: cannot unmarshal number into Go value of type string"). Strings decoded from null
// become "" in *values.
std::optional<Error> DecodeAll(GoType type, std::vector<Value>* values);

// Replica counts: numbers (integral, int32) or numeric strings; null is absent.
Result<std::vector<std::optional<int32_t>>> DecodeReplicas(const std::vector<Value>& values);

// Evaluates an optional path: not defined gives an empty list (as upstream's extract does).
Result<std::vector<Value>> EvaluateOptional(const std::optional<Expression>& e, const Value& input,
                                            const EvalOptions& options);

Error MakeError(std::string message, ErrorCode code = ErrorCode::kEvaluation);
// "prefix: message" with the cause's position and hint kept.
Error Wrap(std::string_view prefix, const Error& cause);

}  // namespace wmap::resolve

#endif  // WMAP_RESOLVE_EXTRACT_H_
