// Object streams: the Kubernetes objects of files, folders and standard input, read one
// document at a time with the place each came from. Every front end reads its objects through
// here; the cluster client is a second origin of the same SourceObject values.
//
// Contract of ObjectStream:
// - Paths: regular files are mapped, not copied; folders are walked recursively (*.yaml, *.yml,
//   *.json, sorted by path); "-" is standard input (read once; a second "-" yields nothing).
// - A file holds multi-document YAML, or JSON values (one, a stream, or a top-level array whose
//   elements are the objects); text that starts like JSON but is not is read as YAML. A
//   `kind: List` (or any kind ending in "List" with an `items` array) yields its items. Null and
//   empty documents are skipped.
// - Each object keeps its file ("<stdin>" for standard input) and the position of its document
//   or JSON value; list items keep the list's position and their index.
// - Every input (a file, standard input, a pipe, a FIFO, a device) is cut into documents as it
//   arrives (DocumentReader, below) and each is parsed and handed on before the next is read:
//   memory stays near one document, whose text is given back once parsed; a large document
//   shares its repeated subtrees. The objects of a `kind: List` are handed on one at a time,
//   each released when the caller drops it.
// - Errors: a missing path is kNotFound, an unreadable one kIo, a document that does not parse
//   kInvalidInput with its file and position, a document longer than
//   ObjectStreamOptions::max_document_size kLimitExceeded with its file and line; reading stops
//   at the first error.
#ifndef WMAP_SOURCE_H_
#define WMAP_SOURCE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"
#include "wmap/status.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

// One object read from a source.
struct SourceObject {
  Value value;
  std::string file;   // the path as given, "<stdin>" for standard input
  Position position;  // of the document or JSON value (of the List for list items)
  int list_index = -1;

  // "file:line:col" (or "file:line:col items[N]"); the parts that are known.
  std::string Where() const;
  // The object's apiVersion, kind, metadata.name, metadata.namespace, metadata.uid ("" when
  // absent or not a string).
  std::string_view ApiVersion() const;
  std::string_view Kind() const;
  std::string_view Name() const;
  std::string_view Namespace() const;
  std::string_view Uid() const;
};

// How far a stream has read, for progress displays.
struct ReadProgress {
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;  // of the files whose size is known (0 when none is)
  uint64_t objects = 0;
  bool finished = false;  // the last report: the stream ended or failed
};

// The default of --max-document-size (docs/limits.md).
inline constexpr uint64_t kDefaultMaxDocumentSize = uint64_t{256} << 20;

struct ObjectStreamOptions {
  int stdin_fd = 0;  // what "-" reads
  // Numbers that a plain number would print differently (beyond int64, beyond a double's
  // precision, with a fraction or exponent as written) keep their text, printed as written while
  // they pass through unchanged (Value::NumberLiteral), for commands that write objects back.
  bool numbers_as_written = false;
  // A document (a YAML document, a JSON value) longer than this is an error; 0: no limit.
  uint64_t max_document_size = kDefaultMaxDocumentSize;
  // Called after each object and once with finished set; may be empty.
  std::function<void(const ReadProgress&)> on_progress;
};

// Streams the objects of a list of paths (see the file comment).
class ObjectStream {
 public:
  explicit ObjectStream(std::vector<std::string> paths, ObjectStreamOptions options = {});
  ~ObjectStream();
  ObjectStream(const ObjectStream&) = delete;
  ObjectStream& operator=(const ObjectStream&) = delete;

