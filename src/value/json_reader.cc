// JSON reader: a single-pass, non-recursive parser that builds Values directly.
//
// Containers under construction live on an explicit stack, so nesting depth costs heap memory
// (bounded by ReadOptions::max_depth), never native stack. Completed elements are collected on a
// shared scratch stack and moved into an exactly sized container when it closes.
//
// Error messages follow Go's encoding/json scanner (which gojq uses for its input), and the
// position points at the offending byte (or at the end of input for "unexpected EOF").
// Invalid UTF-8 bytes and unpaired surrogate escapes become U+FFFD, as in Go.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "value/json_scan.h"
#include "value/share_table.h"
#include "value/value_nodes.h"
#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::json {
namespace {

using internal::ShareTable;
using internal::ValueBuilder;

// How much text the owner has been allowed to drop (ReadOptions::release_consumed): the text
// before `released` is never read again; `lines` counts its newlines and `line_start` is the
// offset just past the last of them (0 when none), so that error positions stay exact.
struct ReleasedText {
  size_t released = 0;
  int lines = 0;
  size_t line_start = 0;
  size_t next = 0;  // offset at which to release next; 0 before the first value
};

// Text kept behind the parse position when releasing, so that an error's context (a window
// before its position) is still readable.
constexpr size_t kKeptBehind = size_t{64} << 10;

struct Frame {
  size_t start;  // index into the scratch stack of this container's first element
  bool is_object;
};

// A stack of Values whose unused slots are always null: popping moves values out and leaves
// the (null) slots in place, so neither pushing nor popping runs constructors or destructors.
class ValueStack {
 public:
  size_t size() const { return top_; }
  Value& operator[](size_t i) { return slots_[i]; }
  Value& back() { return slots_[top_ - 1]; }
  Value* begin() { return slots_.data(); }
  // A null slot on top.
  Value& push() {
    if (top_ == slots_.size()) slots_.resize(slots_.empty() ? 256 : slots_.size() * 2);
    return slots_[top_++];
  }
  // Drops every slot from n up; those slots must already be null (moved from).
  void truncate_moved(size_t n) { top_ = n; }
  // Drops everything, releasing values still held (after an error).
  void clear() {
    for (size_t i = 0; i < top_; ++i) slots_[i] = Value();
    top_ = 0;
  }
  // Gives back the memory of an unusually large stack (after a document with a huge container).
  void trim() {
    if (top_ == 0 && slots_.size() > kRetainedSlots) std::vector<Value>().swap(slots_);
  }
  static constexpr size_t kRetainedSlots = 1 << 16;

 private:
  std::vector<Value> slots_;
  size_t top_ = 0;
};

// Scratch memory reused by every parse on a thread (parsing never calls out, so it is not
// reentered).
struct Scratch {
  ValueStack stack;
  std::vector<Frame> frames;
  std::string buffer;
  // Recently seen object keys longer than Value's inline capacity, direct-mapped by hash, so
  // that repeated long keys share one string node instead of allocating one each.
  static constexpr size_t kKeyCacheSize = 512;
  Value key_cache[kKeyCacheSize];
};

Scratch& ThreadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

inline bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Go's quoteChar: the byte as a code point, quoted as strconv.Quote would.
std::string QuoteChar(unsigned char c) {
  switch (c) {
    case '\'':
      return "'\\''";
    case '"':
      return "'\"'";
    case '\a':
      return "'\\a'";
    case '\b':
      return "'\\b'";
    case '\f':
      return "'\\f'";
    case '\n':
      return "'\\n'";
    case '\r':
      return "'\\r'";
    case '\t':
      return "'\\t'";
    case '\v':
      return "'\\v'";
    case '\\':
      return "'\\\\'";
    default:
      break;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  if (c < 0x20 || c == 0x7f) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  } else if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0xa1 || c == 0xad) {
    out += "\\u00";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  } else {
    text::AppendUtf8(c, &out);  // the byte as the code point U+00XX
  }
  out += '\'';
  return out;
}

constexpr char kReplacement[] = "\xef\xbf\xbd";

