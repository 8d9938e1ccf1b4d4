// The Program API: variables, static queries, run context hooks, early stop, threads.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "eval_test_support.h"
#include "jq/eval/compiler.h"

namespace wmap::jq::testing {
namespace {

TEST(EvalProgramTest, LibraryCompilesCompletely) {
  EXPECT_TRUE(eval::GetLibrary().errors.empty())
      << (eval::GetLibrary().errors.empty() ? "" : eval::GetLibrary().errors[0]);
  EXPECT_EQ(Eval("builtins | length > 100"), "true");
  EXPECT_EQ(Eval("[builtins[] | select(startswith(\"_\"))] | length"), "0");
}

TEST(EvalProgramTest, VariablesBoundAtRunTime) {
  CompileOptions options;
  options.variables = {"val", "other"};
  auto program = Program::Compile(".a + $val + $other", options);
  ASSERT_TRUE(program.ok());
  auto out = program->RunAll(Value::Object({{"a", Value::Int(1)}}), {Value::Int(2), Value::Int(3)});
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(json::ToCompactString((*out)[0]), "6");
  auto again =
      program->RunAll(Value::Object({{"a", Value::Int(1)}}), {Value::Int(10), Value::Int(0)});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(json::ToCompactString((*again)[0]), "11");
  EXPECT_FALSE(Program::Compile("$unknown", options).ok());
}

TEST(EvalProgramTest, IsPathExpression) {
  for (const char* p :
       {".", ".a.b", ".a[0]", ".[]", ".[]?", "select(.a)", "..", "if .x then .a else .b end",
        "first(.a)", "getpath([\"a\"])", ".a // .b", "def f: .a; f", "def f(g): g; f(.a)",
        "recurse(.[])", ".a | .b", "(.a, .b)", "empty", "try .a", "limit(1; .a)"}) {
    auto program = Program::Compile(p);
    ASSERT_TRUE(program.ok()) << p;
    EXPECT_TRUE(program->IsPathExpression()) << p;
  }
  for (const char* p : {"1", ".a + 1", "{}", "[.a]", "\"x\"", "$__loc__", "length",
                        "def f(g): g; f(1)", "if .x then .a else 1 end", "tostring"}) {
    auto program = Program::Compile(p);
    ASSERT_TRUE(program.ok()) << p;
    EXPECT_FALSE(program->IsPathExpression()) << p;
  }
}

TEST(EvalProgramTest, UsedBuiltinsAndConstructs) {
  auto program = Program::Compile(
      "def f: 1; reduce .[] as $x (0; . + $x) | tostring | [f, length] | try map(select(.)) "
      "catch . | .a |= 1");
  ASSERT_TRUE(program.ok());
  const auto& builtins = program->UsedBuiltins();
  EXPECT_TRUE(builtins.count("tostring/0"));
  EXPECT_TRUE(builtins.count("length/0"));
  EXPECT_TRUE(builtins.count("map/1"));
  EXPECT_TRUE(builtins.count("select/1"));
  EXPECT_FALSE(builtins.count("f/0"));
  const auto& constructs = program->UsedConstructs();
  for (const char* c : {"def", "reduce", "try", "assign", "array"}) {
    EXPECT_TRUE(constructs.count(c)) << c;
  }
  EXPECT_FALSE(constructs.count("foreach"));
}

TEST(EvalProgramTest, ContextHooks) {
  RunContext ctx;
  std::vector<Value> inputs = {Value::Int(1), Value::Int(2), Value::Int(3)};
  size_t next = 0;
  ctx.next_input = [&](Value* out, RunError*) {
    if (next == inputs.size()) return false;
    *out = inputs[next++];
    return true;
  };
  std::vector<std::string> debug;
  ctx.debug = [&](const Value& v) { debug.push_back(json::ToCompactString(v)); };
  ctx.env = Value::Object({{"HOME", Value::String("/root")}});
  ctx.input_filename = [] { return Value::String("f.json"); };
  EXPECT_EQ(Eval("input, [inputs]", "null", ctx), "1\n[2,3]");
  EXPECT_EQ(Eval("try input catch .", "null", ctx), R"("break")");
  EXPECT_EQ(Eval("debug, debug(\"m\", 1)", "5", ctx), "5\n5");
  EXPECT_EQ(debug, (std::vector<std::string>{"5", R"("m")", "1"}));
  EXPECT_EQ(Eval("$ENV.HOME, env.HOME, input_filename", "null", ctx), R"("/root")"
                                                                      "\n"
                                                                      R"("/root")"
                                                                      "\n"
                                                                      R"("f.json")");
  EXPECT_EQ(Eval("1, halt, 2", "null", ctx), "1\nhalt: ");
  EXPECT_EQ(Eval("\"bye\" | halt_error", "null", ctx), "halt: bye");
  EXPECT_EQ(Eval("{a:1} | halt_error(3)", "null", ctx), R"(halt: {"a":1})");
  EXPECT_EQ(Eval("try halt_error catch 1", "null", ctx), "halt: ");
}

TEST(EvalProgramTest, StopEarly) {
  auto program = Program::Compile("range(1e12)");
  ASSERT_TRUE(program.ok());
  int seen = 0;
  auto error = program->Run(Value(), {}, {}, [&](const Value&) { return ++seen < 5; });
  EXPECT_FALSE(error.has_value());
  EXPECT_EQ(seen, 5);
}

TEST(EvalProgramTest, OneProgramManyThreads) {
  auto program = Program::Compile(
      "def sum: reduce .[] as $x (0; . + $x); ([.items[] | select(. % 2 == 0)] | sum), "
      "(.items | map(. * 2) | .[1:3] |= [0]) | tostring");
  ASSERT_TRUE(program.ok());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        int n = t * 10 + (i % 7);
        std::vector<Value> items;
        int64_t even_sum = 0;
        for (int k = 0; k < n; ++k) {
          items.push_back(Value::Int(k));
          if (k % 2 == 0) even_sum += k;
        }
        auto out = program->RunAll(Value::Object({{"items", Value::Array(std::move(items))}}));
        if (!out.ok() || out->size() != 2 ||
            json::ToCompactString((*out)[0]) != "\"" + std::to_string(even_sum) + "\"") {
          ++failures;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace wmap::jq::testing
