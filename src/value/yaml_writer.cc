// YAML writer: a block-style emitter that makes the layout and scalar-style decisions of
// go-yaml's emitter (v2 for Style::kKubectl, folding long lines at 80 columns; v3 for
// Style::kGojq, never folding).
// Containers are walked with an explicit stack, so nesting depth never exhausts the C++ stack.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "value/yaml_key_order.h"
#include "value/yaml_scalar.h"
#include "value/yaml_scalar_analysis.h"
#include "wmap/json.h"
#include "wmap/text.h"
#include "wmap/yaml.h"

namespace wmap::yaml {
namespace {

using internal::Analysis;
using internal::Analyze;
using internal::At;
using internal::HasBreak;
using internal::IsBreak;
using internal::IsPrintable;
using internal::IsSpace;
using internal::NeedsEscape;
using internal::ScalarKind;

enum class ScalarStyle { kPlain, kSingle, kDouble, kLiteral };

// One scalar ready for emission: text, tag ("" or "!!binary") and the requested style.
struct ScalarText {
  std::string storage;    // the text when it is not the Value's own string
  std::string_view view;  // the Value's string (valid while the Value is being written)
  bool viewed = false;
  std::string_view tag;
  ScalarStyle style = ScalarStyle::kPlain;

  std::string_view text() const { return viewed ? view : std::string_view(storage); }
};

// Where a node is emitted (the emitter's context flags that matter in block style).
struct Context {
  bool sequence_item = false;
  bool mapping = false;
  bool simple_key = false;
};

// Writes one Value as a YAML document. Guarantees: output ends with a line break; layout and
// scalar styles follow go-yaml's emitter for the chosen Style; containers are walked with an
// explicit stack (any depth); under Style::kKubectl the text reads back (Parse) to an equal Value.
// Tracks the emitter's column/whitespace/indention state exactly as go-yaml does, because its
// indentation decisions depend on it.
class Emitter {
 public:
  Emitter(const WriteOptions& options, std::string* out)
      : out_(out),
        v3_(options.style == Style::kGojq),
        sort_(options.sort_keys || options.style == Style::kGojq),
        best_indent_(v3_ && options.indent >= 2 && options.indent <= 9 ? options.indent : 2),
        best_width_(v3_ ? kNoWrap : 80) {}

  void Emit(const Value& root) {
    EmitNode(root, Context{});
    while (!stack_.empty()) Step();
    // Document end.
    WriteIndent();
  }

 private:
  struct Frame {
    const Value* container;
    bool is_map;
    size_t index = 0;
    std::vector<const Member*> order;  // sorted members, when sorting
    int saved_indent;
  };

  // ---- Low-level output, tracking column and the whitespace/indention flags. ----
  void Put(char c) {
    out_->push_back(c);
    ++column_;
  }
  void PutBreak() {
    out_->push_back('\n');
    column_ = 0;
    indention_ = true;
  }
  // Copies one character (all its bytes) from s at *i.
  void WriteChar(std::string_view s, size_t* i) {
    size_t w = text::Utf8LengthFromLead(static_cast<unsigned char>(s[*i]));
    if (*i + w > s.size()) w = s.size() - *i;
    out_->append(s.data() + *i, w);
    ++column_;
    *i += w;
  }
  void WriteBreak(std::string_view s, size_t* i) {
    if (s[*i] == '\n') {
      PutBreak();
      ++*i;
      return;
    }
    WriteChar(s, i);
    column_ = 0;
    indention_ = true;
  }
  void WriteIndent() {
    int indent = indent_ < 0 ? 0 : indent_;
    if (!indention_ || column_ > indent || (column_ == indent && !whitespace_)) PutBreak();
    while (column_ < indent) Put(' ');
    whitespace_ = true;
    indention_ = true;
  }
  void WriteIndicator(std::string_view s, bool need_whitespace, bool is_whitespace,
                      bool is_indention) {
    if (need_whitespace && !whitespace_) Put(' ');
    out_->append(s);
    column_ += static_cast<int>(s.size());
    whitespace_ = is_whitespace;
    indention_ = indention_ && is_indention;
  }

