// GOJQ_COLORS-style color specs for the JSON writer (see wmap/json.h).
#include "wmap/json.h"

namespace wmap::json {
namespace {

// A field is empty or a ';'-separated list of decimal numbers ("1;31").
bool IsColorField(std::string_view field) {
  bool digit_last = false;
  for (char c : field) {
    if (c >= '0' && c <= '9') {
      digit_last = true;
    } else if (c == ';' && digit_last) {
      digit_last = false;
    } else {
      return false;
    }
  }
  return field.empty() || digit_last;
}

}  // namespace

bool Colors::Parse(std::string_view spec, std::string* bad) {
  Colors parsed = *this;
  std::string* targets[] = {&parsed.null_color,   &parsed.false_color,  &parsed.true_color,
                            &parsed.number_color, &parsed.string_color, &parsed.key_color,
                            &parsed.array_color,  &parsed.object_color};
  size_t i = 0;
  for (std::string* target : targets) {
    if (i >= spec.size()) {
      target->clear();
      continue;
    }
    size_t colon = spec.find(':', i);
    std::string_view field =
        spec.substr(i, colon == std::string_view::npos ? spec.npos : colon - i);
    i = colon == std::string_view::npos ? spec.size() : colon + 1;
    if (!IsColorField(field)) {
      *bad = std::string(field);
      return false;
    }
    *target = std::string(field);
  }
  *this = std::move(parsed);
  return true;
}

}  // namespace wmap::json
