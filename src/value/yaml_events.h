// libyaml plumbing for the YAML reader: an owned event source and the mapping from libyaml's
// marks (character counts) to byte positions. Private to the value layer.
#ifndef WMAP_SRC_VALUE_YAML_EVENTS_H_
#define WMAP_SRC_VALUE_YAML_EVENTS_H_

#include <yaml.h>

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

#include "wmap/status.h"
#include "wmap/text.h"

namespace wmap::yaml::internal {

// Maps libyaml marks (which count characters) to byte offsets and byte columns. Marks arrive
// mostly in increasing order, so the conversion walks forward from the last answer; a mark before
// it restarts from the nearest checkpoint (one every kCheckpointChars characters), and line
// starts are tracked as the walk goes, so a stream of any length and lines of any length map in
// linear time.
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
    p.column = static_cast<int>(offset - TrackedLineStart(offset)) + 1;
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
  static constexpr size_t kCheckpointChars = 4096;

  size_t ByteOffset(size_t char_index) {
    if (char_index < char_index_) {
      // checkpoints_[k] is the byte offset of character (k + 1) * kCheckpointChars.
      size_t k = std::min(char_index / kCheckpointChars, checkpoints_.size());
      char_index_ = k * kCheckpointChars;
      byte_offset_ = k == 0 ? skipped_ : checkpoints_[k - 1];
    }
    while (char_index_ < char_index && byte_offset_ < text_.size()) {
      byte_offset_ += text::Utf8LengthFromLead(static_cast<unsigned char>(text_[byte_offset_]));
      ++char_index_;
      if (char_index_ % kCheckpointChars == 0 &&
          char_index_ / kCheckpointChars == checkpoints_.size() + 1) {
        checkpoints_.push_back(byte_offset_);
      }
    }
    if (byte_offset_ > text_.size()) byte_offset_ = text_.size();
    return byte_offset_;
  }

  // LineStart, scanning forward from the last offset asked when the offset is past it.
  size_t TrackedLineStart(size_t offset) {
    if (offset < line_scan_) return LineStart(offset);
    for (size_t i = line_scan_; i < offset; ++i) {
      if (text_[i] == '\n' || text_[i] == '\r') line_start_ = i + 1;
    }
    line_scan_ = offset;
    return line_start_;
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
  std::vector<size_t> checkpoints_;
  size_t line_scan_ = 0;   // every byte before it has been looked at for line breaks
  size_t line_start_ = 0;  // the start of the line holding line_scan_
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