  void IncreaseIndent(bool flow, bool indentless, bool sequence_item) {
    indents_.push_back(indent_);
    if (indent_ < 0) {
      indent_ = flow ? best_indent_ : 0;
    } else if (!indentless) {
      if (v3_ && !sequence_item) {
        indent_ = best_indent_ * ((indent_ + best_indent_) / best_indent_);
      } else {
        indent_ += v3_ ? 2 : best_indent_;
      }
    }
  }
  void PopIndent() {
    indent_ = indents_.back();
    indents_.pop_back();
  }

  // ---- Scalars. ----
  ScalarText ScalarFor(const Value& v, bool is_key) const {
    ScalarText s;
    switch (v.type()) {
      case Type::kNull:
        s.storage = "null";
        return s;
      case Type::kBoolean:
        s.storage = v.as_bool() ? "true" : "false";
        return s;
      case Type::kNumber:
        if (!v3_) {
          json::FormatNumber(v, &s.storage);
          // An integral double beyond 2^53 printed without a fraction or exponent would read
          // back as a different (exact) integer; Go's float form keeps its value.
          if (!v.is_integer() && !v.is_number_literal() &&
              std::fabs(v.as_double()) >= 9007199254740992.0 && std::isfinite(v.as_double()) &&
              s.storage.find_first_of(".eE") == std::string::npos) {
            s.storage.clear();
            internal::FormatGoFloat(v.as_double(), 64, &s.storage);
          }
        } else if (v.plain_number().is_integer()) {
          s.storage = std::to_string(v.plain_number().as_int());
        } else if (v.plain_number().is_big_integer()) {
          // go-yaml v3 marshals gojq's big integers through their text: a quoted string.
          v.plain_number().as_big().AppendDecimal(&s.storage);
          s.style = ScalarStyle::kDouble;
        } else {
          internal::FormatGoFloat(v.as_double(), 64, &s.storage);
          if (s.storage == "+Inf") s.storage = ".inf";
          if (s.storage == "-Inf") s.storage = "-.inf";
          if (s.storage == "NaN") s.storage = ".nan";
        }
        return s;
      case Type::kString:
        break;
      case Type::kArray:
      case Type::kObject:
        return s;  // not scalars
    }
    std::string_view str = v.as_string();
    if (!text::IsValidUtf8(str)) {
      s.tag = "!!binary";
      text::AppendBase64(str, &s.storage);
      return s;
    }
    s.view = str;
    s.viewed = true;
    Schema schema = v3_ ? Schema::kGojq : Schema::kKubernetes;
    bool plain_ok = internal::ResolvePlain(str, schema).kind == ScalarKind::kString &&
                    !internal::IsBase60Float(str);
    if (v3_ && plain_ok) {
      static constexpr std::string_view kOldBools[] = {"y",  "Y",   "yes", "Yes", "YES", "on",
                                                       "On", "ON",  "n",   "N",   "no",  "No",
                                                       "NO", "off", "Off", "OFF"};
      for (std::string_view b : kOldBools) {
        if (str == b) plain_ok = false;
      }
    }
    // A plain "<<" key would read back as a merge key.
    if (!v3_ && is_key && str == "<<") plain_ok = false;
    if (str.find('\n') != std::string_view::npos) {
      s.style = ScalarStyle::kLiteral;
    } else if (plain_ok) {
      s.style = ScalarStyle::kPlain;
    } else {
      s.style = ScalarStyle::kDouble;
    }
    return s;
  }

  bool IsSimpleKey(const ScalarText& key, const Analysis& a) const {
    if (a.multiline) return false;
    return key.text().size() + key.tag.size() <= 128;
  }

  void EmitScalar(const ScalarText& s, const Context& ctx) { EmitScalar(s, AnalysisOf(s), ctx); }

