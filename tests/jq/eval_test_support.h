// Helpers for the evaluator tests: compile and run a program on JSON text and render every
// output as compact JSON (one per line), or the error that ended the run.
#ifndef WMAP_TESTS_JQ_EVAL_TEST_SUPPORT_H_
#define WMAP_TESTS_JQ_EVAL_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "wmap/jq.h"
#include "wmap/json.h"
#include "wmap/value.h"

namespace wmap::jq::testing {

// "out1\nout2" for outputs; "compile: <message>" or "error: <message>" (RunError::message,
// prefixed with "budget: " for budget errors and "halt: " for halts) after any outputs.
inline std::string Eval(std::string_view program, std::string_view input = "null",
                        const RunContext& context = {}) {
  auto compiled = Program::Compile(program);
  if (!compiled.ok()) return "compile: " + compiled.error().message;
  auto parsed = json::Parse(input);
  if (!parsed.ok()) return "<bad test input>";
  std::string result;
  auto error = compiled->Run(*parsed, {}, context, [&](const Value& v) {
    if (!result.empty()) result.push_back('\n');
    result.append(json::ToCompactString(v));
    return true;
  });
  if (error) {
    if (!result.empty()) result.push_back('\n');
    switch (error->kind) {
      case ErrorKind::kBudget:
        result.append("budget: ");
        break;
      case ErrorKind::kHalt:
        result.append("halt: ");
        break;
      default:
        result.append("error: ");
    }
    result.append(error->message);
  }
  return result;
}

struct EvalCase {
  std::string_view program;
  std::string_view input;
  std::string_view want;
};

// Expects every case's output (Eval) to equal its `want`.
inline void RunCases(const std::vector<EvalCase>& cases) {
  for (const EvalCase& c : cases) {
    EXPECT_EQ(Eval(c.program, c.input), c.want)
        << "program: " << c.program << "\ninput: " << c.input;
  }
}

}  // namespace wmap::jq::testing

#endif  // WMAP_TESTS_JQ_EVAL_TEST_SUPPORT_H_
