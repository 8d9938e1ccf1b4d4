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
#include <sys/mman.h>
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

// A read-only view of a whole file: mapped for regular files, else read into memory.
class FileText {
 public:
  FileText() = default;
  ~FileText() { Reset(); }
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;

  bool OpenPath(const std::string& path, std::string* error) {
    Reset();
    int fd = -1;
    if (!OpenForReading(path, &fd, error)) return false;
    struct stat st;
    bool ok = true;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        ::madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
        map_ = p;
        map_size_ = static_cast<size_t>(st.st_size);
        ::close(fd);
        return true;
      }
    }
    std::string read_error;
    ok = ReadWholeFd(fd, &owned_, &read_error);
    ::close(fd);
    if (!ok) *error = "read " + path + ": " + read_error;
    return ok;
  }
  bool OpenFd(int fd, std::string* error) {
    Reset();
    return ReadWholeFd(fd, &owned_, error);
  }
  std::string_view text() const {
    if (map_ != nullptr) return {static_cast<const char*>(map_), map_size_};
    return owned_;
  }
  bool mapped() const { return map_ != nullptr; }
  // Drops the resident pages of a mapped file below offset; they stay readable (a later read
  // brings them back from the file). Does nothing for text read into memory.
  void Release(size_t offset) {
    if (map_ == nullptr) return;
    static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    size_t end = std::min(offset, map_size_) & ~(page - 1);
    if (end > released_) {
      ::madvise(static_cast<char*>(map_) + released_, end - released_, MADV_DONTNEED);
      released_ = end;
    }
  }
  void Reset() {
    if (map_ != nullptr) ::munmap(map_, map_size_);
    map_ = nullptr;
    map_size_ = 0;
    released_ = 0;
    owned_.clear();
    owned_.shrink_to_fit();
  }

 private:
  void* map_ = nullptr;
  size_t map_size_ = 0;
  size_t released_ = 0;
  std::string owned_;
};

// Files from which JSON is read as a large document: repeated subtrees shared, parsed pages of a
// mapped file dropped as the reader moves on (a `kubectl get -o json` list of many workloads).
constexpr size_t kLargeFile = size_t{4} << 20;

