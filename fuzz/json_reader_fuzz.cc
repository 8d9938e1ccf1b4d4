// libFuzzer target for the JSON reader and writer.
//
// Properties checked on every input:
//  - parsing never crashes, and either succeeds or reports a position inside the input;
//  - a parsed value printed compactly parses again and prints the same text (except -0.0, which
//    prints as "-0" and reads back as the integer 0, as in gojq), and printing is a fixpoint
//    after one round; values are compared through their text because a large double printed
//    with its shortest digits reads back as a nearby exact integer;
//  - the indented form parses to the same value as the compact form;
//  - the stream reader terminates and consumes the input;
//  - reading with repeated values shared, and with the parsed text given back (zeroed) as the
//    reader releases it, gives the same value or the same error (message and position).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "wmap/json.h"

namespace {

void Check(bool condition) {
  if (!condition) std::abort();
}

void CheckValue(const wmap::Value& v) {
  std::string compact = wmap::json::ToCompactString(v);
  wmap::Result<wmap::Value> again = wmap::json::Parse(compact);
  Check(again.ok());
  std::string second = wmap::json::ToCompactString(*again);
  if (compact.find("-0") == std::string::npos) Check(second == compact);
  wmap::Result<wmap::Value> third = wmap::json::Parse(second);
  Check(third.ok());
  Check(wmap::json::ToCompactString(*third) == second);
  wmap::json::WriteOptions pretty;
  pretty.indent = 3;
  wmap::Result<wmap::Value> from_pretty = wmap::json::Parse(wmap::json::ToString(v, pretty));
  Check(from_pretty.ok());
  Check(wmap::json::ToCompactString(*from_pretty) == second);
  wmap::json::WriteOptions ascii;
  ascii.indent = 0;
  ascii.ascii = true;
  wmap::Result<wmap::Value> from_ascii = wmap::json::Parse(wmap::json::ToString(v, ascii));
  Check(from_ascii.ok());
  Check(wmap::json::ToCompactString(*from_ascii) == second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  wmap::json::ReadOptions options;
  options.max_depth = 256;

  wmap::Result<wmap::Value> parsed = wmap::json::Parse(text, options);
  if (parsed.ok()) {
    CheckValue(*parsed);
  } else {
    Check(parsed.error().position.known());
    Check(parsed.error().position.offset <= size);
  }

  // The same parse sharing repeated values and zeroing the text it gives back.
  std::string copy(text);
  wmap::json::ReadOptions large = options;
  large.share_repeated = true;
  large.release_interval = 1;
  large.release_consumed = [&copy](size_t offset) {
    Check(offset <= copy.size());
    std::memset(copy.data(), 0, offset);
  };
  wmap::Result<wmap::Value> shared = wmap::json::Parse(copy, large);
  Check(shared.ok() == parsed.ok());
  if (parsed.ok()) {
    Check(wmap::json::ToCompactString(*shared) == wmap::json::ToCompactString(*parsed));
  } else {
    Check(shared.error().message == parsed.error().message);
    Check(shared.error().position.offset == parsed.error().position.offset);
    Check(shared.error().position.line == parsed.error().position.line);
    Check(shared.error().position.column == parsed.error().position.column);
  }

  wmap::json::StreamReader reader(text, options);
  wmap::Value v;
  wmap::Error error;
  size_t count = 0;
  while (reader.Next(&v, &error)) {
    if (reader.failed()) {
      Check(error.position.offset <= size);
      break;
    }
    CheckValue(v);
    Check(++count <= size);
  }
  return 0;
}