  // Text the writer generated itself (numbers, true/false/null, base64) is always plain-safe.
  Analysis AnalysisOf(const ScalarText& s) const {
    return s.viewed ? Analyze(s.text(), !v3_) : Analysis{};
  }

  void EmitScalar(const ScalarText& s, const Analysis& a, const Context& ctx) {
    std::string_view text = s.text();
    ScalarStyle style = s.style;
    if (ctx.simple_key && a.multiline) style = ScalarStyle::kDouble;
    if (style == ScalarStyle::kPlain) {
      if (!a.block_plain_allowed) style = ScalarStyle::kSingle;
      if (text.empty() && ctx.simple_key) style = ScalarStyle::kSingle;
    }
    if (style == ScalarStyle::kSingle && !a.single_quoted_allowed) style = ScalarStyle::kDouble;
    if (style == ScalarStyle::kLiteral && (!a.block_allowed || ctx.simple_key)) {
      style = ScalarStyle::kDouble;
    }
    if (!s.tag.empty()) {
      if (!whitespace_) Put(' ');
      out_->append(s.tag);
      column_ += static_cast<int>(s.tag.size());
      whitespace_ = false;
      indention_ = false;
    }
    IncreaseIndent(true, false, ctx.sequence_item);
    switch (style) {
      case ScalarStyle::kPlain:
        WritePlain(text, !ctx.simple_key);
        break;
      case ScalarStyle::kSingle:
        WriteSingleQuoted(text, !ctx.simple_key);
        break;
      case ScalarStyle::kDouble:
        WriteDoubleQuoted(text, !ctx.simple_key);
        break;
      case ScalarStyle::kLiteral:
        WriteLiteral(text);
        break;
    }
    PopIndent();
  }

  // Appends text that needs no per-character decisions.
  void WriteRun(std::string_view v) {
    out_->append(v);
    column_ += text::CodePointCount(v);
  }

  // Whether folding could happen while writing v from the current column.
  bool MayFold(std::string_view v, bool allow_breaks) const {
    return allow_breaks && column_ + static_cast<int>(v.size()) > best_width_ &&
           v.find(' ') != std::string_view::npos;
  }

  void WritePlain(std::string_view v, bool allow_breaks) {
    if (!v.empty() && !whitespace_) Put(' ');
    if (!MayFold(v, allow_breaks)) {
      WriteRun(v);
      if (!v.empty()) indention_ = false;
      whitespace_ = false;
      indention_ = false;
      return;
    }
    bool spaces = false;
    for (size_t i = 0; i < v.size();) {
      if (IsSpace(v, i)) {
        if (allow_breaks && !spaces && column_ > best_width_ && !IsSpace(v, i + 1)) {
          WriteIndent();
          ++i;
        } else {
          WriteChar(v, &i);
        }
        spaces = true;
      } else {
        WriteChar(v, &i);
        indention_ = false;
        spaces = false;
      }
    }
    whitespace_ = false;
    indention_ = false;
  }

