// Byte-level text utilities shared by every layer: UTF-8 under Go's rules, terminal display
// width, base64, JSON-pointer tokens and source excerpts for error messages.
//
// UTF-8 follows Go's unicode/utf8: a sequence is well formed when it is not overlong, not a
// surrogate and not above U+10FFFF; a byte that does not start a well-formed sequence decodes
// as U+FFFD and advances by one byte. Nothing here allocates beyond its output, and every
// function is linear in its input.
#ifndef WMAP_TEXT_H_
#define WMAP_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "wmap/export.h"

WMAP_PUBLIC_BEGIN

namespace wmap::text {

inline constexpr uint32_t kReplacementCharacter = 0xFFFD;

// ---- UTF-8 ----

// The length (1..4) of the well-formed sequence starting at s[i] (i < s.size()), or 0 when the
// byte there does not start one.
size_t Utf8SequenceLength(std::string_view s, size_t i);

// The length a sequence starting with lead byte `b` claims (1 for ASCII, continuation and
// invalid bytes), without checking the bytes that follow. For text already known to be valid.
inline size_t Utf8LengthFromLead(unsigned char b) {
  if (b < 0xC0) return 1;
  if (b < 0xE0) return 2;
  if (b < 0xF0) return 3;
  return b < 0xF8 ? 4 : 1;
}

// Decodes the code point at s[*pos] (*pos < s.size()) and advances *pos past it; an invalid
// byte decodes as U+FFFD and advances by one.
uint32_t DecodeUtf8(std::string_view s, size_t* pos);

// Appends the UTF-8 encoding of c; surrogates and values above U+10FFFF become U+FFFD.
void AppendUtf8(uint32_t c, std::string* out);

bool IsValidUtf8(std::string_view s);

// The number of code points, each invalid byte counting as one.
size_t CodePointCount(std::string_view s);

// The largest index <= i (clamped to s.size()) that does not fall inside a UTF-8 sequence: cuts
// made there never split a character.
size_t Utf8Floor(std::string_view s, size_t i);

// s without a trailing incomplete or invalid sequence (looking at most three bytes back), as
// Go programs cut a line before printing it.
std::string_view TrimTrailingInvalidUtf8(std::string_view s);

// The number of terminal columns s takes: East Asian wide and fullwidth characters and emoji
// count two, combining marks, zero-width characters and controls none, invalid bytes one.
size_t DisplayWidth(std::string_view s);

// `s` safe to show on a terminal, as kubectl shows untrusted text: C0 control characters and DEL
// in caret notation (ESC is "^[", a line feed "^J"), C1 controls (U+0080..U+009F) as "\u0080",
// invalid UTF-8 bytes as "\xff"; everything else, and line feeds when `keep_newlines`,
// unchanged. Text without any of them is returned as is.
std::string EscapeForTerminal(std::string_view s, bool keep_newlines = false);

// ---- base64 (RFC 4648 standard alphabet) ----

// Appends the padded encoding of `bytes`.
void AppendBase64(std::string_view bytes, std::string* out);

// `s` with ASCII letters in lower case; other bytes (UTF-8 included) unchanged.
std::string AsciiLower(std::string_view s);

// Decodes as Go's encoding/base64 does: '\r' and '\n' anywhere are skipped; with `padded`
// (StdEncoding) the text must end in complete four-character groups, '=' only closing the last;
// without it (RawStdEncoding) '=' is invalid and a final group of 2 or 3 characters is allowed.
// On failure returns false and sets *bad_offset (when given) to the byte offset of the
// offending character in `text`. *out receives the decoded bytes (appended).
bool DecodeBase64(std::string_view text, bool padded, std::string* out,
                  size_t* bad_offset = nullptr);

// ---- JSON pointer (RFC 6901) tokens ----

// Appends `key` as a pointer token: '~' becomes "~0" and '/' becomes "~1" (no leading '/').
void AppendPointerToken(std::string_view key, std::string* out);
std::string PointerToken(std::string_view key);
// The key a token stands for: "~0" is '~' and "~1" is '/'; any other '~' stays as it is.
std::string UnescapePointerToken(std::string_view token);

// ---- source excerpts ----

// One line of a source cut for an error message, with the caret's column.
struct SourceExcerpt {
  std::string_view line_text;  // at most 64 bytes of the line, never cut inside a character
  int line = 0;                // 1-based; 0 for an empty source
  size_t column = 0;           // display columns of line_text before the caret
};

// The line holding byte `offset` (0-based) of `source`, as gojq presents it under its error
// messages: lines end at "\n", "\r\n" or "\r"; a long line shows a 64-byte window starting 48
// bytes before the offset; an offset past the end points just after the last line.
SourceExcerpt ExcerptAt(std::string_view source, size_t offset);

// The text of the 1-based line `line` (empty when there is no such line), same line ends.
std::string_view LineText(std::string_view source, int line);

}  // namespace wmap::text

WMAP_PUBLIC_END

#endif  // WMAP_TEXT_H_
