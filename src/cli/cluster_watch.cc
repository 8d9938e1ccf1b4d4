#include "cli/cluster_watch.h"

#include <utility>

#include "wmap/meta.h"

namespace wmap::cli {
namespace {

std::string ObjectKey(const Value& object) {
  return std::string(meta::MetadataField(object, "namespace")) + "/" +
         std::string(meta::MetadataField(object, "name"));
}

}  // namespace

ClusterWatch::ClusterWatch(const kube::Client& client) : base_(client) {}

ClusterWatch::~ClusterWatch() {
  stop_.store(true);
  for (const auto& w : watches_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

size_t ClusterWatch::Watch(const kube::ApiResource& resource, const std::string& namespace_name,
                           const std::string& label_selector, const std::string& field_selector) {
  const size_t index = watches_.size();
  auto collection = std::make_unique<Collection>();
  collection->resource = resource;
  collection->namespace_name = namespace_name;
  Result<std::unique_ptr<kube::Client>> client = base_.Clone();
  if (!client.ok()) {
    collection->ended = true;
    ended_.push_back({index, client.error()});
    watches_.push_back(std::move(collection));
    return index;
  }
  kube::ListOptions options;
  options.namespace_name = namespace_name;
  options.label_selector = label_selector;
  options.field_selector = field_selector;
  collection->thread =
      std::thread([this, index, resource, options, owned = std::move(*client)]() mutable {
        kube::ReflectorHandlers handlers;
        handlers.replace = [&](std::vector<Value> items) {
          Report r;
          r.watch = index;
          r.what = Report::kReplace;
          r.items = std::move(items);
          Post(std::move(r));
        };
        handlers.event = [&](kube::WatchEvent event) {
          Report r;
          r.watch = index;
          r.what = Report::kEvent;
          r.event = std::move(event);
          Post(std::move(r));
        };
        handlers.interrupted = [&](const Error& error) {
          Report r;
          r.watch = index;
          r.what = Report::kInterrupted;
          r.error = error;
          Post(std::move(r));
        };
        handlers.resumed = [&] {
          Report r;
          r.watch = index;
          r.what = Report::kResumed;
          Post(std::move(r));
        };
        std::optional<Error> e =
            kube::ListAndWatch(owned.get(), resource, options, handlers, stop_);
        if (e) {
          Report r;
          r.watch = index;
          r.what = Report::kEnded;
          r.error = std::move(e);
          Post(std::move(r));
        }
      });
  watches_.push_back(std::move(collection));
  return index;
}

void ClusterWatch::Post(Report report) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(report));
  }
  ready_.notify_one();
}

bool ClusterWatch::Poll(std::chrono::steady_clock::time_point deadline) {
  std::deque<Report> reports;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait_until(lock, deadline, [&] { return !queue_.empty(); });
    reports.swap(queue_);
  }
  bool changed = false;
  for (Report& r : reports) {
    changed = changed || r.what == Report::kReplace || r.what == Report::kEvent ||
              r.what == Report::kEnded;
    Apply(std::move(r));
  }
  return changed;
}

void ClusterWatch::Apply(Report report) {
  Collection& c = *watches_[report.watch];
  const std::string what = c.resource.GroupResource() +
                           (c.namespace_name.empty() ? "" : " in namespace " + c.namespace_name);
  switch (report.what) {
    case Report::kReplace:
      c.objects.clear();
      for (Value& item : report.items) {
        std::string key = ObjectKey(item);
        c.objects[std::move(key)] = std::move(item);
      }
      c.listed = true;
      break;
    case Report::kEvent:
      if (report.event.type == kube::WatchEventType::kDeleted) {
        c.objects.erase(ObjectKey(report.event.object));
      } else {
        std::string key = ObjectKey(report.event.object);
        c.objects[std::move(key)] = std::move(report.event.object);
      }
      break;
    case Report::kInterrupted:
      warnings_.push_back("watch of " + what + " interrupted: " + report.error->message +
                          "; retrying");
      break;
    case Report::kResumed:
      warnings_.push_back("watch of " + what + " resumed");
      break;
    case Report::kEnded:
      c.ended = true;
      c.objects.clear();
      ended_.push_back({report.watch, std::move(*report.error)});
      break;
  }
}

bool ClusterWatch::Synced() const {
  for (const auto& w : watches_) {
    if (!w->listed && !w->ended) return false;
  }
  return true;
}

std::vector<std::string> ClusterWatch::TakeWarnings() { return std::exchange(warnings_, {}); }

std::vector<ClusterWatch::Ended> ClusterWatch::TakeEnded() { return std::exchange(ended_, {}); }

}  // namespace wmap::cli
