// format/1, the native behind @text, @json, @html, @uri, @urid, @csv, @tsv, @sh, @base64,
// @base64d, @base32 and @base32d. Every formatter is linear in the size of its input.
#include <string>

#include "jq/builtins/common.h"
#include "jq/builtins/registry.h"
#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::jq::builtins {
namespace {

using Args = std::span<const Value>;

std::string TextOf(const Value& v) {
  if (v.is_string()) return std::string(v.as_string());
  return json::ToCompactString(v);
}

bool Html(const Value& in, Value* out) {
  std::string s = TextOf(in);
  std::string r;
  r.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<':
        r.append("&lt;");
        break;
      case '>':
        r.append("&gt;");
        break;
      case '&':
        r.append("&amp;");
        break;
      case '\'':
        r.append("&apos;");
        break;
      case '"':
        r.append("&quot;");
        break;
      default:
        r.push_back(c);
    }
  }
  return Ok(out, Value::String(std::move(r)));
}

bool Uri(const Value& in, Value* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string s = TextOf(in);
  std::string r;
  r.reserve(s.size());
  for (unsigned char c : s) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved) {
      r.push_back(static_cast<char>(c));
    } else {
      r.push_back('%');
      r.push_back(kHex[c >> 4]);
      r.push_back(kHex[c & 15]);
    }
  }
  return Ok(out, Value::String(std::move(r)));
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool UriDecode(const Value& in, Value* out) {
  std::string s = TextOf(in);
  std::string r;
  r.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      r.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size() || HexValue(s[i + 1]) < 0 || HexValue(s[i + 2]) < 0) {
      std::string frag = s.substr(i, 3);
      return Fail(out, FuncWrapError("@urid", in, "invalid URL escape \"" + frag + "\""));
    }
    r.push_back(static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2])));
    i += 2;
  }
  return Ok(out, Value::String(std::move(r)));
}

enum class RowKind { kCsv, kTsv, kSh };

bool FormatRow(RowKind kind, const Value& in, Value* out) {
  std::string_view name = kind == RowKind::kCsv ? "csv" : kind == RowKind::kTsv ? "tsv" : "sh";
  Value single;
  const Value* row = &in;
  if (kind == RowKind::kSh && !in.is_array()) {
    single = Value::Array({in});
    row = &single;
  }
  if (!row->is_array()) return Fail(out, FuncTypeError("@" + std::string(name), in));
  std::string r;
  bool first = true;
  for (const Value& v : row->items()) {
    if (!first) r.push_back(kind == RowKind::kCsv ? ',' : kind == RowKind::kTsv ? '\t' : ' ');
    first = false;
    if (v.is_array() || v.is_object()) {
      return Fail(out,
                  "@" + std::string(name) + " cannot format an array including: " + TypePreview(v));
    }
    if (!v.is_string()) {
      std::string text = json::ToCompactString(v);
      if (text != "null" || kind == RowKind::kSh) r.append(text);
      continue;
    }
    std::string_view s = v.as_string();
    switch (kind) {
      case RowKind::kCsv:
        r.push_back('"');
        for (char c : s) {
          if (c == '"') {
            r.append("\"\"");
          } else if (c == '\0') {
            r.append("\\0");
          } else {
            r.push_back(c);
          }
        }
        r.push_back('"');
        break;
      case RowKind::kTsv:
        for (char c : s) {
          switch (c) {
            case '\t':
              r.append("\\t");
              break;
            case '\r':
              r.append("\\r");
              break;
            case '\n':
              r.append("\\n");
              break;
            case '\\':
              r.append("\\\\");
              break;
            case '\0':
              r.append("\\0");
              break;
            default:
              r.push_back(c);
          }
        }
        break;
      case RowKind::kSh:
        r.push_back('\'');
        for (char c : s) {
          if (c == '\'') {
            r.append("'\\''");
          } else if (c == '\0') {
            r.append("\\0");
          } else {
            r.push_back(c);
          }
        }
        r.push_back('\'');
        break;
    }
  }
  return Ok(out, Value::String(std::move(r)));
}

constexpr char kBase32Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

bool Base64(const Value& in, Value* out) {
  std::string r;
  text::AppendBase64(TextOf(in), &r);
  return Ok(out, Value::String(std::move(r)));
}

// Go's RawStdEncoding after cutting the text at the first '=': newlines are skipped, any other
// byte outside the alphabet (or a lone trailing character) is "illegal base64 data".
bool Base64Decode(const Value& in, Value* out) {
  std::string s = TextOf(in);
  size_t pad = s.find('=');
  if (pad != std::string::npos) s.resize(pad);
  std::string r;
  size_t bad = 0;
  if (!text::DecodeBase64(s, /*padded=*/false, &r, &bad)) {
    return Fail(out, FuncWrapError("@base64d", in,
                                   "illegal base64 data at input byte " + std::to_string(bad)));
  }
  return Ok(out, Value::String(std::move(r)));
}

bool Base32(const Value& in, Value* out) {
  std::string s = TextOf(in);
  std::string r;
  uint64_t acc = 0;
  int bits = 0;
  for (unsigned char c : s) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      r.push_back(kBase32Alphabet[(acc >> bits) & 31]);
    }
  }
  if (bits > 0) r.push_back(kBase32Alphabet[(acc << (5 - bits)) & 31]);
  while (r.size() % 8 != 0) r.push_back('=');
  return Ok(out, Value::String(std::move(r)));
}

bool Base32Decode(const Value& in, Value* out) {
  std::string s = TextOf(in);
  size_t pad = s.find('=');
  if (pad != std::string::npos) s.resize(pad);
  std::string r;
  uint64_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= '2' && c <= '7' ? c - '2' + 26 : -1;
    if (v < 0) {
      return Fail(out, FuncWrapError("@base32d", in,
                                     "illegal base32 data at input byte " + std::to_string(i)));
    }
    acc = (acc << 5) | static_cast<uint64_t>(v);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      r.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return Ok(out, Value::String(std::move(r)));
}

bool Format(const NativeContext&, const Value& in, Args args, Value* out) {
  const Value& name = args[0];
  if (!name.is_string()) return Fail(out, FuncTypeError("format", name));
  std::string_view f = name.as_string();
  if (f == "text") return Ok(out, Value::String(TextOf(in)));
  if (f == "json") return Ok(out, Value::String(json::ToCompactString(in)));
  if (f == "html") return Html(in, out);
  if (f == "uri") return Uri(in, out);
  if (f == "urid") return UriDecode(in, out);
  if (f == "csv") return FormatRow(RowKind::kCsv, in, out);
  if (f == "tsv") return FormatRow(RowKind::kTsv, in, out);
  if (f == "sh") return FormatRow(RowKind::kSh, in, out);
  if (f == "base64") return Base64(in, out);
  if (f == "base64d") return Base64Decode(in, out);
  if (f == "base32") return Base32(in, out);
  if (f == "base32d") return Base32Decode(in, out);
  return Fail(out, "format not defined: @" + std::string(f));
}

constexpr NativeSpec kNatives[] = {
    {"format", 1, Format},
};

}  // namespace

std::span<const NativeSpec> FormatNatives() { return kNatives; }

}  // namespace wmap::jq::builtins
