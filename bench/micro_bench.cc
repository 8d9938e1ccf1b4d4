// Micro-benchmarks (Google Benchmark): JSON reading and writing of a workload object (and of a
// list of them, with and without sharing repeated subtrees), and
// compiled evaluation of a few catalog expressions on it. The object is the JobSet in
// examples/jobset-training.yaml.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "wmap/jq.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace {

const wmap::Value& Workload() {
  static const wmap::Value value = [] {
    std::ifstream in(std::string(WMAP_SOURCE_DIR) + "/examples/jobset-training.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    auto v = wmap::yaml::Parse(ss.str());
    if (!v.ok()) {
      std::fprintf(stderr, "cannot read the example workload: %s\n", v.error().ToString().c_str());
      std::abort();
    }
    return *v;
  }();
  return value;
}

const std::string& WorkloadJson() {
  static const std::string text = wmap::json::ToCompactString(Workload());
  return text;
}

void BM_JsonParse(benchmark::State& state) {
  const std::string& text = WorkloadJson();
  for (auto _ : state) {
    auto v = wmap::json::Parse(text);
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_JsonParse);

// A list of 200 copies of the workload that differ only in their names: the shape of a
// `kubectl get -o json` list, read plainly and with ReadOptions::share_repeated.
const std::string& WorkloadListJson() {
  static const std::string text = [] {
    wmap::Value items = wmap::Value::EmptyArray();
    for (int i = 0; i < 200; ++i) {
      wmap::Value copy = Workload();
      copy.find_mutable("metadata")->set("name", wmap::Value::String("job-" + std::to_string(i)));
      items.push_back(std::move(copy));
    }
    return wmap::json::ToCompactString(
        wmap::Value::Object({{"kind", wmap::Value::String("List")}, {"items", items}}));
  }();
  return text;
}

void BM_JsonParseList(benchmark::State& state) {
  const std::string& text = WorkloadListJson();
  wmap::json::ReadOptions options;
  options.share_repeated = state.range(0) != 0;
  for (auto _ : state) {
    auto v = wmap::json::Parse(text, options);
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_JsonParseList)->ArgName("shared")->Arg(0)->Arg(1);

void BM_JsonWriteCompact(benchmark::State& state) {
  const wmap::Value& v = Workload();
  std::string out;
  for (auto _ : state) {
    out.clear();
    wmap::json::Write(v, {.indent = 0}, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * out.size()));
}
BENCHMARK(BM_JsonWriteCompact);

void BM_JsonWriteIndented(benchmark::State& state) {
  const wmap::Value& v = Workload();
  std::string out;
  for (auto _ : state) {
    out.clear();
    wmap::json::Write(v, {}, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * out.size()));
}
BENCHMARK(BM_JsonWriteIndented);

const char* const kExpressions[] = {
    ".spec.replicatedJobs[]?.template.spec.template",
    "(.status.replicatedJobsStatus // []) | any(.active > 0 or .ready > 0) and "
    "all((.failed // 0) == 0)",
    "[.spec.replicatedJobs[] | .replicas * (.template.spec.parallelism // 1)] | add",
    ".metadata.labels[\"jobset.sigs.k8s.io/jobset-name\"] // .metadata.name",
    "[.spec.replicatedJobs[].template.spec.template.spec.containers[].resources.limits"
    "[\"nvidia.com/gpu\"] // 0 | tonumber] | add",
};

void BM_Evaluate(benchmark::State& state) {
  const char* text = kExpressions[state.range(0)];
  auto program = wmap::jq::Program::Compile(text);
  if (!program.ok()) {
    state.SkipWithError(program.error().ToString().c_str());
    return;
  }
  const wmap::Value& input = Workload();
  wmap::jq::RunContext context;
  size_t outputs = 0;
  for (auto _ : state) {
    auto err = program->Run(input, {}, context, [&](const wmap::Value&) {
      ++outputs;
      return true;
    });
    benchmark::DoNotOptimize(err);
  }
  state.SetLabel(text);
  benchmark::DoNotOptimize(outputs);
}
BENCHMARK(BM_Evaluate)->DenseRange(0, sizeof(kExpressions) / sizeof(kExpressions[0]) - 1);

void BM_Compile(benchmark::State& state) {
  const char* text = kExpressions[state.range(0)];
  for (auto _ : state) {
    auto program = wmap::jq::Program::Compile(text);
    benchmark::DoNotOptimize(program);
  }
  state.SetLabel(text);
}
BENCHMARK(BM_Compile)->DenseRange(0, sizeof(kExpressions) / sizeof(kExpressions[0]) - 1);

}  // namespace

BENCHMARK_MAIN();
