// EscapeForTerminal: untrusted text (object names, file names, messages quoting them) made safe
// for a terminal, so that no escape sequence in an object reaches it.
#include <cstdio>
#include <string>

#include "wmap/text.h"

namespace wmap::text {
namespace {

bool NeedsEscape(std::string_view s, bool keep_newlines) {
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b == '\n' && keep_newlines) continue;
    if (b < 0x20 || b == 0x7f || b >= 0x80) {
      if (b < 0x80) return true;
      // Anything but plain, valid, non-C1 UTF-8 needs a look.
      size_t pos = i;
      const uint32_t c = DecodeUtf8(s, &pos);
      if (c == 0xFFFD && s.substr(i, 3) != "\xEF\xBF\xBD") return true;
      if (c >= 0x80 && c <= 0x9F) return true;
      i = pos - 1;
    }
  }
  return false;
}

}  // namespace

std::string EscapeForTerminal(std::string_view s, bool keep_newlines) {
  if (!NeedsEscape(s, keep_newlines)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  char buf[8];
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b == '\n' && keep_newlines) {
      out.push_back('\n');
      ++i;
    } else if (b < 0x20) {
      out.push_back('^');
      out.push_back(static_cast<char>(b + 0x40));  // ^@ .. ^_
      ++i;
    } else if (b == 0x7f) {
      out += "^?";
      ++i;
    } else if (b < 0x80) {
      out.push_back(static_cast<char>(b));
      ++i;
    } else {
      size_t pos = i;
      const uint32_t c = DecodeUtf8(s, &pos);
      const bool invalid = c == 0xFFFD && s.substr(i, 3) != "\xEF\xBF\xBD";
      if (invalid) {
        std::snprintf(buf, sizeof buf, "\\x%02x", b);
        out += buf;
        ++i;
      } else if (c >= 0x80 && c <= 0x9F) {
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
        i = pos;
      } else {
        out.append(s.substr(i, pos - i));
        i = pos;
      }
    }
  }
  return out;
}

}  // namespace wmap::text
