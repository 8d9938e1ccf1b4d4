// JSON writer with gojq's output format.
//
// Numbers: integers (int64 and big) exactly; number literals as their source text; doubles as Go's
// strconv.FormatFloat(f, 'f', -1, 64) when 1e-6 <= |f| < 1e21 (or f == 0), otherwise the shortest
// 'e' form with a one-digit negative exponent written without its leading zero (1e-7, 1e+21). NaN
// is null; infinities are clamped to ±1.7976931348623157e+308.
//
// Strings: ", \, \b, \f, \n, \r, \t get their short escapes, other bytes below 0x20 and 0x7f are
// \u00XX, each byte of invalid UTF-8 becomes \ufffd, everything else is copied (gojq does not
// escape <, >, & or U+2028/U+2029). ASCII mode also escapes every non-ASCII code point as
// \uXXXX (lowercase hex, surrogate pairs above U+FFFF), as jq -a does.
//
// Containers are written without recursion, so any nesting depth is safe.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "value/json_scan.h"
#include "value/value_nodes.h"
#include "wmap/json.h"
#include "wmap/text.h"

namespace wmap::json {
namespace {

using internal::ValueBuilder;

constexpr char kHex[] = "0123456789abcdef";

// Appends to a std::string through a raw cursor: the string is grown ahead (its size is its
// capacity while writing) and trimmed to the written length when the sink is destroyed.
class Sink {
 public:
  explicit Sink(std::string* s) : s_(*s), len_(s->size()) {}
  ~Sink() { s_.resize(len_); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  // Returns room for n more bytes; Advance(k <= n) commits k of them.
  char* Room(size_t n) {
    if (s_.size() - len_ < n) Grow(n);
    return s_.data() + len_;
  }
  void Advance(size_t n) { len_ += n; }
  void Put(char c) {
    *Room(1) = c;
    ++len_;
  }
  void Put(const char* p, size_t n) {
    std::memcpy(Room(n), p, n);
    len_ += n;
  }
  void Put(std::string_view s) { Put(s.data(), s.size()); }
  size_t size() const { return len_; }
  // Hands the written text to `spill` (which may consume it) and goes on after what it leaves.
  void Spill(const std::function<void()>& spill) {
    s_.resize(len_);
    spill();
    len_ = s_.size();
  }
  void Fill(size_t n, char c) {
    std::memset(Room(n), c, n);
    len_ += n;
  }

 private:
  // Grows by a bounded step: the bytes between len_ and size() are zero-filled by resize, and a
  // sink may be opened on a long string for a short write.
  void Grow(size_t n) { s_.resize(len_ + std::max<size_t>(n, kStep)); }
  static constexpr size_t kStep = 4096;

  std::string& s_;
  size_t len_;
};

void PutU16Escape(uint32_t unit, Sink& out) {
  char* p = out.Room(6);
  p[0] = '\\';
  p[1] = 'u';
  p[2] = kHex[(unit >> 12) & 15];
  p[3] = kHex[(unit >> 8) & 15];
  p[4] = kHex[(unit >> 4) & 15];
  p[5] = kHex[unit & 15];
  out.Advance(6);
}

void PutDouble(double f, Sink& out) {
  if (std::isnan(f)) {
    out.Put("null", 4);
    return;
  }
  constexpr double kMax = std::numeric_limits<double>::max();
  if (f >= kMax) {
    f = kMax;
  } else if (f <= -kMax) {
    f = -kMax;
  }
  // The shortest round-trip digits come from to_chars in scientific form; the fixed form is then
  // laid out from those digits (as Go does), not from the exact binary value.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific);
  char* end = res.ptr;
  double x = std::fabs(f);
  if ((x != 0 && x < 1e-6) || x >= 1e21) {
    // "e-07" -> "e-7" (only a negative exponent loses its leading zero, as in gojq).
    size_t n = static_cast<size_t>(end - buf);
    if (n >= 4 && end[-4] == 'e' && end[-3] == '-' && end[-2] == '0') {
      end[-2] = end[-1];
      --end;
    }
    out.Put(buf, static_cast<size_t>(end - buf));
    return;
  }
  // Split "-d.ddde+XX" into sign, digits and decimal exponent.
  const char* p = buf;
  if (*p == '-') {
    out.Put('-');
    ++p;
  }
  char digits[24];
  size_t ndigits = 0;
  while (p < end && *p != 'e') {
    if (*p != '.') digits[ndigits++] = *p;
    ++p;
  }
  int exp10 = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exp10);
  // Value = 0.d1d2...dn * 10^(exp10 + 1): the decimal point goes after `point` digits.
  int point = exp10 + 1;
  if (point <= 0) {
    out.Put("0.", 2);
    out.Fill(static_cast<size_t>(-point), '0');
    out.Put(digits, ndigits);
  } else if (static_cast<size_t>(point) >= ndigits) {
    out.Put(digits, ndigits);
    out.Fill(static_cast<size_t>(point) - ndigits, '0');
  } else {
    out.Put(digits, static_cast<size_t>(point));
    out.Put('.');
    out.Put(digits + point, ndigits - static_cast<size_t>(point));
  }
}

void PutNumber(const Value& number, Sink& out) {
  if (number.is_integer()) {
    char* p = out.Room(24);
    auto res = std::to_chars(p, p + 24, number.as_int());
    out.Advance(static_cast<size_t>(res.ptr - p));
    return;
  }
  if (number.is_number_literal()) {
    out.Put(number.literal_text());
    return;
  }
  if (number.is_big_integer()) {
    std::string digits;
    number.as_big().AppendDecimal(&digits);
    out.Put(digits);
    return;
  }
  PutDouble(number.as_double(), out);
}

// The escaped text of s without the quotes.
void PutStringBody(std::string_view s, bool ascii, Sink& out) {
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    const char* q = internal::ScanSpecial<true>(p, end);
    out.Put(p, static_cast<size_t>(q - p));
    p = q;
    if (p == end) break;
    unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      size_t n = internal::ValidUtf8Sequence(p, end);
      if (n == 0) {
        out.Put("\\ufffd", 6);
        ++p;
      } else if (!ascii) {
        out.Put(p, n);
        p += n;
      } else {
        size_t pos = 0;
        uint32_t cp = text::DecodeUtf8(std::string_view(p, n), &pos);
        if (cp >= 0x10000) {
          cp -= 0x10000;
          PutU16Escape(0xd800 + (cp >> 10), out);
          PutU16Escape(0xdc00 + (cp & 0x3ff), out);
        } else {
          PutU16Escape(cp, out);
        }
        p += n;
      }
      continue;
    }
    char short_escape = 0;
    switch (c) {
      case '"':
        short_escape = '"';
        break;
      case '\\':
        short_escape = '\\';
        break;
      case '\b':
        short_escape = 'b';
        break;
      case '\f':
        short_escape = 'f';
        break;
      case '\n':
        short_escape = 'n';
        break;
      case '\r':
        short_escape = 'r';
        break;
      case '\t':
        short_escape = 't';
        break;
      default:
        break;
    }
    if (short_escape != 0) {
      char* w = out.Room(2);
      w[0] = '\\';
      w[1] = short_escape;
      out.Advance(2);
    } else {
      PutU16Escape(c, out);
    }
    ++p;
  }
}

