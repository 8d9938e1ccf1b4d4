// Reading test data (catalog files, goldens, the shared corpora) for the tests of every layer.
#ifndef WMAP_TESTS_TEST_FILES_H_
#define WMAP_TESTS_TEST_FILES_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace wmap::test_files {

// The whole file as bytes; empty when it cannot be read (the test's expectations then fail).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace wmap::test_files

#endif  // WMAP_TESTS_TEST_FILES_H_
