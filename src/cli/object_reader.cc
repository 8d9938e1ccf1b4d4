// The command's object input: wmap/source.h's stream with progress on a terminal.
#include <cstdio>
#include <string>
#include <utility>

#include <unistd.h>

#include "cli/workload_input.h"

namespace wmap::cli {
namespace {

std::string HumanBytes(uint64_t n) {
  char buf[32];
  if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(n) / (1 << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f kB", static_cast<double>(n) / 1024);
  }
  return buf;
}

}  // namespace

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

namespace {

ObjectStreamOptions StreamOptions(const InputFlags& flags, const CommandIo& io,
                                  Progress* progress) {
  ObjectStreamOptions options;
  options.stdin_fd = io.in_fd;
  options.max_document_size = flags.document_limit;
  options.numbers_as_written = flags.numbers_as_written;
  options.on_progress = [progress](const ReadProgress& p) {
    if (p.finished) {
      progress->Finish();
    } else {
      progress->Update(p.bytes_done, p.bytes_total, p.objects);
    }
  };
  return options;
}

}  // namespace

// progress_ is declared before stream_, so the stream's callback never outlives it.
ObjectReader::ObjectReader(const InputFlags& flags, const CommandIo& io)
    : progress_(io, "reading"), stream_(flags.files, StreamOptions(flags, io, &progress_)) {}

bool ObjectReader::Next(SourceObject* out, std::optional<Error>* error) {
  std::optional<Error> e;
  bool more = stream_.Next(out, &e);
  if (e) *error = *e;
  return more;
}

std::optional<Error> ReadAllObjects(const InputFlags& flags, const CommandIo& io,
                                    std::vector<SourceObject>* out) {
  Progress progress(io, "reading");
  ObjectStreamOptions options = StreamOptions(flags, io, &progress);
  if (std::optional<Error> e = wmap::ReadAllObjects(flags.files, options, out)) {
    return *e;
  }
  return std::nullopt;
}

}  // namespace wmap::cli