// The character that a one-letter escape stands for, indexed by the letter; 0 for others.
constexpr auto kSimpleEscapes = [] {
  std::array<char, 256> table{};
  table['"'] = '"';
  table['\\'] = '\\';
  table['/'] = '/';
  table['b'] = '\b';
  table['f'] = '\f';
  table['n'] = '\n';
  table['r'] = '\r';
  table['t'] = '\t';
  return table;
}();

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// True when the writer prints `number` (the double parsed from `text`, a JSON number with a
// fraction or exponent) as exactly `text`. Without an exponent, the writer's text is the fixed
// form of the shortest round-trip digits when 1e-6 <= |number| < 1e21, so the text matches when
// it has no trailing zero, the magnitude is in that range and its significant digits are the
// shortest digits. Short texts (at most 15 significant digits, which always round-trip and so
// are the shortest) are accepted without computing digits; texts with an exponent are compared
// with the printed form.
bool PrintsAsItself(std::string_view text, const Value& number) {
  if (text.find_first_of("eE") != std::string_view::npos) {
    std::string printed;
    FormatNumber(number, &printed);
    return printed == text;
  }
  if (text.back() == '0') return false;
  double x = std::fabs(number.as_double());
  if (x < 1e-6 || x >= 1e21) return false;
  char digits[32];  // the text's significant digits
  size_t n = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9' && (n > 0 || c != '0')) {
      if (n == sizeof(digits)) return false;  // longer than any shortest form
      digits[n++] = c;
    }
  }
  if (n <= 15) return true;
  char buf[40];
  auto res = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific);
  size_t m = 0;
  for (const char* q = buf; q < res.ptr && *q != 'e'; ++q) {
    if (*q == '.') continue;
    if (m >= n || *q != digits[m]) return false;
    ++m;
  }
  return m == n;
}

class Parser {
 public:
  // share: the table of ReadOptions::share_repeated, or null. released: the state of
  // ReadOptions::release_consumed, kept by the caller across values of a stream.
  Parser(std::string_view text, const ReadOptions& options, Scratch* scratch, ShareTable* share,
         ReleasedText* released)
      : begin_(text.data()),
        end_(text.data() + text.size()),
        max_depth_(options.max_depth),
        gojq_numbers_(options.gojq_numbers),
        scratch_(*scratch),
        share_(share),
        released_(*released),
        release_(options.release_consumed ? &options.release_consumed : nullptr),
        release_interval_(std::max<size_t>(options.release_interval, kKeptBehind)) {}

  // Parses one value starting at *pos (leading whitespace allowed). On success stores it in
  // *out, advances *pos past it and returns true; otherwise fills error().
  bool ParseOne(size_t* pos, Value* out);
  Error& error() { return error_; }
  // Records "invalid character <c> <context>" at `at`; returns false.
  bool FailChar(const char* at, const char* context);

 private:
  bool Fail(const char* at, std::string message);
  bool Eof() { return Fail(end_, "unexpected EOF"); }
  void SkipSpace(const char*& p) const {
    while (p < end_ && IsSpace(*p)) ++p;
  }
  // Parses the string literal at p into *out. Keys longer than the inline capacity are shared
  // through the key cache.
  template <bool kIsKey>
  bool ParseString(const char*& p, Value* out);
  bool ParseStringSlow(const char*& p, const char* start, Value* out);
  bool ParseEscape(const char*& p, std::string* buf);
  bool ParseNumber(const char*& p, Value* out);
  bool ParseLiteral(const char*& p, std::string_view word, const char* name);
  Value CloseArray(size_t start);
  Value CloseObject(size_t start);
  // With share_: when an equal container was read before, drops the elements at stack[start..]
  // and sets *out to it; always sets *hash, for inserting the container built otherwise.
  bool TakeShared(size_t start, bool is_object, uint64_t* hash, Value* out);
  // A long string Value for s, shared with an equal one met before when possible.
  Value SharedString(std::string_view s);
  // Lets the owner drop the text up to kKeptBehind bytes before p.
  void ReleaseBefore(const char* p);

  const char* begin_;
  const char* end_;
  size_t max_depth_;
  bool gojq_numbers_;
  Scratch& scratch_;
  ShareTable* share_;
  ReleasedText& released_;
  const std::function<void(size_t)>* release_;
  size_t release_interval_;
  Error error_;
};

Value Parser::SharedString(std::string_view s) {
  uint64_t hash = internal::HashKey(s);
  if (const Value* same = share_->FindString(hash, s)) return *same;
  Value v = Value::String(s);
  share_->Insert(hash, v);
  return v;
}

