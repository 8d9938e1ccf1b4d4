// gojq's presentation of query errors, shared by the parser (messages) and the CLI (full text).
#ifndef WMAP_JQ_PARSE_ERROR_H_
#define WMAP_JQ_PARSE_ERROR_H_

#include <string>
#include <string_view>

#include "wmap/jq.h"
#include "wmap/status.h"

namespace wmap::jq {

// FormatQueryError (gojq's full text of a query error) and GoQuote (Go's %q) are public, in
// wmap/jq.h. Layouts of FormatQueryError:
//   invalid query: . a            (single-line query given on the command line)
//       . a
//         ^  unexpected token "a"
// or, when `file_name` is not "<arg>" or the query spans several lines:
//   invalid query: <arg>:2
//       2 | []}
//           ^  unexpected token "["
// Errors without a position (the missing-query error) read "compile error: <message>".

// The line of `query` holding byte `offset` and a caret line under that byte, in gojq's layout
// (long lines are cut around the caret), e.g. ". a\n  ^". Parse errors carry it as Error::hint.
std::string CaretHint(std::string_view query, size_t offset);

// A string as gojq quotes it in messages: JSON with `"`, `\`, \b \f \n \r \t escaped, other
// control characters and DEL as \u00XX, invalid UTF-8 bytes as \ufffd; HTML characters unescaped.
std::string QuoteForMessage(std::string_view s);

}  // namespace wmap::jq

#endif  // WMAP_JQ_PARSE_ERROR_H_
