// Helpers of the client layer's tests: fixture files and a temporary folder.
#ifndef WMAP_TESTS_KUBE_KUBE_TEST_SUPPORT_H_
#define WMAP_TESTS_KUBE_KUBE_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube::testing {

inline std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(WMAP_SOURCE_DIR) + "/tests/kube/testdata/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline Value JsonFixture(const std::string& name) {
  Result<Value> v = json::Parse(Fixture(name));
  EXPECT_TRUE(v.ok()) << name;
  return v.ok() ? *v : Value();
}

// A folder removed with its contents at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "wmap-kube-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& text) const {
    std::string p = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p) << text;
    return p;
  }

 private:
  std::string path_;
};

// An environment of exactly these variables.
inline ConfigEnvironment Environment(std::map<std::string, std::string> vars,
                                     std::string service_account_dir = "/nonexistent") {
  ConfigEnvironment env;
  env.getenv = [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  env.service_account_dir = std::move(service_account_dir);
  return env;
}

}  // namespace wmap::kube::testing

#endif  // WMAP_TESTS_KUBE_KUBE_TEST_SUPPORT_H_