void PutString(std::string_view s, bool ascii, Sink& out) {
  out.Put('"');
  PutStringBody(s, ascii, out);
  out.Put('"');
}

// The length of the next piece of s to write on its own: about `size` bytes, ending before a
// UTF-8 continuation byte so that no sequence is split (escaping is per sequence, so writing the
// pieces one after another gives the same text as writing s at once).
size_t NextPiece(std::string_view s, size_t size) {
  if (s.size() <= size) return s.size();
  size_t n = size;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n == 0 ? size : n;
}

struct Frame {
  const Value* items;  // arrays: the elements; null for objects
  size_t size;         // element or member count
  size_t next;         // index of the next element/member to write
  size_t sorted_base;  // objects: start of this object's member order in the order pool
};

// Scratch memory reused by every write on a thread (writing never calls out, so it is not
// reentered).
struct WriterScratch {
  std::vector<Frame> frames;
  std::vector<const Member*> order;  // member order of every open object, back to back
};

WriterScratch& ThreadWriterScratch() {
  thread_local WriterScratch scratch;
  return scratch;
}

// Writes one value.
class Writer {
 public:
  Writer(const WriteOptions& options, std::string* out)
      : options_(options),
        out_(out),
        colors_(options.colors),
        frames_(ThreadWriterScratch().frames),
        order_(ThreadWriterScratch().order) {
    frames_.clear();
    order_.clear();
    if (options.tab) {
      unit_char_ = '\t';
      unit_ = 1;
    } else {
      unit_char_ = ' ';
      unit_ = options.indent < 0 ? 0 : static_cast<size_t>(options.indent);
    }
    line_breaks_ = unit_ != 0 || options.line_breaks_without_indent;
  }

