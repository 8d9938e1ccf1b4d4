// Whole-file reads for the command line: one allocation sized from fstat and large read()
// calls for regular files, 1 MiB chunks for pipes and terminals.
#ifndef WMAP_CLI_FILE_READER_H_
#define WMAP_CLI_FILE_READER_H_

#include <string>

namespace wmap::cli {

// Reads all of `path` into *out. On failure returns false and sets *error to Go's wording
// ("open testdata/6.json: no such file or directory").
bool ReadWholeFile(const std::string& path, std::string* out, std::string* error);
// Opens `path` for reading (not a directory); on failure sets *error as ReadWholeFile does.
bool OpenForReading(const std::string& path, int* fd, std::string* error);
// Go's wording of an errno value: strerror with a lower-case first letter.
std::string ErrnoText(int err);
// Reads all of a file descriptor (standard input) into *out.
bool ReadWholeFd(int fd, std::string* out, std::string* error);

}  // namespace wmap::cli

#endif  // WMAP_CLI_FILE_READER_H_
