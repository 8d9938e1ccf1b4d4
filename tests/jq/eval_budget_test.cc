// Budgets end hostile programs and inputs with a clean error; deep inputs never crash.
#include <gtest/gtest.h>

#include <chrono>

#include "builtins_test_support.h"
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

TEST(EvalBudgetTest, DeadlineIsChargedByWork) {
  // A handful of steps, each copying 100 MB: far fewer steps than a check interval, so only the
  // work they charge brings the (already passed) deadline to be checked.
  RunContext ctx;
  ctx.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  EXPECT_EQ(Eval("\"a\" * 100000000 | ascii_downcase | ascii_upcase | length", "null", ctx),
            "budget: deadline exceeded");
  EXPECT_EQ(Eval("[range(100000)] as $a | $a | sort | sort | length", "null", ctx),
            "budget: deadline exceeded");
}

TEST(EvalBudgetTest, BuiltinsChargeAsTheyBuild) {
  // The budget is far below what each builds; a native that built first and was charged after
  // would reach the limit only after allocating all of it (the peak is not visible here, but the
  // error must be the budget's and must not be catchable).
  RunContext ctx;
  ctx.budget.max_memory_bytes = 8 << 20;
  for (const char* q : {
           "(\"a,\" * 1000000) | [splits(\",\")] | length",
           "(\"a,\" * 1000000) | split(\",\") | length",
           "(\"a,\" * 1000000) | explode | length",
           "(\"a,\" * 1000000) | [match(\",\"; \"g\")] | length",
           "[range(300000) | tostring] | join(\",\") | length",
           "[range(300000) | [.]] | add | length",
           "(\"\\u0001\" * 2000000) | tojson | length",
           "try ((\"a,\" * 1000000) | split(\",\")) catch \"caught\"",
       }) {
    EXPECT_EQ(Eval(q, "null", ctx), "budget: memory limit exceeded") << q;
  }
  // Within the budget the answers are unchanged.
  EXPECT_EQ(Eval("(\"a,\" * 1000) | split(\",\") | length", "null", ctx), "1001");
  EXPECT_EQ(Eval("[range(1000) | tostring] | join(\",\") | length", "null", ctx), "3889");
  EXPECT_EQ(Eval("[range(1000)] | tojson | length", "null", ctx), "3891");
}

TEST(EvalBudgetTest, NativesStopBuildingAtTheBudget) {
  // Called directly with a meter that refuses past 1 MB: each native gives up as soon as a charge
  // is refused, so what it charged (and so built) stays near the budget, not near its full
  // output (tens of MB).
  constexpr size_t kBudget = 1 << 20;
  constexpr size_t kSlack = 512 << 10;  // one piece built before its charge (escaped: up to 6x)
  Value text = Value::String(std::string(4000000, 'a') + std::string(4000000, ','));
  Value commas = Value::String(std::string(4000000, ','));
  Value controls = Value::String(std::string(4000000, ''));
  std::vector<Value> many;
  for (int i = 0; i < 400000; ++i) many.push_back(Value::String("item" + std::to_string(i)));
  Value items = Value::Array(many);
  struct Call {
    const char* name;
    Value input;
    std::vector<Value> args;
  };
  std::vector<Call> calls = {
      {"split", commas, {Value::String(",")}},
      {"split", commas, {Value::String(","), Value()}},
      {"_match", commas, {Value::String(","), Value::String("g"), Value::Bool(false)}},
      {"explode", text, {}},
      {"tojson", controls, {}},
      {"join", items, {Value::String(",")}},
      {"add", items, {}},
  };
  for (const Call& c : calls) {
    TestMeter meter(kBudget);
    Value out;
    EXPECT_FALSE(CallMetered(c.name, c.input, c.args, meter, &out)) << c.name;
    EXPECT_GT(meter.bytes(), kBudget) << c.name;
    EXPECT_LT(meter.bytes(), kBudget + kSlack) << c.name << " built on past the budget";
  }
}

TEST(EvalBudgetTest, DeepValuesCompareWithoutRecursion) {
  // Compared on the test's own thread (no large stack): the comparison keeps its own stack.
  RunContext ctx;
  EXPECT_EQ(Eval("reduce range(300000) as $i (null; [.]) | . == .", "null", ctx), "true");
  EXPECT_EQ(Eval("reduce range(300000) as $i (0; {a: .}) as $x | [$x, ($x | .a)] | sort | "
                 "(.[0] | type)",
                 "null", ctx),
            "\"object\"");
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