  void WriteSingleQuoted(std::string_view v, bool allow_breaks) {
    WriteIndicator("'", true, false, false);
    if (!MayFold(v, allow_breaks) && v.find('\'') == std::string_view::npos && !HasBreak(v)) {
      WriteRun(v);
      if (!v.empty()) indention_ = false;
      WriteIndicator("'", false, false, false);
      whitespace_ = false;
      indention_ = false;
      return;
    }
    bool spaces = false;
    bool breaks = false;
    for (size_t i = 0; i < v.size();) {
      if (IsSpace(v, i)) {
        if (allow_breaks && !spaces && column_ > best_width_ && i != 0 && i + 1 != v.size() &&
            !IsSpace(v, i + 1)) {
          WriteIndent();
          ++i;
        } else {
          WriteChar(v, &i);
        }
        spaces = true;
      } else if (IsBreak(v, i)) {
        if (!breaks && v[i] == '\n') PutBreak();
        WriteBreak(v, &i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent();
        if (v[i] == '\'') Put('\'');
        WriteChar(v, &i);
        indention_ = false;
        spaces = false;
        breaks = false;
      }
    }
    WriteIndicator("'", false, false, false);
    whitespace_ = false;
    indention_ = false;
  }

  void WriteDoubleQuoted(std::string_view v, bool allow_breaks) {
    WriteIndicator("\"", true, false, false);
    if (!MayFold(v, allow_breaks) && !NeedsEscape(v)) {
      WriteRun(v);
      WriteIndicator("\"", false, false, false);
      whitespace_ = false;
      indention_ = false;
      return;
    }
    bool spaces = false;
    // go-yaml tests for a byte order mark at the start of the string rather than at the current
    // character, so text that starts with one is escaped throughout.
    bool bom = v.size() >= 3 && At(v, 0) == 0xEF && At(v, 1) == 0xBB && At(v, 2) == 0xBF;
    for (size_t i = 0; i < v.size();) {
      if (!IsPrintable(v, i) || bom || IsBreak(v, i) || v[i] == '"' || v[i] == '\\') {
        auto c = static_cast<unsigned char>(v[i]);
        size_t w = text::Utf8LengthFromLead(c);
        char32_t cp = w == 1 ? c : w == 2 ? (c & 0x1F) : w == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; k < w && i + k < v.size(); ++k) {
          cp = (cp << 6) | (static_cast<unsigned char>(v[i + k]) & 0x3F);
        }
        i += w;
        Put('\\');
        switch (cp) {
          case 0x00:
            Put('0');
            break;
          case 0x07:
            Put('a');
            break;
          case 0x08:
            Put('b');
            break;
          case 0x09:
            Put('t');
            break;
          case 0x0A:
            Put('n');
            break;
          case 0x0B:
            Put('v');
            break;
          case 0x0C:
            Put('f');
            break;
          case 0x0D:
            Put('r');
            break;
          case 0x1B:
            Put('e');
            break;
          case 0x22:
            Put('"');
            break;
          case 0x5C:
            Put('\\');
            break;
          case 0x85:
            Put('N');
            break;
          case 0xA0:
            Put('_');
            break;
          case 0x2028:
            Put('L');
            break;
          case 0x2029:
            Put('P');
            break;
          default: {
            int digits;
            if (cp <= 0xFF) {
              Put('x');
              digits = 2;
            } else if (cp <= 0xFFFF) {
              Put('u');
              digits = 4;
            } else {
              Put('U');
              digits = 8;
            }
            for (int k = (digits - 1) * 4; k >= 0; k -= 4) {
              unsigned d = (cp >> k) & 0x0F;
              Put(static_cast<char>(d < 10 ? '0' + d : 'A' + d - 10));
            }
          }
        }
        spaces = false;
      } else if (IsSpace(v, i)) {
        if (allow_breaks && !spaces && column_ > best_width_ && i != 0 && i + 1 != v.size()) {
          WriteIndent();
          if (IsSpace(v, i + 1)) Put('\\');
          ++i;
        } else {
          WriteChar(v, &i);
        }
        spaces = true;
      } else {
        WriteChar(v, &i);
        spaces = false;
      }
    }
    WriteIndicator("\"", false, false, false);
    whitespace_ = false;
    indention_ = false;
  }

