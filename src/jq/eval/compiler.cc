#include "jq/eval/compiler.h"

#include <algorithm>
#include <optional>

#include "jq/eval/builtin_ops.h"
#include "jq/eval/loop_ops.h"
#include "jq/eval/modules.h"
#include "jq/eval/ops.h"
#include "jq/eval/value_ops.h"
#include "jq/parse_error.h"
#include "jq/parser.h"
#include "wmap/json.h"

namespace wmap::jq::eval {
namespace {

enum class Special {
  kEmpty,
  kNot,
  kError0,
  kError1,
  kPath,
  kGetpath,
  kSetpath,
  kDelpaths,
  kSelect,
  kRecurse0,
  kRecurse1,
  kRepeat,
  kUntil,
  kWhile,
  kFirst,
  kLimit,
  kSkip,
  kIsEmpty,
  kAny0,
  kAny1,
  kAny2,
  kAll0,
  kAll1,
  kAll2,
  kRange1,
  kRange2,
  kRange3,
  kInput,
  kInputs,
  kDebug0,
  kDebug1,
  kStderr,
  kInputFilename,
  kEnv,
  kHalt,
  kHaltError0,
  kHaltError1,
  kBuiltins,
  kMap,
  kPlus,
  kLast,
  kModuleMeta,
};

const std::unordered_map<std::string, Special>& Specials() {
  static const auto* table = new std::unordered_map<std::string, Special>{
      {"empty/0", Special::kEmpty},
      {"not/0", Special::kNot},
      {"error/0", Special::kError0},
      {"error/1", Special::kError1},
      {"path/1", Special::kPath},
      {"getpath/1", Special::kGetpath},
      {"setpath/2", Special::kSetpath},
      {"delpaths/1", Special::kDelpaths},
      {"select/1", Special::kSelect},
      {"recurse/0", Special::kRecurse0},
      {"recurse/1", Special::kRecurse1},
      {"repeat/1", Special::kRepeat},
      {"until/2", Special::kUntil},
      {"while/2", Special::kWhile},
      {"first/1", Special::kFirst},
      {"limit/2", Special::kLimit},
      {"skip/2", Special::kSkip},
      {"isempty/1", Special::kIsEmpty},
      {"any/0", Special::kAny0},
      {"any/1", Special::kAny1},
      {"any/2", Special::kAny2},
      {"all/0", Special::kAll0},
      {"all/1", Special::kAll1},
      {"all/2", Special::kAll2},
      {"range/1", Special::kRange1},
      {"range/2", Special::kRange2},
      {"range/3", Special::kRange3},
      {"input/0", Special::kInput},
      {"inputs/0", Special::kInputs},
      {"debug/0", Special::kDebug0},
      {"debug/1", Special::kDebug1},
      {"stderr/0", Special::kStderr},
      {"input_filename/0", Special::kInputFilename},
      {"env/0", Special::kEnv},
      {"halt/0", Special::kHalt},
      {"halt_error/0", Special::kHaltError0},
      {"halt_error/1", Special::kHaltError1},
      {"builtins/0", Special::kBuiltins},
      {"map/1", Special::kMap},
      {"_plus/0", Special::kPlus},
      {"last/1", Special::kLast},
      {"modulemeta/0", Special::kModuleMeta},
  };
  return *table;
}

std::string Key(std::string_view name, size_t arity) {
  std::string k(name);
  k.push_back('/');
  k.append(std::to_string(arity));
  return k;
}

// One function activation's worth of variable slots.
struct Scope {
  Scope* parent = nullptr;
  int num_slots = 0;
  int NewSlot() { return num_slots++; }
};

struct Binding {
  enum class Kind { kVar, kFunc, kParam, kLabel, kConst };
  Kind kind;
  std::string name;
  size_t arity = 0;
  Scope* scope = nullptr;
  int index = 0;
  const FuncDef* def = nullptr;
  Value constant;  // kConst: data imported with `import "f" as $name`
};

class Compiler {
 public:
  // Compiling the library: `building` receives definitions; otherwise `library` is read.
  Compiler(const Library* library, Library* building, std::string_view text,
           CompiledProgram* program, Scope* root)
      : library_(library), building_(building), text_(text), program_(program), scope_(root) {}

  OpPtr Compile(const ast::Node& n);

  // Library definitions are declared first (so they may refer to each other in any order),
  // then compiled.
  FuncDef* DeclareLibraryDef(const ast::Node& def);
  bool CompileLibraryDef(const ast::Node& def, FuncDef* func);

  // Resolves the imports of a program or module (`dir`: its directory) and binds what they
  // define. Returns false with error() set.
  bool ProcessImports(const ast::Program& program, const std::string& dir);
  void SetLibraryPaths(const std::vector<std::string>* paths) { library_paths_ = paths; }

  void BindVariable(const std::string& name, int slot) {
    env_.push_back(Binding{Binding::Kind::kVar, name, 0, scope_, slot, nullptr, Value()});
  }

