// Error text that points into a source (a query, a JSON or YAML input), in the gojq command's
// layout:
//
//   invalid json: <name>            (error on the first line of a single-line source)
//       <line text>
//       <spaces>^  <message>
//
//   invalid json: <name>:<line>     (otherwise)
//       <line> | <line text>
//       <spaces>^  <message>
//
// The shown line is cut to a 64-byte window around the error (never inside a UTF-8 sequence) and
// the caret column counts display width (East Asian wide characters take two columns).
#ifndef WMAP_CLI_SOURCE_ERROR_H_
#define WMAP_CLI_SOURCE_ERROR_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace wmap::cli {

struct SourceErrorSpec {
  std::string_view kind;      // "invalid json", "invalid query", "invalid yaml"
  std::string_view name;      // "<stdin>", a file name, "$foo", "<arg>"
  std::string_view contents;  // the whole source
  size_t offset = 0;          // 0-based byte offset of the error in contents
  std::string_view message;
  // Query rules: the numbered-line layout whenever the name is not "<arg>" or the source spans
  // lines; otherwise the single-line layout with the whole query as the name.
  bool query = false;
  // Lines of the source that precede `contents` (added to the reported line number).
  int line_base = 0;
};

std::string FormatSourceError(const SourceErrorSpec& spec);

// Like FormatSourceError but for an error known only by its 1-based line (YAML).
// `line_base` lines of the source precede `contents`: `line` counts them, `contents` does not.
std::string FormatLineError(std::string_view kind, std::string_view name, std::string_view contents,
                            int line, int column, std::string_view message, int line_base = 0);

}  // namespace wmap::cli

#endif  // WMAP_CLI_SOURCE_ERROR_H_
