// The read-only dialect of definition expressions: the walk that finds the first construct a
// definition may not use, in the order upstream's validator visits the syntax tree.
#include <string>

#include "jq/ast.h"
#include "jq/parser.h"
#include "wmap/jq.h"

namespace wmap::jq {
namespace {

using ast::Kind;
using ast::Node;

bool IsUnboundedFunction(std::string_view name) {
  return name == "range" || name == "paths" || name == "recurse" || name == "walk" ||
         name == "repeat";
}

// Returns the first forbidden construct under n (in upstream's visiting order), or nullptr.
// `reason` receives the message. Recursion depth is bounded by the parser's max_depth.
const Node* FindForbidden(const Node* n, std::string* reason);

const Node* Check(const ast::NodePtr& n, std::string* reason) {
  return n ? FindForbidden(n.get(), reason) : nullptr;
}

const Node* FindForbidden(const Node* n, std::string* reason) {
  const Node* found = nullptr;
  switch (n->kind) {
    case Kind::kRecurseDefault:
      *reason = "recursive descent operator '..' is not allowed";
      return n;
    case Kind::kAssign:
      *reason = "modifying operator '" + std::string(ast::AssignOpText(n->assign_op)) +
                "' is not allowed";
      return n;
    case Kind::kFuncCall:
      if (n->name == "del") {
        *reason = "del function is not allowed";
        return n;
      }
      if (IsUnboundedFunction(n->name)) {
        *reason = "function '" + n->name + "' may produce excessive output and is not allowed";
        return n;
      }
      for (const auto& arg : n->args) {
        if ((found = Check(arg, reason))) return found;
      }
      return nullptr;
    case Kind::kFuncDef:
      if ((found = Check(n->body, reason))) return found;
      return Check(n->rest, reason);
    case Kind::kPipe:
    case Kind::kComma:
    case Kind::kBinary:
      if ((found = Check(n->left, reason))) return found;
      return Check(n->right, reason);
    case Kind::kIf:
      if ((found = Check(n->cond, reason))) return found;
      if ((found = Check(n->body, reason))) return found;
      return Check(n->else_, reason);
    case Kind::kTry:
      if ((found = Check(n->body, reason))) return found;
      return Check(n->handler, reason);
    case Kind::kReduce:
    case Kind::kForeach:
      if ((found = Check(n->source, reason))) return found;
      if ((found = Check(n->init, reason))) return found;
      if ((found = Check(n->update, reason))) return found;
      return Check(n->extract, reason);
    case Kind::kArray:
      return Check(n->body, reason);
    case Kind::kObject:
      for (const auto& entry : n->entries) {
        // Upstream visits computed keys `(e)` and values, not interpolated string keys.
        if (entry.key && entry.key->kind != Kind::kLiteral && entry.key->kind != Kind::kString) {
          if ((found = Check(entry.key, reason))) return found;
        }
        if ((found = Check(entry.value, reason))) return found;
      }
      return nullptr;
    case Kind::kString:
      for (const auto& part : n->parts) {
        if ((found = Check(part.expr, reason))) return found;
      }
      return nullptr;
    case Kind::kIndex:
      if ((found = Check(n->target, reason))) return found;
      return Check(n->index, reason);
    case Kind::kSlice:
      if ((found = Check(n->target, reason))) return found;
      if ((found = Check(n->from, reason))) return found;
      return Check(n->to, reason);
    case Kind::kIterate:
      return Check(n->target, reason);
    case Kind::kBind:
      // Upstream sees `e as $x | body` as a term with a binding suffix and checks only `e`.
      return Check(n->source, reason);
    case Kind::kIdentity:
    case Kind::kLiteral:
    case Kind::kFormat:
    case Kind::kNeg:
    case Kind::kVar:
    case Kind::kLabel:
    case Kind::kBreak:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

Result<std::optional<ReadOnlyViolation>> FindReadOnlyViolation(std::string_view text) {
  Result<ast::Program> parsed = ParseProgram(text);
  if (!parsed.ok()) {
    Error e = parsed.error();
    e.code = ErrorCode::kParse;
    return e;
  }
  std::optional<ReadOnlyViolation> violation;
  if (parsed->body) {
    std::string reason;
    if (const Node* bad = FindForbidden(parsed->body.get(), &reason)) {
      violation = ReadOnlyViolation{bad->offset, std::move(reason)};
    }
  }
  return violation;
}

}  // namespace wmap::jq
