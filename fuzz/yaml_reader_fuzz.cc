// libFuzzer target for the YAML reader and writer.
//
// Properties checked on every input:
//  - reading (both schemas, with and without positions) never crashes, and an error carries a
//    position inside the input or none at all;
//  - under the Kubernetes schema every document written in kubectl style (insertion order and
//    sorted) reads back to an equal Value;
//  - reading with repeated values shared gives the same documents (or the same error);
//  - the gojq schema's stream reader terminates, and gojq-style output of each document is
//    produced (it is not read back: go-yaml v3 writes a few strings, such as a literal block
//    whose first line starts with a tab, that libyaml rejects).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/yaml.h"

namespace {

void Check(bool condition) {
  if (!condition) std::abort();
}

void CheckError(const wmap::Error& e, size_t size) {
  Check(!e.message.empty());
  Check(e.position.offset <= size);
}

void CheckKubectlRoundTrip(const wmap::Value& v) {
  for (bool sort : {false, true}) {
    wmap::yaml::WriteOptions o;
    o.sort_keys = sort;
    std::string text = wmap::yaml::ToString(v, o);
    Check(!text.empty() && text.back() == '\n');
    wmap::Result<wmap::Value> back = wmap::yaml::Parse(text);
    Check(back.ok());
    Check(*back == v);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  wmap::yaml::ReadOptions k8s;
  k8s.max_depth = 200;
  k8s.max_alias_expansion = 10000;
  k8s.record_positions = (size % 2) == 0;
  wmap::Result<std::vector<wmap::yaml::Document>> docs = wmap::yaml::ParseStream(text, k8s);
  if (docs.ok()) {
    for (const wmap::yaml::Document& d : *docs) {
      Check(d.start.offset <= size);
      for (const auto& [path, pos] : d.positions) Check(pos.offset <= size && pos.known());
      CheckKubectlRoundTrip(d.value);
    }
  } else {
    CheckError(docs.error(), size);
  }

  wmap::yaml::ReadOptions shared_options = k8s;
  shared_options.share_repeated = true;
  wmap::Result<std::vector<wmap::yaml::Document>> shared =
      wmap::yaml::ParseStream(text, shared_options);
  Check(shared.ok() == docs.ok());
  if (docs.ok()) {
    Check(shared->size() == docs->size());
    for (size_t i = 0; i < docs->size(); ++i) Check((*shared)[i].value == (*docs)[i].value);
  } else {
    Check(shared.error().message == docs.error().message);
    Check(shared.error().position.offset == docs.error().position.offset);
  }

  wmap::yaml::ReadOptions gojq = k8s;
  gojq.schema = wmap::yaml::Schema::kGojq;
  wmap::yaml::StreamReader reader(text, gojq);
  wmap::yaml::Document doc;
  wmap::Error error;
  size_t count = 0;
  while (reader.Next(&doc, &error)) {
    if (!error.message.empty()) {
      CheckError(error, size);
      break;
    }
    Check(++count <= size + 1);
    wmap::yaml::WriteOptions o;
    o.style = wmap::yaml::Style::kGojq;
    o.indent = 2 + static_cast<int>(size % 3);
    std::string out = wmap::yaml::ToString(doc.value, o);
    Check(!out.empty() && out.back() == '\n');
  }
  return 0;
}
