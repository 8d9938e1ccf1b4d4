#include "kube/exec_credential.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "wmap/json.h"

extern char** environ;

namespace wmap::kube {
namespace {

std::string Str(const Value& object, std::string_view key) {
  const Value* v = object.find(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::string Base64(std::string_view data) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) | (static_cast<uint8_t>(data[i + 1]) << 8) |
                 static_cast<uint8_t>(data[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kDigits[(n >> s) & 63]);
  }
  if (i + 1 == data.size()) {
    uint32_t n = static_cast<uint8_t>(data[i]) << 16;
    out += {kDigits[(n >> 18) & 63], kDigits[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == data.size()) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) | (static_cast<uint8_t>(data[i + 1]) << 8);
    out += {kDigits[(n >> 18) & 63], kDigits[(n >> 12) & 63], kDigits[(n >> 6) & 63], '='};
  }
  return out;
}

int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<int64_t> ParseRfc3339(std::string_view t) {
  if (t.size() < 20 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != 't') ||
      t[13] != ':' || t[16] != ':') {
    return std::nullopt;
  }
  auto num = [&](size_t at, size_t n) -> int {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (t[i] < '0' || t[i] > '9') return -1;
      v = v * 10 + (t[i] - '0');
    }
    return v;
  };
  std::tm tm{};
  int parts[6] = {num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)};
  for (int p : parts) {
    if (p < 0) return std::nullopt;
  }
  tm.tm_year = parts[0] - 1900;
  tm.tm_mon = parts[1] - 1;
  tm.tm_mday = parts[2];
  tm.tm_hour = parts[3];
  tm.tm_min = parts[4];
  tm.tm_sec = parts[5];
  size_t i = 19;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  }
  int64_t offset = 0;
  if (i < t.size() && (t[i] == 'Z' || t[i] == 'z')) {
    ++i;
  } else if (i + 6 == t.size() && (t[i] == '+' || t[i] == '-') && t[i + 3] == ':') {
    int h = num(i + 1, 2), m = num(i + 4, 2);
    if (h < 0 || m < 0) return std::nullopt;
    offset = (t[i] == '+' ? 1 : -1) * (h * 3600 + m * 60);
    i += 6;
  } else {
    return std::nullopt;
  }
  if (i != t.size()) return std::nullopt;
  return static_cast<int64_t>(timegm(&tm)) - offset;
}

Result<ExecCredential> ParseExecCredential(std::string_view output, std::string_view api_version,
                                           std::string_view command) {
  const std::string who = "exec plugin " + std::string(command);
  Result<Value> doc = json::Parse(output);
  if (!doc.ok() || !doc->is_object()) {
    return Error::Of(ErrorCode::kInvalidInput,
                     who + ": its output is not an ExecCredential JSON object",
                     "run the plugin by hand to see what it prints");
  }
  if (Str(*doc, "kind") != "ExecCredential" || Str(*doc, "apiVersion") != api_version) {
    return Error::Of(ErrorCode::kInvalidInput,
                     who + ": expected kind ExecCredential of apiVersion " +
                         std::string(api_version) + ", got " + Str(*doc, "apiVersion") + " " +
                         Str(*doc, "kind"),
                     "the kubeconfig's exec.apiVersion must be the one the plugin writes");
  }
  const Value* status = doc->find("status");
  if (status == nullptr || !status->is_object()) {
    return Error::Of(ErrorCode::kInvalidInput, who + ": the ExecCredential has no status");
  }
  ExecCredential c;
  c.token = Str(*status, "token");
  c.client_certificate_data = Str(*status, "clientCertificateData");
  c.client_key_data = Str(*status, "clientKeyData");
  if (c.token.empty() && c.client_certificate_data.empty()) {
    return Error::Of(ErrorCode::kInvalidInput,
                     who + ": the ExecCredential has neither a token nor a client certificate");
  }
  if (c.client_certificate_data.empty() != c.client_key_data.empty()) {
    return Error::Of(ErrorCode::kInvalidInput,
                     who + ": clientCertificateData and clientKeyData go together");
  }
  std::string expiry = Str(*status, "expirationTimestamp");
  if (!expiry.empty()) {
    c.expires = ParseRfc3339(expiry);
    if (!c.expires) {
      return Error::Of(ErrorCode::kInvalidInput,
                       who + ": expirationTimestamp \"" + expiry + "\" is not an RFC 3339 time");
    }
  }
  return c;
}

ExecCredentialCache::ExecCredentialCache(ExecConfig exec, const ClientConfig& cluster)
    : exec_(std::move(exec)),
      server_(cluster.server),
      ca_data_(cluster.ca_data),
      tls_server_name_(cluster.tls_server_name),
      insecure_(cluster.insecure_skip_tls_verify) {}

Result<ExecCredential> ExecCredentialCache::Get() {
  if (cached_ && (!cached_->expires || *cached_->expires > NowSeconds())) return *cached_;
  cached_.reset();
  // KUBERNETES_EXEC_INFO: what the plugin may read about the request.
  Value spec = Value::EmptyObject();
  spec.set("interactive", Value::Bool(false));
  if (exec_.provide_cluster_info) {
    Value cluster = Value::EmptyObject();
    cluster.set("server", Value::String(server_));
    if (!tls_server_name_.empty()) cluster.set("tls-server-name", Value::String(tls_server_name_));
    if (insecure_) cluster.set("insecure-skip-tls-verify", Value::Bool(true));
    if (!ca_data_.empty()) {
      cluster.set("certificate-authority-data", Value::String(Base64(ca_data_)));
    }
    spec.set("cluster", std::move(cluster));
  }
  Value info = Value::Object({{"apiVersion", Value::String(exec_.api_version)},
                              {"kind", Value::String("ExecCredential")},
                              {"spec", std::move(spec)}});
  std::vector<std::string> env_strings;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& [name, value] : exec_.env) env_strings.push_back(name + "=" + value);
  env_strings.push_back("KUBERNETES_EXEC_INFO=" + json::ToCompactString(info));
  std::vector<std::string> argv_strings = {exec_.command};
  argv_strings.insert(argv_strings.end(), exec_.args.begin(), exec_.args.end());
  std::vector<char*> argv, envp;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return Error::Of(ErrorCode::kIo, "exec plugin: pipe: " + std::string(std::strerror(errno)));
  }
  Fd read_end{pipe_fds[0]}, write_end{pipe_fds[1]};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, 1);
  if (exec_.interactive_mode != "Always") {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  pid_t pid = 0;
  // The command is looked up on PATH, as client-go's exec.LookPath does.
  int rc = posix_spawnp(&pid, exec_.command.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(write_end.fd);
  write_end.fd = -1;
  if (rc != 0) {
    std::string hint = exec_.install_hint.empty()
                           ? "install it or fix users[].user.exec.command in the kubeconfig"
                           : exec_.install_hint;
    return Error::Of(ErrorCode::kIo,
                     "exec plugin: cannot run \"" + exec_.command + "\": " + std::strerror(rc),
                     hint);
  }
  ++runs_;
  std::string output;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(read_end.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(buf, static_cast<size_t>(n));
    if (output.size() > (size_t{16} << 20)) break;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string how =
        WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status)) : "a signal";
    return Error::Of(ErrorCode::kUnauthorized,
                     "exec plugin \"" + exec_.command + "\" failed with " + how,
                     "its messages are above; run it by hand to see why");
  }
  Result<ExecCredential> credential = ParseExecCredential(output, exec_.api_version, exec_.command);
  if (!credential.ok()) return credential.error();
  cached_ = *credential;
  return credential;
}

}  // namespace wmap::kube
