#include "cli/stream_events.h"

#include <utility>

namespace wmap::cli {
namespace {

bool IsNonEmptyContainer(const Value& v) { return (v.is_array() || v.is_object()) && v.size() > 0; }

}  // namespace

void StreamEventCursor::Reset(Value v) {
  root_ = std::move(v);
  started_ = true;
  frames_.clear();
  path_ = Value::EmptyArray();
}

Value StreamEventCursor::KeyAt(const Value& container, size_t i) {
  if (container.is_array()) return Value::Int(static_cast<int64_t>(i));
  return container.members()[i].key;
}

bool StreamEventCursor::Next(Value* event) {
  if (started_) {
    started_ = false;
    if (!IsNonEmptyContainer(root_)) {
      *event = Value::Array({Value::EmptyArray(), std::move(root_)});
      root_ = Value();
      return true;
    }
    frames_.push_back({std::move(root_), 0});
    root_ = Value();
  }
  while (!frames_.empty()) {
    Frame& f = frames_.back();
    size_t n = f.container.size();
    if (f.next < n) {
      size_t i = f.next++;
      Value child =
          f.container.is_array() ? f.container.items()[i] : f.container.members()[i].value;
      path_.push_back(KeyAt(f.container, i));
      if (IsNonEmptyContainer(child)) {
        frames_.push_back({std::move(child), 0});
        continue;
      }
      *event = Value::Array({path_, std::move(child)});
      path_.mutable_items().pop_back();
      return true;
    }
    // After the last element: the closing event, then back to the parent.
    Value closing = path_;
    closing.push_back(KeyAt(f.container, n - 1));
    frames_.pop_back();
    if (!frames_.empty()) path_.mutable_items().pop_back();
    *event = Value::Array({std::move(closing)});
    return true;
  }
  return false;
}

}  // namespace wmap::cli
