#include "jq/lexer.h"

#include <array>

#include "wmap/text.h"

namespace wmap::jq {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentTail(char c) { return IsIdentStart(c) || IsDigit(c); }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsWhite(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

struct Keyword {
  std::string_view name;
  TokenKind kind;
};
constexpr std::array<Keyword, 21> kKeywords = {{
    {"or", TokenKind::kOr},           {"and", TokenKind::kAnd},
    {"module", TokenKind::kModule},   {"import", TokenKind::kImport},
    {"include", TokenKind::kInclude}, {"def", TokenKind::kDef},
    {"as", TokenKind::kAs},           {"label", TokenKind::kLabel},
    {"break", TokenKind::kBreak},     {"null", TokenKind::kNull},
    {"true", TokenKind::kTrue},       {"false", TokenKind::kFalse},
    {"if", TokenKind::kIf},           {"then", TokenKind::kThen},
    {"elif", TokenKind::kElif},       {"else", TokenKind::kElse},
    {"end", TokenKind::kEnd},         {"try", TokenKind::kTry},
    {"catch", TokenKind::kCatch},     {"reduce", TokenKind::kReduce},
    {"foreach", TokenKind::kForeach},
}};

uint32_t HexValue(std::string_view s) {
  uint32_t v = 0;
  for (char c : s) {
    v <<= 4;
    if (IsDigit(c)) {
      v |= static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<uint32_t>(c - 'a' + 10);
    } else {
      v |= static_cast<uint32_t>(c - 'A' + 10);
    }
  }
  return v;
}

}  // namespace

std::string DecodeStringLiteral(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  size_t i = 0;
  while (i < body.size()) {
    const char c = body[i];
    if (c == '\\' && i + 1 < body.size()) {
      const char e = body[i + 1];
      i += 2;
      switch (e) {
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          if (i + 4 > body.size()) {  // cannot happen after the lexer's validation
            text::AppendUtf8(text::kReplacementCharacter, &out);
            i = body.size();
            break;
          }
          uint32_t cp = HexValue(body.substr(i, 4));
          i += 4;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i + 6 <= body.size() && body[i] == '\\' && body[i + 1] == 'u' &&
                IsHex(body[i + 2]) && IsHex(body[i + 3]) && IsHex(body[i + 4]) &&
                IsHex(body[i + 5])) {
              const uint32_t lo = HexValue(body.substr(i + 2, 4));
              if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
                text::AppendUtf8(cp, &out);
                break;
              }
            }
            cp = text::kReplacementCharacter;
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = text::kReplacementCharacter;
          }
          text::AppendUtf8(cp, &out);
          break;
        }
        default:  // '"', '/', '\\' stand for themselves
          out.push_back(e);
          break;
      }
      continue;
    }
    const size_t n = text::Utf8SequenceLength(body, i);
    if (n == 0) {
      text::AppendUtf8(text::kReplacementCharacter, &out);
      ++i;
    } else {
      out.append(body.substr(i, n));
      i += n;
    }
  }
  return out;
}

size_t Lexer::ScanIdentTail(size_t i) const {
  while (i < src_.size() && IsIdentTail(src_[i])) ++i;
  return i;
}

Token Lexer::Make(TokenKind kind, size_t start) {
  Token t;
  t.kind = kind;
  t.offset = start;
  t.end = pos_;
  t.text = src_.substr(start, pos_ - start);
  t.error_text = t.text;
  t.error_offset = start;
  return t;
}

void Lexer::SkipSpaceAndComments() {
  while (pos_ < src_.size()) {
    const char c = src_[pos_];
    if (IsWhite(c)) {
      ++pos_;
    } else if (c == '#') {
      // A comment runs to the end of the line; a backslash escapes the next character, so a
      // line ending preceded by an odd number of backslashes continues the comment ("\r\n"
      // counts as one line ending).
      size_t i = pos_ + 1;
      while (i < src_.size()) {
        const char d = src_[i];
        if (d == '\\') {
          ++i;
          if (i < src_.size()) {
            i += (src_[i] == '\r' && i + 1 < src_.size() && src_[i + 1] == '\n') ? 2 : 1;
          }
        } else if (d == '\n' || d == '\r') {
          break;
        } else {
          ++i;
        }
      }
      pos_ = i;
    } else {
      break;
    }
  }
}

