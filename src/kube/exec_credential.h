// exec credential plugins (client.authentication.k8s.io/v1 and v1beta1), as client-go runs
// them: the command with its args and env plus KUBERNETES_EXEC_INFO, its standard output an
// ExecCredential whose token or client certificate is used until its expirationTimestamp.
#ifndef WMAP_KUBE_EXEC_CREDENTIAL_H_
#define WMAP_KUBE_EXEC_CREDENTIAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wmap/kube.h"

namespace wmap::kube {

struct ExecCredential {
  std::string token;
  std::string client_certificate_data, client_key_data;  // PEM
  std::optional<int64_t> expires;                        // seconds since the epoch
};

// Parses the plugin's output; `api_version` is the one the kubeconfig asked for.
Result<ExecCredential> ParseExecCredential(std::string_view output, std::string_view api_version,
                                           std::string_view command);

// Seconds since the epoch of an RFC 3339 time ("2026-01-02T03:04:05Z", fractions and offsets
// allowed); nullopt when it is not one.
std::optional<int64_t> ParseRfc3339(std::string_view text);

// Runs the plugin when there is no credential or it has expired, and keeps what it gave.
class ExecCredentialCache {
 public:
  ExecCredentialCache() = default;
  ExecCredentialCache(ExecConfig exec, const ClientConfig& cluster);
  Result<ExecCredential> Get();
  // Forgets the credential (the server refused it).
  void Invalidate() { cached_.reset(); }
  int runs() const { return runs_; }

 private:
  ExecConfig exec_;
  std::string server_, ca_data_, tls_server_name_;
  bool insecure_ = false;
  std::optional<ExecCredential> cached_;
  int runs_ = 0;
};

}  // namespace wmap::kube

#endif  // WMAP_KUBE_EXEC_CREDENTIAL_H_
