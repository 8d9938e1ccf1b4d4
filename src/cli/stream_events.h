// The events of `--stream` for one JSON value, produced one at a time.
//
// jq's streaming form: [path, leaf] for every scalar and every empty array or object, and
// [path] (the path of its last element) after the last element of each non-empty container,
// in document order (object members in the order read). The cursor walks the value with an
// explicit stack, so a large document yields its events without holding them all (memory: the
// value plus one path), and nesting costs no native stack.
#ifndef WMAP_CLI_STREAM_EVENTS_H_
#define WMAP_CLI_STREAM_EVENTS_H_

#include <vector>

#include "wmap/value.h"

namespace wmap::cli {

class StreamEventCursor {
 public:
  StreamEventCursor() = default;
  // Starts the events of v (dropping those of the previous value not yet taken).
  void Reset(Value v);
  // Drops the events not yet taken.
  void Clear() {
    Reset(Value());
    started_ = false;
  }
  // The next event; false when the value's events are exhausted.
  bool Next(Value* event);

 private:
  struct Frame {
    Value container;  // a non-empty array or object
    size_t next = 0;  // index of the next element to visit
  };
  // The key of element i of a container: its index or its member key.
  static Value KeyAt(const Value& container, size_t i);

  Value root_;
  bool started_ = false;  // Reset called, first event not yet produced
  std::vector<Frame> frames_;
  Value path_ = Value::EmptyArray();  // keys from the root to the innermost frame's container
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_STREAM_EVENTS_H_
