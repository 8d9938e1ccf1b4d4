// Fuzzes definitions as a cluster administrator could write them: the input is up to eight jq
// expressions separated by NUL bytes, placed into every path of a Karta definition (instance ids,
// pod template, replicas, status, pod selector, gang grouping, suspend). A definition that loads
// is then read through on a sample Job-like object and a pod, as every command would, under
// tight evaluation budgets. Every run must end, without crashing, within its budget.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/definition.h"
#include "wmap/gang.h"
#include "wmap/json.h"
#include "wmap/resources.h"
#include "wmap/workload.h"

namespace {

// A YAML single-quoted scalar holding `text` on one line (newlines become spaces).
std::string Quoted(std::string_view text) {
  std::string q = "'";
  for (char c : text) {
    if (c == '\'') {
      q += "''";
    } else if (c == '\n' || c == '\r') {
      q += ' ';
    } else {
      q += c;
    }
  }
  return q + "'";
}

const char* const kObject = R"({
  "apiVersion": "fuzz.example.com/v1", "kind": "Job",
  "metadata": {"name": "j", "namespace": "ns", "uid": "u1", "labels": {"a": "b"}},
  "spec": {"parallelism": 3, "suspend": false,
           "jobs": [{"name": "x", "replicas": 2}, {"name": "y", "replicas": 1}],
           "template": {"metadata": {"labels": {"app": "j"}},
                        "spec": {"containers": [{"name": "c", "image": "i",
                                 "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": 1}}}]}}},
  "status": {"conditions": [{"type": "Complete", "status": "True"}], "active": 1}})";

const char* const kPod = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "j-0", "namespace": "ns", "labels": {"app": "j", "job": "x"},
               "ownerReferences": [{"kind": "Job", "name": "j", "uid": "u1", "controller": true}]},
  "spec": {"containers": [{"name": "c"}]}, "status": {"phase": "Running"}})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> exprs;
  while (exprs.size() < 8) {
    size_t nul = text.find('\0');
    exprs.push_back(text.substr(0, nul));
    if (nul == std::string_view::npos) break;
    text.remove_prefix(nul + 1);
  }
  auto expr = [&](size_t i) { return Quoted(exprs[i % exprs.size()]); };
  // One line of YAML per line of code.
  // clang-format off
  std::string yaml =
      "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata:\n  name: fuzz\nspec:\n"
      "  structureDefinition:\n    rootComponent:\n      name: root\n"
      "      kind: {group: fuzz.example.com, version: v1, kind: Job}\n"
      "      specDefinition:\n        podTemplateSpecPath: " + expr(0) + "\n"
      "      scaleDefinition:\n        replicasPath: " + expr(1) + "\n"
      "        minReplicasPath: " + expr(2) + "\n"
      "      statusDefinition:\n        statusMappings:\n          running:\n"
      "            - byExpression: {expression: " + expr(3) + ", expectedResult: 'true'}\n"
      "      suspendDefinition:\n        suspendActions:\n          - path: " + expr(4) + "\n"
      "            value: 'true'\n        resumeActions:\n          - path: " + expr(4) + "\n"
      "            value: 'false'\n"
      "    childComponents:\n      - name: worker\n        ownerRef: root\n"
      "        instanceIdPath: " + expr(5) + "\n"
      "        specDefinition:\n          podSpecPath: " + expr(6) + "\n"
      "        podSelector:\n          componentTypeSelector: {keyPath: " + expr(7) + "}\n"
      "          componentInstanceSelector: {idPath: " + expr(7) + "}\n"
      "          replicaSelector: {keyPath: " + expr(2) + "}\n"
      "  optimizationInstructions:\n    gangScheduling:\n      podGroups:\n"
      "        - name: all\n          members:\n            - componentName: worker\n"
      "              groupByKeyPaths: [" + expr(7) + "]\n";
  // clang-format on
  wmap::LoadResult loaded = wmap::LoadDefinitions(yaml, "fuzz.yaml", {});
  if (loaded.definitions.empty()) return 0;

  wmap::EvalOptions limits;
  limits.timeout = std::chrono::milliseconds(200);
  limits.max_memory_bytes = 8 << 20;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  wmap::EvalLimitsScope scope(limits);
  wmap::Value object = *wmap::json::Parse(kObject);
  wmap::Value pod = *wmap::json::Parse(kPod);
  for (const wmap::Definition& d : loaded.definitions) {
    wmap::Workload w(d, object);
    wmap::PodQuerier pods(d);
    for (size_t c = 0; c < d.components().size(); ++c) {
      (void)w.InstanceIds(c);
      (void)w.EffectivePodTemplates(c);
      (void)w.Scales(c);
      (void)w.Status(c);
      (void)w.UpdateReplicas(c, {});
      (void)w.ApplySuspendActions(c);
      (void)pods.MatchesComponentType(c, pod);
      (void)pods.InstanceKey(c, pod);
      (void)pods.ReplicaKey(c, pod);
    }
    (void)pods.InferPodComponent(pod);
    (void)wmap::ComputeResourceNeeds(w);
    (void)wmap::PlanGangs(w, std::span<const wmap::Value>(&pod, 1));
  }
  return 0;
}