  const std::optional<Error>& error() const { return error_; }

 private:
  // Records the first error. kCompile unless said otherwise; a module that does not parse is
  // kParse with its file and the message already in gojq's form.
  OpPtr Fail(std::string message, size_t offset, ErrorCode code = ErrorCode::kCompile,
             std::string file = "") {
    if (!error_) {
      Error e;
      e.code = code;
      e.message = std::move(message);
      e.file = std::move(file);
      e.position.offset = offset;
      error_ = std::move(e);
    }
    return nullptr;
  }
  void Construct(const char* name) {
    if (program_) program_->used_constructs.insert(name);
  }
  int Hops(const Scope* target) const {
    int h = 0;
    for (const Scope* s = scope_; s != nullptr && s != target; s = s->parent) ++h;
    return h;
  }
  const std::unordered_map<std::string, const FuncDef*>& Defs() const {
    return building_ ? building_->defs : library_->defs;
  }
  const std::unordered_map<std::string, const NativeSpec*>& Natives() const {
    return building_ ? building_->natives : library_->natives;
  }
  FuncDef* NewFunc() {
    auto def = std::make_unique<FuncDef>();
    FuncDef* raw = def.get();
    if (building_) {
      building_->funcs.push_back(std::move(def));
    } else {
      program_->funcs.push_back(std::move(def));
    }
    return raw;
  }

  bool CompileFuncBody(const ast::Node& n, FuncDef* def);
  OpPtr CompileFuncDef(const ast::Node& n);
  OpPtr CompileCall(const ast::Node& n);
  OpPtr CompileSpecial(Special s, const ast::Node& n);
  bool CompileArgs(const ast::Node& n, std::vector<OpPtr>* args);
  OpPtr CompileVar(const ast::Node& n);
  OpPtr CompileIndex(const ast::Node& n);
  OpPtr CompileBinary(const ast::Node& n);
  OpPtr CompileString(const ast::Node& n);
  OpPtr CompileObject(const ast::Node& n);
  OpPtr CompileBind(const ast::Node& n);
  OpPtr CompileReduce(const ast::Node& n);
  std::unique_ptr<PatternCode> CompilePattern(const ast::Pattern& p,
                                              std::unordered_map<std::string, int>* vars);
  Value Location(size_t offset) const;

