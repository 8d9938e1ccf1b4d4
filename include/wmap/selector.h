// Label selectors in kubectl's syntax: comma-separated requirements, all of which must hold:
//   key=value, key==value, key!=value, key in (v1,v2), key notin (v1,v2), key, !key,
//   key>N, key<N (integers).
// "!=" and "notin" also hold when the label is absent. Whitespace around tokens is ignored. An
// empty selector matches everything. Keys and values are checked for kubectl's characters.
#ifndef WMAP_SELECTOR_H_
#define WMAP_SELECTOR_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/export.h"
#include "wmap/value.h"

WMAP_PUBLIC_BEGIN

namespace wmap {

class LabelSelector {
 public:
  // Parses `text`; on failure returns nullopt and sets *error (naming the bad requirement).
  static std::optional<LabelSelector> Parse(std::string_view text, std::string* error);
  // `labels` is a metadata.labels object (or null: no labels).
  bool Matches(const Value& labels) const;
  bool empty() const { return requirements_.empty(); }

 private:
  enum class Op { kEquals, kNotEquals, kIn, kNotIn, kExists, kNotExists, kGreater, kLess };
  struct Requirement {
    std::string key;
    Op op;
    std::vector<std::string> values;
  };
  std::vector<Requirement> requirements_;
};

}  // namespace wmap

WMAP_PUBLIC_END

#endif  // WMAP_SELECTOR_H_
