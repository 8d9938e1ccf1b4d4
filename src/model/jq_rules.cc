#include "model/jq_rules.h"

#include <cctype>

#include "jq/ast.h"
#include "jq/parser.h"

namespace wmap::model {
namespace {

using jq::ast::Kind;
using jq::ast::Node;

std::string_view AssignOpText(jq::ast::AssignOp op) {
  switch (op) {
    case jq::ast::AssignOp::kSet:
      return "=";
    case jq::ast::AssignOp::kUpdate:
      return "|=";
    case jq::ast::AssignOp::kAdd:
      return "+=";
    case jq::ast::AssignOp::kSub:
      return "-=";
    case jq::ast::AssignOp::kMul:
      return "*=";
    case jq::ast::AssignOp::kDiv:
      return "/=";
    case jq::ast::AssignOp::kMod:
      return "%=";
    case jq::ast::AssignOp::kAlt:
      return "//=";
  }
  return "=";
}

bool IsUnboundedFunction(std::string_view name) {
  return name == "range" || name == "paths" || name == "recurse" || name == "walk" ||
         name == "repeat";
}

// Returns the first forbidden construct under n (in upstream's visiting order), or nullptr.
// `reason` receives the message. Recursion depth is bounded by the parser's max_depth.
const Node* FindForbidden(const Node* n, std::string* reason);

const Node* Check(const jq::ast::NodePtr& n, std::string* reason) {
  return n ? FindForbidden(n.get(), reason) : nullptr;
}

const Node* FindForbidden(const Node* n, std::string* reason) {
  const Node* found = nullptr;
  switch (n->kind) {
    case Kind::kRecurseDefault:
      *reason = "recursive descent operator '..' is not allowed";
      return n;
    case Kind::kAssign:
      *reason =
          "modifying operator '" + std::string(AssignOpText(n->assign_op)) + "' is not allowed";
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

std::string Quoted(std::string_view text, std::string_view document_path) {
  return "'" + std::string(text) + "' at '" + GoFieldPath(document_path) + "'";
}

}  // namespace

std::string GoFieldPath(std::string_view document_path) {
  std::string out;
  size_t i = 0;
  while (i < document_path.size()) {
    size_t end = document_path.find_first_of(".[", i);
    if (end == std::string_view::npos) end = document_path.size();
    std::string_view segment = document_path.substr(i, end - i);
    if (segment == "optimizationInstructions") {
      out += "Instructions";
    } else if (!segment.empty()) {
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(segment[0])));
      out.append(segment.substr(1));
    }
    if (end < document_path.size() && document_path[end] == '[') {
      size_t close = document_path.find(']', end);
      if (close == std::string_view::npos) close = document_path.size() - 1;
      out.append(document_path.substr(end, close - end + 1));
      end = close + 1;
    }
    if (end < document_path.size() && document_path[end] == '.') {
      out += '.';
      ++end;
    }
    i = end;
  }
  return out;
}

namespace {

std::optional<jq::Program> CompileChecked(std::string_view text, std::string_view document_path,
                                          const jq::CompileOptions& options, JqFinding* finding) {
  // gojq parses an empty query as the identity.
  std::string_view effective = text.empty() ? std::string_view(".") : text;
  Result<jq::ast::Program> parsed = jq::ParseProgram(effective);
  if (!parsed.ok()) {
    finding->message = "failed to parse JQ expression " + Quoted(text, document_path) + ": " +
                       parsed.error().message;
    finding->offset = parsed.error().position.offset;
    finding->offset_known = parsed.error().position.known() && !text.empty();
    finding->hint = "fix the jq syntax of this expression";
    return std::nullopt;
  }
  if (parsed->body) {
    std::string reason;
    if (const Node* bad = FindForbidden(parsed->body.get(), &reason)) {
      finding->message =
          "JQ expression " + Quoted(text, document_path) + " failed validation: " + reason;
      finding->offset = bad->offset;
      finding->offset_known = true;
      finding->hint =
          "definition expressions only read the object: no assignment, del, range, paths, "
          "recurse, walk, repeat or ..";
      return std::nullopt;
    }
  }
  Result<jq::Program> program = jq::Program::Compile(effective, options);
  if (!program.ok()) {
    finding->message = "failed to compile JQ expression " + Quoted(text, document_path) + ": " +
                       program.error().message;
    finding->offset = program.error().position.offset;
    finding->offset_known = true;
    finding->hint = "paths start with '.', as in .spec.replicas; functions must exist in gojq";
    return std::nullopt;
  }
  return std::move(program.value());
}

}  // namespace

std::optional<jq::Program> CompileDefinitionExpression(std::string_view text,
                                                       std::string_view document_path,
                                                       JqFinding* finding) {
  return CompileChecked(text, document_path, {}, finding);
}

std::optional<jq::Program> CompileGangExpression(std::string_view text,
                                                 std::string_view document_path,
                                                 JqFinding* finding) {
  jq::CompileOptions options;
  options.variables = {"instance", "replica"};
  return CompileChecked(text, document_path, options, finding);
}

std::optional<jq::Program> CompileInternal(const std::string& text) {
  Result<jq::Program> program = jq::Program::Compile(text);
  if (!program.ok()) return std::nullopt;
  return std::move(program.value());
}

}  // namespace wmap::model
