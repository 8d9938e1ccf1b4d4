// gojq's presentation of query errors, shared by the parser (messages) and the CLI (full text).
#ifndef WMAP_JQ_PARSE_ERROR_H_
#define WMAP_JQ_PARSE_ERROR_H_

#include <string>
#include <string_view>

#include "wmap/status.h"

namespace wmap::jq {

// gojq's full error text for an error returned by ParseProgram/ParseModule, i.e. everything the
// gojq command prints after "gojq: " (no trailing newline):
//   invalid query: . a            (single-line query given on the command line)
//       . a
//         ^  unexpected token "a"
// or, when `file_name` is not "<arg>" or the query spans several lines:
//   invalid query: <arg>:2
//       2 | []}
//           ^  unexpected token "["
// Errors without a position (the missing-query error) read "compile error: <message>".
std::string FormatQueryError(std::string_view query, const Error& error,
                             std::string_view file_name = "<arg>");

// The line of `query` holding byte `offset` and a caret line under that byte, in gojq's layout
// (long lines are cut around the caret), e.g. ". a\n  ^". Parse errors carry it as Error::hint.
std::string CaretHint(std::string_view query, size_t offset);

// A string as gojq quotes it in messages: JSON with `"`, `\`, \b \f \n \r \t escaped, other
// control characters and DEL as \u00XX, invalid UTF-8 bytes as \ufffd; HTML characters unescaped.
std::string QuoteForMessage(std::string_view s);

// A string as Go's strconv.Quote (%q) prints ASCII: \a \b \f \n \r \t \v, `"` and `\`
// escaped, other control bytes and DEL as \xXX, every other byte unchanged. gojq uses it in
// command-line and regular-expression messages.
std::string GoQuote(std::string_view s);

// The number of terminal columns `s` occupies (wide East Asian characters count 2, combining
// marks 0, invalid bytes 1), as gojq measures the caret column.
size_t DisplayWidth(std::string_view s);

}  // namespace wmap::jq

#endif  // WMAP_JQ_PARSE_ERROR_H_
