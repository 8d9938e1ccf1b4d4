// ObjectStream: the objects of files, folders and standard input, one document at a time.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wmap/json.h"
#include "wmap/meta.h"
#include "wmap/source.h"
#include "wmap/text.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

bool HasObjectExtension(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// Documents from which JSON and YAML are read as large documents: repeated subtrees shared,
// parsed pages of a mapped file given back as the reader moves on (a `kubectl get -o json` list
// of many workloads).
constexpr size_t kLargeDocument = size_t{4} << 20;

// A `kind: List` or `kind: *List` with an items array.
bool IsList(const Value& v) {
  std::string_view kind = meta::StringField(v, "kind");
  const Value* items = v.find("items");
  return kind.ends_with("List") && items != nullptr && items->is_array();
}

}  // namespace

class ObjectStream::Impl {
 public:
  Impl(std::vector<std::string> paths, ObjectStreamOptions options)
      : paths_(std::move(paths)), options_(std::move(options)) {}

  // False for a file already listed: the same file named twice, or reached again through a
  // link in a folder, is read once.
  bool FirstTime(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return true;  // reading it reports the problem
    return seen_.emplace(st.st_dev, st.st_ino).second;
  }

  std::optional<Error> Open() {
    if (opened_) return std::nullopt;
    opened_ = true;
    for (const std::string& p : paths_) {
      if (p == "-") {
        files_.push_back(p);
        continue;
      }
      std::error_code ec;
      fs::file_status st = fs::status(p, ec);
      if (ec || !fs::exists(st)) {
        Error e;
        e.code = ErrorCode::kNotFound;
        e.message = "open " + text::EscapeForTerminal(p) + ": no such file or directory";
        return e;
      }
      if (fs::is_directory(st)) {
        std::vector<std::string> found;
        for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
          if (it->is_regular_file(ec) && HasObjectExtension(it->path())) {
            found.push_back(it->path().string());
          }
        }
        if (ec) {
          Error e;
          e.code = ErrorCode::kIo;
          e.message = "read " + p + ": " + ec.message();
          return e;
        }
        std::sort(found.begin(), found.end());
        for (std::string& f : found) {
          if (FirstTime(f)) files_.push_back(std::move(f));
        }
        continue;
      }
      if (FirstTime(p)) files_.push_back(p);
    }
    for (const std::string& f : files_) {
      if (f == "-") continue;
      std::error_code ec;
      uintmax_t size = fs::file_size(f, ec);
      if (!ec) total_bytes_ += size;
    }
    return std::nullopt;
  }

  bool Next(SourceObject* out, std::optional<Error>* error) {
    if (!opened_) {
      if (auto e = Open()) {
        *error = std::move(e);
        failed_ = true;
        return true;
      }
    }
    if (failed_) return false;
    while (true) {
      if (!pending_.empty()) {
        *out = std::move(pending_.front());
        pending_.pop_front();
        ++objects_;
        Report(false);
        return true;
      }
      if (open_) {
        std::optional<Error> e = ReadDocument();
        if (e) {
          *error = std::move(e);
          failed_ = true;
          Report(true);
          return true;
        }
        continue;
      }
      if (next_file_ >= files_.size()) {
        Report(true);
        return false;
      }
      if (std::optional<Error> e = OpenFile(files_[next_file_++])) {
        *error = std::move(e);
        failed_ = true;
        Report(true);
        return true;
      }
    }
  }

  const std::vector<std::string>& files() const { return files_; }

 private:
  std::optional<Error> OpenFile(const std::string& path) {
    name_ = path == "-" ? "<stdin>" : path;
    DocumentReaderOptions options;
    options.format = path.ends_with(".json") ? DocumentFormat::kJson : DocumentFormat::kDetect;
    options.max_document_size = options_.max_document_size;
    json_may_fall_back_ = options.format == DocumentFormat::kDetect;
    documents_.emplace(name_, options);
    if (path == "-") {
      if (stdin_used_) {
        documents_.reset();
        return std::nullopt;
      }
      stdin_used_ = true;
      documents_->OpenFd(options_.stdin_fd);
    } else {
      std::string error;
      if (!documents_->OpenPath(path, &error)) {
        documents_.reset();
        Error e;
        e.code = ErrorCode::kIo;
        e.message = error;
        return e;
      }
    }
    open_ = true;
    first_value_ = true;
    return std::nullopt;
  }

  // Tells the observer how far the stream is; the report with `finished` is made once.
  void Report(bool finished) {
    if (!options_.on_progress || reported_finish_) return;
    reported_finish_ = finished;
    ReadProgress p;
    p.bytes_done = done_bytes_ + (open_ ? documents_->offset() : 0);
    p.bytes_total = total_bytes_;
    p.objects = objects_;
    p.finished = finished;
    options_.on_progress(p);
  }

  void CloseFile() {
    done_bytes_ += documents_->offset();
    open_ = false;
    documents_.reset();
  }

  Error ParseError(const Error& err, std::string_view kind) {
    Error e;
    e.code = ErrorCode::kInvalidInput;
    e.file = name_;
    e.position = err.position;
    // The location is reported separately.
    e.message = "invalid " + std::string(kind) + ": " + yaml::ErrorWithoutLocation(err);
    e.hint = "fix the file or leave it out of -f";
    return e;
  }

  // Reads the next document of the open file into pending_ (nothing at its end).
  std::optional<Error> ReadDocument() {
    DocumentText doc;
    std::optional<Error> read_error;
    if (!documents_->Next(&doc, &read_error)) {
      CloseFile();
      return std::nullopt;
    }
    if (read_error) return read_error;
    const bool first = first_value_;
    first_value_ = false;
    if (doc.json) return ReadJson(doc, first);
    if (doc.Empty()) return std::nullopt;  // null, which holds no object
    yaml::ReadOptions options;
    // A large document shares its repeated subtrees (a `kubectl get -o yaml` list of many
    // workloads).
    options.share_repeated = doc.text.size() >= kLargeDocument;
    options.numbers_as_written = options_.numbers_as_written;
    yaml::StreamReader reader(doc.text, options);
    yaml::Document parsed;
    Error err;
    while (reader.Next(&parsed, &err)) {
      if (!err.message.empty()) {
        doc.Locate(&err);
        return ParseError(err, "YAML");
      }
      Push(std::move(parsed.value), doc.Locate(parsed.start), -1);
      parsed = yaml::Document{};
    }
    // The text is no longer needed while the document's objects are used.
    documents_->Release(doc.text.size());
    return std::nullopt;
  }

  std::optional<Error> ReadJson(const DocumentText& doc, bool first) {
    json::ReadOptions options;
    options.gojq_numbers = options_.numbers_as_written;
    // Text given back cannot be read again as YAML: a value that fails after that is a JSON
    // error (YAML flow text fails at its first unquoted key, long before).
    bool released = false;
    if (doc.text.size() >= kLargeDocument) {
      options.share_repeated = true;
      options.release_consumed = [this, &released](size_t offset) {
        released = true;
        documents_->Release(offset);
      };
    }
    json::StreamReader reader(doc.text, std::move(options));
    Value v;
    Error err;
    if (!reader.Next(&v, &err)) return std::nullopt;
    if (reader.failed()) {
      if (first && json_may_fall_back_ && (!released || documents_->mapped())) {
        // Not JSON after all (a YAML flow document): read it as YAML.
        documents_->RereadAsYaml();
        first_value_ = true;
        return std::nullopt;
      }
      if (!err.position.known()) err.position = PositionAt(doc.text, reader.offset());
      doc.Locate(&err);
      return ParseError(err, "JSON");
    }
    documents_->Release(doc.text.size());
    Position start{1, 1, 0};
    if (v.is_array()) {
      int index = 0;
      for (const Value& item : v.items()) Push(item, doc.Locate(start), index++);
    } else {
      Push(std::move(v), doc.Locate(start), -1);
    }
    return std::nullopt;
  }

  // The line and column of an offset of text.
  static Position PositionAt(std::string_view text, size_t offset) {
    offset = std::min(offset, text.size());
    Position p;
    p.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
    size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    line_start = line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1;
    p.column = static_cast<int>(offset - line_start) + 1;
    p.offset = offset;
    return p;
  }

  void Push(Value v, Position start, int index) {
    if (v.is_null()) return;
    if (index < 0 && IsList(v)) {
      int i = 0;
      for (const Value& item : v.find("items")->items()) Push(item, start, i++);
      return;
    }
    SourceObject o;
    o.value = std::move(v);
    o.file = name_;
    o.position = start;
    o.list_index = index;
    pending_.push_back(std::move(o));
  }

  std::vector<std::string> paths_;
  ObjectStreamOptions options_;
  bool reported_finish_ = false;
  std::set<std::pair<dev_t, ino_t>> seen_;
  bool opened_ = false;
  bool failed_ = false;
  std::vector<std::string> files_;
  size_t next_file_ = 0;
  bool stdin_used_ = false;
  uint64_t total_bytes_ = 0;
  uint64_t done_bytes_ = 0;
  uint64_t objects_ = 0;

  bool open_ = false;
  std::string name_;
  std::optional<DocumentReader> documents_;  // the open file's
  bool json_may_fall_back_ = false;
  bool first_value_ = true;
  std::deque<SourceObject> pending_;
};

ObjectStream::ObjectStream(std::vector<std::string> paths, ObjectStreamOptions options)
    : impl_(std::make_unique<Impl>(std::move(paths), std::move(options))) {}
ObjectStream::~ObjectStream() = default;
std::optional<Error> ObjectStream::Open() { return impl_->Open(); }
bool ObjectStream::Next(SourceObject* out, std::optional<Error>* error) {
  return impl_->Next(out, error);
}
const std::vector<std::string>& ObjectStream::files() const { return impl_->files(); }

std::optional<Error> ReadAllObjects(const std::vector<std::string>& paths,
                                    const ObjectStreamOptions& options,
                                    std::vector<SourceObject>* out) {
  ObjectStream reader(paths, options);
  SourceObject o;
  std::optional<Error> e;
  while (reader.Next(&o, &e)) {
    if (e) return e;
    out->push_back(std::move(o));
  }
  return std::nullopt;
}

}  // namespace wmap