  void Write(const Value& root);

 private:
  // Writes a scalar or an empty container and returns true, or returns false for a non-empty
  // container (which the caller opens).
  bool WriteLeaf(const Value& v);
  bool WriteColoredLeaf(const Value& v);
  void Open(const Value& v);
  void NewLine(size_t depth) {
    if (!line_breaks_) return;
    out_.Put('\n');
    out_.Fill(depth * unit_, unit_char_);
  }
  // Writes `text` in `color` (uncolored when the color is empty).
  void Colored(const std::string& color, std::string_view text) {
    if (color.empty()) {
      out_.Put(text);
      return;
    }
    out_.Put("\x1b[", 2);
    out_.Put(color);
    out_.Put('m');
    out_.Put(text);
    out_.Put("\x1b[0m", 4);
  }
  // A bracket, brace, comma or colon of an array (object = false) or object.
  void Punctuation(bool object, char c) {
    if (colors_ == nullptr) {
      out_.Put(c);
    } else {
      Colored(object ? colors_->object_color : colors_->array_color, std::string_view(&c, 1));
    }
  }
  void Key(std::string_view key) {
    if (colors_ == nullptr || colors_->key_color.empty()) {
      PutString(key, options_.ascii, out_);
    } else {
      std::string text;
      WriteString(key, options_.ascii, &text);
      Colored(colors_->key_color, text);
    }
  }
  void MaybeSpill() {
    if (options_.spill && out_.size() >= options_.spill_bytes) out_.Spill(options_.spill);
  }

  const WriteOptions& options_;
  Sink out_;
  const Colors* colors_;
  char unit_char_;
  size_t unit_;
  bool line_breaks_;
  std::vector<Frame>& frames_;
  std::vector<const Member*>& order_;
};

bool Writer::WriteLeaf(const Value& v) {
  if (colors_ != nullptr) return WriteColoredLeaf(v);
  if (v.is_string()) {
    std::string_view s = v.as_string();
    if (!options_.spill || s.size() <= options_.spill_bytes) {
      PutString(s, options_.ascii, out_);
      return true;
    }
    // A long string is written in pieces, with a chance to spill after each.
    out_.Put('"');
    while (!s.empty()) {
      size_t n = NextPiece(s, options_.spill_bytes);
      PutStringBody(s.substr(0, n), options_.ascii, out_);
      s.remove_prefix(n);
      MaybeSpill();
    }
    out_.Put('"');
  } else if (v.is_number()) {
    PutNumber(v, out_);
  } else if (v.is_object()) {
    if (!ValueBuilder::MembersOf(v).empty()) return false;
    out_.Put("{}", 2);
  } else if (v.is_array()) {
    if (!ValueBuilder::ItemsOf(v).empty()) return false;
    out_.Put("[]", 2);
  } else if (v.is_null()) {
    out_.Put("null", 4);
  } else if (v.as_bool()) {
    out_.Put("true", 4);
  } else {
    out_.Put("false", 5);
  }
  return true;
}

