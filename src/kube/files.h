// Small helpers of the client layer: whole-file reads, base64 (kubeconfig *-data fields) and
// ASCII lower case (resource names).
#ifndef WMAP_KUBE_FILES_H_
#define WMAP_KUBE_FILES_H_

#include <optional>
#include <string>
#include <string_view>

namespace wmap::kube {

// Reads all of `path` into *out; on failure sets *error ("open PATH: reason") and returns false.
bool ReadFile(const std::string& path, std::string* out, std::string* error);

// Standard base64 (RFC 4648, padding optional, line breaks ignored); nullopt when malformed.
std::optional<std::string> DecodeBase64(std::string_view text);

// `s` with ASCII letters in lower case.
std::string Lower(std::string_view s);

}  // namespace wmap::kube

#endif  // WMAP_KUBE_FILES_H_
