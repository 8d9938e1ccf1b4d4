// The JSON text the `wmap jq` command prints, byte for byte as the gojq command prints it.
//
// Guarantees: object keys in byte order; gojq number text; strings escaped as gojq's encoder
// does (", \, \b \f \n \r \t, other control bytes and DEL as \u00xx, invalid UTF-8 as \ufffd;
// with `ascii`, every non-ASCII code point as \uxxxx with surrogate pairs); optional ANSI colors
// in gojq's scheme. Output is appended to a std::string, never flushed by the encoder.
#ifndef WMAP_CLI_JSON_ENCODER_H_
#define WMAP_CLI_JSON_ENCODER_H_

#include <functional>
#include <string>
#include <string_view>

#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::cli {

// Color escape parameters ("34;1") per kind of token; an empty string means uncolored.
struct ColorScheme {
  std::string null_color = "90";
  std::string false_color = "33";
  std::string true_color = "33";
  std::string number_color = "36";
  std::string string_color = "32";
  std::string key_color = "34;1";
  std::string array_color;
  std::string object_color;

  // Applies a GOJQ_COLORS-style spec ("null:false:true:numbers:strings:keys:arrays:objects");
  // fields not given become uncolored. Returns false and sets *bad to the offending field when a
  // field is not a ';'-separated list of numbers.
  bool Parse(std::string_view spec, std::string* bad);
};

struct EncoderOptions {
  bool compact = false;  // no newlines or spaces at all (-c)
  int indent = 2;        // spaces per level when not compact and not tab (0 keeps newlines)
  bool tab = false;      // one tab per level
  bool ascii = false;    // escape non-ASCII
  const ColorScheme* colors = nullptr;  // null: no colors
};

class JsonEncoder {
 public:
  explicit JsonEncoder(const EncoderOptions& options) : options_(options) {}
  // Makes Encode call spill() between elements of arrays and objects whenever the output string
  // has reached `bytes`, so that a large value is written out in pieces (spill empties it).
  void SetSpill(size_t bytes, std::function<void()> spill) {
    spill_bytes_ = bytes;
    spill_ = std::move(spill);
  }
  // Appends the text of v (no trailing newline).
  void Encode(const Value& v, std::string* out) const;
  // Appends a JSON string literal with the encoder's escaping (no color).
  static void EncodeString(std::string_view s, bool ascii, std::string* out);

 private:
  void EncodeAt(const Value& v, int depth, std::string* out) const;
  void Newline(int depth, std::string* out) const;
  void Colored(const std::string& color, std::string_view text, std::string* out) const;

  void MaybeSpill(const std::string* out) const {
    if (spill_ && out->size() >= spill_bytes_) spill_();
  }

  EncoderOptions options_;
  size_t spill_bytes_ = 0;
  std::function<void()> spill_;
};

// Appends the compact, uncolored gojq text of v.
void AppendCompactJson(const Value& v, std::string* out);

}  // namespace wmap::cli

#endif  // WMAP_CLI_JSON_ENCODER_H_
