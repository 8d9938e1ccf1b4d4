// YAML text to and from Values, as Kubernetes tooling (and, on request, gojq) reads and writes it.
//
// Reader (libyaml's event API, no recursion):
// - Multi-document streams; Schema::kKubernetes skips empty documents ("---" with no content).
// - Plain scalars resolve as sigs.k8s.io/yaml does (go-yaml v2's YAML 1.1 table, then JSON):
//   null/Null/NULL/~/empty -> null; y/Y/yes/Yes/YES/n/N/no/No/NO/true/True/TRUE/false/False/FALSE/
//   on/On/ON/off/Off/OFF -> bool; Go integer syntax after removing '_' (sign, 0x, 0o, 0b, legacy
//   leading-0 octal) -> int (above INT64_MAX: a double); YAML floats -> double; timestamps stay
//   the original string; everything else is a string. Quoted scalars are strings. The tags
//   !!str, !!int, !!float, !!bool, !!timestamp and !!binary (base64, decoded) are honoured; a
//   tag the text cannot satisfy is an error ("cannot decode !!str `abc` as a !!int"); other
//   tags leave the text a string.
// - .inf/-.inf/.nan: JSON has no such numbers and sigs.k8s.io/yaml fails on them, so under
//   kKubernetes they are an error. Under kGojq they become the doubles +-infinity and NaN.
// - Mapping keys become strings: ints and bools by their text, floats as Go's 32-bit shortest
//   form (as sigs.k8s.io/yaml), ".inf"/"-.inf"/".nan"; null, mapping and sequence keys are errors.
// - Duplicate keys: the last value wins, at the position of the first occurrence (go-yaml v2 in
//   non-strict mode, as sigs.k8s.io/yaml.Unmarshal uses it).
// - Merge keys "<<" (plain or !!merge) take a mapping or a sequence of mappings. kKubernetes
//   follows go-yaml v2: the merged members are set at the point of the "<<" key, so later keys
//   override them and they override earlier keys; in a sequence, earlier mappings win.
// - Anchors/aliases are expanded by sharing the anchored Value; every alias adds the node count
//   of its target to a per-document budget (ReadOptions::max_alias_expansion), so "billion laughs"
//   documents fail fast with "document contains excessive aliasing".
// - Nesting deeper than ReadOptions::max_depth is an error. (libyaml's scanner spends time
//   quadratic in the depth of flow collections, about a second at depth 10000.)
// - Input is UTF-8; a leading byte order mark is skipped (positions still count its bytes).
// - Errors read "yaml: line L, column C: <libyaml's problem>" (1-based, column in bytes) and fill
//   Error::position.
//
// Schema::kGojq mirrors gojq --yaml-input as gojq's own test suite (v0.12.19, go-yaml v3 rules)
// specifies it: only true/false (and capitalised forms) are booleans; timestamps stay as written
// (also under !!timestamp); "-0" is a negative zero; a plain scalar tagged "!" resolves
// normally; .inf/.nan become the doubles +-infinity and NaN; mapping keys are the key text as
// written ("42.10: x" -> "42.10"), and a member whose key is null is left out; duplicate keys
// are an error ("mapping key \"a\" already defined at line 1"); merged members never override
// explicit keys and earlier mappings of a merge list win; empty documents are kept (as null).
// Integers beyond int64 (decimal of any length, or Go integer syntax up to uint64) read as exact
// big integers, as gojq keeps them.
//
// Writer: one document, block style, never a leading "---" or trailing "...".
// - Style::kKubectl (kubectl -o yaml, i.e. go-yaml v2 marshalling): 2-space indent, sequences
//   inside mappings not indented ("key:\n- a"), empty containers as {} and [], keys in insertion
//   order (or sorted), numbers as json::FormatNumber prints them (except integral doubles of
//   2^53 and more, written in Go's float form such as 1e+20 so that they do not read back as a
//   different exact integer). Strings are plain unless plain text would read back as another
//   type (then double-quoted: "true", "1", "null", "", "yes", "2001-12-14", "1:20") or is not
//   plain-safe (then single-quoted: '* x', '- a', 'a: b', '#c', ' lead', or double-quoted when
//   single quotes cannot hold it: tabs, control characters, characters beyond U+FFFF);
//   strings with a line feed use literal block style (|, |-, |+, with an indentation indicator
//   when the text starts with a space or break). Invalid UTF-8 is written as !!binary base64.
//   Like go-yaml v2, long plain and quoted scalars (not keys) are folded at a single space once
//   the line is past 80 columns; folding reads back as the original space.
//   Output read back through Parse() equals the input, except NaN (written as null), infinities
//   (written as the largest double) and a key "<<" (quoted, unlike go-yaml, so that it is not
//   read back as a merge key).
// - Style::kGojq (gojq --yaml-output, i.e. go-yaml v3 with SetIndent): no folding, keys sorted,
//   sequences indented under their key, WriteOptions::indent spaces (2 to 9), YAML 1.1 booleans
//   such as "yes" still quoted, numbers as Go prints them (integers in decimal, doubles in
//   shortest 'g' form such as 1e+06, .inf, -.inf, .nan). Integral doubles print like other
//   doubles (1e+20); a big integer prints double-quoted with all its digits, as gojq's encoder
//   writes its text. The quirks of that encoder are reproduced: a block scalar that starts with a
//   line break loses it, a literal block may start with a tab (which libyaml then rejects), a key
//   "<<" is written plain, and text starting with a byte order mark is escaped throughout.
// Sorted key order is go-yaml's: runs of digits compare numerically, letters before other
// characters ("a2" < "a10"); letters outside ASCII are approximated.
#ifndef WMAP_YAML_H_
#define WMAP_YAML_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"

