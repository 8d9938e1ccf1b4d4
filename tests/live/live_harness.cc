#include "live/live_harness.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "cli/command.h"
#include "cli/workload_input.h"
#include "wmap/json.h"
#include "wmap/source.h"

namespace wmap::live {

namespace fs = std::filesystem;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

Cluster* Cluster::Get() {
  static Cluster* c = new Cluster();
  return c->ok_ ? c : nullptr;
}

std::string Cluster::env(const std::string& key) const {
  auto it = env_.find(key);
  return it == env_.end() ? "" : it->second;
}

Outcome Cluster::Kubectl(const std::vector<std::string>& args, const std::string& input) const {
  static int n = 0;
  std::string base = work_ + "/kubectl" + std::to_string(++n);
  std::ofstream(base + ".in") << input;
  std::string cmd =
      "KUBECONFIG=" + Quote(kubeconfig_) + " " + Quote(env("WMAP_CLUSTER_BIN") + "/kubectl");
  for (const std::string& a : args) cmd += " " + Quote(a);
  cmd += " < " + Quote(base + ".in") + " > " + Quote(base + ".out") + " 2> " + Quote(base + ".err");
  Outcome o;
  int status = std::system(cmd.c_str());
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = ReadText(base + ".out");
  o.err = ReadText(base + ".err");
  return o;
}

std::string Cluster::MustKubectl(const std::vector<std::string>& args,
                                 const std::string& input) const {
  Outcome o = Kubectl(args, input);
  std::string line;
  for (const std::string& a : args) line += " " + a;
  EXPECT_EQ(o.code, 0) << "kubectl" << line << ": " << o.err;
  return o.out;
}

Cluster::Cluster() {
  const char* kubeconfig = std::getenv("WMAP_TEST_KUBECONFIG");
  const char* dir = std::getenv("WMAP_CLUSTER_DIR");
  if (kubeconfig == nullptr || dir == nullptr || *kubeconfig == '\0' || *dir == '\0') return;
  kubeconfig_ = kubeconfig;
  std::istringstream lines(ReadText(std::string(dir) + "/cluster.env"));
  for (std::string line; std::getline(lines, line);) {
    size_t eq = line.find('=');
    if (eq != std::string::npos) env_[line.substr(0, eq)] = line.substr(eq + 1);
  }
  char tmpl[] = "/tmp/wmap-live-XXXXXX";
  work_ = mkdtemp(tmpl);
  // ctest runs each test in a process of its own, often within the same second.
  run_ = std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count() %
                        1000000) +
         "-" + std::to_string(::getpid());
  ok_ = !env("WMAP_CLUSTER_SERVER").empty();
}

Outcome Wmap(const std::vector<std::string>& args, std::vector<std::string> env,
             const std::string& input) {
  env.push_back(kEpoch);
  env.push_back("HOME=/nonexistent");
  // Discovery is cached in this process's scratch folder, never under a HOME.
  const bool cache_given = std::any_of(
      env.begin(), env.end(), [](const std::string& e) { return e.starts_with("KUBECACHEDIR="); });
  if (Cluster* c = Cluster::Get(); c != nullptr && !cache_given) {
    env.push_back("KUBECACHEDIR=" + c->work() + "/kube-cache");
  }
  std::vector<const char*> environment;
  for (const std::string& e : env) environment.push_back(e.c_str());
  environment.push_back(nullptr);
  fs::path previous = fs::current_path();
  fs::current_path(WMAP_SOURCE_DIR);
  char in_path[] = "/tmp/wmap-live-in-XXXXXX", out_path[] = "/tmp/wmap-live-out-XXXXXX",
       err_path[] = "/tmp/wmap-live-err-XXXXXX";
  int in = mkstemp(in_path), out = mkstemp(out_path), err = mkstemp(err_path);
  if (!input.empty()) {
    std::ofstream(in_path, std::ios::binary) << input;
  }
  cli::CommandIo io{in, out, err, environment.data()};
  Outcome o;
  o.code = cli::RunMain(args, io);
  fs::current_path(previous);
  o.out = ReadText(out_path);
  o.err = ReadText(err_path);
  for (int fd : {in, out, err}) ::close(fd);
  for (const char* p : {in_path, out_path, err_path}) ::unlink(p);
  return o;
}

Outcome Live(const Cluster& c, const std::vector<std::string>& args, const std::string& input) {
  return Wmap(args, {"KUBECONFIG=" + c.kubeconfig()}, input);
}