void Parser::ReleaseBefore(const char* p) {
  size_t at = static_cast<size_t>(p - begin_);
  released_.next = at + release_interval_;
  if (at <= kKeptBehind) return;
  size_t upto = at - kKeptBehind;
  if (upto <= released_.released) return;
  const char* q = begin_ + released_.released;
  const char* stop = begin_ + upto;
  while (q < stop) {
    const void* nl = std::memchr(q, '\n', static_cast<size_t>(stop - q));
    if (nl == nullptr) break;
    q = static_cast<const char*>(nl) + 1;
    ++released_.lines;
    released_.line_start = static_cast<size_t>(q - begin_);
  }
  released_.released = upto;
  (*release_)(upto);
}

bool Parser::Fail(const char* at, std::string message) {
  error_.message = std::move(message);
  size_t offset = static_cast<size_t>(at - begin_);
  int line = 1 + released_.lines;
  const char* line_start = begin_ + released_.line_start;
  for (const char* q = begin_ + released_.released; q < at; ++q) {
    if (*q == '\n') {
      ++line;
      line_start = q + 1;
    }
  }
  error_.position.line = line;
  error_.position.column = static_cast<int>(at - line_start) + 1;
  error_.position.offset = offset;
  return false;
}

bool Parser::FailChar(const char* at, const char* context) {
  std::string msg = "invalid character ";
  msg += QuoteChar(static_cast<unsigned char>(*at));
  msg += ' ';
  msg += context;
  return Fail(at, std::move(msg));
}

bool Parser::ParseLiteral(const char*& p, std::string_view word, const char* name) {
  // p points at the first letter, already known to match.
  for (size_t i = 1; i < word.size(); ++i) {
    if (p + i >= end_) return Eof();
    if (p[i] != word[i]) {
      std::string ctx = "in literal ";
      ctx += name;
      ctx += " (expecting ";
      ctx += QuoteChar(static_cast<unsigned char>(word[i]));
      ctx += ')';
      return FailChar(p + i, ctx.c_str());
    }
  }
  p += word.size();
  return true;
}

bool Parser::ParseNumber(const char*& p, Value* out) {
  const char* start = p;
  bool negative = false;
  if (*p == '-') {
    negative = true;
    ++p;
    if (p == end_) return Eof();
    if (!IsDigit(*p)) return FailChar(p, "in numeric literal");
  }
  const char* digits = p;
  if (*p == '0') {
    ++p;
  } else {
    while (p < end_ && IsDigit(*p)) ++p;
  }
  const char* digits_end = p;
  bool integral = true;
  if (p < end_ && *p == '.') {
    ++p;
    if (p == end_) return Eof();
    if (!IsDigit(*p)) return FailChar(p, "after decimal point in numeric literal");
    while (p < end_ && IsDigit(*p)) ++p;
    integral = false;
  }
  if (p < end_ && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end_ && (*p == '+' || *p == '-')) ++p;
    if (p == end_) return Eof();
    if (!IsDigit(*p)) return FailChar(p, "in exponent of numeric literal");
    while (p < end_ && IsDigit(*p)) ++p;
    integral = false;
  }
  size_t ndigits = static_cast<size_t>(digits_end - digits);
  if (integral && ndigits <= 19) {
    uint64_t v = 0;
    for (const char* q = digits; q < digits_end; ++q) v = v * 10 + static_cast<uint64_t>(*q - '0');
    // 19 digits fit in uint64; check the int64 range.
    if (!negative && v <= static_cast<uint64_t>(INT64_MAX)) {
      ValueBuilder::AssignInt(out, static_cast<int64_t>(v));
      return true;
    }
    if (negative && v <= static_cast<uint64_t>(INT64_MAX) + 1) {
      ValueBuilder::AssignInt(out, static_cast<int64_t>(0 - v));
      if (v == 0 && gojq_numbers_) *out = Value::NumberLiteral(*out, "-0");
      return true;
    }
  }
  if (integral && gojq_numbers_) {
    // An integer literal beyond int64: an exact big integer.
    *out =
        Value::Big(*BigInt::FromDecimal(std::string_view(start, static_cast<size_t>(p - start))));
    return true;
  }
  double d = 0;
  auto [ptr, ec] = std::from_chars(start, p, d);
  if (ec == std::errc::result_out_of_range || ptr != p) {
    std::string copy(start, p);
    d = std::strtod(copy.c_str(), nullptr);  // ±HUGE_VAL on overflow, 0 or subnormal below
  }
  if (integral) {
    // An integer literal beyond int64: kept as the nearest double.
    *out = Value::Number(d);
    return true;
  }
  ValueBuilder::AssignDouble(out, d);
  if (gojq_numbers_) {
    std::string_view text(start, static_cast<size_t>(p - start));
    if (!PrintsAsItself(text, *out)) *out = Value::NumberLiteral(*out, text);
  }
  return true;
}