#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap::yaml {

// How plain scalars, keys, merges and duplicates are interpreted (see the file comment).
enum class Schema {
  kKubernetes,  // sigs.k8s.io/yaml (go-yaml v2, YAML 1.1 booleans)
  kGojq,        // gojq --yaml-input (go-yaml v3)
};

struct ReadOptions {
  Schema schema = Schema::kKubernetes;
  size_t max_depth = 10000;              // deeper nesting is an error, never a stack overflow
  size_t max_alias_expansion = 1 << 20;  // per document: total nodes reached through aliases
  bool record_positions = false;         // fill Document::positions
  // Numbers whose plain value would print differently keep their text when it is a JSON
  // number (Value::NumberLiteral): 18446744073709551615 stays exact, 1.50 stays 1.50.
  bool numbers_as_written = false;
  // Keep one node for equal sequences, mappings and long strings met again in the stream
  // (json::ReadOptions::share_repeated has the details).
  bool share_repeated = false;
};

struct Document {
  Value value;
  Position start;  // where the document's root node starts
  // When ReadOptions::record_positions: JSON-pointer path ("/spec/replicas", "" for the root,
  // "~0"/"~1" escapes) of every node written in the text to the position of its value (for
  // mapping members: the position of the key). Members that come from a merge key have none.
  std::map<std::string, Position> positions;
};

// Reads the documents of a stream one at a time (memory stays proportional to one document).
// The text must outlive the reader. Not copyable.
class StreamReader {
 public:
  explicit StreamReader(std::string_view text, ReadOptions options = {});
  ~StreamReader();
  StreamReader(const StreamReader&) = delete;
  StreamReader& operator=(const StreamReader&) = delete;
  // Returns false at the end of the stream; on an error returns true, sets *error, and every
  // later call returns false.
  bool Next(Document* out, Error* error);
  // With share_repeated: forgets the values seen so far, so that later documents share only
  // among themselves (for a caller that drops each document once processed).
  void ForgetShared();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Every document of a stream, in order.
Result<std::vector<Document>> ParseStream(std::string_view text, const ReadOptions& options = {});
// Exactly one document: an empty stream gives null, a second document is an error.
Result<Value> Parse(std::string_view text, const ReadOptions& options = {});

// A reader error's text without its "yaml: line L, column C: " location: the problem and, when
// the reader knows it, the construct it was found in ("... (while scanning a quoted scalar at
// line 3, column 5)"). Other errors: their message.
std::string ErrorWithoutLocation(const Error& e);

enum class Style {
  kKubectl,  // kubectl -o yaml
  kGojq,     // gojq --yaml-output
};

struct WriteOptions {
  Style style = Style::kKubectl;
  bool sort_keys = false;  // kKubectl: keep insertion order by default; kGojq always sorts
  int indent = 2;          // kGojq only (gojq --indent N); values outside 2..9 mean 2
};

// One document, ending in a newline (no leading "---").
void Write(const Value& v, const WriteOptions& options, std::string* out);
std::string ToString(const Value& v, const WriteOptions& options = {});

}  // namespace wmap::yaml

WMAP_PUBLIC_END

#endif  // WMAP_YAML_H_
