// Program: parse + compile once, run many times from any number of threads.
#include <vector>

#include "jq/eval/compiler.h"
#include "jq/eval/op.h"
#include "jq/eval/runtime.h"
#include "jq/parser.h"
#include "wmap/jq.h"
#include "wmap/json.h"

namespace wmap::jq {

struct Program::Impl {
  std::string text;
  std::unique_ptr<eval::CompiledProgram> compiled;
  bool is_path = false;
};

Program::Program(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;

Result<Program> Program::Compile(std::string_view text, const CompileOptions& options) {
  ParseOptions parse_options;
  parse_options.max_depth = options.max_depth;
  Result<ast::Program> parsed = ParseProgram(text, parse_options);
  if (!parsed.ok()) {
    Error e = parsed.error();
    e.code = ErrorCode::kParse;
    return e;
  }
  auto compiled = eval::CompileProgram(*parsed, text, options);
  if (!compiled.ok()) {
    Error e = compiled.error();
    if (e.code != ErrorCode::kParse) e.code = ErrorCode::kCompile;
    return e;
  }
  auto impl = std::make_shared<Impl>();
  impl->text = std::string(text);
  impl->compiled = std::move(compiled.value());
  eval::PathQuery query;
  impl->is_path = impl->compiled->main->IsPath(query);
  return Program(std::move(impl));
}

namespace {

std::string ErrorText(const Value& v) {
  if (v.is_string()) return std::string(v.as_string());
  return json::ToCompactString(v);
}

}  // namespace

std::optional<RunError> Program::Run(const Value& input, const std::vector<Value>& variables,
                                     const RunContext& context,
                                     const std::function<bool(const Value&)>& out) const {
  const eval::CompiledProgram& program = *impl_->compiled;
  eval::Runtime rt(context);
  // Root variables live on the stack for the usual handful; larger programs use the heap.
  constexpr size_t kInlineSlots = 16;
  Value inline_slots[kInlineSlots];
  std::vector<Value> heap_slots;
  Value* slots = inline_slots;
  size_t num_slots = static_cast<size_t>(program.root_slots);
  if (num_slots > kInlineSlots) {
    heap_slots.resize(num_slots);
    slots = heap_slots.data();
  }
  for (size_t i = 0; i < variables.size() && i < static_cast<size_t>(program.num_variables); ++i) {
    slots[i] = variables[i];
  }
  eval::Frame root{nullptr, nullptr, slots};
  eval::Status status = program.main->Run(rt, &root, input, [&](const Value& v) -> eval::Status {
    eval::Status s = rt.CountOutput();
    if (s != eval::Status::kOk) return s;
    return out(v) ? eval::Status::kOk : eval::Status::kStop;
  });
  if (status == eval::Status::kOk || status == eval::Status::kStop) return std::nullopt;
  RunError error;
  switch (status) {
    case eval::Status::kOk:
    case eval::Status::kStop:
      return std::nullopt;
    case eval::Status::kError:
      error.kind = ErrorKind::kRuntime;
      error.value = rt.error_value();
      error.user = rt.error_is_user();
      error.message = (error.user ? "error: " : "") + ErrorText(error.value);
      error.code = rt.error_is_invalid_path() ? ErrorCode::kInvalidPath : ErrorCode::kEvaluation;
      return error;
    case eval::Status::kBreak:
      error.kind = ErrorKind::kRuntime;
      error.value = Value::String("break");
      error.message = "break";
      return error;
    case eval::Status::kBudget:
      error.kind = ErrorKind::kBudget;
      error.code = ErrorCode::kLimitExceeded;
      error.message = rt.budget_message();
      error.value = Value::String(error.message);
      return error;
    case eval::Status::kHalt:
      error.kind = ErrorKind::kHalt;
      error.value = rt.error_value();
      error.exit_code = rt.exit_code();
      error.message = error.value.is_null() ? "" : ErrorText(error.value);
      return error;
  }
  return std::nullopt;
}

Result<std::vector<Value>> Program::RunAll(const Value& input, const std::vector<Value>& variables,
                                           const RunContext& context) const {
  std::vector<Value> outputs;
  auto error = Run(input, variables, context, [&](const Value& v) {
    outputs.push_back(v);
    return true;
  });
  if (error) return Error::Of(error->code, error->message);
  return outputs;
}

bool Program::IsPathExpression() const { return impl_->is_path; }

const std::set<std::string>& Program::UsedBuiltins() const {
  return impl_->compiled->used_builtins;
}

const std::set<std::string>& Program::UsedConstructs() const {
  return impl_->compiled->used_constructs;
}

const std::string& Program::text() const { return impl_->text; }

}  // namespace wmap::jq