bool Parser::ParseEscape(const char*& p, std::string* buf) {
  // p points at the backslash.
  ++p;
  if (p == end_) return Eof();
  char c = *p++;
  switch (c) {
    case '"':
    case '\\':
    case '/':
      buf->push_back(c);
      return true;
    case 'b':
      buf->push_back('\b');
      return true;
    case 'f':
      buf->push_back('\f');
      return true;
    case 'n':
      buf->push_back('\n');
      return true;
    case 'r':
      buf->push_back('\r');
      return true;
    case 't':
      buf->push_back('\t');
      return true;
    case 'u':
      break;
    default:
      return FailChar(p - 1, "in string escape code");
  }
  auto read_hex4 = [&](const char* q, uint32_t* cp) -> bool {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      if (q + i >= end_) return Eof();
      int h = HexValue(q[i]);
      if (h < 0) return FailChar(q + i, "in \\u hexadecimal character escape");
      v = v * 16 + static_cast<uint32_t>(h);
    }
    *cp = v;
    return true;
  };
  uint32_t cp = 0;
  if (!read_hex4(p, &cp)) return false;
  p += 4;
  if (cp >= 0xd800 && cp < 0xdc00) {
    // A high surrogate combines with an immediately following low surrogate escape.
    if (end_ - p >= 6 && p[0] == '\\' && p[1] == 'u') {
      uint32_t low = 0;
      bool hex_ok = true;
      for (int i = 0; i < 4; ++i) {
        int h = HexValue(p[2 + i]);
        if (h < 0) {
          hex_ok = false;
          break;
        }
        low = low * 16 + static_cast<uint32_t>(h);
      }
      if (hex_ok && low >= 0xdc00 && low < 0xe000) {
        p += 6;
        text::AppendUtf8(0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00), buf);
        return true;
      }
    }
    buf->append(kReplacement, 3);
    return true;
  }
  if (cp >= 0xdc00 && cp < 0xe000) {
    buf->append(kReplacement, 3);
    return true;
  }
  text::AppendUtf8(cp, buf);
  return true;
}

template <bool kIsKey>
bool Parser::ParseString(const char*& p, Value* out) {
  // p points at the opening quote.
  const char* start = ++p;
  const char* q = p;
  while (true) {
    q = internal::ScanStringSpecial(q, end_);
    if (q == end_) return Eof();
    unsigned char c = static_cast<unsigned char>(*q);
    if (c == '"') {
      size_t n = static_cast<size_t>(q - start);
      if (kIsKey && n > ValueBuilder::kInlineCapacity) {
        std::string_view key(start, n);
        Value& cached = scratch_.key_cache[internal::HashKey(key) % Scratch::kKeyCacheSize];
        if (!cached.is_string() || cached.as_string() != key) cached = Value::String(key);
        *out = cached;
      } else if (!kIsKey && share_ != nullptr && n > ValueBuilder::kInlineCapacity) {
        *out = SharedString(std::string_view(start, n));
      } else if (end_ - start >= 16) {
        ValueBuilder::AssignStringReadable16(out, start, n);
      } else {
        *out = Value::String(std::string_view(start, n));
      }
      p = q + 1;
      return true;
    }
    if (c >= 0x80) {
      size_t n = internal::ValidUtf8Sequence(q, end_);
      if (n > 0) {
        q += n;
        continue;
      }
    }
    break;
  }
  p = q;
  return ParseStringSlow(p, start, out);
}

