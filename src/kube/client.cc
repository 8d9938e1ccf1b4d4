// The HTTP side of the client: one libcurl easy handle per Client (so connections, TLS sessions
// and HTTP/2 streams are reused between requests), TLS from the kubeconfig, bearer tokens and
// exec credentials, retries with backoff, a bound on response size.
#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "kube/exec_credential.h"
#include "kube/files.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* s) const { curl_slist_free_all(s); }
};
using CurlPtr = std::unique_ptr<CURL, CurlDeleter>;
using SlistPtr = std::unique_ptr<curl_slist, SlistDeleter>;

// curl_global_init is not thread-safe; it runs once per process.
void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// scheme://host[:port]/path split, host without brackets kept as written.
struct ServerUrl {
  std::string scheme, host, port, path;
};
ServerUrl SplitServer(const std::string& server) {
  ServerUrl u;
  size_t p = server.find("://");
  u.scheme = server.substr(0, p);
  std::string rest = server.substr(p + 3);
  size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  if (slash != std::string::npos) u.path = rest.substr(slash);
  size_t colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']', colon) == std::string::npos) {
    u.host = authority.substr(0, colon);
    u.port = authority.substr(colon + 1);
  } else {
    u.host = authority;
  }
  if (u.port.empty()) u.port = u.scheme == "http" ? "80" : "443";
  return u;
}

// The transport failure `code` of a request to `server`, worded with what to check.
Error TransportError(CURLcode code, const std::string& detail, const ClientConfig& config,
                     std::chrono::milliseconds timeout) {
  const std::string& server = config.server;
  const std::string why = detail.empty() ? curl_easy_strerror(code) : detail;
  const std::string cluster =
      config.cluster_name.empty() ? "" : " of cluster \"" + config.cluster_name + "\"";
  Error e;
  e.code = ErrorCode::kUnreachable;
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
      e.message = "cannot reach the API server " + server + ": DNS lookup failed (" + why + ")";
      e.hint = "check the server address" + cluster + " in the kubeconfig, or --server";
      break;
    case CURLE_COULDNT_CONNECT:
      e.message = "cannot connect to the API server " + server + ": " + why;
      e.hint = "is the cluster running? check the server address and port" + cluster;
      break;
    case CURLE_PEER_FAILED_VERIFICATION:
      e.message = "TLS verification of the API server " + server + " failed: " + why;
      if (why.find("subject name") != std::string::npos) {
        e.hint =
            "the server's certificate is not for this host name: pass --tls-server-name "
            "NAME (a name in its certificate) or fix the server address";
      } else {
        e.hint =
            "the server's certificate is not signed by the CA this client trusts: check "
            "certificate-authority(-data)" +
            cluster +
            " or --certificate-authority (--insecure-skip-tls-verify skips the check, "
            "unsafe)";
      }
      break;
    case CURLE_SSL_CACERT_BADFILE:
      e.message = "cannot read the CA certificates for " + server + ": " + why;
      e.hint = "certificate-authority" + cluster + " must be a PEM file of CA certificates";
      break;
    case CURLE_SSL_CERTPROBLEM:
      e.message = "cannot use the client certificate for " + server + ": " + why;
      e.hint = "client-certificate(-data) and client-key(-data) of user \"" + config.user_name +
               "\" must be a PEM certificate and its key";
      break;
    case CURLE_SSL_CONNECT_ERROR:
      e.message = "TLS handshake with the API server " + server + " failed: " + why;
      e.hint = "is " + server +
               " an HTTPS endpoint of the API server? a client certificate it "
               "refuses ends the handshake too";
      break;
    case CURLE_OPERATION_TIMEDOUT:
      e.message = "request to the API server " + server + " timed out" +
                  (timeout.count() > 0 ? " after " + std::to_string(timeout.count()) + "ms" : "") +
                  ": " + why;
      e.hint = "the server is slow or unreachable: try again or raise --request-timeout";
      break;
    case CURLE_WRITE_ERROR:
      e.code = ErrorCode::kLimitExceeded;
      e.message = "the response of " + server + " is larger than the client accepts";
      e.hint = "list in smaller pages (--chunk-size)";
      break;
    default:
      e.message = "request to the API server " + server + " failed: " + why;
      e.hint = "check the server address" + cluster + " and the network";
  }
  return e;
}

