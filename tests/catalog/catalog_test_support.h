// Paths and file helpers of the catalog tests. Catalog files and their test data are read from
// the source tree at run time (WMAP_SOURCE_DIR), so edited files are tested without a rebuild;
// one test checks that the compiled-in copies are current.
#ifndef WMAP_TESTS_CATALOG_CATALOG_TEST_SUPPORT_H_
#define WMAP_TESTS_CATALOG_CATALOG_TEST_SUPPORT_H_

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "test_files.h"

namespace wmap::test_support {

inline std::filesystem::path CatalogDir() {
  return std::filesystem::path(WMAP_SOURCE_DIR) / "catalog";
}

using test_files::ReadFile;

// Stems of catalog/*.yaml, sorted.
inline std::vector<std::string> CatalogStems() {
  std::vector<std::string> stems;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(CatalogDir(), ec)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") {
      stems.push_back(e.path().stem().string());
    }
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

// Names of the folders under catalog/testdata, sorted.
inline std::vector<std::string> TestdataFolders() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(CatalogDir() / "testdata", ec)) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// gtest parameter names allow only [A-Za-z0-9_].
inline std::string ParamName(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

}  // namespace wmap::test_support

#endif  // WMAP_TESTS_CATALOG_CATALOG_TEST_SUPPORT_H_
