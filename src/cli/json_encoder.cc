#include "cli/json_encoder.h"

#include <cmath>
#include <cstdint>

#include "wmap/json.h"

namespace wmap::cli {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendU16(uint32_t unit, std::string* out) {
  out->append("\\u");
  out->push_back(kHex[(unit >> 12) & 0xF]);
  out->push_back(kHex[(unit >> 8) & 0xF]);
  out->push_back(kHex[(unit >> 4) & 0xF]);
  out->push_back(kHex[unit & 0xF]);
}

// Decodes one UTF-8 sequence at s[i]; returns its length, or 0 when it is invalid (overlong,
// surrogate, out of range or truncated).
size_t DecodeUtf8(std::string_view s, size_t i, uint32_t* cp) {
  unsigned char b0 = static_cast<unsigned char>(s[i]);
  size_t len;
  uint32_t min;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, min = 0x80, *cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, min = 0x800, *cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, min = 0x10000, *cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    unsigned char b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    *cp = (*cp << 6) | (b & 0x3F);
  }
  if (*cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

bool ColorScheme::Parse(std::string_view spec, std::string* bad) {
  std::string* targets[] = {&null_color,   &false_color, &true_color,  &number_color,
                            &string_color, &key_color,   &array_color, &object_color};
  size_t i = 0;
  for (std::string* target : targets) {
    if (i >= spec.size()) {
      target->clear();
      continue;
    }
    size_t j = spec.find(':', i);
    std::string_view field = j == std::string_view::npos ? spec.substr(i) : spec.substr(i, j - i);
    i = j == std::string_view::npos ? spec.size() : j + 1;
    bool num = false;
    bool valid = true;
    for (char c : field) {
      if (c >= '0' && c <= '9') {
        num = true;
      } else if (c == ';' && num) {
        num = false;
      } else {
        valid = false;
        break;
      }
    }
    if (!valid || (!num && !field.empty())) {
      *bad = std::string(field);
      return false;
    }
    *target = std::string(field);
  }
  return true;
}

void JsonEncoder::EncodeString(std::string_view s, bool ascii, std::string* out) {
  out->push_back('"');
  size_t start = 0;
  size_t i = 0;
  auto flush = [&] {
    if (start < i) out->append(s.data() + start, i - start);
  };
  while (i < s.size()) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (b >= 0x20 && b <= 0x7E && b != '"' && b != '\\') {
        ++i;
        continue;
      }
      flush();
      switch (b) {
        case '"':
          out->append("\\\"");
          break;
        case '\\':
          out->append("\\\\");
          break;
        case '\b':
          out->append("\\b");
          break;
        case '\f':
          out->append("\\f");
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          AppendU16(b, out);
          break;
      }
      start = ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t len = DecodeUtf8(s, i, &cp);
    if (len == 0) {
      flush();
      out->append("\\ufffd");
      start = ++i;
      continue;
    }
    if (ascii) {
      flush();
      if (cp >= 0x10000) {
        uint32_t v = cp - 0x10000;
        AppendU16(0xD800 + (v >> 10), out);
        AppendU16(0xDC00 + (v & 0x3FF), out);
      } else {
        AppendU16(cp, out);
      }
      i += len;
      start = i;
      continue;
    }
    i += len;
  }
  flush();
  out->push_back('"');
}

void JsonEncoder::Encode(const Value& v, std::string* out) const { EncodeAt(v, 0, out); }

void JsonEncoder::Colored(const std::string& color, std::string_view text, std::string* out) const {
  if (options_.colors == nullptr || color.empty()) {
    out->append(text);
    return;
  }
  out->append("\x1b[");
  out->append(color);
  out->push_back('m');
  out->append(text);
  out->append("\x1b[0m");
}

void JsonEncoder::Newline(int depth, std::string* out) const {
  out->push_back('\n');
  if (options_.tab) {
    out->append(static_cast<size_t>(depth), '\t');
  } else {
    out->append(static_cast<size_t>(depth) * static_cast<size_t>(options_.indent), ' ');
  }
  MaybeSpill(out);
}

void JsonEncoder::EncodeAt(const Value& v, int depth, std::string* out) const {
  const ColorScheme* c = options_.colors;
  switch (v.type()) {
    case Type::kNull:
      if (c) return Colored(c->null_color, "null", out);
      out->append("null");
      return;
    case Type::kBoolean:
      if (c)
        return Colored(v.as_bool() ? c->true_color : c->false_color, v.as_bool() ? "true" : "false",
                       out);
      out->append(v.as_bool() ? "true" : "false");
      return;
    case Type::kNumber:
      if (c) {
        std::string text;
        json::FormatNumber(v, &text);
        bool nan = !v.is_integer() && std::isnan(v.as_double());
        return Colored(nan ? c->null_color : c->number_color, text, out);
      }
      json::FormatNumber(v, out);
      return;
    case Type::kString:
      if (c && !c->string_color.empty()) {
        std::string text;
        EncodeString(v.as_string(), options_.ascii, &text);
        return Colored(c->string_color, text, out);
      }
      EncodeString(v.as_string(), options_.ascii, out);
      return;
    case Type::kArray: {
      const std::string none;
      const std::string& color = c ? c->array_color : none;
      Colored(color, "[", out);
      auto items = v.items();
      for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) Colored(color, ",", out);
        if (!options_.compact) Newline(depth + 1, out);
        EncodeAt(items[i], depth + 1, out);
        MaybeSpill(out);
      }
      if (!items.empty() && !options_.compact) Newline(depth, out);
      Colored(color, "]", out);
      return;
    }
    case Type::kObject: {
      const std::string none;
      const std::string& color = c ? c->object_color : none;
      Colored(color, "{", out);
      std::vector<const Member*> members = v.sorted_members();
      for (size_t i = 0; i < members.size(); ++i) {
        if (i > 0) Colored(color, ",", out);
        if (!options_.compact) Newline(depth + 1, out);
        if (c && !c->key_color.empty()) {
          std::string key;
          EncodeString(members[i]->key.as_string(), options_.ascii, &key);
          Colored(c->key_color, key, out);
        } else {
          EncodeString(members[i]->key.as_string(), options_.ascii, out);
        }
        Colored(color, ":", out);
        if (!options_.compact) out->push_back(' ');
        EncodeAt(members[i]->value, depth + 1, out);
        MaybeSpill(out);
      }
      if (!members.empty() && !options_.compact) Newline(depth, out);
      Colored(color, "}", out);
      return;
    }
  }
}

void AppendCompactJson(const Value& v, std::string* out) {
  EncoderOptions options;
  options.compact = true;
  JsonEncoder(options).Encode(v, out);
}

}  // namespace wmap::cli