// Failures of the connection itself that another attempt can get past.
bool RetryableTransport(CURLcode code) {
  return code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR || code == CURLE_GOT_NOTHING ||
         code == CURLE_PARTIAL_FILE || code == CURLE_HTTP2 || code == CURLE_HTTP2_STREAM;
}

}  // namespace

// The curl handle and what must outlive each request.
class Client::Handle {
 public:
  CurlPtr curl;
  std::string error_buffer = std::string(CURL_ERROR_SIZE, '\0');
  SlistPtr connect_to;
  ExecCredentialCache exec;
  SlistPtr headers;  // of the current request
  // The current response.
  Response response;
  size_t max_bytes = 0;
  bool too_large = false;
  // Streaming (Client::Stream): a 200 answer goes to on_line a line at a time; `stopped` says
  // that on_line or *stop ended the transfer.
  const std::function<bool(std::string_view)>* on_line = nullptr;
  const std::atomic<bool>* stop = nullptr;
  std::string line;
  bool stopped = false;

  // Delivers the complete lines of `data` to on_line; false when the transfer is to end.
  bool StreamLines(std::string_view data) {
    size_t start = 0;
    for (size_t i = 0; i < data.size(); ++i) {
      if (data[i] != '\n') continue;
      line.append(data.substr(start, i - start));
      start = i + 1;
      if (!line.empty() && !(*on_line)(line)) {
        stopped = true;
        return false;
      }
      line.clear();
    }
    line.append(data.substr(start));
    if (line.size() > max_bytes) {
      too_large = true;
      return false;
    }
    return true;
  }

  static size_t Write(char* data, size_t size, size_t count, void* self) {
    auto* h = static_cast<Handle*>(self);
    const size_t n = size * count;
    if (h->on_line != nullptr) {
      long status = 0;
      curl_easy_getinfo(h->curl.get(), CURLINFO_RESPONSE_CODE, &status);
      if (status == 200) return h->StreamLines(std::string_view(data, n)) ? n : 0;
    }
    if (h->response.body.size() + n > h->max_bytes) {
      h->too_large = true;
      return 0;
    }
    h->response.body.append(data, n);
    return n;
  }
  static size_t Header(char* data, size_t size, size_t count, void* self) {
    auto* h = static_cast<Handle*>(self);
    const size_t n = size * count;
    std::string_view line(data, n);
    size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string name = Lower(line.substr(0, colon));
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
        value.remove_prefix(1);
      }
      while (!value.empty() &&
             (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
        value.remove_suffix(1);
      }
      if (name == "content-type") h->response.content_type = std::string(value);
      if (name == "retry-after") h->response.retry_after = std::string(value);
    }
    return n;
  }
  // Progress callback while streaming: a non-zero answer aborts the transfer.
  static int Progress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* h = static_cast<Handle*>(self);
    if (h->stop != nullptr && h->stop->load()) {
      h->stopped = true;
      return 1;
    }
    return 0;
  }
};

Client::Client(ClientConfig config, ClientOptions options)
    : config_(std::move(config)), options_(std::move(options)) {}

Client::~Client() = default;

