#include "cli/source_error.h"

#include <algorithm>

#include "wmap/text.h"

namespace wmap::cli {
namespace {

constexpr size_t kWindowWidth = 64;

std::string LineInfoBlock(std::string_view text, int line, size_t column) {
  std::string l = std::to_string(line);
  std::string out = "    " + l + " | ";
  out.append(text);
  out.push_back('\n');
  out.append(l.size() + column, ' ');
  out.append("       ^");
  return out;
}

}  // namespace

std::string FormatSourceError(const SourceErrorSpec& spec) {
  text::SourceExcerpt info = text::ExcerptAt(spec.contents, spec.offset);
  info.line += spec.line_base;
  std::string out(spec.kind);
  out.append(": ");
  bool multiline = spec.contents.find_first_of("\r\n") != std::string_view::npos;
  bool line_layout = spec.query ? (spec.name != "<arg>" || multiline) : info.line > 1;
  if (spec.query && !line_layout) {
    out.append(spec.contents);
  } else {
    out.append(spec.name);
  }
  if (line_layout) {
    out.push_back(':');
    out.append(std::to_string(info.line));
    out.push_back('\n');
    out.append(LineInfoBlock(info.line_text, info.line, info.column));
  } else {
    out.append("\n    ");
    out.append(info.line_text);
    out.push_back('\n');
    out.append(info.column, ' ');
    out.append("    ^");
  }
  out.append("  ");
  out.append(spec.message);
  return out;
}

std::string FormatLineError(std::string_view kind, std::string_view name, std::string_view contents,
                            int line, int column, std::string_view message, int line_base) {
  std::string out(kind);
  out.append(": ");
  out.append(name);
  if (line <= 0) return out;
  std::string_view line_text = text::LineText(contents, line - line_base);
  if (line_text.size() > kWindowWidth) {
    line_text = text::TrimTrailingInvalidUtf8(line_text.substr(0, kWindowWidth));
  }
  size_t col = column > 1
                   ? text::DisplayWidth(line_text.substr(
                         0, std::min<size_t>(static_cast<size_t>(column) - 1, line_text.size())))
                   : 0;
  out.push_back(':');
  out.append(std::to_string(line));
  out.push_back('\n');
  out.append(LineInfoBlock(line_text, line, col));
  out.append("  ");
  out.append(message);
  return out;
}

}  // namespace wmap::cli