Token Lexer::Next() {
  SkipSpaceAndComments();
  const size_t start = pos_;
  if (pos_ >= src_.size()) {
    last_text_ = {};
    return Make(TokenKind::kEOF, start);
  }
  const char c = src_[pos_];
  const auto peek = [&](size_t k) { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; };

  if (IsIdentStart(c)) {
    size_t j = ScanIdentTail(pos_ + 1);
    bool module = false;
    if (j + 2 < src_.size() && src_[j] == ':' && src_[j + 1] == ':' && IsIdentStart(src_[j + 2])) {
      j = ScanIdentTail(j + 3);
      module = true;
    }
    pos_ = j;
    Token t = Make(module ? TokenKind::kModuleIdent : TokenKind::kIdent, start);
    t.value = std::string(t.text);
    if (!module) {
      for (const Keyword& k : kKeywords) {
        if (k.name == t.text) {
          t.kind = k.kind;
          break;
        }
      }
    }
    last_text_ = t.text;
    return t;
  }
  if (IsDigit(c)) return ScanNumber(start, false);

  const auto op = [&](TokenKind kind, size_t len) {
    pos_ += len;
    Token t = Make(kind, start);
    last_text_ = t.text;
    return t;
  };
  switch (c) {
    case '.':
      if (peek(1) == '.') return op(TokenKind::kRecurse, 2);
      if (IsIdentStart(peek(1))) {
        pos_ = ScanIdentTail(pos_ + 1);
        Token t = Make(TokenKind::kField, start);
        t.value = std::string(t.text.substr(1));
        last_text_ = t.text;
        return t;
      }
      if (IsDigit(peek(1))) return ScanNumber(start, true);
      break;
    case '$':
      if (IsIdentStart(peek(1))) {
        size_t j = ScanIdentTail(pos_ + 1);
        bool module = false;
        if (j + 2 < src_.size() && src_[j] == ':' && src_[j + 1] == ':' &&
            IsIdentStart(src_[j + 2])) {
          j = ScanIdentTail(j + 3);
          module = true;
        }
        pos_ = j;
        Token t = Make(module ? TokenKind::kModuleVariable : TokenKind::kVariable, start);
        t.value = std::string(t.text.substr(1));
        last_text_ = t.text;
        return t;
      }
      break;
    case '|':
      if (peek(1) == '=') return op(TokenKind::kUpdateOp, 2);
      break;
    case '?':
      if (peek(1) == '/' && peek(2) == '/') return op(TokenKind::kDestAltOp, 3);
      break;
    case '+':
    case '-':
    case '*':
    case '%':
      if (peek(1) == '=') return op(TokenKind::kUpdateOp, 2);
      break;
    case '/':
      if (peek(1) == '=') return op(TokenKind::kUpdateOp, 2);
      if (peek(1) == '/') {
        if (peek(2) == '=') return op(TokenKind::kUpdateOp, 3);
        return op(TokenKind::kAltOp, 2);
      }
      break;
    case '=':
      if (peek(1) == '=') return op(TokenKind::kCompareOp, 2);
      return op(TokenKind::kUpdateOp, 1);
    case '!':
      if (peek(1) == '=') return op(TokenKind::kCompareOp, 2);
      break;
    case '<':
    case '>':
      return op(TokenKind::kCompareOp, peek(1) == '=' ? 2 : 1);
    case '@':
      if (IsIdentTail(peek(1))) {
        pos_ = ScanIdentTail(pos_ + 1);
        Token t = Make(TokenKind::kFormat, start);
        t.value = std::string(t.text);
        last_text_ = t.text;
        return t;
      }
      break;
    case '"':
      pos_ = start + 1;
      return ScanString(start, false);
    default:
      break;
  }
  // A single character. Non-ASCII characters are taken whole (an invalid byte alone, quoted as
  // U+FFFD in messages).
  const auto b = static_cast<unsigned char>(c);
  if (b >= 0x80) {
    const size_t n = text::Utf8SequenceLength(src_, pos_);
    pos_ += n == 0 ? 1 : n;
    Token t = Make(TokenKind::kPunct, start);
    if (n == 0) t.error_text = "\xEF\xBF\xBD";
    last_text_ = t.error_text;
    return t;
  }
  ++pos_;
  Token t = Make(TokenKind::kPunct, start);
  t.punct = c;
  return t;
}

