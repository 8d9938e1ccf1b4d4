#include "cli/input_source.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "cli/limit_values.h"
#include "cli/source_error.h"
#include "wmap/source.h"
#include "wmap/yaml.h"

#include <sys/stat.h>
#include <unistd.h>

namespace wmap::cli {
namespace {

// Unconsumed text from which a JSON value counts as a large document (see NextJson).
constexpr size_t kLargeText = size_t{4} << 20;

// The message and place the gojq command shows for a YAML error: the reader's problem without
// its location and context; the place is the context's for scanner errors ("while scanning
// ..."), as go-yaml reports them, else the problem's (columns are 1-based; 0 when unknown).
std::string YamlErrorText(const Error& e, int* line, int* column) {
  const bool scanning = e.context.starts_with("while scanning") && e.context_position.known();
  const Position& at = scanning ? e.context_position : e.position;
  *line = at.line;
  *column = at.column;
  return e.problem.empty() ? e.message : e.problem;
}

}  // namespace

InputSource::InputSource(InputFormat format, bool slurp, std::vector<std::string> files,
                         int stdin_fd, uint64_t max_document_size)
    : format_(format),
      slurp_(slurp),
      max_document_size_(max_document_size),
      files_(std::move(files)),
      stdin_fd_(stdin_fd) {
  if (files_.empty()) files_.push_back("-");
}

InputSource::~InputSource() { CloseFd(); }

void InputSource::CloseFd() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  owns_fd_ = false;
}

bool InputSource::OpenNext(std::string* error, bool* failed) {
  *failed = false;
  CloseFd();
  pending_.clear();
  events_.Clear();
  whole_reader_.reset();  // it reads text_
  documents_.reset();
  text_.Clear();
  pos_ = 0;
  line_base_ = 0;
  released_ = 0;
  released_lines_ = 0;
  incremental_ = false;
  eof_ = true;
  json_failed_ = false;
  open_ = false;
  if (next_file_ >= files_.size()) {
    name_.clear();
    return false;
  }
  const std::string& file = files_[next_file_++];
  if (format_ == InputFormat::kYaml && !slurp_) {
    // Documents are cut from the input as it arrives and parsed one at a time.
    name_ = file == "-" ? "<stdin>" : file;
    DocumentReaderOptions options{.format = DocumentFormat::kYaml,
                                  .max_document_size = max_document_size_};
    if (file == "-") {
      if (!stdin_used_) {
        stdin_used_ = true;
        documents_.emplace(name_, options);
        documents_->OpenFd(stdin_fd_);
      }
    } else {
      documents_.emplace(name_, options);
      if (!documents_->OpenPath(file, error)) {
        documents_.reset();
        *failed = true;
        return true;
      }
    }
    open_ = true;
    return true;
  }
  bool chunked = !slurp_ && (format_ == InputFormat::kJson || format_ == InputFormat::kStream ||
                             format_ == InputFormat::kRaw);
  if (file == "-") {
    name_ = "<stdin>";
    if (!stdin_used_) {
      stdin_used_ = true;
      if (chunked) {
        fd_ = stdin_fd_;
        incremental_ = true;
        eof_ = false;
      } else if (!ReadAll(stdin_fd_, error)) {
        *failed = true;
        return true;
      }
    }
  } else {
    name_ = file;
    if (chunked) {
      if (!OpenForReading(file, &fd_, error)) {
        *failed = true;
        return true;
      }
      owns_fd_ = true;
      incremental_ = true;
      eof_ = false;
    } else {
      int fd = -1;
      bool read = OpenForReading(file, &fd, error) && ReadAll(fd, error);
      if (fd >= 0) ::close(fd);
      if (!read) {
        *failed = true;
        return true;
      }
    }
  }
  open_ = true;
  if (format_ == InputFormat::kYaml) {
    // All documents are kept until taken: a large stream shares its repeated subtrees.
    auto docs = yaml::ParseStream(text_.view(), {.schema = yaml::Schema::kGojq,
                                                 .share_repeated = text_.size() >= kLargeText});
    if (!docs.ok()) {
      int line = 0;
      int column = 0;
      std::string message = YamlErrorText(docs.error(), &line, &column);
      *error = FormatLineError("invalid yaml", name_, text_.view(), line, column, message);
      open_ = false;
      *failed = true;
      return true;
    }
    for (yaml::Document& d : *docs) pending_.push_back(std::move(d.value));
  }
  return true;
}

