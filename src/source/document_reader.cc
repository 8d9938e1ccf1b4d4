// DocumentReader: one input cut into the text of its documents as it arrives (wmap/source.h).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wmap/source.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

// Bytes asked of read() at a time.
constexpr size_t kChunk = size_t{1} << 20;

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
// What may follow a "---" or "..." marker on its line.
bool EndsMarker(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsJsonDelimiter(char c) {
  return IsJsonSpace(c) || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' ||
         c == '"';
}

// "256Mi", "1Gi", "1000": a size as the limit flags take it.
std::string SizeText(uint64_t n) {
  static constexpr std::pair<uint64_t, const char*> kUnits[] = {{uint64_t{1} << 40, "Ti"},
                                                                {uint64_t{1} << 30, "Gi"},
                                                                {uint64_t{1} << 20, "Mi"},
                                                                {uint64_t{1} << 10, "Ki"}};
  for (const auto& [unit, suffix] : kUnits) {
    if (n >= unit && n % unit == 0) return std::to_string(n / unit) + suffix;
  }
  return std::to_string(n);
}

}  // namespace

bool DocumentText::Empty() const {
  if (json) return false;
  std::string_view t = text;
  if (t.starts_with("---")) t.remove_prefix(3);
  return std::all_of(t.begin(), t.end(), IsJsonSpace);
}

Position DocumentText::Locate(Position p) const {
  if (!p.known()) return p;
  if (p.line == 1) p.column += start.column - 1;
  p.line += start.line - 1;
  p.offset += start.offset;
  return p;
}

void DocumentText::Locate(Error* e) const {
  const bool yaml_message = e->message.starts_with("yaml: line ") && e->position.known();
  e->position = Locate(e->position);
  e->context_position = Locate(e->context_position);
  if (yaml_message) {
    e->message = "yaml: line " + std::to_string(e->position.line) + ", column " +
                 std::to_string(e->position.column) + ": " + yaml::ErrorWithoutLocation(*e);
  }
}

// Invariants: the input's bytes [0, end()) have been seen; those before doc_ are done with (a
// mapped file may have given their pages back, the buffer may have dropped them); the scan state
// describes [doc_, scan position) of the document being cut.
class DocumentReader::Impl {
 public:
  Impl(std::string name, DocumentReaderOptions options)
      : name_(std::move(name)), options_(options) {}
  ~Impl() { Close(); }

