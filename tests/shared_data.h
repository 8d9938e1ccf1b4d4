// The shared data folder (jq and gojq corpora, upstream's catalog and recordings, the real CRDs
// and OpenAPI documents) that many tests read at run time. It sits next to the repository
// (../shared) or where the WMAP_SHARED_DIR environment variable points. A clone without it still
// runs every other test: each test that needs it starts with WMAP_NEEDS_SHARED("sub/folder"),
// which skips the test with one line naming the folder; with WMAP_REQUIRE_SHARED=1 (as .ci/run
// sets) a missing folder fails the test instead.
#ifndef WMAP_TESTS_SHARED_DATA_H_
#define WMAP_TESTS_SHARED_DATA_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace wmap::test_files {

inline std::filesystem::path SharedDir() {
  const char* env = std::getenv("WMAP_SHARED_DIR");
  return env != nullptr && *env != '\0' ? std::filesystem::path(env)
                                        : std::filesystem::path(WMAP_SHARED_DIR);
}

// "" when SharedDir()/relative exists, else the line that says what is missing.
inline std::string SharedMissing(const std::string& relative) {
  std::error_code ec;
  std::filesystem::path path = SharedDir() / relative;
  if (std::filesystem::exists(path, ec)) return "";
  return "needs the shared data folder " + path.lexically_normal().string() +
         " (the `shared` folder next to the repository, or set WMAP_SHARED_DIR)";
}

inline bool SharedRequired() {
  const char* env = std::getenv("WMAP_REQUIRE_SHARED");
  return env != nullptr && std::string(env) == "1";
}

}  // namespace wmap::test_files

#define WMAP_NEEDS_SHARED(relative)                                               \
  do {                                                                            \
    const std::string wmap_missing = ::wmap::test_files::SharedMissing(relative); \
    if (!wmap_missing.empty()) {                                                  \
      if (::wmap::test_files::SharedRequired()) FAIL() << wmap_missing;           \
      GTEST_SKIP() << wmap_missing;                                               \
    }                                                                             \
  } while (0)

#endif  // WMAP_TESTS_SHARED_DATA_H_
