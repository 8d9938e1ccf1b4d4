// ObjectReader and Progress: the objects of `-f PATH...`, streamed one document at a time.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/file_reader.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

bool HasObjectExtension(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

std::string HumanBytes(uint64_t n) {
  char buf[32];
  if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(n) / (1 << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f kB", static_cast<double>(n) / 1024);
  }
  return buf;
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
  std::string_view kind = StringField(v, "kind");
  const Value* items = v.find("items");
  return kind.ends_with("List") && items != nullptr && items->is_array();
}

}  // namespace

// ---- Progress ----

Progress::Progress(const CommandIo& io, std::string_view label)
    : fd_(io.err_fd),
      enabled_(::isatty(io.err_fd) == 1),
      label_(label),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { Finish(); }

void Progress::Update(uint64_t bytes_done, uint64_t bytes_total, uint64_t objects) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1)) return;
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  std::string line = "\r\033[K" + label_ + ": " + HumanBytes(bytes_done);
  if (bytes_total > 0) {
    line += " of " + HumanBytes(bytes_total);
    line += " (" + std::to_string(bytes_done * 100 / bytes_total) + "%)";
  }
  line += ", " + std::to_string(objects) + " objects";
  WriteAll(fd_, line);
}

void Progress::Finish() {
  if (shown_) WriteAll(fd_, "\r\033[K");
  shown_ = false;
}

// ---- ObjectReader ----

class ObjectReader::Impl {
 public:
  Impl(std::vector<std::string> paths, const CommandIo& io, bool show_progress)
      : paths_(std::move(paths)), io_(io), progress_(io, "reading") {
    progress_enabled_ = show_progress;
  }

  std::optional<CliError> Open() {
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
        CliError e;
        e.code = ErrorCode::kNotFound;
        e.message = "open " + p + ": no such file or directory";
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
          CliError e;
          e.code = ErrorCode::kIo;
          e.message = "read " + p + ": " + ec.message();
          return e;
        }
        std::sort(found.begin(), found.end());
        for (std::string& f : found) files_.push_back(std::move(f));
        continue;
      }
      files_.push_back(p);
    }
    for (const std::string& f : files_) {
      if (f == "-") continue;
      std::error_code ec;
      uintmax_t size = fs::file_size(f, ec);
      if (!ec) total_bytes_ += size;
    }
    return std::nullopt;
  }

  bool Next(InputObject* out, std::optional<CliError>* error) {
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
        if (progress_enabled_)
          progress_.Update(done_bytes_ + CurrentOffset(), total_bytes_, objects_);
        return true;
      }
      if (open_) {
        std::optional<CliError> e = ReadDocument();
        if (e) {
          *error = std::move(e);
          failed_ = true;
          progress_.Finish();
          return true;
        }
        continue;
      }
      if (next_file_ >= files_.size()) {
        progress_.Finish();
        return false;
      }
      if (std::optional<CliError> e = OpenFile(files_[next_file_++])) {
        *error = std::move(e);
        failed_ = true;
        progress_.Finish();
        return true;
      }
    }
  }

  const std::vector<std::string>& files() const { return files_; }

 private:
  std::optional<CliError> OpenFile(const std::string& path) {
    std::string error;
    name_ = path == "-" ? "<stdin>" : path;
    bool ok;
    if (path == "-") {
      if (stdin_used_) return std::nullopt;
      stdin_used_ = true;
      ok = text_.OpenFd(io_.in_fd, &error);
      if (!ok) error = "read <stdin>: " + error.substr(std::min<size_t>(error.size(), 6));
    } else {
      ok = text_.OpenPath(path, &error);
    }
    if (!ok) {
      CliError e;
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

  CliError ParseError(const Error& err, std::string_view kind) {
    CliError e;
    e.code = ErrorCode::kInvalidInput;
    e.file = name_;
    e.position = err.position;
    std::string message = err.message;
    // The readers prefix "yaml: line L, column C: "; the location is reported separately.
    if (message.starts_with("yaml: line ")) {
      size_t colon = message.find(": ", 11);
      if (colon != std::string::npos) message = message.substr(colon + 2);
    }
    e.message = "invalid " + std::string(kind) + ": " + message;
    e.hint = "fix the file or leave it out of -f";
    return e;
  }

  // Reads the next document of the open file into pending_ (nothing at its end).
  std::optional<CliError> ReadDocument() {
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
  static std::unique_ptr<yaml::StreamReader> MakeYamlReader(std::string_view text) {
    yaml::ReadOptions options;
    options.share_repeated = text.size() >= kLargeFile;
    return std::make_unique<yaml::StreamReader>(text, options);
  }

  void Push(Value v, Position start, int index) {
    if (v.is_null()) return;
    if (index < 0 && IsList(v)) {
      int i = 0;
      for (const Value& item : v.find("items")->items()) Push(item, start, i++);
      return;
    }
    InputObject o;
    o.value = std::move(v);
    o.file = name_;
    o.position = start;
    o.list_index = index;
    pending_.push_back(std::move(o));
  }

  std::vector<std::string> paths_;
  CommandIo io_;
  Progress progress_;
  bool progress_enabled_ = true;
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
  std::deque<InputObject> pending_;
};

ObjectReader::ObjectReader(std::vector<std::string> paths, const CommandIo& io, bool show_progress)
    : impl_(std::make_unique<Impl>(std::move(paths), io, show_progress)) {}
ObjectReader::~ObjectReader() = default;
std::optional<CliError> ObjectReader::Open() { return impl_->Open(); }
bool ObjectReader::Next(InputObject* out, std::optional<CliError>* error) {
  return impl_->Next(out, error);
}
const std::vector<std::string>& ObjectReader::files() const { return impl_->files(); }

std::optional<CliError> ReadAllObjects(const std::vector<std::string>& paths, const CommandIo& io,
                                       std::vector<InputObject>* out) {
  ObjectReader reader(paths, io);
  InputObject o;
  std::optional<CliError> e;
  while (reader.Next(&o, &e)) {
    if (e) return e;
    out->push_back(std::move(o));
  }
  return std::nullopt;
}

}  // namespace wmap::cli