  const Library* library_;
  Library* building_;
  std::string_view text_;
  CompiledProgram* program_;
  Scope* scope_;
  std::vector<Binding> env_;
  std::optional<Error> error_;
  const std::vector<std::string>* library_paths_ = nullptr;
  int module_depth_ = 0;
  // Set while compiling the operand of a postfix `?`; taken by the index/slice/iterate node.
  bool optional_suffix_ = false;
  bool TakeOptional() {
    bool o = optional_suffix_;
    optional_suffix_ = false;
    return o;
  }
};

#define WMAP_COMPILE(var, node) \
  OpPtr var = Compile(node);    \
  if (!var) return nullptr

OpPtr Compiler::Compile(const ast::Node& n) {
  switch (n.kind) {
    case ast::Kind::kIdentity:
      return std::make_unique<IdentityOp>();
    case ast::Kind::kRecurseDefault:
      Construct("recurse");
      return std::make_unique<RecurseAllOp>();
    case ast::Kind::kLiteral:
      return std::make_unique<LiteralOp>(n.literal);
    case ast::Kind::kString:
      return CompileString(n);
    case ast::Kind::kFormat: {
      Construct("format");
      auto it = Natives().find("format/1");
      if (it == Natives().end()) return Fail("function not defined: format/1", n.offset);
      std::vector<OpPtr> args;
      args.push_back(std::make_unique<LiteralOp>(
          Value::String(std::string_view(n.format).substr(n.format.empty() ? 0 : 1))));
      return std::make_unique<NativeOp>(it->second, std::move(args));
    }
    case ast::Kind::kIndex:
      return CompileIndex(n);
    case ast::Kind::kSlice: {
      Construct("slice");
      bool optional = TakeOptional();
      WMAP_COMPILE(target, *n.target);
      OpPtr from, to;
      if (n.from) {
        from = Compile(*n.from);
        if (!from) return nullptr;
      }
      if (n.to) {
        to = Compile(*n.to);
        if (!to) return nullptr;
      }
      return std::make_unique<SliceOp>(std::move(target), std::move(from), std::move(to), optional);
    }
    case ast::Kind::kIterate: {
      Construct("iterate");
      bool optional = TakeOptional();
      if (!n.target || n.target->kind == ast::Kind::kIdentity) {
        return std::make_unique<IterateOp>(nullptr, optional);
      }
      WMAP_COMPILE(target, *n.target);
      return std::make_unique<IterateOp>(std::move(target), optional);
    }
    case ast::Kind::kTry: {
      Construct(n.handler ? "try" : "optional");
      // A postfix `?` (same offset as its operand) guards only the last suffix of an index
      // chain: in `.a.b?` an error from `.a` is not suppressed (gojq).
      if (!n.handler && n.body && n.offset == n.body->offset && n.body->target &&
          (n.body->kind == ast::Kind::kIndex || n.body->kind == ast::Kind::kSlice ||
           n.body->kind == ast::Kind::kIterate)) {
        optional_suffix_ = true;
        return Compile(*n.body);
      }
      WMAP_COMPILE(body, *n.body);
      OpPtr handler;
      if (n.handler) {
        handler = Compile(*n.handler);
        if (!handler) return nullptr;
      }
      return std::make_unique<TryOp>(std::move(body), std::move(handler));
    }
    case ast::Kind::kPipe: {
      WMAP_COMPILE(left, *n.left);
      WMAP_COMPILE(right, *n.right);
      if (dynamic_cast<IdentityOp*>(left.get())) return right;
      if (dynamic_cast<IdentityOp*>(right.get())) return left;
      return std::make_unique<PipeOp>(std::move(left), std::move(right));
    }
    case ast::Kind::kComma: {
      WMAP_COMPILE(left, *n.left);
      WMAP_COMPILE(right, *n.right);
      return std::make_unique<CommaOp>(std::move(left), std::move(right));
    }
    case ast::Kind::kNeg: {
      WMAP_COMPILE(body, *n.body);
      if (const Value* c = body->Constant()) {
        Value r;
        std::string error;
        if (Negate(*c, &r, &error)) return std::make_unique<LiteralOp>(std::move(r));
      }
      return std::make_unique<NegOp>(std::move(body));
    }
    case ast::Kind::kBinary:
      return CompileBinary(n);
    case ast::Kind::kAssign: {
      Construct("assign");
      WMAP_COMPILE(lhs, *n.left);
      WMAP_COMPILE(rhs, *n.right);
      return std::make_unique<AssignOp>(n.assign_op, std::move(lhs), std::move(rhs));
    }
    case ast::Kind::kIf: {
      Construct("if");
      WMAP_COMPILE(cond, *n.cond);
      WMAP_COMPILE(then, *n.body);
      OpPtr otherwise;
      if (n.else_) {
        otherwise = Compile(*n.else_);
        if (!otherwise) return nullptr;
      }
      return std::make_unique<IfOp>(std::move(cond), std::move(then), std::move(otherwise));
    }
    case ast::Kind::kReduce:
    case ast::Kind::kForeach:
      return CompileReduce(n);
    case ast::Kind::kFuncDef:
      return CompileFuncDef(n);
    case ast::Kind::kFuncCall:
      return CompileCall(n);
    case ast::Kind::kVar:
      return CompileVar(n);
    case ast::Kind::kBind:
      return CompileBind(n);
    case ast::Kind::kLabel: {
      Construct("label");
      int slot = scope_->NewSlot();
      env_.push_back(Binding{Binding::Kind::kLabel, n.name, 0, scope_, slot, nullptr, Value()});
      OpPtr body = Compile(*n.body);
      env_.pop_back();
      if (!body) return nullptr;
      return std::make_unique<LabelOp>(slot, std::move(body));
    }
    case ast::Kind::kBreak: {
      Construct("break");
      for (auto it = env_.rbegin(); it != env_.rend(); ++it) {
        if (it->kind == Binding::Kind::kLabel && it->name == n.name) {
          return std::make_unique<BreakOp>(Hops(it->scope), it->index);
        }
      }
      return Fail("label not defined: $" + n.name, n.offset);
    }
    case ast::Kind::kArray: {
      Construct("array");
      if (!n.body) return std::make_unique<LiteralOp>(Value::EmptyArray());
      WMAP_COMPILE(body, *n.body);
      if (const Value* c = body->Constant()) {
        return std::make_unique<LiteralOp>(Value::Array({*c}));
      }
      return std::make_unique<ArrayOp>(std::move(body));
    }
    case ast::Kind::kObject:
      return CompileObject(n);
  }
  return Fail("unsupported expression", n.offset);
}

bool Compiler::ProcessImports(const ast::Program& program, const std::string& dir) {
  static const std::vector<std::string> kNoPaths;
  const std::vector<std::string>& paths = library_paths_ ? *library_paths_ : kNoPaths;
  if (module_depth_ > 32) {
    Fail("modules nested too deeply", 0);
    return false;
  }
  for (const ast::Import& imp : program.imports) {
    auto not_found = [&]() {
      Fail("module not found: \"" + imp.path + "\"", imp.offset);
      return false;
    };
    if (imp.is_data) {
      std::optional<std::string> file = FindModule(imp.path, ".json", imp.metadata, dir, paths);
      std::string text;
      if (!file || !ReadTextFile(*file, &text)) return not_found();
      json::StreamReader reader(text, {.gojq_numbers = true});
      Value v;
      Error e;
      std::vector<Value> values;
      while (reader.Next(&v, &e)) {
        if (reader.failed()) {
          std::string where = *file;
          if (e.position.known()) where += ":" + std::to_string(e.position.line);
          Fail("invalid json: " + where, imp.offset);
          return false;
        }
        values.push_back(std::move(v));
      }
      Value data = Value::Array(std::move(values));
      Binding b{Binding::Kind::kConst, imp.alias, 0, scope_, 0, nullptr, data};
      env_.push_back(b);
      b.name = imp.alias + "::" + imp.alias;
      env_.push_back(std::move(b));
      continue;
    }
    std::optional<std::string> file = FindModule(imp.path, ".jq", imp.metadata, dir, paths);
    std::string text;
    if (!file || !ReadTextFile(*file, &text)) return not_found();
    auto parsed = ParseModule(text);
    if (!parsed.ok()) {
      Fail(FormatQueryError(text, parsed.error(), *file), imp.offset, ErrorCode::kParse, *file);
      return false;
    }
    std::vector<Binding> saved = std::move(env_);
    env_.clear();
    ++module_depth_;
    bool ok = ProcessImports(*parsed, DirName(*file));
    for (size_t i = 0; ok && i < parsed->defs.size(); ++i) {
      const ast::Node& def = *parsed->defs[i];
      FuncDef* func = NewFunc();
      env_.push_back(
          Binding{Binding::Kind::kFunc, def.name, def.params.size(), scope_, 0, func, Value()});
      ok = CompileFuncBody(def, func);
    }
    --module_depth_;
    std::vector<Binding> module_env = std::move(env_);
    env_ = std::move(saved);
    if (!ok) return false;
    for (Binding& b : module_env) {
      if (b.kind != Binding::Kind::kFunc || b.name.find("::") != std::string::npos) continue;
      if (!imp.is_include) b.name = imp.alias + "::" + b.name;
      env_.push_back(std::move(b));
    }
  }
  return true;
}

OpPtr Compiler::CompileIndex(const ast::Node& n) {
  bool optional = TakeOptional();
  auto is_field = [](const ast::Node& x) {
    return x.kind == ast::Kind::kIndex && x.index && x.index->kind == ast::Kind::kLiteral &&
           x.index->literal.is_string();
  };
  if (is_field(n)) {
    std::vector<std::string> names;
    const ast::Node* cur = &n;
    while (is_field(*cur) && cur->target) {
      names.emplace_back(cur->index->literal.as_string());
      cur = cur->target.get();
    }
    std::reverse(names.begin(), names.end());
    OpPtr base;
    if (cur->kind != ast::Kind::kIdentity) {
      base = Compile(*cur);
      if (!base) return nullptr;
    }
    if (optional && names.size() > 1) {
      std::string last = std::move(names.back());
      names.pop_back();
      base = std::make_unique<FieldChainOp>(std::move(base), std::move(names));
      names = {std::move(last)};
    }
    return std::make_unique<FieldChainOp>(std::move(base), std::move(names), optional);
  }
  OpPtr target;
  if (n.target) {
    target = Compile(*n.target);
  } else {
    target = std::make_unique<IdentityOp>();
  }
  if (!target) return nullptr;
  WMAP_COMPILE(index, *n.index);
  return std::make_unique<IndexOp>(std::move(target), std::move(index), optional);
}

OpPtr Compiler::CompileBinary(const ast::Node& n) {
  WMAP_COMPILE(left, *n.left);
  WMAP_COMPILE(right, *n.right);
  switch (n.binary_op) {
    case ast::BinaryOp::kAnd:
    case ast::BinaryOp::kOr:
      return std::make_unique<LogicOp>(n.binary_op == ast::BinaryOp::kAnd, std::move(left),
                                       std::move(right));
    case ast::BinaryOp::kAlt:
      Construct("alternative");
      return std::make_unique<AlternativeOp>(std::move(left), std::move(right));
    default:
      break;
  }
  const Value* lc = left->Constant();
  const Value* rc = right->Constant();
  // Constants are folded here, outside any run's budget, only when the result is small: a large
  // one (`"a" * 100000000`) is built by the run and charged to it.
  if (lc && rc && !BuildsLargeValue(n.binary_op, *lc, *rc)) {
    Value r;
    std::string error;
    if (BinaryOperation(n.binary_op, *lc, *rc, &r, &error)) {
      return std::make_unique<LiteralOp>(std::move(r));
    }
  }
  return std::make_unique<BinaryOp>(n.binary_op, std::move(left), std::move(right));
}

OpPtr Compiler::CompileString(const ast::Node& n) {
  bool constant = n.format.empty() || n.format == "@text";
  for (const ast::StringPart& p : n.parts) constant = constant && !p.expr;
  if (constant) {
    std::string s;
    for (const ast::StringPart& p : n.parts) s.append(p.literal);
    return std::make_unique<LiteralOp>(Value::String(std::move(s)));
  }
  Construct("interpolation");
  const NativeSpec* format = nullptr;
  Value format_name;
  if (!n.format.empty()) {
    Construct("format");
    auto it = Natives().find("format/1");
    if (it == Natives().end()) return Fail("function not defined: format/1", n.offset);
    format = it->second;
    format_name = Value::String(std::string_view(n.format).substr(1));
  }
  std::vector<StringOp::Part> parts;
  for (const ast::StringPart& p : n.parts) {
    StringOp::Part part;
    if (p.expr) {
      part.expr = Compile(*p.expr);
      if (!part.expr) return nullptr;
    } else {
      part.literal = p.literal;
    }
    parts.push_back(std::move(part));
  }
  return std::make_unique<StringOp>(std::move(parts), format, std::move(format_name));
}

OpPtr Compiler::CompileObject(const ast::Node& n) {
  Construct("object");
  std::vector<ObjectOp::Entry> entries;
  bool constant = true;
  for (const ast::ObjectEntry& e : n.entries) {
    ObjectOp::Entry entry;
    if (!e.key_var.empty()) {
      ast::Node var(ast::Kind::kVar, n.offset);
      var.name = e.key_var;
      if (e.value) {
        entry.key = Compile(var);
        if (!entry.key) return nullptr;
        entry.value = Compile(*e.value);
      } else {
        entry.key = std::make_unique<LiteralOp>(Value::String(e.key_var));
        entry.value = Compile(var);
      }
      if (!entry.value) return nullptr;
    } else {
      entry.key = Compile(*e.key);
      if (!entry.key) return nullptr;
      if (e.value) {
        entry.value = Compile(*e.value);
      } else if (e.key->kind == ast::Kind::kLiteral && e.key->literal.is_string()) {
        entry.value = std::make_unique<FieldChainOp>(
            nullptr, std::vector<std::string>{std::string(e.key->literal.as_string())});
      }
      if (e.value && !entry.value) return nullptr;
    }
    constant = constant && entry.value && entry.key->Constant() && entry.value->Constant() &&
               entry.key->Constant()->is_string();
    entries.push_back(std::move(entry));
  }
  if (constant) {
    Value obj = Value::EmptyObject(entries.size());
    for (const ObjectOp::Entry& e : entries) {
      obj.set(e.key->Constant()->as_string(), *e.value->Constant());
    }
    return std::make_unique<LiteralOp>(std::move(obj));
  }
  return std::make_unique<ObjectOp>(std::move(entries));
}

OpPtr Compiler::CompileVar(const ast::Node& n) {
  for (auto it = env_.rbegin(); it != env_.rend(); ++it) {
    if (it->name != n.name) continue;
    if (it->kind == Binding::Kind::kVar) {
      return std::make_unique<VarOp>(Hops(it->scope), it->index);
    }
    if (it->kind == Binding::Kind::kConst) return std::make_unique<LiteralOp>(it->constant);
  }
  if (n.name == "ENV") return std::make_unique<ContextOp>(ContextOp::Kind::kEnv, nullptr);
  if (n.name == "__loc__") return std::make_unique<LiteralOp>(Location(n.offset));
  // gojq reports this error with its compile-error prefix once modules are involved.
  return Fail("variable not defined: $" + n.name, n.offset);
}

Value Compiler::Location(size_t offset) const {
  int64_t line = 1;
  for (size_t i = 0; i < offset && i < text_.size(); ++i) line += text_[i] == '\n';
  return Value::Object({{"file", Value::String("<top-level>")}, {"line", Value::Int(line)}});
}

std::unique_ptr<PatternCode> Compiler::CompilePattern(const ast::Pattern& p,
                                                      std::unordered_map<std::string, int>* vars) {
  auto slot_for = [&](const std::string& name) {
    auto it = vars->find(name);
    int slot;
    if (it == vars->end()) {
      slot = scope_->NewSlot();
      vars->emplace(name, slot);
    } else {
      slot = it->second;
    }
    env_.push_back(Binding{Binding::Kind::kVar, name, 0, scope_, slot, nullptr, Value()});
    return slot;
  };
  auto code = std::make_unique<PatternCode>();
  switch (p.kind) {
    case ast::Pattern::Kind::kVar:
      code->kind = PatternCode::Kind::kVar;
      code->slot = slot_for(p.name);
      break;
    case ast::Pattern::Kind::kArray:
      Construct("destructure");
      code->kind = PatternCode::Kind::kArray;
      for (const auto& e : p.elements) {
        auto sub = CompilePattern(*e, vars);
        if (!sub) return nullptr;
        code->elements.push_back(std::move(sub));
      }
      break;
    case ast::Pattern::Kind::kObject:
      Construct("destructure");
      code->kind = PatternCode::Kind::kObject;
      for (const auto& e : p.entries) {
        PatternCode::Entry entry;
        if (!e.key_var.empty()) {
          entry.key_name = e.key_var;
          entry.key_slot = slot_for(e.key_var);
        } else if (e.key_expr && e.key_expr->kind == ast::Kind::kLiteral &&
                   e.key_expr->literal.is_string()) {
          entry.key_name = std::string(e.key_expr->literal.as_string());
        } else if (e.key_expr) {
          entry.key_expr = Compile(*e.key_expr);
          if (!entry.key_expr) return nullptr;
        }
        if (e.value) {
          entry.value = CompilePattern(*e.value, vars);
          if (!entry.value) return nullptr;
        }
        code->entries.push_back(std::move(entry));
      }
      break;
  }
  return code;
}

OpPtr Compiler::CompileBind(const ast::Node& n) {
  Construct("as");
  WMAP_COMPILE(source, *n.source);
  size_t mark = env_.size();
  std::unordered_map<std::string, int> vars;
  std::vector<std::unique_ptr<PatternCode>> patterns;
  if (n.patterns.size() > 1) Construct("destructure");
  for (const auto& p : n.patterns) {
    auto code = CompilePattern(*p, &vars);
    if (!code) return nullptr;
    patterns.push_back(std::move(code));
  }
  OpPtr body = Compile(*n.body);
  env_.resize(mark);
  if (!body) return nullptr;
  std::vector<int> all_slots;
  if (patterns.size() > 1) {
    for (const auto& [name, slot] : vars) all_slots.push_back(slot);
  }
  return std::make_unique<BindOp>(std::move(source), std::move(patterns), std::move(all_slots),
                                  std::move(body));
}

OpPtr Compiler::CompileReduce(const ast::Node& n) {
  bool is_foreach = n.kind == ast::Kind::kForeach;
  Construct(is_foreach ? "foreach" : "reduce");
  WMAP_COMPILE(source, *n.source);
  WMAP_COMPILE(init, *n.init);
  size_t mark = env_.size();
  std::unordered_map<std::string, int> vars;
  auto pattern = CompilePattern(*n.patterns.at(0), &vars);
  if (!pattern) return nullptr;
  OpPtr update = Compile(*n.update);
  OpPtr extract;
  if (update && n.extract) extract = Compile(*n.extract);
  env_.resize(mark);
  if (!update || (n.extract && !extract)) return nullptr;
  return std::make_unique<ReduceOp>(is_foreach, std::move(source), std::move(pattern),
                                    std::move(init), std::move(update), std::move(extract));
}

bool Compiler::CompileFuncBody(const ast::Node& n, FuncDef* def) {
  Scope inner{scope_, 0};
  Scope* saved = scope_;
  scope_ = &inner;
  size_t mark = env_.size();
  def->name = n.name;
  def->num_params = static_cast<int>(n.params.size());
  std::vector<int> var_slots(n.params.size(), -1);
  for (size_t i = 0; i < n.params.size(); ++i) {
    env_.push_back(Binding{Binding::Kind::kParam, n.params[i].name, 0, scope_, static_cast<int>(i),
                           nullptr, Value()});
  }
  for (size_t i = 0; i < n.params.size(); ++i) {
    if (n.params[i].is_var) {
      var_slots[i] = inner.NewSlot();
      env_.push_back(Binding{Binding::Kind::kVar, n.params[i].name, 0, scope_, var_slots[i],
                             nullptr, Value()});
    }
  }
  OpPtr body = Compile(*n.body);
  if (body) {
    // `def f($a): body` is `def f(a): a as $a | body`; the first parameter is the outer loop.
    for (size_t k = n.params.size(); k-- > 0;) {
      if (var_slots[k] < 0) continue;
      auto pattern = std::make_unique<PatternCode>();
      pattern->slot = var_slots[k];
      std::vector<std::unique_ptr<PatternCode>> patterns;
      patterns.push_back(std::move(pattern));
      body = std::make_unique<BindOp>(std::make_unique<ParamOp>(0, static_cast<int>(k)),
                                      std::move(patterns), std::vector<int>{}, std::move(body));
    }
    def->body = std::move(body);
    def->num_slots = inner.num_slots;
  }
  env_.resize(mark);
  scope_ = saved;
  return def->body != nullptr;
}

OpPtr Compiler::CompileFuncDef(const ast::Node& n) {
  Construct("def");
  FuncDef* def = NewFunc();
  env_.push_back(Binding{Binding::Kind::kFunc, n.name, n.params.size(), scope_, 0, def, Value()});
  size_t mark = env_.size();
  if (!CompileFuncBody(n, def)) return nullptr;
  if (!n.rest) return Fail("missing expression after definition", n.offset);
  OpPtr rest = Compile(*n.rest);
  env_.resize(mark - 1);
  return rest;
}

FuncDef* Compiler::DeclareLibraryDef(const ast::Node& n) {
  FuncDef* def = NewFunc();
  def->global = true;
  def->name = n.name;
  def->num_params = static_cast<int>(n.params.size());
  building_->defs[Key(n.name, n.params.size())] = def;
  return def;
}

bool Compiler::CompileLibraryDef(const ast::Node& n, FuncDef* def) {
  if (CompileFuncBody(n, def)) return true;
  // Keep the definition callable (earlier definitions may already refer to it): it reports
  // why it could not be compiled.
  def->body = std::make_unique<ErrorOp>(std::make_unique<LiteralOp>(
      Value::String(error_ ? error_->message : "cannot compile " + Key(n.name, n.params.size()))));
  return false;
}

bool Compiler::CompileArgs(const ast::Node& n, std::vector<OpPtr>* args) {
  for (const auto& a : n.args) {
    OpPtr op = Compile(*a);
    if (!op) return false;
    args->push_back(std::move(op));
  }
  return true;
}

OpPtr Compiler::CompileCall(const ast::Node& n) {
  size_t arity = n.args.size();
  for (auto it = env_.rbegin(); it != env_.rend(); ++it) {
    if (it->name != n.name) continue;
    if (it->kind == Binding::Kind::kFunc && it->arity == arity) {
      std::vector<OpPtr> args;
      if (!CompileArgs(n, &args)) return nullptr;
      return std::make_unique<CallOp>(it->def, Hops(it->scope), std::move(args));
    }
    if (it->kind == Binding::Kind::kParam && arity == 0) {
      return std::make_unique<ParamOp>(Hops(it->scope), it->index);
    }
  }
  std::string key = Key(n.name, arity);
  if (program_) program_->used_builtins.insert(key);
  auto special = Specials().find(key);
  if (special != Specials().end()) return CompileSpecial(special->second, n);
  auto def = Defs().find(key);
  if (def != Defs().end()) {
    std::vector<OpPtr> args;
    if (!CompileArgs(n, &args)) return nullptr;
    return std::make_unique<CallOp>(def->second, 0, std::move(args));
  }
  auto native = Natives().find(key);
  if (native != Natives().end()) {
    std::vector<OpPtr> args;
    if (!CompileArgs(n, &args)) return nullptr;
    return std::make_unique<NativeOp>(native->second, std::move(args));
  }
  if (program_) program_->used_builtins.erase(key);
  return Fail("function not defined: " + key, n.offset);
}

OpPtr Compiler::CompileSpecial(Special s, const ast::Node& n) {
  std::vector<OpPtr> args;
  if (!CompileArgs(n, &args)) return nullptr;
  auto arg = [&](size_t i) { return std::move(args[i]); };
  using CK = ContextOp::Kind;
  switch (s) {
    case Special::kEmpty:
      return std::make_unique<EmptyOp>();
    case Special::kNot:
      return std::make_unique<NotOp>();
    case Special::kError0:
      return std::make_unique<ErrorOp>(nullptr);
    case Special::kError1:
      return std::make_unique<ErrorOp>(arg(0));
    case Special::kPath:
      return std::make_unique<PathOp>(arg(0));
    case Special::kGetpath:
      return std::make_unique<GetpathOp>(arg(0));
    case Special::kSetpath:
      return std::make_unique<CoreFnOp>(&CoreSetpath, std::move(args));
    case Special::kDelpaths:
      return std::make_unique<CoreFnOp>(&CoreDelpaths, std::move(args));
    case Special::kSelect:
      return std::make_unique<SelectOp>(arg(0));
    case Special::kRecurse0:
      Construct("recurse");
      return std::make_unique<RecurseAllOp>();
    case Special::kRecurse1:
      Construct("recurse");
      return std::make_unique<LoopOp>(LoopOp::Kind::kRecurse, nullptr, arg(0));
    case Special::kRepeat:
      return std::make_unique<RepeatOp>(arg(0));
    case Special::kUntil:
      return std::make_unique<LoopOp>(LoopOp::Kind::kUntil, arg(0), arg(1));
    case Special::kWhile:
      return std::make_unique<LoopOp>(LoopOp::Kind::kWhile, arg(0), arg(1));
    case Special::kFirst:
      return std::make_unique<LimitOp>(LimitOp::Kind::kFirst, nullptr, arg(0));
    case Special::kLimit:
      return std::make_unique<LimitOp>(LimitOp::Kind::kLimit, arg(0), arg(1));
    case Special::kSkip:
      return std::make_unique<LimitOp>(LimitOp::Kind::kSkip, arg(0), arg(1));
    case Special::kIsEmpty:
      return std::make_unique<IsEmptyOp>(arg(0));
    case Special::kAny0:
      return std::make_unique<AnyAllOp>(true, nullptr, nullptr);
    case Special::kAny1:
      return std::make_unique<AnyAllOp>(true, nullptr, arg(0));
    case Special::kAny2:
      return std::make_unique<AnyAllOp>(true, arg(0), arg(1));
    case Special::kAll0:
      return std::make_unique<AnyAllOp>(false, nullptr, nullptr);
    case Special::kAll1:
      return std::make_unique<AnyAllOp>(false, nullptr, arg(0));
    case Special::kAll2:
      return std::make_unique<AnyAllOp>(false, arg(0), arg(1));
    case Special::kRange1:
    case Special::kRange2:
    case Special::kRange3:
      return std::make_unique<RangeOp>(std::move(args));
    case Special::kInput:
      return std::make_unique<ContextOp>(CK::kInput, nullptr);
    case Special::kInputs:
      return std::make_unique<ContextOp>(CK::kInputs, nullptr);
    case Special::kDebug0:
      return std::make_unique<ContextOp>(CK::kDebug, nullptr);
    case Special::kDebug1:
      return std::make_unique<ContextOp>(CK::kDebugMsg, arg(0));
    case Special::kStderr:
      return std::make_unique<ContextOp>(CK::kStderr, nullptr);
    case Special::kInputFilename:
      return std::make_unique<ContextOp>(CK::kInputFilename, nullptr);
    case Special::kEnv:
      return std::make_unique<ContextOp>(CK::kEnv, nullptr);
    case Special::kHalt:
      return std::make_unique<ContextOp>(CK::kHalt, nullptr);
    case Special::kHaltError0:
      return std::make_unique<ContextOp>(CK::kHaltError, nullptr);
    case Special::kHaltError1:
      return std::make_unique<ContextOp>(CK::kHaltErrorCode, arg(0));
    case Special::kBuiltins:
      return std::make_unique<LiteralOp>(building_ ? Value::EmptyArray() : library_->builtin_names);
    case Special::kPlus:
      return std::make_unique<PlusOp>();
    case Special::kLast:
      return std::make_unique<LastOp>(arg(0));
    case Special::kModuleMeta: {
      static const std::vector<std::string> kNoPaths;
      return std::make_unique<ModuleMetaOp>(library_paths_ ? *library_paths_ : kNoPaths);
    }
    case Special::kMap:
      return std::make_unique<ArrayOp>(
          std::make_unique<PipeOp>(std::make_unique<IterateOp>(nullptr), arg(0)));
  }
  return Fail("function not defined: " + Key(n.name, n.args.size()), n.offset);
}

std::unique_ptr<Library> BuildLibrary() {
  auto lib = std::make_unique<Library>();
  for (const NativeSpec& spec : NativeBuiltins()) {
    lib->natives[Key(spec.name, static_cast<size_t>(spec.arity))] = &spec;
  }
  for (std::string_view text : {CorePrelude(), LibraryPrelude()}) {
    auto parsed = ParseModule(text);
    if (!parsed.ok()) {
      lib->errors.push_back("prelude: " + parsed.error().message);
      continue;
    }
    std::vector<FuncDef*> declared;
    for (const ast::NodePtr& def : parsed->defs) {
      Scope root;
      Compiler compiler(nullptr, lib.get(), text, nullptr, &root);
      declared.push_back(compiler.DeclareLibraryDef(*def));
    }
    for (size_t i = 0; i < parsed->defs.size(); ++i) {
      const ast::NodePtr& def = parsed->defs[i];
      Scope root;
      Compiler compiler(nullptr, lib.get(), text, nullptr, &root);
      if (!compiler.CompileLibraryDef(*def, declared[i])) {
        lib->errors.push_back(Key(def->name, def->params.size()) + ": " +
                              (compiler.error() ? compiler.error()->message : "failed"));
      }
    }
  }
  std::set<std::string> names;
  for (const auto& [key, special] : Specials()) names.insert(key);
  for (const auto& [key, def] : lib->defs) names.insert(key);
  for (const auto& [key, spec] : lib->natives) names.insert(key);
  std::vector<Value> list;
  for (const std::string& n : names) {
    if (!n.empty() && n[0] != '_') list.push_back(Value::String(n));
  }
  lib->builtin_names = Value::Array(std::move(list));
  return lib;
}

}  // namespace

const Library& GetLibrary() {
  static const Library* library = BuildLibrary().release();
  return *library;
}

Result<std::unique_ptr<CompiledProgram>> CompileProgram(const ast::Program& program,
                                                        std::string_view text,
                                                        const CompileOptions& options) {
  auto out = std::make_unique<CompiledProgram>();
  if (!program.body) {
    Error e;
    e.message = std::string(kMissingQueryMessage);
    return e;
  }
  Scope root;
  Compiler compiler(&GetLibrary(), nullptr, text, out.get(), &root);
  compiler.SetLibraryPaths(&options.library_paths);
  for (const std::string& name : options.variables) {
    compiler.BindVariable(name, root.NewSlot());
  }
  if (!compiler.ProcessImports(program, "")) return *compiler.error();
  out->num_variables = static_cast<int>(options.variables.size());
  out->main = compiler.Compile(*program.body);
  if (!out->main) {
    if (compiler.error()) return *compiler.error();
    Error e;
    e.message = "compile error";
    return e;
  }
  out->root_slots = root.num_slots;
  return out;
}

}  // namespace wmap::jq::eval
