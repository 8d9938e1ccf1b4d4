// JSON text to and from Values.
//
// The reader accepts RFC 8259 JSON (plus a stream of several top-level values separated by
// whitespace, for NDJSON and jq-style streams), builds Values directly, and reports errors with
// line and column and the messages of Go's encoding/json (which gojq prints). Nesting depth is
// bounded (ReadOptions::max_depth) and parsing never recurses, so no input can overflow the
// stack. Integer literals that fit in int64 stay exact; other numbers are doubles, as Kubernetes'
// decoding makes them. ReadOptions::gojq_numbers reads numbers as gojq's decoder keeps them
// instead: integers beyond int64 exact (big integers), and a number whose printed form would
// differ from its text (10.0, 1e2, -0, 5e1000) as a number literal keeping the text, so it
// prints unchanged; numbers printed as written cost nothing extra. Numbers beyond
// the double range read as ±infinity (printed as ±1.7976931348623157e+308, as gojq does). NaN
// and Infinity literals are errors. Unpaired surrogate escapes and each byte of invalid UTF-8
// become U+FFFD. Duplicate keys: the last value wins, at the position of the first.
//
// The writer prints as gojq does: keys sorted by bytes, gojq's number formatting and string
// escaping, 2-space indent by default. It never recurses either.
//
// All functions are thread-safe; each thread keeps its own scratch buffers.
#ifndef WMAP_JSON_H_
#define WMAP_JSON_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "wmap/export.h"

#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap::internal {
class ShareTable;
}  // namespace wmap::internal

namespace wmap::json {

struct ReadOptions {
  size_t max_depth = 10000;   // deeper nesting is an error, never a stack overflow
  bool gojq_numbers = false;  // big integers, and number literals when not printed as written
  // Keep one node for equal arrays, objects and long strings met again while reading (recently
  // seen ones: the reader keeps a bounded table of them). A large document of similar objects
  // (a list of workloads) then takes a fraction of the memory for a little more parse time.
  // Shared values are immutable and copied when written, so only identity tells them apart:
  // Value::identical holds for equal subtrees (see docs/jq.md, "Large documents").
  bool share_repeated = false;
  // When set, the reader calls it with an offset into the text before which it will never read
  // the text again, about every release_interval bytes while a long value is parsed, so that
  // the owner of the text can give those pages back. Error positions stay exact.
  std::function<void(size_t offset)> release_consumed = {};
  size_t release_interval = size_t{8} << 20;
};

// Parses exactly one JSON value (surrounding whitespace allowed).
Result<Value> Parse(std::string_view text, const ReadOptions& options = {});

// Reads a stream of JSON values one at a time from a buffer. The buffer must outlive the reader.
// Values may be separated by whitespace or, when self-delimiting, by nothing ("1[2]" is two
// values), as with gojq's decoder. After the first error the reader stays failed.
class StreamReader {
 public:
  explicit StreamReader(std::string_view text, ReadOptions options = {});
  ~StreamReader();
  StreamReader(StreamReader&&) noexcept;
  StreamReader& operator=(StreamReader&&) noexcept;
  // Returns false at the end of the input; on an error returns true and sets *error instead.
  bool Next(Value* out, Error* error);
  bool failed() const { return failed_; }
  size_t offset() const { return pos_; }
  // With share_repeated: forgets the values seen so far, so that the next values share only
  // among themselves (for a caller that drops each value once it is processed: the table
  // would otherwise keep old values alive).
  void ForgetShared();

 private:
  std::string_view text_;
  ReadOptions options_;
  size_t pos_ = 0;
  bool failed_ = false;
  // With share_repeated: one table for the whole stream, so values repeat across documents too.
  std::unique_ptr<internal::ShareTable> share_;
  // With release_consumed: text before released_ is gone; its line count and the offset of the
  // last line start within it keep error positions exact.
  size_t released_ = 0;
  int released_lines_ = 0;
  size_t released_line_start_ = 0;
  size_t released_next_ = 0;
};

// ANSI colors of the writer's tokens, as SGR parameters ("34;1"); an empty string leaves that
// kind of token uncolored. The defaults are gojq's.
struct Colors {
  std::string null_color = "90";
  std::string false_color = "33";
  std::string true_color = "33";
  std::string number_color = "36";
  std::string string_color = "32";
  std::string key_color = "34;1";
  std::string array_color;   // brackets and commas of arrays
  std::string object_color;  // braces, commas and colons of objects

  // Applies a GOJQ_COLORS-style spec ("null:false:true:numbers:strings:keys:arrays:objects");
  // fields not given become uncolored. Returns false and sets *bad to the offending field when a
  // field is not a ';'-separated list of numbers (nothing is changed then).
  bool Parse(std::string_view spec, std::string* bad);
};

struct WriteOptions {
  int indent = 2;         // spaces per level; 0 = compact (-c); ignored when tab is set
  bool tab = false;       // indent with one tab per level (--tab)
  bool sort_keys = true;  // gojq always sorts; false keeps insertion order
  bool ascii = false;     // escape every non-ASCII character as \uXXXX (-a)
  // With indent 0: keep the line breaks (and the space after ':'), indenting nothing, as
  // gojq's --indent 0 does.
  bool line_breaks_without_indent = false;
  const Colors* colors = nullptr;  // null: no colors
  // When set, the writer calls spill() between elements whenever the output string has reached
  // spill_bytes, so that a large value can be written out in pieces (spill may empty the string
  // the writer appends to; the writer goes on appending after what is left).
  size_t spill_bytes = 0;
  std::function<void()> spill = {};
};

// Appends the JSON text of v to *out (no trailing newline).
void Write(const Value& v, const WriteOptions& options, std::string* out);
std::string ToString(const Value& v, const WriteOptions& options = {});
// Compact, sorted: the form jq's tojson and tostring produce.
std::string ToCompactString(const Value& v);

// gojq's text for a number, as printed by the writer and by tostring.
void FormatNumber(const Value& number, std::string* out);
// A JSON string literal with gojq's escaping: \" \\ \b \f \n \r \t, \u00XX for other control
// characters and DEL, \ufffd for each byte of invalid UTF-8; <, >, & and U+2028/U+2029 are not
// escaped. ascii=true also escapes all non-ASCII as \uXXXX with surrogate pairs (as jq -a).
void WriteString(std::string_view s, bool ascii, std::string* out);

}  // namespace wmap::json

WMAP_PUBLIC_END

#endif  // WMAP_JSON_H_
