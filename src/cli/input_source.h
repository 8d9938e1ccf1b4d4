// The stream of input values of `wmap jq`: JSON values, raw lines, YAML documents or stream
// events, read from files in order (or standard input), optionally slurped into one value.
//
// Guarantees: files are opened one at a time, when the previous one is exhausted. JSON values and
// raw lines are read in chunks and produced as soon as they are complete (memory stays near the
// largest value, and a pipe's values appear as they arrive); YAML documents are cut from the
// input as it arrives (wmap/source.h's DocumentReader) and parsed one at a time; slurped input is
// read to the end first; a YAML document or JSON value longer than max_document_size is an error;
// an unreadable file or a parse error yields one error (formatted as the gojq command prints it)
// and reading resumes with the next file; standard input is read at most once ("-" again yields
// nothing). name() is the file the last value came from, empty before the first value and after
// the end.
#ifndef WMAP_CLI_INPUT_SOURCE_H_
#define WMAP_CLI_INPUT_SOURCE_H_

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "cli/stream_events.h"
#include "cli/text_buffer.h"
#include "wmap/json.h"
#include "wmap/source.h"
#include "wmap/value.h"

namespace wmap::cli {

enum class InputFormat { kJson, kRaw, kYaml, kStream };

// Where a structural scan of an incomplete JSON value stopped (offsets from the value's
// start), so that more input continues the scan instead of repeating it.
struct ValueScan {
  size_t offset = 0;
  size_t depth = 0;
  bool started = false;
  bool in_string = false;
};

class InputSource {
 public:
  enum class Status { kValue, kError, kEnd };

  // files empty: standard input. stdin_fd is the descriptor for standard input.
  InputSource(InputFormat format, bool slurp, std::vector<std::string> files, int stdin_fd,
              uint64_t max_document_size = kDefaultMaxDocumentSize);
  ~InputSource();
  InputSource(const InputSource&) = delete;
  InputSource& operator=(const InputSource&) = delete;

  // Produces the next value, or an error text, or the end.
  Status Next(Value* out, std::string* error);
  // The name of the current file ("<stdin>" for standard input), empty when none.
  const std::string& name() const { return name_; }

 private:
  Status NextUnslurped(Value* out, std::string* error);
  Status NextSlurped(Value* out, std::string* error);
  // Opens the next file; false at the end of the list. Sets *error when it cannot be read.
  bool OpenNext(std::string* error, bool* failed);
  // Produces from the open file; kEnd when it is exhausted.
  Status FromCurrent(Value* out, std::string* error);

  InputFormat format_;
  bool slurp_;
  uint64_t max_document_size_;  // 0: none
  bool slurp_done_ = false;
  std::vector<std::string> files_;
  size_t next_file_ = 0;
  int stdin_fd_;
  bool stdin_used_ = false;

  // Appends the next chunk of a pipe to text_; sets eof_ at its end. False on a read error.
  bool ReadMore(std::string* error);
  void CloseFd();
  // Drops consumed text so a long stream does not accumulate.
  void Compact();
  // Reads all of fd into text_ (whole-input formats); sets *error ("read NAME: ...") on failure.
  bool ReadAll(int fd, std::string* error);
  // Gives back the text before offset while a large value is parsed (ReadOptions::
  // release_consumed), counting its lines first so error positions stay exact.
  void ReleaseText(size_t offset);
  Status NextJson(Value* out, std::string* error);
  // NextJson over text read whole (slurped input), with one reader for all of it.
  Status NextJsonFromWholeText(Value* out, std::string* error);
  // The gojq command's text for a JSON syntax error at `offset` in text_.
  std::string JsonErrorText(const Error& e, size_t offset) const;
  Status NextRawLine(Value* out, std::string* error);
  // The next YAML document of documents_ (unslurped --yaml-input).
  Status NextYamlDocument(Value* out, std::string* error);
  // The error text of a document longer than the limit, or of a read that failed.
  std::string DocumentErrorText(const Error& e) const;

  bool open_ = false;
  std::string name_;
  // The current source: text_ holds the unconsumed part (all of it for YAML and slurped input).
  TextBuffer text_;
  size_t pos_ = 0;     // first byte not yet consumed
  int line_base_ = 0;  // lines dropped from text_ by Compact(), for error line numbers
  // Text before released_ has been given back while a large value was parsed; it held
  // released_lines_ line breaks. Reset when the value is consumed.
  size_t released_ = 0;
  int released_lines_ = 0;
  bool incremental_ = false;
  int fd_ = -1;           // the descriptor read incrementally (standard input or an open file)
  bool owns_fd_ = false;  // fd_ was opened here and is closed when the source moves on
  bool eof_ = true;
  bool json_failed_ = false;   // a JSON syntax error ends the current source
  bool value_cut_ = false;     // the last parse attempt ran off the end of the text read so far
  ValueScan scan_;             // progress of the structural scan while value_cut_
  std::deque<Value> pending_;  // YAML documents not yet returned
  StreamEventCursor events_;   // --stream: the events of the current value
  std::optional<json::StreamReader> whole_reader_;  // reads text_ when it is read whole
  std::optional<DocumentReader> documents_;         // unslurped --yaml-input
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_INPUT_SOURCE_H_
