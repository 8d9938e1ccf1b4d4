// Budgets end hostile programs and inputs with a clean error; deep inputs never crash.
#include <gtest/gtest.h>

#include <chrono>

#include "eval_test_support.h"

namespace wmap::jq::testing {
namespace {

RunContext Steps(uint64_t steps) {
  RunContext ctx;
  ctx.budget.max_steps = steps;
  return ctx;
}

TEST(EvalBudgetTest, EndlessProgramsStop) {
  RunContext ctx = Steps(1000000);
  EXPECT_EQ(Eval("def f: f; f", "null", ctx), "budget: recursion depth limit exceeded");
  EXPECT_EQ(Eval("[range(1e9)] | length", "null", ctx), "budget: step limit exceeded");
  EXPECT_EQ(Eval("[repeat(.)] | length", "null", ctx), "budget: step limit exceeded");
  EXPECT_EQ(Eval("[limit(1e9; repeat(1))] | length", "null", ctx), "budget: step limit exceeded");
  EXPECT_EQ(Eval("reduce range(1e9) as $x (0; . + 1)", "null", ctx), "budget: step limit exceeded");
  EXPECT_EQ(Eval("def f: [f]; f", "null", ctx), "budget: recursion depth limit exceeded");
  EXPECT_EQ(Eval("last(range(1e9))", "null", ctx), "budget: step limit exceeded");
}

TEST(EvalBudgetTest, BudgetErrorsAreNotCaught) {
  RunContext ctx = Steps(100000);
  EXPECT_EQ(Eval("try (def f: f; f) catch \"caught\"", "null", ctx),
            "budget: recursion depth limit exceeded");
  EXPECT_EQ(Eval("[range(1e9)]?", "null", ctx), "budget: step limit exceeded");
}

TEST(EvalBudgetTest, Deadline) {
  RunContext ctx;
  ctx.budget.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  EXPECT_EQ(Eval("last(range(1e12))", "null", ctx), "budget: deadline exceeded");
}

TEST(EvalBudgetTest, Outputs) {
  RunContext ctx;
  ctx.budget.max_outputs = 3;
  EXPECT_EQ(Eval("range(10)", "null", ctx), "0\n1\n2\nbudget: too many results");
  EXPECT_EQ(Eval("range(3)", "null", ctx), "0\n1\n2");
}

TEST(EvalBudgetTest, Memory) {
  RunContext ctx;
  ctx.budget.max_memory_bytes = 1 << 20;
  EXPECT_EQ(Eval("[range(1e7)] | length", "null", ctx), "budget: memory limit exceeded");
  EXPECT_EQ(Eval("\"x\" * 100 | [limit(100000; repeat(. + .))] | length", "null", ctx),
            "budget: memory limit exceeded");
  EXPECT_EQ(Eval("[range(100)] | length", "null", ctx), "100");
}

TEST(EvalBudgetTest, DepthLimit) {
  RunContext ctx;
  ctx.budget.max_depth = 50;
  EXPECT_EQ(Eval("def f: if . < 100 then . + 1 | f else . end; 0 | f", "null", ctx),
            "budget: recursion depth limit exceeded");
  EXPECT_EQ(Eval("def f: if . < 10 then . + 1 | f else . end; 0 | f", "null", ctx), "10");
}

Value DeepArray(int depth) {
  Value v = Value::Int(1);
  for (int i = 0; i < depth; ++i) v = Value::Array({v});
  return v;
}

TEST(EvalBudgetTest, DeepInputDoesNotCrash) {
  Value deep = DeepArray(100000);
  for (const char* program : {"[..] | length", "[paths] | length", "[leaf_paths] | length",
                              "path(..) | length", "del(..)", "[.[0][0][0]] | length",
                              "getpath([range(100000) | 0])", "[.[0][0] | ..] | length"}) {
    auto compiled = Program::Compile(program);
    ASSERT_TRUE(compiled.ok()) << program;
    RunContext ctx;
    ctx.budget.max_steps = 10000000;
    ctx.budget.max_depth = 2000;
    auto error = compiled->Run(deep, {}, ctx, [](const Value&) { return true; });
    if (error) {
      EXPECT_EQ(error->kind, ErrorKind::kBudget) << program << ": " << error->message;
    }
  }
  // With the default limits the recursion ends cleanly too (it is bounded by the stack).
  auto walk = Program::Compile("[..] | length");
  ASSERT_TRUE(walk.ok());
  auto error = walk->Run(deep, {}, {}, [](const Value&) { return true; });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ErrorKind::kBudget);
}

}  // namespace
}  // namespace wmap::jq::testing
