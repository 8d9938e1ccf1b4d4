// libyaml plumbing for the YAML reader: an owned event source and the mapping from libyaml's
// marks (character counts) to byte positions. Private to the value layer.
#ifndef WMAP_SRC_VALUE_YAML_EVENTS_H_
#define WMAP_SRC_VALUE_YAML_EVENTS_H_

#include <yaml.h>

#include <cstddef>
#include <string_view>

#include "wmap/status.h"
#include "wmap/text.h"

namespace wmap::yaml::internal {

// Maps libyaml marks (which count characters) to byte offsets and byte columns. Marks arrive
// mostly in increasing order, so the conversion walks forward from the last answer.
class MarkMapper {
 public:
  // Marks count from `skipped` bytes into text (a byte order mark that libyaml never sees).
  MarkMapper(std::string_view text, size_t skipped)
      : text_(text), skipped_(skipped), byte_offset_(skipped) {}

  Position ToPosition(const yaml_mark_t& mark) {
    size_t offset = ByteOffset(mark.index);
    Position p;
    p.offset = offset;
    p.line = static_cast<int>(mark.line) + 1;
    p.column = static_cast<int>(offset - LineStart(offset)) + 1;
    return p;
  }

  // For reader errors, which report a byte offset only.
  Position FromByteOffset(size_t offset) const {
    if (offset > text_.size()) offset = text_.size();
    Position p;
    p.offset = offset;
    p.line = 1;
    for (size_t i = 0; i < offset; ++i) {
      if (text_[i] == '\n') ++p.line;
    }
    p.column = static_cast<int>(offset - LineStart(offset)) + 1;
    return p;
  }

 private:
  size_t ByteOffset(size_t char_index) {
    if (char_index < char_index_) {
      char_index_ = 0;
      byte_offset_ = skipped_;
    }
    while (char_index_ < char_index && byte_offset_ < text_.size()) {
      byte_offset_ += text::Utf8LengthFromLead(static_cast<unsigned char>(text_[byte_offset_]));
      ++char_index_;
    }
    if (byte_offset_ > text_.size()) byte_offset_ = text_.size();
    return byte_offset_;
  }

  size_t LineStart(size_t offset) const {
    size_t i = offset;
    while (i > 0 && text_[i - 1] != '\n' && text_[i - 1] != '\r') --i;
    return i;
  }

  std::string_view text_;
  size_t skipped_;
  size_t char_index_ = 0;
  size_t byte_offset_;
};

// Length of a UTF-8 byte order mark at the start of text (0 or 3). libyaml skips one only when
// it detects the encoding itself, and the reader fixes the encoding to UTF-8.
inline size_t BomLength(std::string_view text) {
  return text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

// Owns a libyaml parser and its current event (released on the next call and on destruction).
class EventSource {
 public:
  explicit EventSource(std::string_view text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
    // Input is UTF-8 by contract; this also makes marks count UTF-8 characters.
    yaml_parser_set_encoding(&parser_, YAML_UTF8_ENCODING);
  }
  ~EventSource() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  EventSource(const EventSource&) = delete;
  EventSource& operator=(const EventSource&) = delete;

  // False on a libyaml error (see parser()).
  bool Next() {
    if (has_event_) {
      yaml_event_delete(&event_);
      has_event_ = false;
    }
    if (!yaml_parser_parse(&parser_, &event_)) return false;
    has_event_ = true;
    return true;
  }
  const yaml_event_t& event() const { return event_; }
  const yaml_parser_t& parser() const { return parser_; }

 private:
  yaml_parser_t parser_;
  yaml_event_t event_;
  bool has_event_ = false;
};

}  // namespace wmap::yaml::internal

#endif  // WMAP_SRC_VALUE_YAML_EVENTS_H_