bool Writer::WriteColoredLeaf(const Value& v) {
  const Colors& c = *colors_;
  std::string text;
  if (v.is_string()) {
    WriteString(v.as_string(), options_.ascii, &text);
    Colored(c.string_color, text);
  } else if (v.is_number()) {
    FormatNumber(v, &text);
    bool nan = !v.is_integer() && std::isnan(v.as_double());  // printed as null
    Colored(nan ? c.null_color : c.number_color, text);
  } else if (v.is_object() || v.is_array()) {
    bool object = v.is_object();
    if (object ? !ValueBuilder::MembersOf(v).empty() : !ValueBuilder::ItemsOf(v).empty()) {
      return false;
    }
    Punctuation(object, object ? '{' : '[');
    Punctuation(object, object ? '}' : ']');
  } else if (v.is_null()) {
    Colored(c.null_color, "null");
  } else if (v.as_bool()) {
    Colored(c.true_color, "true");
  } else {
    Colored(c.false_color, "false");
  }
  return true;
}

void Writer::Open(const Value& v) {
  size_t base = order_.size();
  if (v.is_object()) {
    Punctuation(true, '{');
    auto members = ValueBuilder::MembersOf(v);
    for (const Member& m : members) order_.push_back(&m);
    if (options_.sort_keys) {
      auto first = order_.begin() + static_cast<ptrdiff_t>(base);
      auto less = [](const Member* a, const Member* b) {
        return a->key.as_string() < b->key.as_string();
      };
      if (!std::is_sorted(first, order_.end(), less)) std::sort(first, order_.end(), less);
    }
    frames_.push_back({nullptr, members.size(), 0, base});
  } else {
    Punctuation(false, '[');
    auto items = ValueBuilder::ItemsOf(v);
    frames_.push_back({items.data(), items.size(), 0, base});
  }
}

void Writer::Write(const Value& root) {
  if (WriteLeaf(root)) return;
  Open(root);
  while (!frames_.empty()) {
    MaybeSpill();
    Frame& f = frames_.back();
    size_t depth = frames_.size();
    bool is_object = f.items == nullptr;
    if (f.next == f.size) {
      order_.resize(f.sorted_base);
      frames_.pop_back();
      NewLine(depth - 1);
      Punctuation(is_object, is_object ? '}' : ']');
      continue;
    }
    if (f.next > 0) Punctuation(is_object, ',');
    NewLine(depth);
    const Value* child;
    if (is_object) {
      const Member* m = order_[f.sorted_base + f.next];
      Key(m->key.as_string());
      Punctuation(true, ':');
      if (line_breaks_) out_.Put(' ');
      child = &m->value;
    } else {
      child = &f.items[f.next];
    }
    ++f.next;
    if (!WriteLeaf(*child)) Open(*child);  // invalidates f
  }
}

}  // namespace

void FormatNumber(const Value& number, std::string* out) {
  Sink sink(out);
  PutNumber(number, sink);
}

void WriteString(std::string_view s, bool ascii, std::string* out) {
  Sink sink(out);
  PutString(s, ascii, sink);
}

void Write(const Value& v, const WriteOptions& options, std::string* out) {
  Writer writer(options, out);
  writer.Write(v);
}

std::string ToString(const Value& v, const WriteOptions& options) {
  std::string out;
  Write(v, options, &out);
  return out;
}

std::string ToCompactString(const Value& v) {
  WriteOptions options;
  options.indent = 0;
  std::string out;
  Write(v, options, &out);
  return out;
}

}  // namespace wmap::json
