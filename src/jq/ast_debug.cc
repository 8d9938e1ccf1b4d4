// DebugString: an S-expression rendering of parsed trees (declared in parser.h).
#include <cstdio>
#include <string>

#include "jq/parse_error.h"
#include "jq/parser.h"

namespace wmap::jq {
namespace {

using ast::Kind;
using ast::Node;

void Write(const Node* node, std::string* out);
void WritePattern(const ast::Pattern& p, std::string* out);

void WriteValue(const Value& v, std::string* out) {
  switch (v.type()) {
    case Type::kNull:
      *out += "null";
      return;
    case Type::kBoolean:
      *out += v.as_bool() ? "true" : "false";
      return;
    case Type::kNumber:
      if (v.is_integer()) {
        *out += std::to_string(v.as_int());
      } else if (v.is_big_integer()) {
        v.as_big().AppendDecimal(out);
      } else {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v.as_double());
        *out += buf;
        *out += 'd';  // marks a double
      }
      return;
    case Type::kString:
      *out += QuoteForMessage(v.as_string());
      return;
    case Type::kArray: {
      *out += '[';
      bool first = true;
      for (const Value& item : v.items()) {
        if (!first) *out += ' ';
        first = false;
        WriteValue(item, out);
      }
      *out += ']';
      return;
    }
    case Type::kObject: {
      *out += '{';
      bool first = true;
      for (const Member& m : v.members()) {
        if (!first) *out += ' ';
        first = false;
        WriteValue(m.key, out);
        *out += ':';
        WriteValue(m.value, out);
      }
      *out += '}';
      return;
    }
  }
}

const char* BinaryName(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kAdd:
      return "+";
    case ast::BinaryOp::kSub:
      return "-";
    case ast::BinaryOp::kMul:
      return "*";
    case ast::BinaryOp::kDiv:
      return "/";
    case ast::BinaryOp::kMod:
      return "%";
    case ast::BinaryOp::kEq:
      return "==";
    case ast::BinaryOp::kNe:
      return "!=";
    case ast::BinaryOp::kLt:
      return "<";
    case ast::BinaryOp::kLe:
      return "<=";
    case ast::BinaryOp::kGt:
      return ">";
    case ast::BinaryOp::kGe:
      return ">=";
    case ast::BinaryOp::kAnd:
      return "and";
    case ast::BinaryOp::kOr:
      return "or";
    case ast::BinaryOp::kAlt:
      return "//";
  }
  return "?";
}

// Writes "(head child child ...)" with null children as "_".
template <typename... Children>
void List(std::string* out, const std::string& head, const Children*... children) {
  *out += '(';
  *out += head;
  ((*out += ' ', Write(children, out)), ...);
  *out += ')';
}

