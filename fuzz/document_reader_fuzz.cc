// libFuzzer target for DocumentReader (wmap/source.h): an input cut into documents.
//
// Properties checked on every input, read from a mapped file and from a pipe, in each format:
//  - reading ends (no document is empty, so every call moves on);
//  - the documents are pieces of the input in order, without overlap, and each starts where its
//    position says;
//  - the pipe and the mapped file give the same documents (with a limit, the same as far as
//    both read);
//  - with a limit, no document is longer than the limit, and the error names a line.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/source.h"

namespace {

void CheckAt(bool condition, const char* what, int line) {
  if (condition) return;
  std::fprintf(stderr, "check failed at line %d: %s\n", line, what);
  std::abort();
}
#define Check(condition) CheckAt((condition), #condition, __LINE__)

struct Piece {
  std::string text;
  size_t offset;
  int line;
};

std::vector<Piece> Read(wmap::DocumentReader* reader, std::string_view input, uint64_t limit) {
  std::vector<Piece> out;
  wmap::DocumentText d;
  std::optional<wmap::Error> error;
  size_t next = 0;
  while (reader->Next(&d, &error)) {
    if (error) {
      Check(error->position.line >= 1 || error->code == wmap::ErrorCode::kIo);
      break;
    }
    Check(d.start.offset >= next);
    Check(d.start.offset + d.text.size() <= input.size());
    Check(input.substr(d.start.offset, d.text.size()) == d.text);
    Check(limit == 0 || d.text.size() <= limit);
    int line = 1;
    for (size_t i = 0; i < d.start.offset; ++i) line += input[i] == '\n';
    Check(d.start.line == line);
    next = d.start.offset + d.text.size();
    Check(!d.text.empty());
    out.push_back({std::string(d.text), d.start.offset, d.start.line});
    Check(out.size() <= input.size() + 1);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 60000) return 0;  // what a pipe holds without a reader
  std::string_view input(reinterpret_cast<const char*>(data), size);
  for (wmap::DocumentFormat format :
       {wmap::DocumentFormat::kDetect, wmap::DocumentFormat::kYaml, wmap::DocumentFormat::kJson}) {
    for (uint64_t limit : {uint64_t{0}, uint64_t{16}}) {
      wmap::DocumentReaderOptions options{.format = format, .max_document_size = limit};
      int file = ::memfd_create("document_reader_fuzz", 0);
      Check(file >= 0);
      Check(::write(file, data, size) == static_cast<ssize_t>(size));
      wmap::DocumentReader mapped("input", options);
      std::string error;
      Check(mapped.OpenPath("/proc/self/fd/" + std::to_string(file), &error));
      std::vector<Piece> a = Read(&mapped, input, limit);
      ::close(file);

      int fds[2];
      Check(::pipe(fds) == 0);
      Check(::write(fds[1], data, size) == static_cast<ssize_t>(size));
      ::close(fds[1]);
      wmap::DocumentReader piped("<stdin>", options);
      piped.OpenFd(fds[0]);
      std::vector<Piece> b = Read(&piped, input, limit);
      ::close(fds[0]);
      // Without a limit both read the same documents. With one, a pipe may stop earlier: a
      // line of blanks longer than the limit is refused before it is known whether content
      // follows; what both read is the same.
      Check(limit != 0 || a.size() == b.size());
      for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        Check(a[i].text == b[i].text && a[i].offset == b[i].offset && a[i].line == b[i].line);
      }
    }
  }
  return 0;
}