  // Checks the paths and lists folders. Called by the first Next() when not called before.
  std::optional<Error> Open();
  // True with *out set, or true with *error set (reading stops), or false at the end.
  bool Next(SourceObject* out, std::optional<Error>* error);
  // The files read so far and to be read (after Open).
  const std::vector<std::string>& files() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Appends every object of the paths to *out; returns the first error.
std::optional<Error> ReadAllObjects(const std::vector<std::string>& paths,
                                    const ObjectStreamOptions& options,
                                    std::vector<SourceObject>* out);

// ---- Documents as they arrive ----
//
// DocumentReader cuts one input (a file, a pipe, a FIFO, a device, standard input) into the text
// of its documents without reading it whole: YAML documents are split at "---" lines (a
// document-start marker at the start of a line; directives after a "..." line go with the
// document they precede), JSON values at the end of each complete value, found by a structural
// scan. Regular files are mapped and their pages given back once read; anything else is read in
// chunks, so memory stays near the largest document whatever the input's length. A document
// longer than DocumentReaderOptions::max_document_size is an error (kLimitExceeded) naming the
// input and the line where the document starts, raised before more than the limit plus one
// chunk is held.

enum class DocumentFormat {
  kDetect,  // JSON when the first character (after white space) is '{' or '[', else YAML
  kYaml,
  kJson,
};

// One document's text and its place in the input.
struct DocumentText {
  std::string_view text;  // valid until the reader's next call
  Position start;         // of text's first byte in the input
  int number = 0;         // 1-based, in input order
  bool json = false;      // a JSON value (else a YAML document)

  // True for a YAML document with nothing but its "---" marker and white space (or nothing at
  // all): it reads as null, so a reader may skip parsing it.
  bool Empty() const;
  // A position found in `text` (line 1 is its first line) moved to its place in the input.
  Position Locate(Position p) const;
  // e's position and context position moved likewise, and the location in a YAML reader's
  // message ("yaml: line L, column C: ...") rewritten to match.
  void Locate(Error* e) const;
};

struct DocumentReaderOptions {
  DocumentFormat format = DocumentFormat::kDetect;
  uint64_t max_document_size = kDefaultMaxDocumentSize;  // 0: no limit
};

class DocumentReader {
 public:
  // `name` is the input as errors name it ("<stdin>", a path).
  DocumentReader(std::string name, DocumentReaderOptions options = {});
  ~DocumentReader();
  DocumentReader(const DocumentReader&) = delete;
  DocumentReader& operator=(const DocumentReader&) = delete;

  // Opens a path: a regular file is mapped, anything else read as it arrives. On failure sets
  // *error as OpenForReading does and returns false.
  bool OpenPath(const std::string& path, std::string* error, ErrorCode* code = nullptr);
  // Reads fd as it arrives (not closed here).
  void OpenFd(int fd);

  // True with *out set, true with *error set (every later call returns false), or false at the
  // end of the input.
  bool Next(DocumentText* out, std::optional<Error>* error);
  // Reads the last document again, from its start, as YAML, and every later one too (text that
  // started like JSON but was not).
  void RereadAsYaml();
  // The text before `offset` of the last document is no longer needed: a mapped file gives its
  // pages back (for a large document parsed as it is read).
  void Release(size_t offset);
  // Bytes of the input up to the end of the last document.
  uint64_t offset() const;
  // Whether the input is mapped (its documents stay readable until the reader moves on).
  bool mapped() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Whole-file reads: one allocation sized from fstat and large read() calls for regular files,
// 1 MiB chunks for pipes and terminals. Failures are worded as Go words them
// ("open testdata/6.json: no such file or directory").

// Reads all of `path` into *out; on failure returns false and sets *error, and *code (when
// given) to kNotFound for a path that does not exist, else kIo.
bool ReadWholeFile(const std::string& path, std::string* out, std::string* error,
                   ErrorCode* code = nullptr);
// Opens `path` for reading (not a directory); on failure sets *error and *code as ReadWholeFile.
bool OpenForReading(const std::string& path, int* fd, std::string* error,
                    ErrorCode* code = nullptr);
// Reads all of a file descriptor (standard input) into *out; *error is "read: REASON".
bool ReadWholeFd(int fd, std::string* out, std::string* error);
// Go's wording of an errno value: strerror with a lower-case first letter.
std::string ErrnoText(int err);

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_SOURCE_H_
