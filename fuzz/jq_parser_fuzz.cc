// libFuzzer target for the jq lexer and parser.
//
// Properties checked on every input (as a program and as a module):
//  - parsing never crashes, overflows the stack or hangs, whatever the nesting;
//  - a failure has gojq's missing-query message without a position, or a position inside the
//    input (line >= 1, offset <= size), and FormatQueryError renders it;
//  - every valid program is a valid module, and a valid module fails as a program only for
//    lack of a main expression;
//  - a success yields a tree whose recorded heights are exact and within max_depth, whose node
//    offsets lie inside the input, and whose rendering is the same when parsed again.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "jq/parse_error.h"
#include "jq/parser.h"

namespace {

using wmap::jq::ast::Node;
using wmap::jq::ast::NodePtr;
using wmap::jq::ast::Pattern;

void Check(bool condition) {
  if (!condition) std::abort();
}

int CheckPattern(const Pattern& p, size_t size);

// Returns the height of `n` after checking it and its subtree.
int CheckNode(const Node& n, size_t size) {
  Check(n.offset <= size);
  int h = 0;
  const auto child = [&](const NodePtr& c) {
    if (c) h = std::max(h, CheckNode(*c, size));
  };
  for (const NodePtr* c :
       {&n.left, &n.right, &n.target, &n.index, &n.from, &n.to, &n.body, &n.handler, &n.cond,
        &n.else_, &n.source, &n.init, &n.update, &n.extract, &n.rest}) {
    child(*c);
  }
  for (const auto& a : n.args) child(a);
  for (const auto& part : n.parts) child(part.expr);
  for (const auto& e : n.entries) {
    Check(e.key_var.empty() != (e.key == nullptr));
    child(e.key);
    child(e.value);
  }
  for (const auto& p : n.patterns) h = std::max(h, CheckPattern(*p, size));
  Check(n.height == h + 1);
  return n.height;
}

int CheckPattern(const Pattern& p, size_t size) {
  Check(p.offset <= size);
  int h = 0;
  for (const auto& e : p.elements) h = std::max(h, CheckPattern(*e, size));
  for (const auto& e : p.entries) {
    if (e.key_expr) h = std::max(h, CheckNode(*e.key_expr, size));
    if (e.value) h = std::max(h, CheckPattern(*e.value, size));
  }
  return h + 1;
}

void CheckResult(std::string_view text, const wmap::Result<wmap::jq::ast::Program>& r,
                 const wmap::jq::ParseOptions& options) {
  if (!r.ok()) {
    const wmap::Error& e = r.error();
    if (e.message == wmap::jq::kMissingQueryMessage) {
      Check(!e.position.known());
    } else {
      Check(e.position.line >= 1 && e.position.offset <= text.size());
    }
    Check(!wmap::jq::FormatQueryError(text, e).empty());
    return;
  }
  const int max = static_cast<int>(options.max_depth);
  if (r->body) Check(CheckNode(*r->body, text.size()) <= max);
  for (const auto& d : r->defs) Check(CheckNode(*d, text.size()) <= max);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  wmap::jq::ParseOptions options;
  options.max_depth = 64 + size % 512;

  auto program = wmap::jq::ParseProgram(text, options);
  CheckResult(text, program, options);
  if (program.ok()) {
    const std::string rendered = wmap::jq::DebugString(*program->body);
    auto again = wmap::jq::ParseProgram(text, options);
    Check(again.ok() && wmap::jq::DebugString(*again->body) == rendered);
  }

  auto module = wmap::jq::ParseModule(text, options);
  CheckResult(text, module, options);
  // A module is a program whose main expression is optional.
  if (program.ok()) Check(module.ok());
  if (module.ok() && !program.ok()) {
    Check(program.error().message == wmap::jq::kMissingQueryMessage);
  }
  return 0;
}
