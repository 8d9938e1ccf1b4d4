// Reads a JobSet through the built-in definition and prints its status and a jq result: uses the
// value, jq, model, catalog and resolve layers through the public headers only.
#include <cstdio>
#include <string>

#include "wmap/catalog.h"
#include "wmap/jq.h"
#include "wmap/json.h"
#include "wmap/workload.h"

int main() {
  wmap::Result<wmap::Value> object = wmap::json::Parse(
      R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet","metadata":{"name":"train"},)"
      R"("spec":{"replicatedJobs":[{"name":"workers","replicas":2}]},)"
      R"("status":{"conditions":[{"type":"Completed","status":"True"}]}})");
  if (!object.ok()) return 2;
  const wmap::CatalogEntry* entry =
      wmap::Catalog::BuiltIn().Find("jobset.x-k8s.io/v1alpha2", "JobSet");
  if (entry == nullptr) return 3;
  wmap::Workload workload(entry->definition, object.value());
  auto status = workload.Status();
  if (!status.ok() || !status.value() || status.value()->matched.empty()) return 4;
  auto program = wmap::jq::Program::Compile("[.spec.replicatedJobs[].replicas] | add");
  if (!program.ok()) return 5;
  auto replicas = program->RunAll(object.value());
  if (!replicas.ok() || replicas->size() != 1) return 6;
  std::printf("%s %s\n", std::string(wmap::ResourceStatusName(status.value()->matched[0])).c_str(),
              wmap::json::ToCompactString((*replicas)[0]).c_str());
  return 0;
}
