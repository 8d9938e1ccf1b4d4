#include "jq/parser.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "jq/lexer.h"
#include "jq/parse_error.h"

namespace wmap::jq {
namespace {

using ast::Kind;
using ast::Node;
using ast::NodePtr;
using ast::Pattern;

// Keeps rarely used or bulky code out of the frames of the recursive productions, so that deep
// nesting uses little stack per level.
#define WMAP_OUT_OF_LINE __attribute__((noinline))

// Thrown inside the parser only; ParseProgram/ParseModule turn it into an Error.
struct ParseFailure {
  Error error;
};

bool IsKeyword(TokenKind k) {
  return k == TokenKind::kOr || k == TokenKind::kAnd ||
         (k >= TokenKind::kModule && k <= TokenKind::kForeach);
}

bool IsStringStart(const Token& t) {
  return t.kind == TokenKind::kString || t.kind == TokenKind::kStringStart;
}

// Binary operators of the expression level, by precedence (higher binds tighter).
enum class Assoc { kLeft, kRight, kNone };
struct BinaryInfo {
  int prec = 0;  // 0: not a binary operator
  Assoc assoc = Assoc::kLeft;
};

BinaryInfo BinaryOf(const Token& t) {
  switch (t.kind) {
    case TokenKind::kAltOp:
      return {1, Assoc::kRight};
    case TokenKind::kUpdateOp:
      return {2, Assoc::kNone};
    case TokenKind::kOr:
      return {3, Assoc::kLeft};
    case TokenKind::kAnd:
      return {4, Assoc::kLeft};
    case TokenKind::kCompareOp:
      return {5, Assoc::kNone};
    case TokenKind::kPunct:
      switch (t.punct) {
        case '+':
        case '-':
          return {6, Assoc::kLeft};
        case '*':
        case '/':
        case '%':
          return {7, Assoc::kLeft};
        default:
          return {};
      }
    default:
      return {};
  }
}

Value NumberLiteral(std::string_view text) {
  const bool integral =
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (integral) {
    int64_t v = 0;
    bool fits = true;
    for (char c : text) {
      const int d = c - '0';
      if (v > (INT64_MAX - d) / 10) {
        fits = false;
        break;
      }
      v = v * 10 + d;
    }
    if (fits) return Value::Int(v);
    return Value::Big(*BigInt::FromDecimal(text));
  }
  const std::string s(text);
  return Value::Double(std::strtod(s.c_str(), nullptr));
}

int PatternHeight(const Pattern& p) {
  int h = 0;
  for (const auto& e : p.elements) h = std::max(h, PatternHeight(*e));
  for (const auto& e : p.entries) {
    if (e.key_expr) h = std::max(h, e.key_expr->height);
    if (e.value) h = std::max(h, PatternHeight(*e.value));
  }
  return h + 1;
}

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options)
      : text_(text),
        lexer_(text),
        max_depth_(static_cast<int>(
            std::min<size_t>(options.max_depth, static_cast<size_t>(INT32_MAX / 2)))) {
    Advance();
  }

  ast::Program Parse(bool module) {
    ast::Program program;
    if (cur_.kind == TokenKind::kModule) {
      Advance();
      if (!cur_.is('{')) Fail(cur_);
      program.module_metadata = ParseConstObject();
      Expect(';');
    }
    while (cur_.kind == TokenKind::kImport || cur_.kind == TokenKind::kInclude) {
      program.imports.push_back(ParseImport());
    }
    std::vector<NodePtr> defs;
    while (cur_.kind == TokenKind::kDef) {
      // Top-level defs of a program nest (each scopes over the rest), so they count as depth.
      if (!module && static_cast<int>(defs.size()) >= max_depth_) FailDepth(cur_.offset);
      defs.push_back(ParseFuncDef());
    }
    if (module) {
      program.defs = std::move(defs);
      if (cur_.kind != TokenKind::kEOF) ParseQuery();  // validated, then ignored
      if (cur_.kind != TokenKind::kEOF) Fail(cur_);
      return program;
    }
    if (cur_.kind == TokenKind::kEOF) {
      Error e;
      e.message = std::string(kMissingQueryMessage);
      throw ParseFailure{std::move(e)};
    }
    NodePtr body = ParseQuery();
    if (cur_.kind != TokenKind::kEOF) Fail(cur_);
    for (auto it = defs.rbegin(); it != defs.rend(); ++it) {
      (*it)->rest = std::move(body);
      body = std::move(*it);
      Seal(*body);
    }
    program.body = std::move(body);
    return program;
  }

