#include "jq/eval/preview.h"

#include <string_view>

#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::jq::eval {
namespace {

constexpr size_t kLimit = 32;  // bytes rendered before giving up
constexpr size_t kShown = 30;  // longest preview

// Appends compact JSON of v to *out; returns false once *out holds kLimit bytes or more.
bool Render(const Value& v, std::string* out) {
  if (out->size() >= kLimit) return false;
  switch (v.type()) {
    case Type::kNull:
      out->append("null");
      break;
    case Type::kBoolean:
      out->append(v.as_bool() ? "true" : "false");
      break;
    case Type::kNumber:
      json::FormatNumber(v, out);
      break;
    case Type::kString: {
      std::string_view s = v.as_string();
      // Escaping never shortens, so a prefix of the string is enough.
      if (s.size() > kLimit + 4) {
        s = s.substr(0, text::Utf8Floor(s, kLimit + 4));
        std::string tmp;
        json::WriteString(s, false, &tmp);
        tmp.pop_back();  // the closing quote of the shortened string
        out->append(tmp);
      } else {
        json::WriteString(s, false, out);
      }
      break;
    }
    case Type::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.items()) {
        if (!first) out->push_back(',');
        first = false;
        if (!Render(item, out)) return false;
      }
      out->push_back(']');
      break;
    }
    case Type::kObject: {
      out->push_back('{');
      bool first = true;
      for (const Member* m : v.sorted_members()) {
        if (!first) out->push_back(',');
        first = false;
        json::WriteString(m->key.as_string(), false, out);
        if (out->size() >= kLimit) return false;
        out->push_back(':');
        if (!Render(m->value, out)) return false;
      }
      out->push_back('}');
      break;
    }
  }
  return out->size() < kLimit;
}

}  // namespace

std::string Preview(const Value& v) {
  std::string s;
  Render(v, &s);
  if (s.size() > kLimit) s.resize(kLimit);
  if (s.size() <= kShown) return s;
  std::string_view trailing;
  switch (v.type()) {
    case Type::kString:
      trailing = " ...\"";
      break;
    case Type::kArray:
      trailing = " ...]";
      break;
    case Type::kObject:
      trailing = " ...}";
      break;
    default:
      trailing = " ...";
  }
  size_t keep = kShown - trailing.size();
  // Cut at a UTF-8 character boundary (gojq removes whole runes).
  while (s.size() > keep) {
    size_t n = s.size() - 1;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    s.resize(n);
  }
  s.append(trailing);
  return s;
}

std::string TypeErrorPreview(const Value& v) {
  if (v.is_null()) return "null";
  std::string out(TypeName(v.type()));
  out.append(" (");
  out.append(Preview(v));
  out.push_back(')');
  return out;
}

}  // namespace wmap::jq::eval