// Tracks line/column of offsets that only grow.
class LineCounter {
 public:
  void Reset(std::string_view text) {
    text_ = text;
    offset_ = 0;
    line_ = 1;
    line_start_ = 0;
  }
  Position At(size_t offset) {
    if (offset < offset_) Reset(text_);
    offset = std::min(offset, text_.size());
    while (offset_ < offset) {
      const void* nl = std::memchr(text_.data() + offset_, '\n', offset - offset_);
      if (nl == nullptr) {
        offset_ = offset;
        break;
      }
      offset_ = static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) + 1;
      ++line_;
      line_start_ = offset_;
    }
    Position p;
    p.line = line_;
    p.column = static_cast<int>(offset - line_start_) + 1;
    p.offset = offset;
    return p;
  }

 private:
  std::string_view text_;
  size_t offset_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

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
    std::string error;
    name_ = path == "-" ? "<stdin>" : path;
    bool ok;
    if (path == "-") {
      if (stdin_used_) return std::nullopt;
      stdin_used_ = true;
      ok = text_.OpenFd(options_.stdin_fd, &error);
      if (!ok) error = "read <stdin>: " + error.substr(std::min<size_t>(error.size(), 6));
    } else {
      ok = text_.OpenPath(path, &error);
    }
    if (!ok) {
      Error e;
      e.code = ErrorCode::kIo;
      e.message = error;
      return e;
    }
    std::string_view t = text_.text();
    lines_.Reset(t);
    size_t i = 0;
    if (t.starts_with("\xEF\xBB\xBF")) i = 3;
    while (i < t.size() && IsJsonSpace(t[i])) ++i;
    bool json_ext = path.ends_with(".json");
    json_mode_ = json_ext || (i < t.size() && (t[i] == '{' || t[i] == '['));
    json_may_fall_back_ = !json_ext;
    json::ReadOptions options;
    options.gojq_numbers = options_.numbers_as_written;
    if (t.size() >= kLargeFile && text_.mapped()) {
      options.share_repeated = true;
      options.release_consumed = [this](size_t offset) {
        lines_.At(json_base_ + offset);  // count the lines first: the counter only moves on
        text_.Release(json_base_ + offset);
      };
    }
    json_reader_.emplace(t.substr(i), std::move(options));
    json_base_ = i;
    yaml_reader_.reset();
    if (!json_mode_) yaml_reader_ = MakeYamlReader(t);
    open_ = true;
    first_value_ = true;
    return std::nullopt;
  }

  // Tells the observer how far the stream is; the report with `finished` is made once.
  void Report(bool finished) {
    if (!options_.on_progress || reported_finish_) return;
    reported_finish_ = finished;
    ReadProgress p;
    p.bytes_done = done_bytes_ + CurrentOffset();
    p.bytes_total = total_bytes_;
    p.objects = objects_;
    p.finished = finished;
    options_.on_progress(p);
  }

  size_t CurrentOffset() const {
    if (!open_) return 0;
    if (json_mode_) return json_base_ + json_reader_->offset();
    return yaml_offset_;
  }

  void CloseFile() {
    done_bytes_ += text_.text().size();
    open_ = false;
    yaml_reader_.reset();
    json_reader_.reset();
    text_.Reset();
    yaml_offset_ = 0;
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
    if (json_mode_) {
      size_t t_off = json_reader_->offset();
      std::string_view rest = text_.text().substr(json_base_ + t_off);
      size_t skip = 0;
      while (skip < rest.size() && IsJsonSpace(rest[skip])) ++skip;
      Position start = lines_.At(json_base_ + t_off + skip);
      Value v;
      Error err;
      if (!json_reader_->Next(&v, &err)) {
        CloseFile();
        return std::nullopt;
      }
      if (json_reader_->failed()) {
        if (first_value_ && json_may_fall_back_) {
          // Not JSON after all (a YAML flow document): read it as YAML.
          json_mode_ = false;
          yaml_reader_ = MakeYamlReader(text_.text());
          return std::nullopt;
        }
        err.file = name_;
        if (!err.position.known()) err.position = lines_.At(json_base_ + json_reader_->offset());
        return ParseError(err, "JSON");
      }
      first_value_ = false;
      // Objects are dropped once their rows are made: share only within one document.
      json_reader_->ForgetShared();
      if (v.is_array()) {
        int index = 0;
        for (const Value& item : v.items()) Push(item, start, index++);
      } else {
        Push(std::move(v), start, -1);
      }
      return std::nullopt;
    }
    yaml::Document doc;
    Error err;
    if (!yaml_reader_->Next(&doc, &err)) {
      CloseFile();
      return std::nullopt;
    }
    if (!err.message.empty()) return ParseError(err, "YAML");
    // Documents are dropped once their rows are made: share only within one document.
    yaml_reader_->ForgetShared();
    yaml_offset_ = doc.start.offset;
    Push(std::move(doc.value), doc.start, -1);
    return std::nullopt;
  }

  // A large YAML file shares the repeated subtrees of each document (a `kubectl get -o yaml`
  // list of many workloads).
  std::unique_ptr<yaml::StreamReader> MakeYamlReader(std::string_view text) const {
    yaml::ReadOptions options;
    options.share_repeated = text.size() >= kLargeFile;
    options.numbers_as_written = options_.numbers_as_written;
    return std::make_unique<yaml::StreamReader>(text, options);
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
  FileText text_;
  LineCounter lines_;
  bool json_mode_ = false;
  bool json_may_fall_back_ = false;
  bool first_value_ = true;
  size_t json_base_ = 0;
  std::optional<json::StreamReader> json_reader_;
  std::unique_ptr<yaml::StreamReader> yaml_reader_;
  size_t yaml_offset_ = 0;
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
