// Fuzzes the evaluator under budgets: the input is a jq program, a NUL byte, then JSON text
// (null when absent or invalid). Every run must end, without crashing, within its budget.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "wmap/jq.h"
#include "wmap/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t split = text.find('\0');
  std::string_view program = text.substr(0, split);
  wmap::Value input;
  if (split != std::string_view::npos) {
    auto parsed = wmap::json::Parse(text.substr(split + 1));
    if (parsed.ok()) input = *parsed;
  }
  wmap::jq::CompileOptions options;
  options.max_depth = 200;
  auto compiled = wmap::jq::Program::Compile(program, options);
  if (!compiled.ok()) return 0;
  wmap::jq::RunContext context;
  context.budget.max_steps = 20000;
  context.budget.max_outputs = 100;
  context.budget.max_depth = 200;
  context.budget.max_memory_bytes = 8 << 20;
  (void)compiled->IsPathExpression();
  (void)compiled->Run(input, {}, context, [](const wmap::Value& v) {
    // Touch the output so that sanitizers see any dangling reference.
    return v.type() != wmap::Type::kNull || v.is_null();
  });
  return 0;
}
