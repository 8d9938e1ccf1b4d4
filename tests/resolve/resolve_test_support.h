// Shared fixtures of the resolve tests: files, upstream catalog definitions and JSON literals.
// Catalog files are read from the shared folder at run time (SharedDir).
#ifndef WMAP_TESTS_RESOLVE_RESOLVE_TEST_SUPPORT_H_
#define WMAP_TESTS_RESOLVE_RESOLVE_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "shared_data.h"
#include "test_files.h"
#include "wmap/definition.h"
#include "wmap/json.h"

namespace wmap::test_support {

using test_files::ReadFile;

// The text of upstream's catalog definition `name` (e.g. "batch-job-v1").
inline std::string CatalogText(const std::string& name) {
  return ReadFile(::wmap::test_files::SharedDir() / "conformance/upstream/catalog" /
                  (name + ".yaml"));
}

// Upstream's catalog definition `name`, loaded; a load failure fails the test.
inline Definition Catalog(const std::string& name) {
  LoadResult r = LoadDefinitions(CatalogText(name), name);
  EXPECT_TRUE(r.ok()) << name;
  return r.definitions.at(0);
}

// A JSON literal; a syntax error fails the test.
inline Value Json(const std::string& text) {
  Result<Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : Value();
}

}  // namespace wmap::test_support

#endif  // WMAP_TESTS_RESOLVE_RESOLVE_TEST_SUPPORT_H_