Token Lexer::ScanNumber(size_t start, bool after_dot) {
  size_t i = start + 1;
  enum { kLead, kFloat, kExpLead, kExp } state = after_dot ? kFloat : kLead;
  const auto at = [&](size_t k) { return k < src_.size() ? src_[k] : '\0'; };
  const auto invalid = [&](size_t end) {
    pos_ = end;
    Token t = Make(TokenKind::kInvalid, start);
    last_text_ = t.text;
    return t;
  };
  for (;;) {
    const char c = at(i);
    if (state == kLead || state == kFloat) {
      if (IsDigit(c)) {
        ++i;
      } else if (c == '.') {
        if (state != kLead) return invalid(i + 1);
        ++i;
        state = kFloat;
      } else if (c == 'e' || c == 'E') {
        ++i;
        if (at(i) == '+' || at(i) == '-') ++i;
        state = kExpLead;
      } else if (IsIdentStart(c)) {
        return invalid(i + 1);
      } else {
        break;
      }
    } else {
      if (!IsDigit(c)) {
        if (IsIdentStart(c)) return invalid(i + 1);
        if (state == kExpLead) return invalid(i);
        break;
      }
      ++i;
      state = kExp;
    }
  }
  pos_ = i;
  Token t = Make(TokenKind::kNumber, start);
  last_text_ = t.text;
  return t;
}

Token Lexer::NextStringPart() {
  if (pos_ >= src_.size()) {  // gojq checks for the end of input before resuming the string
    last_text_ = {};
    return Make(TokenKind::kEOF, pos_);
  }
  return ScanString(pos_, true);
}

Token Lexer::ScanString(size_t start, bool continuation) {
  const size_t content = continuation ? start : start + 1;
  size_t i = pos_;
  while (i < src_.size()) {
    const char c = src_[i];
    if (c == '\\') {
      ++i;
      if (i >= src_.size()) break;
      const char e = src_[i];
      if (e == 'u') {
        for (size_t j = 1; j <= 4; ++j) {
          if (i + j >= src_.size() || !IsHex(src_[i + j])) {
            pos_ = i + j;
            Token t = Make(TokenKind::kInvalidEscape, i - 1);
            t.offset = start;
            last_text_ = t.text;
            return t;
          }
        }
        i += 5;
        continue;
      }
      if (e == '"' || e == '/' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
          e == 't') {
        ++i;
        continue;
      }
      if (e == '(') {
        pos_ = i + 1;
        Token t = Make(continuation ? TokenKind::kStringPart : TokenKind::kStringStart, start);
        t.value = DecodeStringLiteral(src_.substr(content, i - 1 - content));
        t.string_ends = false;
        if (!continuation) {
          // gojq reports this token with the previous token's text, ending after the quote.
          t.error_text = last_text_;
          t.error_offset = start + 1 >= last_text_.size() ? start + 1 - last_text_.size() : 0;
        }
        if (i - 1 > content) last_text_ = src_.substr(content, i - 1 - content);
        return t;
      }
      pos_ = i + 1;
      Token t = Make(TokenKind::kInvalidEscape, i - 1);
      t.offset = start;
      last_text_ = t.text;
      return t;
    }
    if (c == '"') {
      pos_ = i + 1;
      Token t = Make(continuation ? TokenKind::kStringPart : TokenKind::kString, start);
      t.value = DecodeStringLiteral(src_.substr(content, i - content));
      t.string_ends = true;
      if (!continuation) {
        last_text_ = t.text;
      } else if (i > content) {
        last_text_ = src_.substr(content, i - content);
      }
      return t;
    }
    ++i;
  }
  pos_ = src_.size();
  Token t = Make(TokenKind::kUnterminatedString, start);
  t.error_text = {};
  t.error_offset = src_.size();
  last_text_ = {};
  return t;
}

}  // namespace wmap::jq