bool InputSource::ReadMore(std::string* error) {
  // A value still incomplete after a large read is re-parsed only after the unconsumed text has
  // doubled, so re-parsing stays linear overall; small pending text returns after any read, so
  // interactive pipes see each value as soon as it is complete.
  constexpr size_t kChunk = 1 << 20;
  Compact();
  size_t pending = text_.size() - pos_;
  size_t want = std::max(kChunk, pending);
  size_t got = 0;
  while (got < want) {
    long n = text_.AppendFromFd(fd_, want - got);
    if (n < 0) {
      eof_ = true;
      *error = "read " + name_ + ": " + std::strerror(errno);
      return false;
    }
    if (n == 0) {
      eof_ = true;
      break;
    }
    got += static_cast<size_t>(n);
    if (pending < kChunk) break;
  }
  return true;
}

bool InputSource::ReadAll(int fd, std::string* error) {
  if (text_.AppendAllFromFd(fd)) return true;
  *error =
      (fd == stdin_fd_ && name_ == "<stdin>" ? std::string("read: ") : "read " + name_ + ": ") +
      ErrnoText(errno);
  return false;
}

void InputSource::Compact() {
  if (pos_ < (1 << 20)) return;
  std::string_view kept = text_.view().substr(released_, pos_ - released_);
  line_base_ += released_lines_ + static_cast<int>(std::count(kept.begin(), kept.end(), '\n'));
  released_ = 0;
  released_lines_ = 0;
  text_.EraseFront(pos_);
  pos_ = 0;
}

void InputSource::ReleaseText(size_t offset) {
  if (offset <= released_) return;
  std::string_view gone = text_.view().substr(released_, offset - released_);
  released_lines_ += static_cast<int>(std::count(gone.begin(), gone.end(), '\n'));
  released_ = offset;
  text_.Discard(offset);
}

InputSource::Status InputSource::NextRawLine(Value* out, std::string* error) {
  while (true) {
    size_t nl = text_.view().find('\n', pos_);
    if (nl != std::string::npos) {
      *out = Value::String(text_.view().substr(pos_, nl - pos_));
      pos_ = nl + 1;
      return Status::kValue;
    }
    if (!eof_) {
      if (!ReadMore(error)) return Status::kError;
      continue;
    }
    if (pos_ >= text_.size()) return Status::kEnd;
    *out = Value::String(text_.view().substr(pos_));
    pos_ = text_.size();
    return Status::kValue;
  }
}

namespace {

// Continues a structural scan of the JSON value that starts (after whitespace) at the front of
// `text`, from scan->offset, and reports whether the value is complete: a whole array, object or
// string. It builds nothing, so a large value arriving in pieces is scanned once and parsed once,
// instead of re-parsed after every read. Malformed text counts as complete (the parser reports
// it); a bare number or literal never does, as more of it may follow.
bool ScanForCompleteValue(std::string_view text, ValueScan* scan) {
  size_t i = scan->offset;
  if (!scan->started) {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
      ++i;
    }
    if (i >= text.size()) {
      scan->offset = i;
      return false;
    }
    char first = text[i];
    if (first != '{' && first != '[' && first != '"') {
      return first != '-' && (first < '0' || first > '9') && first != 't' && first != 'f' &&
             first != 'n';
    }
    scan->started = true;
  }
  while (i < text.size()) {
    if (scan->in_string) {
      const void* q = std::memchr(text.data() + i, '"', text.size() - i);
      if (q == nullptr) {
        // Stop before a trailing run of backslashes, whose parity the next bytes may change.
        size_t end = text.size();
        while (end > i && text[end - 1] == '\\') --end;
        scan->offset = end;
        return false;
      }
      size_t at = static_cast<size_t>(static_cast<const char*>(q) - text.data());
      size_t backslashes = 0;
      while (at - backslashes > i && text[at - backslashes - 1] == '\\') ++backslashes;
      i = at + 1;
      if (backslashes % 2 == 1) continue;  // an escaped quote
      scan->in_string = false;
      if (scan->depth == 0) return true;
      continue;
    }
    char c = text[i++];
    if (c == '"') {
      scan->in_string = true;
    } else if (c == '{' || c == '[') {
      ++scan->depth;
    } else if (c == '}' || c == ']') {
      if (scan->depth == 0 || --scan->depth == 0) return true;
    }
  }
  scan->offset = i;
  return false;
}

}  // namespace