  void WriteLiteral(std::string_view v) {
    WriteIndicator("|", true, false, false);
    if (IsSpace(v, 0) || IsBreak(v, 0)) {
      char hint[2] = {static_cast<char>('0' + best_indent_), '\0'};
      WriteIndicator(std::string_view(hint, 1), false, false, false);
    }
    // Chomping: "-" without a final break, "+" when the final break follows another break (or
    // is the whole text), none ("clip") for exactly one final break.
    std::string_view chomp;
    if (v.empty()) {
      chomp = "-";
    } else {
      size_t i = text::Utf8Floor(v, v.size() - 1);
      if (!IsBreak(v, i)) {
        chomp = "-";
      } else if (i == 0) {
        chomp = "+";
      } else {
        i = text::Utf8Floor(v, i - 1);
        if (IsBreak(v, i)) chomp = "+";
      }
    }
    if (!chomp.empty()) WriteIndicator(chomp, false, false, false);
    if (!v3_) PutBreak();  // go-yaml v3 leaves the header's line break to the first line
    indention_ = v3_ ? indention_ : true;
    whitespace_ = true;
    bool breaks = true;
    for (size_t i = 0; i < v.size();) {
      if (IsBreak(v, i)) {
        WriteBreak(v, &i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent();
        size_t j = i;
        while (j < v.size() && !IsBreak(v, j))
          j += text::Utf8LengthFromLead(static_cast<unsigned char>(v[j]));
        if (j > v.size()) j = v.size();
        WriteRun(v.substr(i, j - i));
        i = j;
        indention_ = false;
        breaks = false;
      }
    }
  }

  // ---- Nodes and containers. ----
  void EmitNode(const Value& v, const Context& ctx) {
    if (v.is_array() || v.is_object()) {
      bool is_map = v.is_object();
      if (v.size() == 0) {
        // Flow style for empty containers: "[]" / "{}".
        WriteIndicator(is_map ? "{" : "[", true, true, false);
        WriteIndicator(is_map ? "}" : "]", false, false, false);
        return;
      }
      int saved = indent_;
      bool indentless = !is_map && !v3_ && ctx.mapping && !indention_;
      IncreaseIndent(false, indentless, ctx.sequence_item);
      indents_.pop_back();  // the frame restores the indent itself
      Frame f{&v, is_map, 0, {}, saved};
      if (is_map && sort_) {
        for (const Member& m : v.members()) f.order.push_back(&m);
        std::stable_sort(f.order.begin(), f.order.end(), [](const Member* a, const Member* b) {
          return internal::KeyLess(a->key.as_string(), b->key.as_string());
        });
      }
      stack_.push_back(std::move(f));
      return;
    }
    EmitScalar(ScalarFor(v, false), ctx);
  }

  void Step() {
    Frame& f = stack_.back();
    size_t n = f.container->size();
    if (f.index == n) {
      indent_ = f.saved_indent;
      stack_.pop_back();
      return;
    }
    if (!f.is_map) {
      const Value& item = f.container->items()[f.index++];
      WriteIndent();
      WriteIndicator("-", true, false, true);
      EmitNode(item, Context{true, false, false});
      return;
    }
    const Member& m = f.order.empty() ? f.container->members()[f.index] : *f.order[f.index];
    ++f.index;
    WriteIndent();
    ScalarText key = ScalarFor(m.key, true);
    Analysis analysis = AnalysisOf(key);
    if (IsSimpleKey(key, analysis)) {
      EmitScalar(key, analysis, Context{false, true, true});
      WriteIndicator(":", false, false, false);
    } else {
      WriteIndicator("?", true, false, true);
      EmitScalar(key, analysis, Context{false, true, false});
      WriteIndent();
      WriteIndicator(":", true, false, true);
    }
    EmitNode(m.value, Context{false, true, false});
  }

  // go-yaml v2 folds long quoted and plain scalars at single spaces once a line passes 80
  // columns (sigs.k8s.io/yaml keeps that default); v3 as gojq uses it never folds.
  static constexpr int kNoWrap = 1 << 30;

  std::string* out_;
  bool v3_;
  bool sort_;
  int best_indent_;
  int best_width_;
  int indent_ = -1;
  std::vector<int> indents_;
  int column_ = 0;
  bool whitespace_ = true;
  bool indention_ = true;
  std::vector<Frame> stack_;
};

}  // namespace

void Write(const Value& v, const WriteOptions& options, std::string* out) {
  Emitter(options, out).Emit(v);
}

std::string ToString(const Value& v, const WriteOptions& options) {
  std::string out;
  Write(v, options, &out);
  return out;
}

}  // namespace wmap::yaml