bool Parser::ParseStringSlow(const char*& p, const char* start, Value* out) {
  // [start, p) is already validated content; p points at an escape, control or invalid byte.
  std::string& buf = scratch_.buffer;
  buf.assign(start, static_cast<size_t>(p - start));
  while (true) {
    const char* q = internal::ScanStringSpecial(p, end_);
    buf.append(p, static_cast<size_t>(q - p));
    p = q;
    if (p == end_) return Eof();
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') {
      ++p;
      *out = share_ != nullptr && buf.size() > ValueBuilder::kInlineCapacity
                 ? SharedString(buf)
                 : Value::String(std::string_view(buf));
      return true;
    }
    if (c == '\\') {
      char simple = p + 1 < end_ ? kSimpleEscapes[static_cast<unsigned char>(p[1])] : 0;
      if (simple != 0) {
        buf.push_back(simple);
        p += 2;
      } else if (!ParseEscape(p, &buf)) {
        return false;
      }
      continue;
    }
    if (c < 0x20) return FailChar(p, "in string literal");
    size_t n = internal::ValidUtf8Sequence(p, end_);
    if (n > 0) {
      buf.append(p, n);
      p += n;
    } else {
      buf.append(kReplacement, 3);
      ++p;
    }
  }
}

bool Parser::TakeShared(size_t start, bool is_object, uint64_t* hash, Value* out) {
  auto& stack = scratch_.stack;
  size_t n = stack.size() - start;
  auto elements = ShareTable::Sequence(stack.begin() + start);
  *hash = ShareTable::Hash(is_object, n, elements);
  const Value* same =
      is_object ? share_->FindObject(*hash, n, elements) : share_->FindArray(*hash, n, elements);
  if (same == nullptr) return false;
  *out = *same;
  for (size_t i = start; i < stack.size(); ++i) stack[i] = Value();
  stack.truncate_moved(start);
  return true;
}

Value Parser::CloseArray(size_t start) {
  auto& stack = scratch_.stack;
  uint64_t hash = 0;
  Value shared;
  if (share_ != nullptr && TakeShared(start, false, &hash, &shared)) return shared;
  std::vector<Value> items(std::make_move_iterator(stack.begin() + start),
                           std::make_move_iterator(stack.begin() + stack.size()));
  stack.truncate_moved(start);
  Value array = ValueBuilder::ArrayFrom(std::move(items));
  if (share_ != nullptr) share_->Insert(hash, array);
  return array;
}

Value Parser::CloseObject(size_t start) {
  auto& stack = scratch_.stack;
  uint64_t hash = 0;
  Value shared;
  if (share_ != nullptr && TakeShared(start, true, &hash, &shared)) return shared;
  internal::MemberVector members;
  members.reserve((stack.size() - start) / 2);
  for (size_t i = start; i < stack.size(); i += 2) {
    members.push_back(Member{std::move(stack[i]), std::move(stack[i + 1])});
  }
  stack.truncate_moved(start);
  Value object = ValueBuilder::ObjectFromMembers(std::move(members));
  if (share_ != nullptr) share_->Insert(hash, object);
  return object;
}

