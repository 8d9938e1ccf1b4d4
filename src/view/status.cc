// The status document: phase, conditions and the statuses the definition matches.
#include "wmap/view.h"

namespace wmap::view {
namespace {

Value ConditionValue(const Condition& c) {
  Value v = Value::EmptyObject();
  v.set("type", Value::String(c.type));
  v.set("status", c.status ? Value::String(*c.status) : Value());
  if (c.reason) v.set("reason", Value::String(*c.reason));
  if (!c.message.empty()) v.set("message", Value::String(c.message));
  return v;
}

}  // namespace

Value StatusDocument(const SourceObject& workload, std::string_view definition,
                     const WorkloadStatus& status) {
  Value v = Document("WorkloadStatus");
  v.set("workload", WorkloadReference(workload));
  v.set("definition", Value::String(definition));
  v.set("phase", status.phase ? Value::String(*status.phase) : Value());
  Value conditions = Value::EmptyArray();
  for (const Condition& c : status.conditions) conditions.push_back(ConditionValue(c));
  v.set("conditions", conditions);
  Value matched = Value::EmptyArray();
  for (ResourceStatus r : status.matched) matched.push_back(Value::String(ResourceStatusName(r)));
  v.set("matched", matched);
  v.set("source", SourceLocation(workload));
  return v;
}

}  // namespace wmap::view
