#include "cli/yaml_encoder.h"

#include <cmath>
#include <regex>
#include <string_view>

#include "wmap/json.h"

namespace wmap::cli {
namespace {

bool IsSpecialWord(std::string_view s) {
  static const char* const kWords[] = {
      "null",  "Null",  "NULL",  "~",     "true",  "True", "TRUE", "false", "False", "FALSE",
      "y",     "Y",     "yes",   "Yes",   "YES",   "n",    "N",    "no",    "No",    "NO",
      "on",    "On",    "ON",    "off",   "Off",   "OFF",  ".inf", ".Inf",  ".INF",  "-.inf",
      "-.Inf", "-.INF", "+.inf", "+.Inf", "+.INF", ".nan", ".NaN", ".NAN"};
  for (const char* w : kWords) {
    if (s == w) return true;
  }
  return false;
}

// True when a plain scalar with this text would read back as something other than a string.
bool ResolvesToNonString(std::string_view s) {
  if (s.empty() || IsSpecialWord(s)) return true;
  static const std::regex kNumber(
      R"([-+]?(0|[1-9][0-9_]*)|[-+]?0[0-7_]+|[-+]?0x[0-9a-fA-F_]+|[-+]?0o[0-7_]+|[-+]?0b[01_]+|)"
      R"([-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*([eE][-+]?[0-9]+)|)"
      R"([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?)");
  char c = s[0];
  if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')) return false;
  return std::regex_match(s.begin(), s.end(), kNumber);
}

bool IsPrintable(std::string_view s) {
  for (unsigned char b : s) {
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F) return false;
  }
  return true;
}

bool PlainAllowed(std::string_view s) {
  if (s.empty() || !IsPrintable(s)) return false;
  if (s.find('\n') != std::string_view::npos || s.find('\t') != std::string_view::npos) {
    return false;
  }
  if (s.front() == ' ' || s.back() == ' ') return false;
  static constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  char c = s[0];
  if (kIndicators.find(c) != std::string_view::npos) {
    bool followed_by_space = s.size() == 1 || s[1] == ' ';
    if (!((c == '-' || c == '?' || c == ':') && !followed_by_space)) return false;
  }
  if (s.find(": ") != std::string_view::npos || s.find(" #") != std::string_view::npos) {
    return false;
  }
  if (s.back() == ':') return false;
  if (s == "---" || s == "...") return false;
  return !ResolvesToNonString(s);
}

void AppendDoubleQuoted(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out->push_back('"');
  for (unsigned char b : s) {
    switch (b) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\0':
        out->append("\\0");
        break;
      default:
        if (b < 0x20 || b == 0x7F) {
          out->append("\\x");
          out->push_back(kHex[b >> 4]);
          out->push_back(kHex[b & 0xF]);
        } else {
          out->push_back(static_cast<char>(b));
        }
    }
  }
  out->push_back('"');
}

bool LiteralAllowed(std::string_view s) {
  if (s.find('\n') == std::string_view::npos || !IsPrintable(s)) return false;
  if (s.front() == ' ' || s.front() == '\n') return false;
  // Trailing spaces before a line break cannot be kept by a literal block.
  return s.find(" \n") == std::string_view::npos;
}

void AppendIndent(int col, std::string* out) { out->append(static_cast<size_t>(col), ' '); }

// Appends a scalar string at the current position; `col` is the indentation of the node that
// owns it (literal block lines are indented one level deeper).
void AppendString(std::string_view s, int col, int indent, std::string* out) {
  if (PlainAllowed(s)) {
    out->append(s);
    return;
  }
  if (LiteralAllowed(s)) {
    size_t trailing = 0;
    while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
    out->append(trailing == 0 ? "|-" : trailing == 1 ? "|" : "|+");
    std::string_view body = s.substr(0, s.size() - trailing);
    size_t pos = 0;
    while (true) {
      size_t nl = body.find('\n', pos);
      std::string_view line = body.substr(pos, nl == std::string_view::npos ? body.npos : nl - pos);
      out->push_back('\n');
      if (!line.empty()) {
        AppendIndent(col + indent, out);
        out->append(line);
      }
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
    for (size_t k = 1; k < trailing; ++k) out->push_back('\n');
    return;
  }
  bool single_ok =
      IsPrintable(s) && s.find('\n') == std::string_view::npos && !ResolvesToNonString(s);
  if (single_ok) {
    out->push_back('\'');
    for (char c : s) {
      if (c == '\'') out->push_back('\'');
      out->push_back(c);
    }
    out->push_back('\'');
    return;
  }
  AppendDoubleQuoted(s, out);
}

void AppendScalar(const Value& v, int col, int indent, std::string* out) {
  switch (v.type()) {
    case Type::kNull:
      out->append("null");
      return;
    case Type::kBoolean:
      out->append(v.as_bool() ? "true" : "false");
      return;
    case Type::kNumber: {
      if (!v.is_integer()) {
        double d = v.as_double();
        if (std::isnan(d)) {
          out->append(".nan");
          return;
        }
        if (std::isinf(d)) {
          out->append(d > 0 ? ".inf" : "-.inf");
          return;
        }
      }
      json::FormatNumber(v, out);
      return;
    }
    case Type::kString:
      AppendString(v.as_string(), col, indent, out);
      return;
    case Type::kArray:
      out->append("[]");
      return;
    case Type::kObject:
      out->append("{}");
      return;
  }
}

bool IsBlock(const Value& v) { return (v.is_array() || v.is_object()) && v.size() > 0; }

void EncodeNode(const Value& v, int col, int indent, bool inline_first, std::string* out);

// Appends the value of a mapping entry or sequence item after its indicator.
void EncodeChild(const Value& v, int col, int indent, std::string* out) {
  if (!IsBlock(v)) {
    out->push_back(' ');
    AppendScalar(v, col, indent, out);
    out->push_back('\n');
    return;
  }
  out->push_back('\n');
  EncodeNode(v, col + indent, indent, false, out);
}

// Appends a block node whose lines start at column `col`. When inline_first, the first line
// continues the current line (after a sequence indicator) and needs no indentation.
void EncodeNode(const Value& v, int col, int indent, bool inline_first, std::string* out) {
  bool first = true;
  if (v.is_object()) {
    for (const Member* m : v.sorted_members()) {
      if (!(first && inline_first)) AppendIndent(col, out);
      first = false;
      AppendString(m->key.as_string(), col, indent, out);
      out->push_back(':');
      EncodeChild(m->value, col, indent, out);
    }
    return;
  }
  for (const Value& item : v.items()) {
    if (!(first && inline_first)) AppendIndent(col, out);
    first = false;
    out->push_back('-');
    if (IsBlock(item)) {
      out->append(static_cast<size_t>(indent > 1 ? indent - 1 : 1), ' ');
      EncodeNode(item, col + (indent > 1 ? indent : 2), indent, true, out);
    } else {
      out->push_back(' ');
      AppendScalar(item, col, indent, out);
      out->push_back('\n');
    }
  }
}

}  // namespace

void EncodeYaml(const Value& v, int indent, std::string* out) {
  if (indent < 1) indent = 2;
  if (IsBlock(v)) {
    EncodeNode(v, 0, indent, false, out);
    return;
  }
  AppendScalar(v, 0, indent, out);
  out->push_back('\n');
}

}  // namespace wmap::cli
