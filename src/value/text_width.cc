// Display width and source excerpts (see wmap/text.h).
#include <cstdint>

#include "wmap/text.h"

namespace wmap::text {
namespace {

struct Range {
  uint32_t lo, hi;
};

// Characters that take two columns (East Asian Wide and Fullwidth, and emoji presentation).
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD},
};

// Characters that take no column (combining marks, zero-width characters, controls).
constexpr Range kZero[] = {
    {0x0000, 0x001F}, {0x007F, 0x009F}, {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD},
    {0x05BF, 0x05BF}, {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8},
    {0x06EA, 0x06ED}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x200B, 0x200F},
    {0x2028, 0x202E}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
};

template <size_t N>
bool InRanges(const Range (&ranges)[N], uint32_t cp) {
  size_t lo = 0, hi = N;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (cp > ranges[mid].hi) {
      lo = mid + 1;
    } else if (cp < ranges[mid].lo) {
      hi = mid;
    } else {
      return true;
    }
  }
  return false;
}

// The end of the line starting at `start`: the index of its "\n" or "\r" (or source.size()),
// and in *next the start of the following line ("\r\n" counts as one line end).
size_t LineEnd(std::string_view source, size_t start, size_t* next) {
  size_t end = source.find_first_of("\r\n", start);
  if (end == std::string_view::npos) {
    *next = source.size();
    return source.size();
  }
  *next = end + (source.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  return end;
}

}  // namespace

size_t DisplayWidth(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = DecodeUtf8(s, &i);
    if (InRanges(kZero, cp)) continue;
    width += InRanges(kWide, cp) ? 2 : 1;
  }
  return width;
}

SourceExcerpt ExcerptAt(std::string_view source, size_t offset) {
  constexpr size_t kWindowBefore = 48;
  constexpr size_t kWindowWidth = 64;
  SourceExcerpt excerpt;
  std::string_view line;
  size_t start = 0;
  // The line whose end (including its line break) lies beyond the offset; past the end of the
  // source, the last line.
  for (size_t pos = 0; pos < source.size();) {
    size_t next;
    size_t end = LineEnd(source, pos, &next);
    ++excerpt.line;
    line = source.substr(pos, end - pos);
    start = pos;
    pos = next;
    if (next > offset) break;
  }
  size_t column = offset >= start ? offset - start : 0;
  if (column > line.size()) column = line.size();
  if (column > kWindowBefore) {
    size_t skip = TrimTrailingInvalidUtf8(line.substr(0, column - kWindowBefore)).size();
    line = line.substr(skip);
    column -= skip;
  }
  if (line.size() > kWindowWidth) line = line.substr(0, kWindowWidth);
  line = TrimTrailingInvalidUtf8(line);
  column =
      column >= line.size() ? line.size() : TrimTrailingInvalidUtf8(line.substr(0, column)).size();
  excerpt.line_text = line;
  excerpt.column = DisplayWidth(line.substr(0, column));
  return excerpt;
}

std::string_view LineText(std::string_view source, int line) {
  size_t pos = 0;
  for (int n = 1; pos < source.size() || (n == line && pos == source.size()); ++n) {
    size_t next;
    size_t end = LineEnd(source, pos, &next);
    if (n == line) return source.substr(pos, end - pos);
    pos = next;
  }
  return {};
}

}  // namespace wmap::text