Result<std::unique_ptr<Client>> Client::Create(ClientConfig config, ClientOptions options) {
  GlobalInit();
  if (options.user_agent.empty()) options.user_agent = "wmap";
  if (!options.sleep) {
    options.sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  }
  std::unique_ptr<Client> client(new Client(std::move(config), std::move(options)));
  auto handle = std::make_unique<Handle>();
  handle->curl.reset(curl_easy_init());
  if (!handle->curl) return Error::Of(ErrorCode::kInternal, "curl_easy_init failed");
  const ClientConfig& c = client->config_;
  CURL* h = handle->curl.get();
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, handle->error_buffer.data());
  curl_easy_setopt(h, CURLOPT_USERAGENT, client->options_.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &Handle::Write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, handle.get());
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &Handle::Header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, handle.get());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  if (client->options_.request_timeout.count() > 0) {
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                     static_cast<long>(client->options_.request_timeout.count()));
  }
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 30000L);
  if (c.insecure_skip_tls_verify) {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  // Blobs are copied by curl (CURL_BLOB_COPY).
  auto blob = [&](CURLoption option, const std::string& pem) {
    curl_blob b{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
    curl_easy_setopt(h, option, &b);
  };
  if (!c.ca_data.empty()) {
    blob(CURLOPT_CAINFO_BLOB, c.ca_data);
  } else if (!c.ca_file.empty()) {
    curl_easy_setopt(h, CURLOPT_CAINFO, c.ca_file.c_str());
  }
  if (!c.client_cert_data.empty()) {
    blob(CURLOPT_SSLCERT_BLOB, c.client_cert_data);
  } else if (!c.client_cert_file.empty()) {
    curl_easy_setopt(h, CURLOPT_SSLCERT, c.client_cert_file.c_str());
  }
  if (!c.client_key_data.empty()) {
    blob(CURLOPT_SSLKEY_BLOB, c.client_key_data);
  } else if (!c.client_key_file.empty()) {
    curl_easy_setopt(h, CURLOPT_SSLKEY, c.client_key_file.c_str());
  }
  if (!c.username.empty()) {
    curl_easy_setopt(h, CURLOPT_USERNAME, c.username.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, c.password.c_str());
  }
  if (!c.proxy_url.empty()) curl_easy_setopt(h, CURLOPT_PROXY, c.proxy_url.c_str());
  if (!c.tls_server_name.empty()) {
    // Requests name tls_server_name (SNI and certificate check) and connect to the server.
    ServerUrl u = SplitServer(c.server);
    std::string rule = c.tls_server_name + ":" + u.port + ":" + u.host + ":" + u.port;
    handle->connect_to.reset(curl_slist_append(nullptr, rule.c_str()));
    curl_easy_setopt(h, CURLOPT_CONNECT_TO, handle->connect_to.get());
  }
  if (c.exec) handle->exec = ExecCredentialCache(*c.exec, c);
  handle->max_bytes = client->options_.max_response_bytes;
  client->handle_ = std::move(handle);
  return client;
}

Result<std::unique_ptr<Client>> Client::Clone() const { return Create(config_, options_); }

Result<Response> Client::Get(std::string_view path, std::string_view query,
                             std::string_view accept) {
  Request request;
  request.path = path;
  request.query = query;
  request.accept = accept;
  return Send(request);
}

std::string Client::Prepare(const Request& request) {
  std::string base = config_.server;
  if (!config_.tls_server_name.empty()) {
    ServerUrl u = SplitServer(config_.server);
    base = u.scheme + "://" + config_.tls_server_name + ":" + u.port + u.path;
  }
  std::string url = base + request.path;
  if (!request.query.empty()) url += "?" + request.query;
  CURL* h = handle_->curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  if (request.method == "GET") {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, nullptr);
  } else {
    // The body is sent as given (no form encoding); its storage outlives the request.
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  return url;
}

std::optional<Error> Client::Authorize(const Request& request) {
  CURL* h = handle_->curl.get();
  // Credentials are taken for every attempt: token files rotate, exec credentials expire.
  std::string token = config_.token;
  if (!config_.token_file.empty()) {
    std::string text, error;
    if (!ReadFile(config_.token_file, &text, &error)) {
      return Error::Of(ErrorCode::kIo, "cannot read the token file: " + error,
                       "tokenFile of user \"" + config_.user_name + "\" must be readable");
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
      text.pop_back();
    }
    token = std::move(text);
  }
  if (config_.exec) {
    Result<ExecCredential> credential = handle_->exec.Get();
    if (!credential.ok()) return credential.error();
    if (!credential->token.empty()) token = credential->token;
    if (!credential->client_certificate_data.empty()) {
      curl_blob cert{const_cast<char*>(credential->client_certificate_data.data()),
                     credential->client_certificate_data.size(), CURL_BLOB_COPY};
      curl_blob key{const_cast<char*>(credential->client_key_data.data()),
                    credential->client_key_data.size(), CURL_BLOB_COPY};
      curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &key);
    }
  }
  SlistPtr headers;
  auto add = [&](const std::string& line) {
    headers.reset(curl_slist_append(headers.release(), line.c_str()));
  };
  add("Accept: " + request.accept);
  if (request.method != "GET") add("Content-Type: " + request.content_type);
  if (!token.empty()) add("Authorization: Bearer " + token);
  handle_->headers = std::move(headers);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, handle_->headers.get());
  handle_->response = Response{};
  handle_->too_large = false;
  handle_->error_buffer[0] = '\0';
  ++requests_;
  return std::nullopt;
}