  bool OpenPath(const std::string& path, std::string* error, ErrorCode* code) {
    Close();
    int fd = -1;
    if (!OpenForReading(path, &fd, error, code)) return false;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        ::madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
        map_ = static_cast<char*>(p);
        map_size_ = static_cast<size_t>(st.st_size);
        ::close(fd);
        eof_ = true;
        return true;
      }
    }
    fd_ = fd;
    owns_fd_ = true;
    eof_ = false;
    return true;
  }

  void OpenFd(int fd) {
    Close();
    fd_ = fd;
    eof_ = false;
  }

  bool Next(DocumentText* out, std::optional<Error>* error) {
    if (failed_) return false;
    Drop();
    if (!decided_ && !Decide(error)) return error->has_value();
    while (true) {
      uint64_t end = 0;
      bool found = json_ ? ScanJson(&end) : ScanYaml(&end);
      if (!found && eof_ && !read_failed_) {
        if (json_ && !json_started_) return false;  // white space only
        if (doc_ >= this->end()) return false;
        end = this->end();
        found = true;
      }
      if (found) {
        if (TooLong(end - doc_)) return Fail(error);
        Yield(end, out);
        return true;
      }
      if (TooLong(Known() - doc_)) return Fail(error);
      Drop();
      if (read_failed_ || !ReadMore()) {
        *error = ReadError();
        failed_ = true;
        return true;
      }
    }
  }

  void RereadAsYaml() {
    json_ = false;
    doc_ = last_.offset;
    line_ = last_.line;
    line_start_ = last_.offset - static_cast<uint64_t>(last_.column - 1);
    number_ = last_number_ - 1;
    ResetScan();
  }

  void Release(size_t offset) {
    if (map_ != nullptr) {
      ReleaseMapped(last_.offset + offset);
      return;
    }
    // Whole pages of the buffer below the offset read as zeros from now on; nothing reads them
    // again (Drop moves only what lies after the current document's start).
    const size_t upto = static_cast<size_t>(last_.offset + offset - base_) & ~(PageSize() - 1);
    if (upto > discarded_ && upto <= size_) {
      ::madvise(buf_ + discarded_, upto - discarded_, MADV_DONTNEED);
      discarded_ = upto;
    }
  }

  uint64_t offset() const { return doc_; }
  bool mapped() const { return map_ != nullptr; }

 private:
  uint64_t end() const { return map_ != nullptr ? map_size_ : base_ + size_; }
  const char* At(uint64_t offset) const {
    return map_ != nullptr ? map_ + offset : buf_ + (offset - base_);
  }
  char Byte(uint64_t offset) const { return *At(offset); }
  bool TooLong(uint64_t n) const {
    return options_.max_document_size != 0 && n > options_.max_document_size;
  }

  void Close() {
    if (map_ != nullptr) ::munmap(map_, map_size_);
    map_ = nullptr;
    map_size_ = 0;
    released_ = 0;
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
    fd_ = -1;
    owns_fd_ = false;
    if (buf_ != nullptr) ::munmap(buf_, capacity_);
    buf_ = nullptr;
    size_ = capacity_ = discarded_ = 0;
    base_ = 0;
  }

  // Gives back what lies before the current document.
  void Drop() {
    if (map_ != nullptr) {
      ReleaseMapped(doc_);
      return;
    }
    const uint64_t done = doc_ - base_;
    if (done < (kChunk / 4) || done < size_ / 2) return;
    std::memmove(buf_, buf_ + done, size_ - done);
    size_ -= done;
    base_ = doc_;
    discarded_ = 0;
    // After a large document, the pages it needed go back to the system.
    const size_t keep = RoundToPages(std::max(2 * size_, 2 * kChunk));
    if (capacity_ > 2 * keep) {
      void* p = ::mremap(buf_, capacity_, keep, 0);
      if (p != MAP_FAILED) capacity_ = keep;
    }
  }

  static size_t PageSize() {
    static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    return page;
  }
  static size_t RoundToPages(size_t n) { return (n + PageSize() - 1) & ~(PageSize() - 1); }

  void ReleaseMapped(uint64_t offset) {
    size_t upto = static_cast<size_t>(std::min<uint64_t>(offset, map_size_)) & ~(PageSize() - 1);
    if (upto > released_) {
      ::madvise(map_ + released_, upto - released_, MADV_DONTNEED);
      released_ = upto;
    }
  }

  // Appends the next bytes of the descriptor; false on a read error. Sets eof_ at its end.
  bool ReadMore() {
    if (capacity_ - size_ < kChunk) {
      // Grows by doubling (amortised copies), never far past what the limit lets one document
      // hold, so the buffer stays near the limit whatever the input.
      size_t want = std::max(capacity_ * 2, size_ + kChunk);
      if (options_.max_document_size != 0) {
        want = std::min<uint64_t>(want, options_.max_document_size + 2 * kChunk);
        want = std::max(want, size_ + kChunk);
      }
      // An anonymous mapping: it grows without copying (mremap) and gives back the pages of text
      // already parsed (Release) while offsets stay valid.
      want = RoundToPages(want);
      void* p = buf_ == nullptr ? ::mmap(nullptr, want, PROT_READ | PROT_WRITE,
                                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                : ::mremap(buf_, capacity_, want, MREMAP_MAYMOVE);
      if (p == MAP_FAILED) throw std::bad_alloc();
      buf_ = static_cast<char*>(p);
      capacity_ = want;
    }
    while (true) {
      ssize_t n = ::read(fd_, buf_ + size_, std::min(kChunk, capacity_ - size_));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        read_errno_ = errno;
        read_failed_ = true;
        eof_ = true;
        return false;
      }
      if (n == 0) eof_ = true;
      size_ += static_cast<size_t>(n);
      return true;
    }
  }

  Error ReadError() const {
    Error e;
    e.code = ErrorCode::kIo;
    e.message = "read " + name_ + ": " + ErrnoText(read_errno_);
    return e;
  }

  bool Fail(std::optional<Error>* error) {
    Error e;
    e.code = ErrorCode::kLimitExceeded;
    e.file = name_;
    e.position.line = line_;
    e.position.column = static_cast<int>(doc_ - line_start_) + 1;
    e.position.offset = doc_;
    e.message = "document " + std::to_string(number_ + 1) + " is larger than " +
                SizeText(options_.max_document_size) + " (--max-document-size)";
    e.hint = "split the input, or raise the limit with --max-document-size (0 for none)";
    *error = std::move(e);
    failed_ = true;
    return true;
  }

  // Moves doc_ to `to`, counting the lines it passes.
  void Advance(uint64_t to) {
    uint64_t at = doc_;
    while (at < to) {
      const void* nl = std::memchr(At(at), '\n', to - at);
      if (nl == nullptr) break;
      at = static_cast<uint64_t>(static_cast<const char*>(nl) - At(at)) + at + 1;
      ++line_;
      line_start_ = at;
    }
    doc_ = to;
  }

  // Decides between JSON and YAML from the first character that is not white space (lines of
  // white space only are skipped, without holding them). False with *error unset: the input
  // holds nothing else.
  bool Decide(std::optional<Error>* error) {
    uint64_t at = doc_;
    bool bom = false;
    if (doc_ == 0) {
      while (end() < 3 && !eof_) {
        if (!ReadMore()) {
          *error = ReadError();
          failed_ = true;
          return false;
        }
      }
      bom = end() >= 3 && std::memcmp(At(0), "\xEF\xBB\xBF", 3) == 0;
      if (bom) at = 3;
    }
    while (true) {
      while (at < end() && IsJsonSpace(Byte(at))) {
        if (Byte(at) == '\n') Advance(at + 1);
        ++at;
      }
      if (at < end()) break;
      if (eof_) {
        // Nothing but white space (or a read error, which ReadMore reported already).
        decided_ = true;
        failed_ = true;
        return false;
      }
      if (TooLong(end() - doc_)) {
        Fail(error);
        return false;
      }
      Drop();
      if (!ReadMore()) {
        *error = ReadError();
        failed_ = true;
        return false;
      }
    }
    decided_ = true;
    const char first = Byte(at);
    json_ = options_.format == DocumentFormat::kJson ||
            (options_.format == DocumentFormat::kDetect && (first == '{' || first == '['));
    // A JSON value starts at its first character, a YAML document at the start of its line
    // (after a byte order mark, which the YAML reader would skip).
    if (json_) {
      Advance(at);
    } else if (bom && doc_ == 0) {
      Advance(3);
    }
    ResetScan();
    return true;
  }

  // The end of the bytes known to belong to the document being cut: those before the line whose
  // first bytes may still make it a marker, or before the point a JSON scan has reached. More
  // than the limit of them is an error before the document ends, so memory stays bounded.
  uint64_t Known() const {
    if (json_) return json_started_ ? json_at_ : doc_;
    if (!line_classified_) return std::max(line_at_, marker_checked_ ? blank_at_ : line_at_);
    return std::max(line_at_, newline_at_);
  }

  void ResetScan() {
    line_at_ = doc_;
    line_classified_ = false;
    marker_checked_ = false;
    blank_at_ = doc_;
    newline_at_ = doc_;
    own_marker_ = false;
    prelude_ = true;
    after_end_ = number_ == 0;
    directive_at_ = 0;
    has_directive_ = false;
    json_started_ = false;
    json_at_ = doc_;
    depth_ = 0;
    in_string_ = false;
    scalar_ = false;
  }

  // Finds where the YAML document that starts at doc_ ends: at the next line that starts with a
  // "---" marker and is not the document's own (or at the directives before it). False when
  // more input is needed.
  bool ScanYaml(uint64_t* end_out) {
    while (true) {
      const uint64_t line = line_at_;
      if (!line_classified_) {
        const uint64_t avail = end() - line;
        if (avail < 4 && !eof_) return false;
        // The first bytes are in: a line that waits only for its first non-blank character (to
        // tell blank and comment lines from content) is not a marker, and its bytes belong to
        // the document.
        marker_checked_ = true;
        auto marker = [&](const char* m) {
          if (avail < 3 || std::memcmp(At(line), m, 3) != 0) return false;
          return avail == 3 || EndsMarker(Byte(line + 3));
        };
        // The first character that is not a space or tab decides blank and comment lines.
        uint64_t b = std::max(blank_at_, line);
        while (b < end() && IsBlank(Byte(b))) ++b;
        blank_at_ = b;
        if (b >= end() && !eof_) return false;
        const char first_nonblank = b < end() ? Byte(b) : '\n';
        if (marker("---")) {
          if (line != doc_ && (own_marker_ || !prelude_)) {
            // Directives after a "..." go with the next document; the split point is always
            // past the document's start, so every document holds at least its first line.
            *end_out = has_directive_ && directive_at_ > doc_ ? directive_at_ : line;
            return true;
          }
          own_marker_ = true;
          prelude_ = false;
          after_end_ = false;
          has_directive_ = false;
        } else if (marker("...")) {
          after_end_ = true;
          has_directive_ = false;
        } else if (avail > 0 && Byte(line) == '%') {
          if (after_end_ && !has_directive_) {
            has_directive_ = true;
            directive_at_ = line;
          }
        } else if (first_nonblank != '\n' && first_nonblank != '\r' && first_nonblank != '#') {
          // Content: directives before it were not the next document's.
          if (!own_marker_) prelude_ = false;
          after_end_ = false;
          has_directive_ = false;
        }
        line_classified_ = true;
        newline_at_ = std::max(newline_at_, line);
      }
      if (newline_at_ >= end()) return false;
      const void* nl = std::memchr(At(newline_at_), '\n', end() - newline_at_);
      if (nl == nullptr) {
        newline_at_ = end();
        return false;
      }
      line_at_ =
          static_cast<uint64_t>(static_cast<const char*>(nl) - At(newline_at_)) + newline_at_ + 1;
      newline_at_ = line_at_;
      blank_at_ = line_at_;
      line_classified_ = false;
      marker_checked_ = false;
    }
  }

  // Finds where the JSON value that starts at doc_ (after white space) ends, by a structural
  // scan that builds nothing. Malformed text ends somewhere: the parser reports it. False when
  // more input is needed (or, before a value starts, when there is only white space).
  bool ScanJson(uint64_t* end_out) {
    if (!json_started_) {
      uint64_t at = doc_;
      while (at < end() && IsJsonSpace(Byte(at))) ++at;
      Advance(at);
      if (at >= end()) return false;
      const char first = Byte(at);
      json_started_ = true;
      json_at_ = at;
      if (first == '{' || first == '[' || first == '"') {
        scalar_ = false;
      } else {
        scalar_ = true;
        if (IsJsonDelimiter(first)) {
          *end_out = at + 1;
          return true;
        }
      }
    }
    uint64_t i = json_at_;
    if (scalar_) {
      while (i < end() && !IsJsonDelimiter(Byte(i))) ++i;
      json_at_ = i;
      if (i >= end()) return false;
      *end_out = i;
      return true;
    }
    if (i == doc_) {
      // The opening character.
      if (Byte(i) == '"') {
        in_string_ = true;
      } else {
        depth_ = 1;
      }
      ++i;
    }
    while (i < end()) {
      if (in_string_) {
        const void* q = std::memchr(At(i), '"', end() - i);
        if (q == nullptr) {
          // Stop before a trailing run of backslashes, whose parity later bytes may change.
          uint64_t stop = end();
          while (stop > i && Byte(stop - 1) == '\\') --stop;
          json_at_ = stop;
          return false;
        }
        uint64_t at = static_cast<uint64_t>(static_cast<const char*>(q) - At(i)) + i;
        uint64_t backslashes = 0;
        while (at - backslashes > i && Byte(at - backslashes - 1) == '\\') ++backslashes;
        i = at + 1;
        if (backslashes % 2 == 1) continue;  // an escaped quote
        in_string_ = false;
        if (depth_ == 0) {
          *end_out = i;
          return true;
        }
        continue;
      }
      const char c = Byte(i++);
      if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        ++depth_;
      } else if ((c == '}' || c == ']') && --depth_ == 0) {
        *end_out = i;
        return true;
      }
    }
    json_at_ = i;
    return false;
  }

  void Yield(uint64_t end, DocumentText* out) {
    last_.offset = doc_;
    last_.line = line_;
    last_.column = static_cast<int>(doc_ - line_start_) + 1;
    last_number_ = ++number_;
    out->text = std::string_view(At(doc_), end - doc_);
    out->start = last_;
    out->number = number_;
    out->json = json_;
    Advance(end);
    ResetScan();
  }

  std::string name_;
  DocumentReaderOptions options_;

  // The input: a mapping, or a descriptor read into buf_ (which holds bytes [base_, base_+size_)).
  char* map_ = nullptr;
  size_t map_size_ = 0;
  size_t released_ = 0;
  int fd_ = -1;
  bool owns_fd_ = false;
  bool eof_ = true;
  bool read_failed_ = false;
  int read_errno_ = 0;
  char* buf_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;   // bytes mapped, a multiple of the page size
  size_t discarded_ = 0;  // pages of buf_ below it have been given back (Release)
  uint64_t base_ = 0;

  bool failed_ = false;
  bool decided_ = false;
  bool json_ = false;
  int number_ = 0;           // documents yielded
  uint64_t doc_ = 0;         // where the next document starts
  int line_ = 1;             // the line of doc_
  uint64_t line_start_ = 0;  // the offset where that line starts
  Position last_;            // where the last document yielded starts
  int last_number_ = 0;

  // YAML scan state: the line being looked at and what the document has shown so far.
  uint64_t line_at_ = 0;
  bool line_classified_ = false;
  bool marker_checked_ = false;  // its first bytes are in (see Known)
  uint64_t blank_at_ = 0;        // where the search for the line's first non-blank continues
  uint64_t newline_at_ = 0;      // where the search for the line's end continues
  bool own_marker_ = false;      // the document's "---" has been seen
  bool prelude_ = true;          // only blank, comment and directive lines so far
  bool after_end_ = true;        // directives may follow (start of input, or after "...")
  bool has_directive_ = false;
  uint64_t directive_at_ = 0;  // the first directive line after "..."

  // JSON scan state.
  bool json_started_ = false;
  uint64_t json_at_ = 0;
  size_t depth_ = 0;
  bool in_string_ = false;
  bool scalar_ = false;
};

DocumentReader::DocumentReader(std::string name, DocumentReaderOptions options)
    : impl_(std::make_unique<Impl>(std::move(name), options)) {}
DocumentReader::~DocumentReader() = default;
bool DocumentReader::OpenPath(const std::string& path, std::string* error, ErrorCode* code) {
  return impl_->OpenPath(path, error, code);
}
void DocumentReader::OpenFd(int fd) { impl_->OpenFd(fd); }
bool DocumentReader::Next(DocumentText* out, std::optional<Error>* error) {
  return impl_->Next(out, error);
}
void DocumentReader::RereadAsYaml() { impl_->RereadAsYaml(); }
void DocumentReader::Release(size_t offset) { impl_->Release(offset); }
uint64_t DocumentReader::offset() const { return impl_->offset(); }
bool DocumentReader::mapped() const { return impl_->mapped(); }

}  // namespace wmap
