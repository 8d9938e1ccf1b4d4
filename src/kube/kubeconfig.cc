// kubeconfig files merged and resolved to one ClientConfig, as kubectl (client-go's
// clientcmd) does it. See LoadClientConfig in wmap/kube.h for the rules.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "kube/files.h"
#include "wmap/kube.h"
#include "wmap/yaml.h"

namespace wmap::kube {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> Env(const ConfigEnvironment& environment, std::string_view name) {
  if (environment.getenv) return environment.getenv(name);
  const char* v = std::getenv(std::string(name).c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

std::string Str(const Value* v) {
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}
std::string Str(const Value& object, std::string_view key) { return Str(object.find(key)); }

// The file paths a kubeconfig entry holds, made absolute against the file's folder.
void AbsolutePaths(Value* entry, std::initializer_list<std::string_view> keys,
                   const fs::path& folder) {
  for (std::string_view key : keys) {
    Value* v = entry->find_mutable(key);
    if (v == nullptr || !v->is_string() || v->as_string().empty()) continue;
    fs::path p(std::string(v->as_string()));
    if (p.is_relative()) *v = Value::String((folder / p).lexically_normal().string());
  }
}

// Adds the named entries of `list` (clusters, users or contexts) that *merged lacks.
void MergeNamed(const Value* list, std::string_view inner, const fs::path& folder,
                std::set<std::string>* seen, Value* merged) {
  if (list == nullptr || !list->is_array()) return;
  for (const Value& item : list->items()) {
    std::string name = Str(item, "name");
    if (!seen->insert(name).second) continue;
    Value copy = item;
    if (Value* body = copy.find_mutable(inner); body != nullptr && body->is_object()) {
      if (inner == "cluster") AbsolutePaths(body, {"certificate-authority"}, folder);
      if (inner == "user") {
        AbsolutePaths(body, {"client-certificate", "client-key", "tokenFile"}, folder);
      }
    }
    merged->push_back(std::move(copy));
  }
}

// The files to merge, in precedence order.
Result<std::vector<std::string>> KubeconfigFiles(const ConfigOverrides& overrides,
                                                 const ConfigEnvironment& environment) {
  std::vector<std::string> files;
  if (!overrides.kubeconfig.empty()) {
    std::error_code ec;
    if (!fs::exists(overrides.kubeconfig, ec)) {
      return Error::Of(ErrorCode::kNotFound,
                       "stat " + overrides.kubeconfig + ": no such file or directory",
                       "--kubeconfig names a file that does not exist");
    }
    files.push_back(overrides.kubeconfig);
    return files;
  }
  if (std::optional<std::string> list = Env(environment, "KUBECONFIG"); list && !list->empty()) {
    std::set<std::string> seen;
    size_t start = 0;
    for (size_t i = 0; i <= list->size(); ++i) {
      if (i < list->size() && (*list)[i] != ':') continue;
      std::string path = list->substr(start, i - start);
      start = i + 1;
      std::error_code ec;
      if (path.empty() || !seen.insert(path).second || !fs::exists(path, ec)) continue;
      files.push_back(path);
    }
    return files;
  }
  if (std::optional<std::string> home = Env(environment, "HOME"); home && !home->empty()) {
    std::string path = *home + "/.kube/config";
    std::error_code ec;
    if (fs::exists(path, ec)) files.push_back(path);
  }
  return files;
}

const Value* Named(const Value& merged, std::string_view list, std::string_view name,
                   std::string_view inner) {
  const Value* items = merged.find(list);
  if (items == nullptr || !items->is_array()) return nullptr;
  for (const Value& item : items->items()) {
    if (Str(item, "name") == name) {
      const Value* body = item.find(inner);
      static const Value kEmpty = Value::EmptyObject();
      return body != nullptr && body->is_object() ? body : &kEmpty;
    }
  }
  return nullptr;
}

// The exec plugins that replaced the legacy auth providers.
std::string AuthProviderHint(std::string_view name) {
  if (name == "gcp")
    return "use the exec plugin gke-gcloud-auth-plugin (gcloud components install "
           "gke-gcloud-auth-plugin)";
  if (name == "azure") return "use the exec plugin kubelogin (kubelogin convert-kubeconfig)";
  if (name == "oidc") return "use the exec plugin kubelogin (int128/kubelogin: kubectl oidc-login)";
  return "use the exec credential plugin of your provider (users[].user.exec)";
}

Result<ExecConfig> ReadExec(const Value& exec, std::string_view user) {
  ExecConfig out;
  out.api_version = Str(exec, "apiVersion");
  out.command = Str(exec, "command");
  out.install_hint = Str(exec, "installHint");
  out.interactive_mode = Str(exec, "interactiveMode");
  if (const Value* p = exec.find("provideClusterInfo")) out.provide_cluster_info = p->truthy();
  if (out.api_version != "client.authentication.k8s.io/v1" &&
      out.api_version != "client.authentication.k8s.io/v1beta1") {
    return Error::Of(ErrorCode::kUnsupported,
                     "user \"" + std::string(user) + "\": exec plugin apiVersion \"" +
                         out.api_version + "\" is not supported",
                     "use client.authentication.k8s.io/v1 or v1beta1");
  }
  if (out.command.empty()) {
    return Error::Of(ErrorCode::kInvalidInput,
                     "user \"" + std::string(user) + "\": exec plugin has no command");
  }
  if (const Value* args = exec.find("args"); args != nullptr && args->is_array()) {
    for (const Value& a : args->items()) out.args.push_back(Str(&a));
  }
  if (const Value* env = exec.find("env"); env != nullptr && env->is_array()) {
    for (const Value& e : env->items()) out.env.emplace_back(Str(e, "name"), Str(e, "value"));
  }
  return out;
}

// The in-cluster configuration, or nullopt when this is not a pod with a service account.
std::optional<ClientConfig> InCluster(const ConfigEnvironment& environment) {
  std::optional<std::string> host = Env(environment, "KUBERNETES_SERVICE_HOST");
  std::optional<std::string> port = Env(environment, "KUBERNETES_SERVICE_PORT");
  if (!host || !port || host->empty() || port->empty()) return std::nullopt;
  const std::string dir = environment.service_account_dir;
  std::error_code ec;
  if (!fs::exists(dir + "/token", ec)) return std::nullopt;
  ClientConfig c;
  std::string h = *host;
  if (h.find(':') != std::string::npos) h = "[" + h + "]";  // IPv6
  c.server = "https://" + h + ":" + *port;
  c.token_file = dir + "/token";
  if (fs::exists(dir + "/ca.crt", ec)) c.ca_file = dir + "/ca.crt";
  std::string ns;
  std::string error;
  if (ReadFile(dir + "/namespace", &ns, &error)) {
    while (!ns.empty() && (ns.back() == '\n' || ns.back() == ' ')) ns.pop_back();
    if (!ns.empty()) c.namespace_name = ns;
  }
  c.context_name = "in-cluster";
  c.in_cluster = true;
  return c;
}

}  // namespace

Result<Value> MergedKubeconfig(const ConfigOverrides& overrides,
                               const ConfigEnvironment& environment) {
  Result<std::vector<std::string>> files = KubeconfigFiles(overrides, environment);
  if (!files.ok()) return files.error();
  Value clusters = Value::EmptyArray(), users = Value::EmptyArray(), contexts = Value::EmptyArray();
  std::set<std::string> seen_clusters, seen_users, seen_contexts;
  std::string current;
  for (const std::string& file : *files) {
    std::string text;
    std::string error;
    if (!ReadFile(file, &text, &error)) {
      return Error::Of(ErrorCode::kIo, error, "check the kubeconfig file's permissions");
    }
    Result<Value> doc = yaml::Parse(text);
    if (!doc.ok()) {
      Error e = doc.error();
      e.code = ErrorCode::kInvalidInput;
      e.file = file;
      e.hint = "the kubeconfig file does not parse as YAML";
      return e;
    }
    if (doc->is_null()) continue;
    if (!doc->is_object()) {
      Error e = Error::Of(ErrorCode::kInvalidInput, "a kubeconfig must be a mapping");
      e.file = file;
      return e;
    }
    fs::path folder = fs::absolute(fs::path(file)).parent_path();
    MergeNamed(doc->find("clusters"), "cluster", folder, &seen_clusters, &clusters);
    MergeNamed(doc->find("users"), "user", folder, &seen_users, &users);
    MergeNamed(doc->find("contexts"), "context", folder, &seen_contexts, &contexts);
    if (current.empty()) current = Str(*doc, "current-context");
  }
  Value merged = Value::EmptyObject();
  merged.set("apiVersion", Value::String("v1"));
  merged.set("kind", Value::String("Config"));
  merged.set("clusters", std::move(clusters));
  merged.set("users", std::move(users));
  merged.set("contexts", std::move(contexts));
  merged.set("current-context", Value::String(current));
  Value names = Value::EmptyArray();
  for (const std::string& f : *files) names.push_back(Value::String(f));
  merged.set("files", std::move(names));
  return merged;
}

Result<ClientConfig> LoadClientConfig(const ConfigOverrides& overrides,
                                      const ConfigEnvironment& environment) {
  Result<Value> merged_result = MergedKubeconfig(overrides, environment);
  if (!merged_result.ok()) return merged_result.error();
  const Value& merged = *merged_result;
  const bool has_files = merged.find("files")->size() > 0;
  ClientConfig c;
  if (!has_files) {
    std::optional<ClientConfig> in_cluster = InCluster(environment);
    if (in_cluster) {
      c = std::move(*in_cluster);
    } else if (overrides.server.empty()) {
      return Error::Of(ErrorCode::kUsage,
                       "no cluster configured: no kubeconfig (KUBECONFIG is unset or names no "
                       "file, ~/.kube/config does not exist) and not running in a pod",
                       "set KUBECONFIG or pass --kubeconfig FILE (or --server URL), or read "
                       "files offline with -f PATH");
    }
  } else {
    c.context_name = overrides.context.empty() ? Str(merged, "current-context") : overrides.context;
    const Value* context = nullptr;
    if (!c.context_name.empty()) {
      context = Named(merged, "contexts", c.context_name, "context");
      if (context == nullptr) {
        return Error::Of(ErrorCode::kNotFound,
                         "context was not found for specified context: " + c.context_name,
                         "'kubectl config get-contexts' lists the contexts of the kubeconfig");
      }
    }
    c.cluster_name = !overrides.cluster.empty() ? overrides.cluster
                     : context != nullptr       ? Str(*context, "cluster")
                                                : "";
    c.user_name = !overrides.user.empty() ? overrides.user
                  : context != nullptr    ? Str(*context, "user")
                                          : "";
    if (context != nullptr && !Str(*context, "namespace").empty()) {
      c.namespace_name = Str(*context, "namespace");
    }
    if (c.context_name.empty() && c.cluster_name.empty() && overrides.server.empty()) {
      return Error::Of(ErrorCode::kUsage,
                       "the kubeconfig sets no current-context and no --context was given",
                       "pass --context NAME or run 'kubectl config use-context NAME'");
    }
    if (!c.cluster_name.empty()) {
      const Value* cluster = Named(merged, "clusters", c.cluster_name, "cluster");
      if (cluster == nullptr) {
        return Error::Of(ErrorCode::kNotFound,
                         "cluster \"" + c.cluster_name + "\" not found in the kubeconfig",
                         "'kubectl config get-clusters' lists the clusters of the kubeconfig");
      }
      c.server = Str(*cluster, "server");
      c.ca_file = Str(*cluster, "certificate-authority");
      c.ca_data = Str(*cluster, "certificate-authority-data");
      c.tls_server_name = Str(*cluster, "tls-server-name");
      c.proxy_url = Str(*cluster, "proxy-url");
      if (const Value* v = cluster->find("insecure-skip-tls-verify")) {
        c.insecure_skip_tls_verify = v->truthy();
      }
      // *-data fields are base64 in the file.
      if (!c.ca_data.empty()) {
        std::optional<std::string> pem = DecodeBase64(c.ca_data);
        if (!pem) {
          return Error::Of(
              ErrorCode::kInvalidInput,
              "cluster \"" + c.cluster_name + "\": certificate-authority-data is not base64");
        }
        c.ca_data = std::move(*pem);
      }
    }
    if (!c.user_name.empty()) {
      const Value* user = Named(merged, "users", c.user_name, "user");
      if (user == nullptr) {
        return Error::Of(ErrorCode::kNotFound,
                         "user \"" + c.user_name + "\" not found in the kubeconfig",
                         "'kubectl config view' shows the users of the kubeconfig");
      }
      if (const Value* provider = user->find("auth-provider")) {
        std::string name = Str(*provider, "name");
        return Error::Of(ErrorCode::kUnsupported,
                         "user \"" + c.user_name + "\": the auth-provider \"" + name +
                             "\" was removed from Kubernetes clients (1.26)",
                         AuthProviderHint(name));
      }
      c.client_cert_file = Str(*user, "client-certificate");
      c.client_key_file = Str(*user, "client-key");
      c.token = Str(*user, "token");
      c.token_file = Str(*user, "tokenFile");
      c.username = Str(*user, "username");
      c.password = Str(*user, "password");
      for (auto [key, out] : {std::pair{"client-certificate-data", &c.client_cert_data},
                              std::pair{"client-key-data", &c.client_key_data}}) {
        std::string data = Str(*user, key);
        if (data.empty()) continue;
        std::optional<std::string> pem = DecodeBase64(data);
        if (!pem) {
          return Error::Of(ErrorCode::kInvalidInput,
                           "user \"" + c.user_name + "\": " + key + " is not base64");
        }
        *out = std::move(*pem);
      }
      if (const Value* exec = user->find("exec"); exec != nullptr && exec->is_object()) {
        Result<ExecConfig> e = ReadExec(*exec, c.user_name);
        if (!e.ok()) return e.error();
        c.exec = std::move(*e);
      }
    }
  }
  if (!overrides.server.empty()) c.server = overrides.server;
  if (!overrides.token.empty()) {
    c.token = overrides.token;
    c.token_file.clear();
    c.exec.reset();
  }
  if (!overrides.certificate_authority.empty()) {
    c.ca_file = overrides.certificate_authority;
    c.ca_data.clear();
  }
  if (overrides.insecure_skip_tls_verify) {
    c.insecure_skip_tls_verify = *overrides.insecure_skip_tls_verify;
    if (c.insecure_skip_tls_verify && !overrides.certificate_authority.empty()) {
      return Error::Of(ErrorCode::kUsage,
                       "specifying a root certificates file with the insecure flag is not allowed",
                       "drop --certificate-authority or --insecure-skip-tls-verify");
    }
    if (c.insecure_skip_tls_verify) {
      c.ca_file.clear();
      c.ca_data.clear();
    }
  }
  if (!overrides.tls_server_name.empty()) c.tls_server_name = overrides.tls_server_name;
  if (!overrides.namespace_name.empty()) {
    c.namespace_name = overrides.namespace_name;
    c.namespace_from_flag = true;
  }
  if (c.server.empty()) {
    return Error::Of(ErrorCode::kUsage, "cluster \"" + c.cluster_name + "\" has no server defined",
                     "set clusters[].cluster.server in the kubeconfig or pass --server URL");
  }
  if (c.server.find("://") == std::string::npos) c.server = "https://" + c.server;
  while (c.server.size() > 8 && c.server.back() == '/') c.server.pop_back();
  return c;
}

}  // namespace wmap::kube
