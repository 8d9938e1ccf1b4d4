// The field path of the validation walk and the violations it reports, worded as the API server
// words field errors.
#ifndef WMAP_SCHEMA_REPORTER_H_
#define WMAP_SCHEMA_REPORTER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/schema.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::schema {

// Invariants: the path holds views of keys owned by the object being validated (or by the
// schema graph), so it must not outlive them; every Push is matched by a Pop.
class Reporter {
 public:
  Reporter(const std::map<std::string, Position>* positions, std::vector<Violation>* out)
      : positions_(positions), out_(out) {}

  void PushField(std::string_view name) { path_.push_back(Segment{Kind::kField, name, 0}); }
  void PushKey(std::string_view key) { path_.push_back(Segment{Kind::kKey, key, 0}); }
  void PushIndex(size_t i) { path_.push_back(Segment{Kind::kIndex, {}, i}); }
  void Pop() { path_.pop_back(); }

  // Sends later violations to *out (for trial runs of combinator branches); returns the list
  // they went to before.
  std::vector<Violation>* Redirect(std::vector<Violation>* out) {
    std::vector<Violation>* old = out_;
    out_ = out;
    return old;
  }
  void Append(std::vector<Violation>&& found);

  // "<field>: <detail>"
  void Report(std::string_view detail);
  // "<field>: Invalid value: <shown>: <field> in body <rule>"
  void ReportInvalid(std::string_view shown, std::string_view rule);
  // ".<field>: field not declared in schema"
  void ReportUnknown();
  // "<field>: Invalid value: "<found>": <field> in body must be of type <expected>: "<found>""
  void ReportType(uint8_t expected, const Value& v);

 private:
  enum class Kind : uint8_t { kField, kKey, kIndex };
  struct Segment {
    Kind kind;
    std::string_view key;
    size_t index;
  };

  // "spec.replicatedJobs[0].template", "metadata.labels[app]"; "" at the root.
  std::string Field() const;
  // The source position of the deepest written prefix of the path.
  Position Locate() const;
  void Add(std::string field, std::string message);

  const std::map<std::string, Position>* positions_;
  std::vector<Violation>* out_;
  std::vector<Segment> path_;
};

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_REPORTER_H_
