// Field paths, JSON pointers and field-error messages.
#include "schema/reporter.h"

#include <utility>

#include "schema/formats.h"
#include "wmap/text.h"

namespace wmap::schema {
namespace {

// How messages name the object itself.
constexpr std::string_view kRoot = "(root)";

}  // namespace

std::string Reporter::Field() const {
  std::string out;
  for (const Segment& s : path_) {
    switch (s.kind) {
      case Kind::kField:
        if (!out.empty()) out += '.';
        out += s.key;
        break;
      case Kind::kKey:
        out += '[';
        out += s.key;
        out += ']';
        break;
      case Kind::kIndex:
        out += '[';
        out += std::to_string(s.index);
        out += ']';
        break;
    }
  }
  return out;
}

Position Reporter::Locate() const {
  if (positions_ == nullptr || positions_->empty()) return {};
  std::vector<size_t> ends;
  std::string pointer;
  for (const Segment& s : path_) {
    ends.push_back(pointer.size());
    pointer += '/';
    if (s.kind == Kind::kIndex) {
      pointer += std::to_string(s.index);
      continue;
    }
    text::AppendPointerToken(s.key, &pointer);
  }
  while (true) {
    if (auto it = positions_->find(pointer); it != positions_->end()) return it->second;
    if (ends.empty()) return {};
    pointer.resize(ends.back());
    ends.pop_back();
  }
}

void Reporter::Add(std::string field, std::string message) {
  out_->push_back(Violation{std::move(field), std::move(message), Locate()});
}

void Reporter::Append(std::vector<Violation>&& found) {
  for (Violation& v : found) out_->push_back(std::move(v));
}

void Reporter::Report(std::string_view detail) {
  std::string field = Field();
  std::string message = field.empty() ? std::string(kRoot) : field;
  message += ": ";
  message += detail;
  Add(std::move(field), std::move(message));
}

void Reporter::ReportInvalid(std::string_view shown, std::string_view rule) {
  std::string field = Field();
  std::string detail = "Invalid value: ";
  detail += shown;
  detail += ": ";
  detail += field.empty() ? kRoot : std::string_view(field);
  detail += " in body ";
  detail += rule;
  Report(detail);
}

void Reporter::ReportUnknown() {
  std::string field = Field();
  Add(field, "." + field + ": field not declared in schema");
}

void Reporter::ReportType(uint8_t expected, const Value& v) {
  std::string found;
  found.reserve(32);
  found.append(1, '"').append(ValueTypeName(v)).append(1, '"');
  std::string rule = "must be of type ";
  rule.append(ExpectedTypes(expected)).append(": ").append(found);
  ReportInvalid(found, rule);
}

}  // namespace wmap::schema