std::string InputSource::JsonErrorText(const Error& e, size_t offset) const {
  SourceErrorSpec spec;
  spec.kind = "invalid json";
  spec.name = name_;
  spec.contents = text_.view().substr(released_);
  spec.offset = offset - released_;
  spec.message = e.message;
  spec.line_base = line_base_ + released_lines_;
  return FormatSourceError(spec);
}

InputSource::Status InputSource::NextJsonFromWholeText(Value* out, std::string* error) {
  if (json_failed_) return Status::kEnd;
  if (!whole_reader_) {
    // One reader for the whole text, so a large input shares repeated values across all its
    // documents (a slurped stream of similar objects) and gives back its text as it goes.
    json::ReadOptions options{.gojq_numbers = true};
    if (text_.size() >= kLargeText) {
      options.share_repeated = true;
      options.release_consumed = [this](size_t offset) { ReleaseText(offset); };
    }
    whole_reader_.emplace(text_.view(), std::move(options));
  }
  Value v;
  Error e;
  if (!whole_reader_->Next(&v, &e)) return Status::kEnd;
  if (whole_reader_->failed()) {
    json_failed_ = true;
    *error = JsonErrorText(e, e.position.offset);
    return Status::kError;
  }
  pos_ = whole_reader_->offset();
  *out = std::move(v);
  return Status::kValue;
}

InputSource::Status InputSource::NextJson(Value* out, std::string* error) {
  if (!incremental_) return NextJsonFromWholeText(out, error);
  while (true) {
    if (json_failed_) return Status::kEnd;
    std::string_view rest = text_.view().substr(pos_);
    // After one parse ran off the end of the text read so far, read on until the value is whole.
    if (value_cut_ && !eof_ && !ScanForCompleteValue(rest, &scan_)) {
      if (max_document_size_ != 0 && rest.size() > max_document_size_) {
        json_failed_ = true;
        Error e = Error::Of(
            ErrorCode::kLimitExceeded,
            "value larger than " + FormatLimitBytes(max_document_size_) + " (--max-document-size)");
        std::string_view before = text_.view().substr(released_, pos_ - released_);
        e.position.line = line_base_ + released_lines_ + 1 +
                          static_cast<int>(std::count(before.begin(), before.end(), '\n'));
        *error = DocumentErrorText(e);
        return Status::kError;
      }
      if (!ReadMore(error)) return Status::kError;
      continue;
    }
    // The text holds the whole value (the structural scan found its end, or the input ended),
    // so a parse that gives text back never needs to start over.
    bool whole = value_cut_ || eof_;
    value_cut_ = false;
    json::ReadOptions options{.gojq_numbers = true};
    if (whole && rest.size() >= kLargeText) {
      // A large document: share its repeated subtrees and give back its text as it is parsed,
      // so that memory stays near the size of the values built.
      options.share_repeated = true;
      options.release_consumed = [this, base = pos_](size_t offset) { ReleaseText(base + offset); };
    }
    json::StreamReader reader(rest, std::move(options));
    Value v;
    Error e;
    bool got = reader.Next(&v, &e);
    // On a pipe, a value (or error) that reaches the end of what has arrived may be cut short.
    bool at_end = !got || (reader.failed() ? e.position.offset >= rest.size()
                                           : reader.offset() >= rest.size());
    if (!eof_ && at_end && released_ <= pos_) {
      if (got && !value_cut_) scan_ = ValueScan{};
      value_cut_ = got;
      if (!ReadMore(error)) return Status::kError;
      continue;
    }
    if (!got) return Status::kEnd;
    if (reader.failed()) {
      json_failed_ = true;
      *error = JsonErrorText(e, pos_ + e.position.offset);
      return Status::kError;
    }
    pos_ += reader.offset();
    *out = std::move(v);
    return Status::kValue;
  }
}