bool Parser::ParseOne(size_t* pos, Value* out) {
  auto& stack = scratch_.stack;
  auto& frames = scratch_.frames;
  stack.clear();
  frames.clear();
  const char* p = begin_ + *pos;
  Value result;
  // The next release point; kept across the values of a stream, so that a stream of small
  // values gives back its text too.
  const char* next_release = end_;
  if (release_ != nullptr) {
    if (released_.next == 0) released_.next = *pos + release_interval_;
    next_release = begin_ + std::min<size_t>(released_.next, static_cast<size_t>(end_ - begin_));
  }

  // Each value is parsed straight into its slot: `result` at the top level, otherwise a new
  // element at the end of the scratch stack. An open container keeps its slot (holding null)
  // just below its elements and fills it when it closes.
  while (true) {
    SkipSpace(p);
    if (p == end_) return Eof();
    if (p >= next_release && release_ != nullptr) {
      ReleaseBefore(p);
      next_release = begin_ + std::min<size_t>(released_.next, static_cast<size_t>(end_ - begin_));
    }
    Value* slot = frames.empty() ? &result : &stack.push();
    char c = *p;
    if (c == '"') {
      if (!ParseString<false>(p, slot)) return false;
    } else if (c == '{' || c == '[') {
      if (frames.size() >= max_depth_) return FailChar(p, "exceeded max depth");
      bool is_object = c == '{';
      ++p;
      SkipSpace(p);
      if (p == end_) return Eof();
      if (*p == (is_object ? '}' : ']')) {
        ++p;
        if (share_ != nullptr) {
          *slot = is_object ? share_->empty_object() : share_->empty_array();
        } else {
          *slot = is_object ? ValueBuilder::ObjectFromUniqueMembers(internal::MemberVector())
                            : ValueBuilder::ArrayFrom(std::vector<Value>());
        }
      } else {
        frames.push_back({stack.size(), is_object});
        if (is_object) {
          if (*p != '"') return FailChar(p, "looking for beginning of object key string");
          if (!ParseString<true>(p, &stack.push())) return false;
          SkipSpace(p);
          if (p == end_) return Eof();
          if (*p != ':') return FailChar(p, "after object key");
          ++p;
        }
        continue;
      }
    } else if (c == '-' || IsDigit(c)) {
      if (!ParseNumber(p, slot)) return false;
    } else if (c == 't') {
      if (!ParseLiteral(p, "true", "true")) return false;
      *slot = Value::Bool(true);
    } else if (c == 'f') {
      if (!ParseLiteral(p, "false", "false")) return false;
      *slot = Value::Bool(false);
    } else if (c == 'n') {
      if (!ParseLiteral(p, "null", "null")) return false;
    } else {
      return FailChar(p, "looking for beginning of value");
    }

    // A value is complete: continue the innermost container, closing containers as they end.
    while (true) {
      if (frames.empty()) {
        *out = std::move(result);
        *pos = static_cast<size_t>(p - begin_);
        return true;
      }
      const Frame f = frames.back();
      SkipSpace(p);
      if (p == end_) return Eof();
      if (*p == ',') {
        ++p;
        if (f.is_object) {
          SkipSpace(p);
          if (p == end_) return Eof();
          if (*p != '"') return FailChar(p, "looking for beginning of object key string");
          if (!ParseString<true>(p, &stack.push())) return false;
          SkipSpace(p);
          if (p == end_) return Eof();
          if (*p != ':') return FailChar(p, "after object key");
          ++p;
        }
        break;  // parse the next element
      }
      Value closed;
      if (f.is_object) {
        if (*p != '}') return FailChar(p, "after object key:value pair");
        ++p;
        closed = CloseObject(f.start);
      } else {
        if (*p != ']') return FailChar(p, "after array element");
        ++p;
        closed = CloseArray(f.start);
      }
      frames.pop_back();
      (frames.empty() ? result : stack.back()) = std::move(closed);
    }
  }
}

}  // namespace

Result<Value> Parse(std::string_view text, const ReadOptions& options) {
  Scratch& scratch = ThreadScratch();
  std::unique_ptr<ShareTable> share;
  if (options.share_repeated) share = std::make_unique<ShareTable>();
  ReleasedText released;
  Parser parser(text, options, &scratch, share.get(), &released);
  size_t pos = 0;
  Value v;
  bool ok = parser.ParseOne(&pos, &v);
  if (!ok) scratch.stack.clear();
  scratch.stack.trim();
  if (!ok) return std::move(parser.error());
  while (pos < text.size() && IsSpace(text[pos])) ++pos;
  if (pos < text.size()) {
    parser.FailChar(text.data() + pos, "after top-level value");
    return std::move(parser.error());
  }
  return v;
}

StreamReader::StreamReader(std::string_view text, ReadOptions options)
    : text_(text), options_(std::move(options)) {}
StreamReader::~StreamReader() = default;
StreamReader::StreamReader(StreamReader&&) noexcept = default;
StreamReader& StreamReader::operator=(StreamReader&&) noexcept = default;

void StreamReader::ForgetShared() { share_.reset(); }

bool StreamReader::Next(Value* out, Error* error) {
  if (failed_) return false;
  while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  if (pos_ >= text_.size()) return false;
  Scratch& scratch = ThreadScratch();
  if (options_.share_repeated && share_ == nullptr) share_ = std::make_unique<ShareTable>();
  ReleasedText released{released_, released_lines_, released_line_start_, released_next_};
  Parser parser(text_, options_, &scratch, share_.get(), &released);
  bool ok = parser.ParseOne(&pos_, out);
  released_ = released.released;
  released_lines_ = released.lines;
  released_line_start_ = released.line_start;
  released_next_ = released.next;
  if (!ok) scratch.stack.clear();
  scratch.stack.trim();
  if (!ok) {
    failed_ = true;
    *error = std::move(parser.error());
  }
  return true;
}

}  // namespace wmap::json
