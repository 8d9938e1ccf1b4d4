#include "jq/parse_error.h"

#include <cstdint>
#include <string>

#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::jq {

std::string QuoteForMessage(std::string_view s) {
  std::string out;
  json::WriteString(s, /*ascii=*/false, &out);
  return out;
}

std::string GoQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\x";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out += "\"";
  return out;
}

std::string CaretHint(std::string_view query, size_t offset) {
  const text::SourceExcerpt info = text::ExcerptAt(query, offset);
  std::string out(info.line_text);
  out += '\n';
  out.append(info.column, ' ');
  out += '^';
  return out;
}

std::string FormatQueryError(std::string_view query, const Error& error,
                             std::string_view file_name) {
  if (!error.position.known()) return "compile error: " + error.message;
  const text::SourceExcerpt info = text::ExcerptAt(query, error.position.offset);
  const bool multiline = query.find_first_of("\r\n") != std::string_view::npos;
  std::string out = "invalid query: ";
  if (file_name != "<arg>" || multiline) {
    const std::string line = std::to_string(info.line);
    out.append(file_name);
    out += ':';
    out += line;
    out += "\n    ";
    out += line;
    out += " | ";
    out.append(info.line_text);
    out += '\n';
    out.append(line.size() + info.column, ' ');
    out += "       ^  ";
  } else {
    out.append(query);
    out += "\n    ";
    out.append(info.line_text);
    out += '\n';
    out.append(info.column, ' ');
    out += "    ^  ";
  }
  out += error.message;
  return out;
}

}  // namespace wmap::jq