 private:
  // Bounds the parser's recursion: every cycle of mutually recursive productions passes through
  // a production that holds one.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) {
      if (++p_->depth_ > p_->max_depth_) p_->FailDepth(p_->cur_.offset);
    }
    ~DepthGuard() { --p_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser* p_;
  };

  WMAP_OUT_OF_LINE void Advance() { cur_ = lexer_.Next(); }

  [[noreturn]] WMAP_OUT_OF_LINE void FailAt(size_t offset, std::string message) {
    Error e;
    e.message = std::move(message);
    e.position.offset = std::min(offset, text_.size());
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < e.position.offset; ++i) {
      if (text_[i] == '\n' ||
          (text_[i] == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n'))) {
        ++line;
        line_start = i + 1;
      }
    }
    e.position.line = line;
    e.position.column = static_cast<int>(e.position.offset - line_start) + 1;
    e.hint = CaretHint(text_, e.position.offset);
    throw ParseFailure{std::move(e)};
  }

  // Reports the token the parser cannot accept, in gojq's words.
  [[noreturn]] WMAP_OUT_OF_LINE void Fail(const Token& t) {
    switch (t.kind) {
      case TokenKind::kEOF:
        FailAt(t.error_offset, "unexpected EOF");
      case TokenKind::kInvalid:
        FailAt(t.error_offset, "invalid token " + QuoteForMessage(t.error_text));
      case TokenKind::kInvalidEscape:
        FailAt(t.error_offset,
               "invalid escape sequence \"" + std::string(t.error_text) + "\" in string literal");
      case TokenKind::kUnterminatedString:
        FailAt(t.error_offset, "unterminated string literal");
      default:
        FailAt(t.error_offset, "unexpected token " + QuoteForMessage(t.error_text));
    }
  }

  [[noreturn]] WMAP_OUT_OF_LINE void FailDepth(size_t offset) {
    FailAt(offset, "query nested too deeply (more than " + std::to_string(max_depth_) + " levels)");
  }

  WMAP_OUT_OF_LINE void Expect(char c) {
    if (!cur_.is(c)) Fail(cur_);
    Advance();
  }

  NodePtr New(Kind kind, size_t offset) { return std::make_unique<Node>(kind, offset); }

  // Computes node.height from its children and enforces the depth limit.
  WMAP_OUT_OF_LINE void Seal(Node& n) {
    int h = 0;
    const auto use = [&h](const NodePtr& c) {
      if (c) h = std::max(h, c->height);
    };
    use(n.left);
    use(n.right);
    use(n.target);
    use(n.index);
    use(n.from);
    use(n.to);
    use(n.body);
    use(n.handler);
    use(n.cond);
    use(n.else_);
    use(n.source);
    use(n.init);
    use(n.update);
    use(n.extract);
    use(n.rest);
    for (const auto& a : n.args) use(a);
    for (const auto& p : n.parts) use(p.expr);
    for (const auto& e : n.entries) {
      use(e.key);
      use(e.value);
    }
    for (const auto& p : n.patterns) h = std::max(h, PatternHeight(*p));
    n.height = h + 1;
    if (n.height > max_depth_) FailDepth(n.offset);
  }

  WMAP_OUT_OF_LINE NodePtr Binary(Kind kind, NodePtr left, NodePtr right) {
    NodePtr n = New(kind, left->offset);
    n->left = std::move(left);
    n->right = std::move(right);
    Seal(*n);
    return n;
  }

  // query: the lowest level (pipe).
  NodePtr ParseQuery() {
    std::vector<NodePtr> items;
    items.push_back(ParseCommaLevel());
    while (cur_.is('|')) {
      // A chain of n pipes is a tree of height > n: stop early instead of folding it later.
      if (static_cast<int>(items.size()) >= max_depth_) FailDepth(cur_.offset);
      Advance();
      items.push_back(ParseCommaLevel());
    }
    NodePtr node = std::move(items.back());
    for (size_t i = items.size() - 1; i-- > 0;) {
      node = Binary(Kind::kPipe, std::move(items[i]), std::move(node));
    }
    return node;
  }

  NodePtr ParseCommaLevel() {
    NodePtr left = ParseQueryOperand();
    while (cur_.is(',')) {
      Advance();
      NodePtr right = ParseQueryOperand();
      left = Binary(Kind::kComma, std::move(left), std::move(right));
    }
    return left;
  }

  // An operand of `,`/`|`: a definition, a label, or an expression optionally bound with `as`.
  // The bodies of the first three extend as far to the right as possible.
  NodePtr ParseQueryOperand() {
    if (cur_.kind == TokenKind::kDef) return ParseDefQuery();
    if (cur_.kind == TokenKind::kLabel) return ParseLabel();
    NodePtr e = ParseExpr(1);
    if (cur_.kind == TokenKind::kAs) return ParseBind(std::move(e));
    return e;
  }

  WMAP_OUT_OF_LINE NodePtr ParseDefQuery() {
    DepthGuard guard(this);
    NodePtr def = ParseFuncDef();
    def->rest = ParseQuery();
    Seal(*def);
    return def;
  }

  WMAP_OUT_OF_LINE NodePtr ParseLabel() {
    DepthGuard guard(this);
    NodePtr n = New(Kind::kLabel, cur_.offset);
    Advance();
    if (cur_.kind != TokenKind::kVariable) Fail(cur_);
    n->name = cur_.value;
    Advance();
    Expect('|');
    n->body = ParseQuery();
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseBind(NodePtr e) {
    DepthGuard guard(this);
    Advance();
    NodePtr n = New(Kind::kBind, e->offset);
    n->source = std::move(e);
    n->patterns.push_back(ParsePattern());
    while (cur_.kind == TokenKind::kDestAltOp) {
      Advance();
      n->patterns.push_back(ParsePattern());
    }
    Expect('|');
    n->body = ParseQuery();
    Seal(*n);
    return n;
  }

  // `def name(params): body;` — `rest` is left for the caller.
  WMAP_OUT_OF_LINE NodePtr ParseFuncDef() {
    NodePtr n = New(Kind::kFuncDef, cur_.offset);
    Advance();
    if (cur_.kind != TokenKind::kIdent) Fail(cur_);
    n->name = cur_.value;
    Advance();
    if (cur_.is('(')) {
      Advance();
      for (;;) {
        ast::FuncParam param;
        if (cur_.kind == TokenKind::kIdent) {
          param.name = cur_.value;
        } else if (cur_.kind == TokenKind::kVariable) {
          param.name = cur_.value;
          param.is_var = true;
        } else {
          Fail(cur_);
        }
        n->params.push_back(std::move(param));
        Advance();
        if (!cur_.is(';')) break;
        Advance();
      }
      Expect(')');
    }
    Expect(':');
    n->body = ParseQuery();
    Expect(';');
    Seal(*n);
    return n;
  }

  // Binary operators with precedence >= min_prec (precedence climbing).
  NodePtr ParseExpr(int min_prec) {
    NodePtr left = ParseTerm();
    for (;;) {
      const BinaryInfo info = BinaryOf(cur_);
      if (info.prec == 0 || info.prec < min_prec) return left;
      const Operator op{cur_.kind, cur_.punct, cur_.text};
      Advance();
      // Right-associative chains recurse once per operator, so they count towards the depth.
      NodePtr right =
          info.assoc == Assoc::kRight ? ParseGuardedExpr(info.prec) : ParseExpr(info.prec + 1);
      left = MakeBinary(op, std::move(left), std::move(right));
      if (info.assoc == Assoc::kNone && BinaryOf(cur_).prec == info.prec) Fail(cur_);
    }
  }

  NodePtr ParseGuardedExpr(int min_prec) {
    DepthGuard guard(this);
    return ParseExpr(min_prec);
  }

  struct Operator {
    TokenKind kind;
    char punct;
    std::string_view text;
  };

  WMAP_OUT_OF_LINE NodePtr MakeBinary(const Operator& op, NodePtr left, NodePtr right) {
    const std::string_view s = op.text;
    NodePtr n;
    if (op.kind == TokenKind::kUpdateOp) {
      n = New(Kind::kAssign, left->offset);
      using ast::AssignOp;
      n->assign_op = s == "="    ? AssignOp::kSet
                     : s == "|=" ? AssignOp::kUpdate
                     : s == "+=" ? AssignOp::kAdd
                     : s == "-=" ? AssignOp::kSub
                     : s == "*=" ? AssignOp::kMul
                     : s == "/=" ? AssignOp::kDiv
                     : s == "%=" ? AssignOp::kMod
                                 : AssignOp::kAlt;
    } else {
      n = New(Kind::kBinary, left->offset);
      using ast::BinaryOp;
      switch (op.kind) {
        case TokenKind::kAltOp:
          n->binary_op = BinaryOp::kAlt;
          break;
        case TokenKind::kOr:
          n->binary_op = BinaryOp::kOr;
          break;
        case TokenKind::kAnd:
          n->binary_op = BinaryOp::kAnd;
          break;
        case TokenKind::kCompareOp:
          n->binary_op = s == "=="   ? BinaryOp::kEq
                         : s == "!=" ? BinaryOp::kNe
                         : s == "<"  ? BinaryOp::kLt
                         : s == "<=" ? BinaryOp::kLe
                         : s == ">"  ? BinaryOp::kGt
                                     : BinaryOp::kGe;
          break;
        default:
          n->binary_op = op.punct == '+'   ? BinaryOp::kAdd
                         : op.punct == '-' ? BinaryOp::kSub
                         : op.punct == '*' ? BinaryOp::kMul
                         : op.punct == '/' ? BinaryOp::kDiv
                                           : BinaryOp::kMod;
          break;
      }
    }
    n->left = std::move(left);
    n->right = std::move(right);
    Seal(*n);
    return n;
  }

  // A term with its postfix suffixes: .name, ."str", [..], .[..], ?
  NodePtr ParseTerm() {
    DepthGuard guard(this);
    return ParseSuffixes(ParsePrimary());
  }

  WMAP_OUT_OF_LINE NodePtr ParseSuffixes(NodePtr t) {
    for (;;) {
      if (cur_.kind == TokenKind::kField) {
        t = MakeFieldIndex(std::move(t), cur_);
        Advance();
      } else if (cur_.is('[')) {
        t = ParseBracketSuffix(std::move(t));
      } else if (cur_.is('?')) {
        NodePtr n = New(Kind::kTry, t->offset);
        n->body = std::move(t);
        Seal(*n);
        t = std::move(n);
        Advance();
      } else if (cur_.is('.')) {
        Advance();
        if (cur_.is('[')) {
          t = ParseBracketSuffix(std::move(t));
        } else if (IsStringStart(cur_)) {
          t = MakeIndex(std::move(t), ParseString(""));
        } else {
          Fail(cur_);
        }
      } else {
        return t;
      }
    }
  }

  NodePtr MakeIndex(NodePtr target, NodePtr index) {
    NodePtr n = New(Kind::kIndex, target->offset);
    n->target = std::move(target);
    n->index = std::move(index);
    Seal(*n);
    return n;
  }

  NodePtr MakeFieldIndex(NodePtr target, const Token& field) {
    NodePtr key = New(Kind::kLiteral, field.offset + 1);
    key->literal = Value::String(field.value);
    return MakeIndex(std::move(target), std::move(key));
  }

  // `[]`, `[e]`, `[e:]`, `[:e]`, `[e:e]` after a term; cur_ is '['.
  WMAP_OUT_OF_LINE NodePtr ParseBracketSuffix(NodePtr target) {
    Advance();
    if (cur_.is(']')) {
      Advance();
      NodePtr n = New(Kind::kIterate, target->offset);
      n->target = std::move(target);
      Seal(*n);
      return n;
    }
    if (cur_.is(':')) {
      Advance();
      NodePtr n = New(Kind::kSlice, target->offset);
      n->target = std::move(target);
      n->to = ParseQuery();
      Expect(']');
      Seal(*n);
      return n;
    }
    NodePtr first = ParseQuery();
    if (cur_.is(':')) {
      Advance();
      NodePtr n = New(Kind::kSlice, target->offset);
      n->target = std::move(target);
      n->from = std::move(first);
      if (!cur_.is(']')) n->to = ParseQuery();
      Expect(']');
      Seal(*n);
      return n;
    }
    Expect(']');
    return MakeIndex(std::move(target), std::move(first));
  }

  NodePtr Leaf(Kind kind) {
    NodePtr n = New(kind, cur_.offset);
    Advance();
    return n;
  }

  NodePtr LiteralLeaf(Value v) {
    NodePtr n = New(Kind::kLiteral, cur_.offset);
    n->literal = std::move(v);
    Advance();
    return n;
  }

  // Dispatches on the first token of a term; each production is out of line.
  NodePtr ParsePrimary() {
    switch (cur_.kind) {
      case TokenKind::kPunct:
        switch (cur_.punct) {
          case '.':
            return ParseDot();
          case '(':
            return ParseParenthesized();
          case '-':
            return ParseNeg();
          case '+':
            return ParsePlus();
          case '[':
            return ParseArray();
          case '{':
            return ParseObject();
          default:
            Fail(cur_);
        }
      case TokenKind::kRecurse:
        return Leaf(Kind::kRecurseDefault);
      case TokenKind::kField:
        return ParseField();
      case TokenKind::kNull:
      case TokenKind::kTrue:
      case TokenKind::kFalse:
      case TokenKind::kNumber:
        return ParseLiteral();
      case TokenKind::kIdent:
      case TokenKind::kModuleIdent:
        return ParseFuncCall();
      case TokenKind::kVariable:
      case TokenKind::kModuleVariable:
        return ParseVariable();
      case TokenKind::kFormat:
        return ParseFormat();
      case TokenKind::kString:
      case TokenKind::kStringStart:
        return ParseString("");
      case TokenKind::kIf:
        return ParseIf();
      case TokenKind::kTry:
        return ParseTry();
      case TokenKind::kReduce:
      case TokenKind::kForeach:
        return ParseReduceForeach();
      case TokenKind::kBreak:
        return ParseBreak();
      default:
        Fail(cur_);
    }
  }

  WMAP_OUT_OF_LINE NodePtr ParseDot() {
    NodePtr n = Leaf(Kind::kIdentity);
    if (IsStringStart(cur_)) return MakeIndex(std::move(n), ParseString(""));
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseParenthesized() {
    Advance();
    NodePtr q = ParseQuery();
    Expect(')');
    return q;
  }

  WMAP_OUT_OF_LINE NodePtr ParseNeg() {
    NodePtr n = New(Kind::kNeg, cur_.offset);
    Advance();
    n->body = ParseTerm();
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParsePlus() {
    const size_t offset = cur_.offset;
    Advance();
    NodePtr body = ParseTerm();
    NodePtr plus = New(Kind::kFuncCall, offset);
    plus->name = "_plus";
    NodePtr n = New(Kind::kPipe, offset);
    n->left = std::move(body);
    n->right = std::move(plus);
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseArray() {
    NodePtr n = New(Kind::kArray, cur_.offset);
    Advance();
    if (!cur_.is(']')) n->body = ParseQuery();
    Expect(']');
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseField() {
    NodePtr dot = New(Kind::kIdentity, cur_.offset);
    NodePtr n = MakeFieldIndex(std::move(dot), cur_);
    Advance();
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseLiteral() {
    switch (cur_.kind) {
      case TokenKind::kTrue:
        return LiteralLeaf(Value::Bool(true));
      case TokenKind::kFalse:
        return LiteralLeaf(Value::Bool(false));
      case TokenKind::kNumber:
        return LiteralLeaf(NumberLiteral(cur_.text));
      default:
        return LiteralLeaf(Value());
    }
  }

  WMAP_OUT_OF_LINE NodePtr ParseFuncCall() {
    NodePtr n = New(Kind::kFuncCall, cur_.offset);
    n->name = cur_.value;
    Advance();
    if (cur_.is('(')) {
      Advance();
      n->args.push_back(ParseQuery());
      while (cur_.is(';')) {
        Advance();
        n->args.push_back(ParseQuery());
      }
      Expect(')');
    }
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseVariable() {
    NodePtr n = New(Kind::kVar, cur_.offset);
    n->name = cur_.value;
    Advance();
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseFormat() {
    const size_t offset = cur_.offset;
    std::string format = cur_.value;
    Advance();
    if (IsStringStart(cur_)) {
      NodePtr n = ParseString(format);
      n->offset = offset;
      return n;
    }
    NodePtr n = New(Kind::kFormat, offset);
    n->format = std::move(format);
    return n;
  }

  // `try` binds tighter than any binary operator: its body and handler are postfix terms.
  WMAP_OUT_OF_LINE NodePtr ParseTry() {
    NodePtr n = New(Kind::kTry, cur_.offset);
    Advance();
    n->body = ParseTerm();
    if (cur_.kind == TokenKind::kCatch) {
      Advance();
      n->handler = ParseTerm();
    }
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseBreak() {
    NodePtr n = New(Kind::kBreak, cur_.offset);
    Advance();
    if (cur_.kind != TokenKind::kVariable) Fail(cur_);
    n->name = cur_.value;
    Advance();
    return n;
  }

  WMAP_OUT_OF_LINE NodePtr ParseIf() {
    struct Branch {
      size_t offset;
      NodePtr cond, then;
    };
    std::vector<Branch> branches;
    do {  // `if` first, then each `elif`
      Branch b;
      b.offset = cur_.offset;
      Advance();
      b.cond = ParseQuery();
      if (cur_.kind != TokenKind::kThen) Fail(cur_);
      Advance();
      b.then = ParseQuery();
      branches.push_back(std::move(b));
    } while (cur_.kind == TokenKind::kElif);
    NodePtr else_branch;
    if (cur_.kind == TokenKind::kElse) {
      Advance();
      else_branch = ParseQuery();
    }
    if (cur_.kind != TokenKind::kEnd) Fail(cur_);
    Advance();
    for (auto it = branches.rbegin(); it != branches.rend(); ++it) {
      NodePtr n = New(Kind::kIf, it->offset);
      n->cond = std::move(it->cond);
      n->body = std::move(it->then);
      n->else_ = std::move(else_branch);
      Seal(*n);
      else_branch = std::move(n);
    }
    return else_branch;
  }

  WMAP_OUT_OF_LINE NodePtr ParseReduceForeach() {
    const bool is_reduce = cur_.kind == TokenKind::kReduce;
    NodePtr n = New(is_reduce ? Kind::kReduce : Kind::kForeach, cur_.offset);
    Advance();
    n->source = ParseExpr(1);
    if (cur_.kind != TokenKind::kAs) Fail(cur_);
    Advance();
    n->patterns.push_back(ParsePattern());
    Expect('(');
    n->init = ParseQuery();
    Expect(';');
    n->update = ParseQuery();
    if (!is_reduce && cur_.is(';')) {
      Advance();
      n->extract = ParseQuery();
    }
    Expect(')');
    Seal(*n);
    return n;
  }

  // A string literal, with interpolation when cur_ is kStringStart. Plain literals without a
  // format become kLiteral; everything else is kString.
  WMAP_OUT_OF_LINE NodePtr ParseString(const std::string& format) {
    if (cur_.kind == TokenKind::kString && format.empty()) {
      return LiteralLeaf(Value::String(cur_.value));
    }
    NodePtr n = New(Kind::kString, cur_.offset);
    n->format = format;
    const auto add_literal = [&n](std::string s) {
      if (s.empty()) return;
      ast::StringPart part;
      part.literal = std::move(s);
      n->parts.push_back(std::move(part));
    };
    add_literal(std::move(cur_.value));
    if (cur_.kind == TokenKind::kString) {
      Advance();
      Seal(*n);
      return n;
    }
    for (;;) {
      Advance();  // the first token inside `\(`
      ast::StringPart part;
      part.expr = ParseQuery();
      n->parts.push_back(std::move(part));
      if (!cur_.is(')')) Fail(cur_);
      cur_ = lexer_.NextStringPart();
      if (cur_.kind != TokenKind::kStringPart) Fail(cur_);
      add_literal(std::move(cur_.value));
      if (cur_.string_ends) break;
    }
    Advance();
    Seal(*n);
    return n;
  }

  // A key written as a bare name or keyword: `{if: 1}`, `{a}`.
  NodePtr NameKey() {
    NodePtr key = New(Kind::kLiteral, cur_.offset);
    key->literal = Value::String(cur_.text);
    Advance();
    return key;
  }

  WMAP_OUT_OF_LINE NodePtr ParseObject() {
    NodePtr n = New(Kind::kObject, cur_.offset);
    Advance();
    if (cur_.is('}')) {
      Advance();
      return n;
    }
    for (;;) {
      n->entries.push_back(ParseObjectEntry());
      if (cur_.is(',')) {
        Advance();
        if (cur_.is('}')) {
          Advance();
          break;
        }
        continue;
      }
      Expect('}');
      break;
    }
    Seal(*n);
    return n;
  }

  WMAP_OUT_OF_LINE ast::ObjectEntry ParseObjectEntry() {
    ast::ObjectEntry e;
    if (cur_.kind == TokenKind::kIdent || IsKeyword(cur_.kind)) {
      e.key = NameKey();
    } else if (cur_.kind == TokenKind::kVariable) {
      e.key_var = cur_.value;
      Advance();
    } else if (IsStringStart(cur_)) {
      e.key = ParseString("");
    } else if (cur_.is('(')) {
      Advance();
      e.key = ParseQuery();
      Expect(')');
      if (!cur_.is(':')) Fail(cur_);
    } else {
      Fail(cur_);
    }
    if (cur_.is(':')) {
      Advance();
      e.value = ParseObjectValue();
    }
    return e;
  }

  // gojq's objectval: expressions joined by `|` (right-associative), no `,` or `as`.
  NodePtr ParseObjectValue() {
    std::vector<NodePtr> items;
    items.push_back(ParseExpr(1));
    while (cur_.is('|')) {
      if (static_cast<int>(items.size()) >= max_depth_) FailDepth(cur_.offset);
      Advance();
      items.push_back(ParseExpr(1));
    }
    NodePtr node = std::move(items.back());
    for (size_t i = items.size() - 1; i-- > 0;) {
      node = Binary(Kind::kPipe, std::move(items[i]), std::move(node));
    }
    return node;
  }

  std::unique_ptr<Pattern> ParsePattern() {
    DepthGuard guard(this);
    auto p = std::make_unique<Pattern>();
    p->offset = cur_.offset;
    if (cur_.kind == TokenKind::kVariable) {
      p->kind = Pattern::Kind::kVar;
      p->name = cur_.value;
      Advance();
    } else if (cur_.is('[')) {
      p->kind = Pattern::Kind::kArray;
      Advance();
      p->elements.push_back(ParsePattern());
      while (cur_.is(',')) {
        Advance();
        p->elements.push_back(ParsePattern());
      }
      Expect(']');
    } else if (cur_.is('{')) {
      p->kind = Pattern::Kind::kObject;
      Advance();
      p->entries.push_back(ParseObjectPatternEntry());
      while (cur_.is(',')) {
        Advance();
        p->entries.push_back(ParseObjectPatternEntry());
      }
      Expect('}');
    } else {
      Fail(cur_);
    }
    if (PatternHeight(*p) > max_depth_) FailDepth(p->offset);
    return p;
  }

  WMAP_OUT_OF_LINE Pattern::ObjectEntry ParseObjectPatternEntry() {
    Pattern::ObjectEntry e;
    if (cur_.kind == TokenKind::kVariable) {
      e.key_var = cur_.value;
      Advance();
      if (!cur_.is(':')) return e;
    } else if (cur_.kind == TokenKind::kIdent || IsKeyword(cur_.kind)) {
      e.key_expr = NameKey();
    } else if (IsStringStart(cur_)) {
      e.key_expr = ParseString("");
    } else if (cur_.is('(')) {
      Advance();
      e.key_expr = ParseQuery();
      Expect(')');
    } else {
      Fail(cur_);
    }
    Expect(':');
    e.value = ParsePattern();
    return e;
  }

  ast::Import ParseImport() {
    ast::Import im;
    im.offset = cur_.offset;
    im.is_include = cur_.kind == TokenKind::kInclude;
    Advance();
    if (cur_.kind != TokenKind::kString) Fail(cur_);
    im.path = cur_.value;
    Advance();
    if (!im.is_include) {
      if (cur_.kind != TokenKind::kAs) Fail(cur_);
      Advance();
      if (cur_.kind == TokenKind::kIdent) {
        im.alias = cur_.value;
      } else if (cur_.kind == TokenKind::kVariable) {
        im.alias = cur_.value;
        im.is_data = true;
      } else {
        Fail(cur_);
      }
      Advance();
    }
    if (cur_.is('{')) im.metadata = ParseConstObject();
    Expect(';');
    return im;
  }

  // Constant JSON-like values of module metadata; cur_ is '{'.
  WMAP_OUT_OF_LINE Value ParseConstObject() {
    Advance();
    Value obj = Value::EmptyObject();
    if (cur_.is('}')) {
      Advance();
      return obj;
    }
    for (;;) {
      std::string key;
      if (cur_.kind == TokenKind::kIdent || IsKeyword(cur_.kind)) {
        key = std::string(cur_.text);
      } else if (cur_.kind == TokenKind::kString) {
        key = cur_.value;
      } else {
        Fail(cur_);
      }
      Advance();
      Expect(':');
      obj.set(key, ParseConstTerm());
      if (cur_.is(',')) {
        Advance();
        if (cur_.is('}')) {
          Advance();
          return obj;
        }
        continue;
      }
      Expect('}');
      return obj;
    }
  }

  WMAP_OUT_OF_LINE Value ParseConstTerm() {
    DepthGuard guard(this);
    Value v;
    switch (cur_.kind) {
      case TokenKind::kNumber:
        v = NumberLiteral(cur_.text);
        break;
      case TokenKind::kString:
        v = Value::String(cur_.value);
        break;
      case TokenKind::kNull:
        break;
      case TokenKind::kTrue:
        v = Value::Bool(true);
        break;
      case TokenKind::kFalse:
        v = Value::Bool(false);
        break;
      case TokenKind::kPunct:
        if (cur_.is('{')) return ParseConstObject();
        if (cur_.is('[')) {
          Advance();
          Value arr = Value::EmptyArray();
          if (cur_.is(']')) {
            Advance();
            return arr;
          }
          arr.push_back(ParseConstTerm());
          while (cur_.is(',')) {
            Advance();
            arr.push_back(ParseConstTerm());
          }
          Expect(']');
          return arr;
        }
        Fail(cur_);
      default:
        Fail(cur_);
    }
    Advance();
    return v;
  }

  std::string_view text_;
  Lexer lexer_;
  Token cur_;
  int depth_ = 0;
  int max_depth_;
};

Result<ast::Program> Run(std::string_view text, const ParseOptions& options, bool module) {
  try {
    Parser parser(text, options);
    return parser.Parse(module);
  } catch (ParseFailure& failure) {
    return std::move(failure.error);
  } catch (const std::bad_alloc&) {
    Error e;
    e.message = "out of memory while parsing the query";
    return e;
  }
}

}  // namespace

Result<ast::Program> ParseProgram(std::string_view text, const ParseOptions& options) {
  return Run(text, options, false);
}

Result<ast::Program> ParseModule(std::string_view text, const ParseOptions& options) {
  return Run(text, options, true);
}

}  // namespace wmap::jq
