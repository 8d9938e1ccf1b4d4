// Small helpers of the client layer: whole-file reads and base64 (kubeconfig *-data fields).
#ifndef WMAP_KUBE_FILES_H_
#define WMAP_KUBE_FILES_H_

#include <optional>
#include <string>
#include <string_view>

namespace wmap::kube {

// Reads all of `path` into *out; on failure sets *error ("open PATH: reason") and returns false.
bool ReadFile(const std::string& path, std::string* out, std::string* error);

// Standard base64 (RFC 4648, padding optional, whitespace ignored); nullopt when malformed.
std::optional<std::string> DecodeBase64(std::string_view text);

}  // namespace wmap::kube

#endif  // WMAP_KUBE_FILES_H_
