// UTF-8, base64 and JSON-pointer tokens (see wmap/text.h).
#include "wmap/text.h"

#include "value/json_scan.h"

namespace wmap::text {

size_t Utf8SequenceLength(std::string_view s, size_t i) {
  if (static_cast<unsigned char>(s[i]) < 0x80) return 1;
  return internal::ValidUtf8Sequence(s.data() + i, s.data() + s.size());
}

uint32_t DecodeUtf8(std::string_view s, size_t* pos) {
  size_t i = *pos;
  auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
  switch (Utf8SequenceLength(s, i)) {
    case 1:
      *pos = i + 1;
      return b(0);
    case 2:
      *pos = i + 2;
      return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
    case 3:
      *pos = i + 3;
      return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    case 4:
      *pos = i + 4;
      return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    default:
      *pos = i + 1;
      return kReplacementCharacter;
  }
}

void AppendUtf8(uint32_t c, std::string* out) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = kReplacementCharacter;
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
    return;
  }
  char buf[4];
  size_t n;
  if (c < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (c >> 6));
    n = 2;
  } else if (c < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (c >> 12));
    buf[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    n = 3;
  } else {
    buf[0] = static_cast<char>(0xF0 | (c >> 18));
    buf[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    buf[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    n = 4;
  }
  buf[n - 1] = static_cast<char>(0x80 | (c & 0x3F));
  out->append(buf, n);
}

bool IsValidUtf8(std::string_view s) {
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    p = internal::ScanSpecial<true>(p, end);  // stops at bytes >= 0x80 (and ASCII specials)
    if (p == end) break;
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    size_t n = internal::ValidUtf8Sequence(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

size_t CodePointCount(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++count) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
    } else {
      DecodeUtf8(s, &i);
    }
  }
  return count;
}

size_t Utf8Floor(std::string_view s, size_t i) {
  if (i >= s.size()) return s.size();
  while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

std::string_view TrimTrailingInvalidUtf8(std::string_view s) {
  for (size_t k = 0; k < s.size() && k < 3; ++k) {
    size_t i = s.size() - 1 - k;
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) return s.substr(0, i + 1);
    if ((b & 0xC0) != 0x80) {  // a lead byte: keep it only if it starts a complete sequence
      return Utf8SequenceLength(s, i) == 0 ? s.substr(0, i) : s;
    }
  }
  return s;
}

namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool Fail(size_t offset, size_t* bad_offset) {
  if (bad_offset != nullptr) *bad_offset = offset;
  return false;
}

}  // namespace

void AppendBase64(std::string_view bytes, std::string* out) {
  out->reserve(out->size() + (bytes.size() + 2) / 3 * 4);
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k])); };
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t n = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out->push_back(kBase64Alphabet[(n >> shift) & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest == 0) return;
  uint32_t n = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
  out->push_back(kBase64Alphabet[(n >> 18) & 63]);
  out->push_back(kBase64Alphabet[(n >> 12) & 63]);
  out->push_back(rest == 2 ? kBase64Alphabet[(n >> 6) & 63] : '=');
  out->push_back('=');
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool DecodeBase64(std::string_view text, bool padded, std::string* out, size_t* bad_offset) {
  uint32_t acc = 0;
  int bits = 0;
  size_t in_group = 0;  // characters of the current four-character group seen
  size_t last = 0;      // offset of the last alphabet character
  size_t padding = 0;   // '=' seen (padded mode: they close the final group)
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r') continue;
    if (c == '=') {
      if (!padded || in_group < 2) return Fail(i, bad_offset);
      ++padding;
      if (in_group + padding > 4) return Fail(i, bad_offset);
      continue;
    }
    int digit = Base64Digit(c);
    if (digit < 0 || padding > 0) return Fail(i, bad_offset);
    acc = (acc << 6) | static_cast<uint32_t>(digit);
    bits += 6;
    last = i;
    in_group = (in_group + 1) % 4;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (in_group == 1) return Fail(last, bad_offset);
  if (padded && in_group != 0 && in_group + padding != 4) return Fail(text.size(), bad_offset);
  return true;
}

void AppendPointerToken(std::string_view key, std::string* out) {
  for (char c : key) {
    if (c == '~') {
      out->append("~0");
    } else if (c == '/') {
      out->append("~1");
    } else {
      out->push_back(c);
    }
  }
}

std::string PointerToken(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  AppendPointerToken(key, &out);
  return out;
}

std::string UnescapePointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out.push_back(token[++i] == '0' ? '~' : '/');
    } else {
      out.push_back(token[i]);
    }
  }
  return out;
}

}  // namespace wmap::text
