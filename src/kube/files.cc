#include "kube/files.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "wmap/text.h"

namespace wmap::kube {

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string reason = std::strerror(errno);
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(reason[0]));
    *error = "open " + path + ": " + reason;
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *out = std::move(buffer).str();
  return true;
}

std::optional<std::string> DecodeBase64(std::string_view text) {
  // Padded text decodes as Go's StdEncoding (how client-go reads these fields), unpadded text as
  // RawStdEncoding.
  const bool padded = text.find('=') != std::string_view::npos;
  std::string out;
  if (!text::DecodeBase64(text, padded, &out)) return std::nullopt;
  return out;
}

std::string Lower(std::string_view s) { return text::AsciiLower(s); }

}  // namespace wmap::kube