std::string InputSource::DocumentErrorText(const Error& e) const {
  if (e.code == ErrorCode::kIo) return e.message;
  return "invalid " + std::string(format_ == InputFormat::kYaml ? "yaml" : "json") + ": " + name_ +
         ":" + std::to_string(e.position.line) + ": " + e.message;
}

InputSource::Status InputSource::NextYamlDocument(Value* out, std::string* error) {
  while (documents_) {
    DocumentText doc;
    std::optional<Error> failure;
    if (!documents_->Next(&doc, &failure)) return Status::kEnd;
    if (failure) {
      *error = DocumentErrorText(*failure);
      documents_.reset();  // the source ends
      return Status::kError;
    }
    if (doc.Empty()) {
      *out = Value();  // gojq keeps an empty document, as null
      return Status::kValue;
    }
    yaml::StreamReader reader(
        doc.text, {.schema = yaml::Schema::kGojq, .share_repeated = doc.text.size() >= kLargeText});
    yaml::Document parsed;
    Error e;
    while (reader.Next(&parsed, &e)) {
      if (!e.message.empty()) {
        doc.Locate(&e);
        int line = 0;
        int column = 0;
        std::string message = YamlErrorText(e, &line, &column);
        *error = FormatLineError("invalid yaml", name_, doc.text, line, column, message,
                                 doc.start.line - 1);
        documents_.reset();
        pending_.clear();
        return Status::kError;
      }
      pending_.push_back(std::move(parsed.value));
      parsed = yaml::Document{};
    }
    documents_->Release(doc.text.size());  // the text is not needed while the filter runs
    if (!pending_.empty()) {
      *out = std::move(pending_.front());
      pending_.pop_front();
      return Status::kValue;
    }
  }
  return Status::kEnd;
}

InputSource::Status InputSource::FromCurrent(Value* out, std::string* error) {
  if (!pending_.empty()) {
    *out = std::move(pending_.front());
    pending_.pop_front();
    return Status::kValue;
  }
  switch (format_) {
    case InputFormat::kRaw:
      return NextRawLine(out, error);
    case InputFormat::kYaml:
      return NextYamlDocument(out, error);
    case InputFormat::kJson:
      return NextJson(out, error);
    case InputFormat::kStream: {
      if (events_.Next(out)) return Status::kValue;
      Value v;
      Status s = NextJson(&v, error);
      if (s != Status::kValue) return s;
      events_.Reset(std::move(v));
      events_.Next(out);  // every value has at least one event
      return Status::kValue;
    }
  }
  return Status::kEnd;
}

InputSource::Status InputSource::NextUnslurped(Value* out, std::string* error) {
  while (true) {
    if (!open_) {
      bool failed = false;
      if (!OpenNext(error, &failed)) return Status::kEnd;
      if (failed) return Status::kError;
    }
    Status s = FromCurrent(out, error);
    if (s != Status::kEnd) return s;
    open_ = false;
  }
}

InputSource::Status InputSource::NextSlurped(Value* out, std::string* error) {
  if (slurp_done_) {
    name_.clear();
    return Status::kEnd;
  }
  slurp_done_ = true;
  if (format_ == InputFormat::kRaw) {
    std::string all;
    while (true) {
      bool failed = false;
      if (!OpenNext(error, &failed)) break;
      if (failed) return Status::kError;
      all += text_.view();
    }
    name_ = files_.empty() ? "" : (files_.back() == "-" ? "<stdin>" : files_.back());
    *out = Value::String(std::move(all));
    return Status::kValue;
  }
  Value array = Value::EmptyArray();
  std::string last_name;
  while (true) {
    Value v;
    Status s = NextUnslurped(&v, error);
    if (s == Status::kEnd) break;
    if (s == Status::kError) return s;
    last_name = name_;
    array.push_back(std::move(v));
  }
  name_ = last_name;
  *out = std::move(array);
  return Status::kValue;
}

InputSource::Status InputSource::Next(Value* out, std::string* error) {
  return slurp_ ? NextSlurped(out, error) : NextUnslurped(out, error);
}

}  // namespace wmap::cli
