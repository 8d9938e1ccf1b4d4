#include "cli/object_watch.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace wmap::cli {

Result<FollowEnd> FollowObject(kube::Client* client, const kube::ApiResource& resource,
                               const std::string& namespace_name, const std::string& name,
                               std::optional<std::chrono::steady_clock::time_point> deadline,
                               const std::function<bool(const Value* object)>& seen,
                               const std::function<void(const std::string& warning)>& warn) {
  std::atomic<bool> stop{false};
  bool done = false;
  // The deadline: a timer sets `stop` unless following ended first.
  std::mutex mutex;
  std::condition_variable finished;
  bool over = false;
  std::atomic<bool> timed_out{false};
  std::thread timer;
  if (deadline) {
    timer = std::thread([&] {
      std::unique_lock<std::mutex> lock(mutex);
      if (!finished.wait_until(lock, *deadline, [&] { return over; })) {
        timed_out = true;
        stop = true;
      }
    });
  }
  auto look = [&](const Value* object) {
    if (!done && seen(object)) {
      done = true;
      stop = true;
    }
  };
  kube::ReflectorHandlers handlers;
  handlers.replace = [&](std::vector<Value> items) {
    look(items.empty() ? nullptr : &items.front());
  };
  handlers.event = [&](kube::WatchEvent event) {
    look(event.type == kube::WatchEventType::kDeleted ? nullptr : &event.object);
  };
  handlers.interrupted = [&](const Error& e) {
    warn("watch of " + resource.GroupResource() + " " + name + " interrupted: " + e.message +
         "; retrying");
  };
  handlers.resumed = [&] {
    warn("watch of " + resource.GroupResource() + " " + name + " resumed");
  };
  kube::ListOptions options;
  options.namespace_name = namespace_name;
  options.field_selector = "metadata.name=" + name;
  std::optional<Error> error = kube::ListAndWatch(client, resource, options, handlers, stop);
  {
    std::lock_guard<std::mutex> lock(mutex);
    over = true;
  }
  finished.notify_one();
  if (timer.joinable()) timer.join();
  if (error) return *error;
  if (done) return FollowEnd::kDone;
  return timed_out ? FollowEnd::kTimedOut : FollowEnd::kDone;
}

}  // namespace wmap::cli