void Write(const Node* n, std::string* out) {
  if (n == nullptr) {
    *out += '_';
    return;
  }
  switch (n->kind) {
    case Kind::kIdentity:
      *out += '.';
      return;
    case Kind::kRecurseDefault:
      *out += "..";
      return;
    case Kind::kLiteral:
      WriteValue(n->literal, out);
      return;
    case Kind::kString:
      *out += "(str";
      if (!n->format.empty()) *out += " " + n->format;
      for (const auto& part : n->parts) {
        *out += ' ';
        if (part.expr) {
          Write(part.expr.get(), out);
        } else {
          *out += QuoteForMessage(part.literal);
        }
      }
      *out += ')';
      return;
    case Kind::kFormat:
      *out += n->format;
      return;
    case Kind::kIndex:
      List(out, "index", n->target.get(), n->index.get());
      return;
    case Kind::kSlice:
      List(out, "slice", n->target.get(), n->from.get(), n->to.get());
      return;
    case Kind::kIterate:
      List(out, "iter", n->target.get());
      return;
    case Kind::kTry:
      if (n->handler) {
        List(out, "try", n->body.get(), n->handler.get());
      } else {
        List(out, "try", n->body.get());
      }
      return;
    case Kind::kPipe:
      List(out, "|", n->left.get(), n->right.get());
      return;
    case Kind::kComma:
      List(out, ",", n->left.get(), n->right.get());
      return;
    case Kind::kNeg:
      List(out, "neg", n->body.get());
      return;
    case Kind::kBinary:
      List(out, BinaryName(n->binary_op), n->left.get(), n->right.get());
      return;
    case Kind::kAssign:
      List(out, std::string(ast::AssignOpText(n->assign_op)), n->left.get(), n->right.get());
      return;
    case Kind::kIf:
      List(out, "if", n->cond.get(), n->body.get(), n->else_.get());
      return;
    case Kind::kReduce:
    case Kind::kForeach:
      *out += n->kind == Kind::kReduce ? "(reduce " : "(foreach ";
      Write(n->source.get(), out);
      for (const auto& p : n->patterns) {
        *out += ' ';
        WritePattern(*p, out);
      }
      *out += ' ';
      Write(n->init.get(), out);
      *out += ' ';
      Write(n->update.get(), out);
      if (n->kind == Kind::kForeach && n->extract) {
        *out += ' ';
        Write(n->extract.get(), out);
      }
      *out += ')';
      return;
    case Kind::kFuncDef: {
      std::string head = "def " + n->name;
      if (!n->params.empty()) {
        head += '(';
        for (size_t i = 0; i < n->params.size(); ++i) {
          if (i > 0) head += ';';
          if (n->params[i].is_var) head += '$';
          head += n->params[i].name;
        }
        head += ')';
      }
      List(out, head, n->body.get(), n->rest.get());
      return;
    }
    case Kind::kFuncCall:
      *out += "(call " + n->name;
      for (const auto& a : n->args) {
        *out += ' ';
        Write(a.get(), out);
      }
      *out += ')';
      return;
    case Kind::kVar:
      *out += '$' + n->name;
      return;
    case Kind::kBind:
      *out += "(as ";
      Write(n->source.get(), out);
      for (size_t i = 0; i < n->patterns.size(); ++i) {
        *out += i == 0 ? " " : " ?// ";
        WritePattern(*n->patterns[i], out);
      }
      *out += ' ';
      Write(n->body.get(), out);
      *out += ')';
      return;
    case Kind::kLabel:
      List(out, "label $" + n->name, n->body.get());
      return;
    case Kind::kBreak:
      *out += "(break $" + n->name + ")";
      return;
    case Kind::kArray:
      if (n->body) {
        List(out, "array", n->body.get());
      } else {
        *out += "(array)";
      }
      return;
    case Kind::kObject:
      *out += "(object";
      for (const auto& e : n->entries) {
        *out += " (";
        if (!e.key_var.empty()) {
          *out += '$' + e.key_var;
        } else {
          Write(e.key.get(), out);
        }
        if (e.value) {
          *out += ' ';
          Write(e.value.get(), out);
        }
        *out += ')';
      }
      *out += ')';
      return;
  }
}

void WritePattern(const ast::Pattern& p, std::string* out) {
  switch (p.kind) {
    case ast::Pattern::Kind::kVar:
      *out += '$' + p.name;
      return;
    case ast::Pattern::Kind::kArray:
      *out += '[';
      for (size_t i = 0; i < p.elements.size(); ++i) {
        if (i > 0) *out += ' ';
        WritePattern(*p.elements[i], out);
      }
      *out += ']';
      return;
    case ast::Pattern::Kind::kObject:
      *out += '{';
      for (size_t i = 0; i < p.entries.size(); ++i) {
        const auto& e = p.entries[i];
        if (i > 0) *out += ' ';
        *out += '(';
        if (!e.key_var.empty()) {
          *out += '$' + e.key_var;
        } else {
          Write(e.key_expr.get(), out);
        }
        if (e.value) {
          *out += ' ';
          WritePattern(*e.value, out);
        }
        *out += ')';
      }
      *out += '}';
      return;
  }
}

}  // namespace

std::string DebugString(const ast::Node& node) {
  std::string out;
  Write(&node, &out);
  return out;
}

std::string DebugString(const ast::Pattern& pattern) {
  std::string out;
  WritePattern(pattern, &out);
  return out;
}

}  // namespace wmap::jq

namespace wmap::jq::ast {

std::string_view AssignOpText(AssignOp op) {
  switch (op) {
    case AssignOp::kSet:
      return "=";
    case AssignOp::kUpdate:
      return "|=";
    case AssignOp::kAdd:
      return "+=";
    case AssignOp::kSub:
      return "-=";
    case AssignOp::kMul:
      return "*=";
    case AssignOp::kDiv:
      return "/=";
    case AssignOp::kMod:
      return "%=";
    case AssignOp::kAlt:
      return "//=";
  }
  return "=";
}

}  // namespace wmap::jq::ast
