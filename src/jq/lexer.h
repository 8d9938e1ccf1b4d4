// The jq lexer: turns program text into tokens on demand, one token of lookahead at a time.
//
// Token boundaries, keywords, number syntax, string escapes and comment rules follow gojq. String
// literals with interpolation are lexed in cooperation with the parser: a literal that reaches
// `\(` yields kStringStart; after the parser has consumed the interpolated query and its closing
// `)`, it calls NextStringPart() to continue inside the same literal.
//
// Every token also carries what gojq would report if a parse error happened at it: the text to
// quote (`error_text`) and the byte offset the caret points at (`error_offset`). The lexer never
// fails: malformed input becomes kInvalid / kInvalidEscape / kUnterminatedString tokens, which the
// parser reports when it reaches them.
#ifndef WMAP_JQ_LEXER_H_
#define WMAP_JQ_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace wmap::jq {

enum class TokenKind : uint8_t {
  kEOF,
  kIdent,           // name or keyword-free identifier; value = name
  kModuleIdent,     // mod::name; value = "mod::name"
  kVariable,        // $name; value = "name" (without '$')
  kModuleVariable,  // $mod::name; value = "mod::name"
  kField,           // .name (no space after the dot); value = "name"
  kNumber,          // text = literal; value unused
  kFormat,          // @name; value = "@name"
  kString,          // a complete literal without interpolation; value = decoded text
  kStringStart,     // `"...\(`: value = decoded text before the interpolation
  kStringPart,      // from NextStringPart: value = decoded text; `string_ends` tells which
  kRecurse,         // ..
  kAltOp,           // //
  kDestAltOp,       // ?//
  kUpdateOp,        // = |= += -= *= /= %= //=  (text tells which)
  kCompareOp,       // == != < <= > >=          (text tells which)
  kOr,
  kAnd,
  // Keywords other than and/or.
  kModule,
  kImport,
  kInclude,
  kDef,
  kAs,
  kLabel,
  kBreak,
  kNull,
  kTrue,
  kFalse,
  kIf,
  kThen,
  kElif,
  kElse,
  kEnd,
  kTry,
  kCatch,
  kReduce,
  kForeach,
  // A single character that has no token of its own: | , + - * / % . ? [ ] ( ) { } ; : and
  // anything unexpected ($ alone, @ alone, &, !, non-ASCII characters...). text = the character.
  kPunct,
  // Lexical errors.
  kInvalid,             // malformed number or string
  kInvalidEscape,       // text = the bad escape sequence, e.g. `\x`
  kUnterminatedString,  // the input ended inside a string literal
};

struct Token {
  TokenKind kind = TokenKind::kEOF;
  size_t offset = 0;        // byte offset of the first character of the token
  size_t end = 0;           // byte offset just past the token
  std::string_view text;    // the token's source text (a view into the program)
  std::string value;        // decoded content, see TokenKind
  bool string_ends = true;  // kStringPart: the literal ends here (else a `\(` follows)
  char punct = 0;           // kPunct: the ASCII character, or 0 for a non-ASCII one

  // What gojq reports for a parse error at this token.
  std::string_view error_text;
  size_t error_offset = 0;

  bool is(char c) const { return kind == TokenKind::kPunct && punct == c; }
};

// Scans one program text. The text must outlive the lexer and its tokens.
class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  // The next token after the previous one (skipping white space and comments).
  Token Next();
  // Continues a string literal right after the `)` that closed an interpolation.
  Token NextStringPart();

  std::string_view source() const { return src_; }

 private:
  Token Make(TokenKind kind, size_t start);
  Token ScanNumber(size_t start, bool after_dot);
  // Scans string content from pos_ up to the closing quote or `\(`. `start` is where the token
  // starts (the opening quote, or the first character after `)`).
  Token ScanString(size_t start, bool continuation);
  void SkipSpaceAndComments();
  size_t ScanIdentTail(size_t i) const;

  std::string_view src_;
  size_t pos_ = 0;
  // gojq's notion of "the last token text", used to quote a kStringStart token in errors.
  std::string_view last_text_;
};

// Decodes the body of a JSON-style string literal (escapes already validated by the lexer):
// \uXXXX with surrogate pairs (a lone surrogate becomes U+FFFD), and invalid UTF-8 bytes each
// become U+FFFD, as gojq does.
std::string DecodeStringLiteral(std::string_view body);

}  // namespace wmap::jq

#endif  // WMAP_JQ_LEXER_H_