kube::Client* AdminClient(const Cluster& c) {
  static std::unique_ptr<kube::Client> client;
  if (!client) {
    kube::ConfigOverrides o;
    o.kubeconfig = c.kubeconfig();
    Result<kube::ClientConfig> config = kube::LoadClientConfig(o);
    EXPECT_TRUE(config.ok()) << config.error().message;
    Result<std::unique_ptr<kube::Client>> made = kube::Client::Create(*config);
    EXPECT_TRUE(made.ok());
    client = std::move(*made);
  }
  return client.get();
}

std::string Str(const Value& v, std::initializer_list<std::string_view> path) {
  const Value* at = &v;
  for (std::string_view key : path) {
    at = at->find(key);
    if (at == nullptr) return "";
  }
  return at->is_string() ? std::string(at->as_string()) : "";
}

// The metadata the server sets, left out of what is created.
void ForCreate(Value* object, const std::string& ns) {
  object->erase("status");
  Value* metadata = object->find_mutable("metadata");
  for (const char* key : {"uid", "resourceVersion", "generation", "creationTimestamp",
                          "managedFields", "selfLink", "deletionTimestamp"}) {
    metadata->erase(key);
  }
  metadata->set("namespace", Value::String(ns));
  if (Str(*object, {"kind"}) == "Job") {
    // The server makes the selector and controller-uid labels from the new Job's uid.
    Value* spec = object->find_mutable("spec");
    spec->erase("selector");
    Value* t = spec->find_mutable("template");
    Value* tm = t != nullptr ? t->find_mutable("metadata") : nullptr;
    Value* labels = tm != nullptr ? tm->find_mutable("labels") : nullptr;
    if (labels != nullptr) {
      labels->erase("batch.kubernetes.io/controller-uid");
      labels->erase("controller-uid");
    }
  }
}

// kind.version.group, as kubectl names a type exactly.
std::string ResourceOf(const Value& object) {
  std::string api = Str(object, {"apiVersion"});
  std::string kind = Str(object, {"kind"});
  for (char& ch : kind) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  size_t slash = api.find('/');
  if (slash == std::string::npos) return kind;
  return kind + "." + api.substr(slash + 1) + "." + api.substr(0, slash);
}

// Creates the example's workload and its children (owners first, ownerReferences to the live
// uids) in namespace ns, with the status the files give; returns the types created, workload
// type first.
std::vector<std::string> CreateExample(const Cluster& c, const std::string& example,
                                       const std::string& ns) {
  std::vector<SourceObject> objects;
  std::string base = std::string(WMAP_SOURCE_DIR) + "/examples/" + example;
  std::optional<Error> e = ReadAllObjects({base + ".yaml", base + ".pods.yaml"}, {}, &objects);
  EXPECT_FALSE(e) << e->message;
  c.MustKubectl({"create", "namespace", ns});
  std::map<std::string, std::string> uids;  // "Kind/name" -> live uid
  std::vector<std::string> types;
  std::vector<bool> created(objects.size(), false);
  for (int round = 0; round < 8; ++round) {
    for (size_t i = 0; i < objects.size(); ++i) {
      if (created[i]) continue;
      Value object = objects[i].value;
      // Created once every owner has been.
      bool ready = true;
      if (Value* metadata = object.find_mutable("metadata")) {
        if (Value* refs = metadata->find_mutable("ownerReferences")) {
          for (Value& ref : refs->mutable_items()) {
            auto it = uids.find(Str(ref, {"kind"}) + "/" + Str(ref, {"name"}));
            if (it == uids.end()) {
              ready = false;
              break;
            }
            ref.set("uid", Value::String(it->second));
          }
        }
      }
      if (!ready) continue;
      Value status;
      if (const Value* s = object.find("status")) status = *s;
      if (status.is_object() && Str(object, {"kind"}) == "Pod") status.erase("qosClass");
      ForCreate(&object, ns);
      std::string out =
          c.MustKubectl({"create", "-f", "-", "-o", "json"}, json::ToCompactString(object));
      Result<Value> live = json::Parse(out);
      if (!live.ok()) return types;
      const std::string type = ResourceOf(*live);
      const std::string name = Str(*live, {"metadata", "name"});
      uids[Str(*live, {"kind"}) + "/" + name] = Str(*live, {"metadata", "uid"});
      if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
      if (status.is_object() && status.size() > 0) {
        Value patch = Value::Object({{"status", status}});
        c.MustKubectl({"patch", type, name, "-n", ns, "--subresource=status", "--type=merge", "-p",
                       json::ToCompactString(patch)});
      }
      created[i] = true;
    }
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    EXPECT_TRUE(created[i]) << example << ": " << objects[i].Kind() << " " << objects[i].Name()
                            << " was not created (its owner is missing)";
  }
  return types;
}

std::string ExampleTestName(const ::testing::TestParamInfo<const char*>& info) {
  std::string name = info.param;
  std::erase(name, '-');
  return name;
}

}  // namespace wmap::live