Result<Response> Client::Send(const Request& request) {
  // Another attempt may repeat a request the server already carried out: only requests whose
  // repetition changes nothing (all but POST) are retried after a dropped connection or a 5xx;
  // 429 means the server did not take the request, so every method is retried then.
  const bool idempotent = request.method != "POST";
  const std::string url = Prepare(request);
  std::mt19937_64 random(std::random_device{}());
  CURL* h = handle_->curl.get();
  std::optional<Error> last_error;
  for (int attempt = 0; attempt < std::max(1, options_.max_attempts); ++attempt) {
    if (std::optional<Error> e = Authorize(request)) return *e;
    CURLcode code = curl_easy_perform(h);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
    if (code != CURLE_OK) {
      if (handle_->too_large) {
        return Error::Of(ErrorCode::kLimitExceeded,
                         "the response of " + url + " is larger than " +
                             std::to_string(options_.max_response_bytes) + " bytes",
                         "list in smaller pages (--chunk-size)");
      }
      last_error =
          TransportError(code, handle_->error_buffer.c_str(), config_, options_.request_timeout);
      if (!idempotent || !RetryableTransport(code) || attempt + 1 >= options_.max_attempts) {
        return *last_error;
      }
      options_.sleep(RetryDelay(attempt + 1, std::nullopt, &random));
      continue;
    }
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    handle_->response.status = status;
    if (status == 401 && config_.exec && attempt == 0) {
      // An exec credential the server refuses is fetched again, once.
      handle_->exec.Invalidate();
      continue;
    }
    if (RetryableStatus(status) && (idempotent || status == 429) &&
        attempt + 1 < options_.max_attempts) {
      const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
      options_.sleep(
          RetryDelay(attempt + 1, ParseRetryAfter(handle_->response.retry_after, now), &random));
      continue;
    }
    return std::move(handle_->response);
  }
  if (last_error) return *last_error;
  return std::move(handle_->response);
}

Result<Response> Client::Stream(const Request& request,
                                const std::function<bool(std::string_view line)>& on_line,
                                const std::atomic<bool>* stop) {
  const std::string url = Prepare(request);
  CURL* h = handle_->curl.get();
  for (int attempt = 0; attempt < 2; ++attempt) {  // a second only for a refused exec credential
    if (std::optional<Error> e = Authorize(request)) return *e;
    Handle& s = *handle_;
    s.on_line = &on_line;
    s.stop = stop;
    s.line.clear();
    s.stopped = false;
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &Handle::Progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, handle_.get());
    // A stream lasts as long as the caller wants: the request timeout does not cut it (the
    // caller ends it through *stop).
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 0L);
    CURLcode code = curl_easy_perform(h);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout.count()));
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
    s.on_line = nullptr;
    s.stop = nullptr;
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (s.stopped) {
      Response r;
      r.status = status;
      return r;
    }
    if (code != CURLE_OK) {
      if (s.too_large) {
        return Error::Of(ErrorCode::kLimitExceeded,
                         "an event of " + url + " is longer than " +
                             std::to_string(options_.max_response_bytes) + " bytes");
      }
      return TransportError(code, s.error_buffer.c_str(), config_, options_.request_timeout);
    }
    s.response.status = status;
    if (status == 401 && config_.exec && attempt == 0) {
      s.exec.Invalidate();
      continue;
    }
    if (status == 200 && !s.line.empty()) on_line(s.line);  // a last line without a newline
    return std::move(s.response);
  }
  return std::move(handle_->response);
}

}  // namespace wmap::kube
