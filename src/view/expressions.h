// What the view's documents share about definitions' expressions.
#ifndef WMAP_VIEW_EXPRESSIONS_H_
#define WMAP_VIEW_EXPRESSIONS_H_

#include <vector>

#include "wmap/definition.h"
#include "wmap/value.h"

namespace wmap::view {

// The texts of `expressions`, in order, as an array of strings.
inline Value ExpressionTexts(const std::vector<Expression>& expressions) {
  Value out = Value::EmptyArray();
  for (const Expression& e : expressions) out.push_back(Value::String(e.text));
  return out;
}

}  // namespace wmap::view

#endif  // WMAP_VIEW_EXPRESSIONS_H_
