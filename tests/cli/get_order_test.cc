// The order of `get` rows (view::SortNewestFirst): upstream's, newest first by creation time,
// then by name, for rows read from files and from a cluster alike.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wmap/view.h"

namespace wmap::view {
namespace {

WorkloadSummary Row(std::string name, std::string created, std::string ns = "") {
  WorkloadSummary s;
  s.name = std::move(name);
  s.created = std::move(created);
  s.namespace_name = std::move(ns);
  return s;
}

std::vector<std::string> Names(const WorkloadList& list) {
  std::vector<std::string> names;
  for (const WorkloadSummary& r : list.items) names.push_back(r.namespace_name + "/" + r.name);
  return names;
}

TEST(SortNewestFirstTest, NewestFirstThenByNameUndatedLast) {
  WorkloadList list;
  list.items = {Row("b", "2025-01-01T00:00:00Z"),
                Row("old", "2024-01-01T00:00:00Z"),
                Row("undated", ""),
                Row("a", "2025-01-01T00:00:00Z"),
                Row("new", "2025-06-01T00:00:00Z"),
                Row("bad", "yesterday")};
  SortNewestFirst(&list);
  EXPECT_EQ(Names(list),
            (std::vector<std::string>{"/new", "/a", "/b", "/old", "/bad", "/undated"}));
}

TEST(SortNewestFirstTest, EqualRowsKeepTheirOrder) {
  WorkloadList list;
  list.items = {Row("x", "2025-01-01T00:00:00Z", "ns-b"), Row("x", "2025-01-01T00:00:00Z", "ns-a")};
  SortNewestFirst(&list);
  EXPECT_EQ(Names(list), (std::vector<std::string>{"ns-b/x", "ns-a/x"}));
  WorkloadList empty;
  SortNewestFirst(&empty);
  EXPECT_TRUE(empty.items.empty());
}

}  // namespace
}  // namespace wmap::view
