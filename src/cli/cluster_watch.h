// Objects of the cluster kept up to date for the watching commands (`get -w`): one thread per
// watched collection runs kube::ListAndWatch with a client of its own; the caller's thread
// applies what they report, in the order each reported it, when it polls.
//
// Contract:
// - Only the caller's thread calls the methods; the watch threads touch nothing but the queue.
// - After Poll, the store holds every collection as of its last list plus the events since.
// - Destruction stops every thread and joins it (each ends within about a second).
#ifndef WMAP_CLI_CLUSTER_WATCH_H_
#define WMAP_CLI_CLUSTER_WATCH_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "wmap/kube.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::cli {

class ClusterWatch {
 public:
  // Watches are made with clones of `client` (its configuration, its own connection).
  explicit ClusterWatch(const kube::Client& client);
  ~ClusterWatch();
  ClusterWatch(const ClusterWatch&) = delete;
  ClusterWatch& operator=(const ClusterWatch&) = delete;

  // Starts watching `resource` in namespace_name ("" = every namespace, or cluster-scoped),
  // narrowed by the selectors; returns the watch's number.
  size_t Watch(const kube::ApiResource& resource, const std::string& namespace_name,
               const std::string& label_selector = "", const std::string& field_selector = "");

  // Waits until a watch reports or `deadline` passes, then applies every report queued.
  // True when the objects changed.
  bool Poll(std::chrono::steady_clock::time_point deadline);
  // Every watch has had its first list (and has not ended).
  bool Synced() const;

  // What the watches said since the last call: lost connections, resumptions.
  std::vector<std::string> TakeWarnings();
  struct Ended {
    size_t watch;
    Error error;
  };
  // The watches that ended with an error since the last call (their objects are dropped).
  std::vector<Ended> TakeEnded();

  const kube::ApiResource& resource(size_t watch) const { return watches_[watch]->resource; }
  const std::string& namespace_name(size_t watch) const { return watches_[watch]->namespace_name; }
  size_t size() const { return watches_.size(); }
  // The objects of watch `watch`, by namespace and name.
  const std::map<std::string, Value>& objects(size_t watch) const {
    return watches_[watch]->objects;
  }

 private:
  struct Report {
    size_t watch = 0;
    enum What { kReplace, kEvent, kInterrupted, kResumed, kEnded } what = kEvent;
    std::vector<Value> items;
    kube::WatchEvent event;
    std::optional<Error> error;
  };
  struct Collection {
    kube::ApiResource resource;
    std::string namespace_name;
    std::map<std::string, Value> objects;  // "namespace/name"
    bool listed = false;
    bool ended = false;
    std::thread thread;
  };
  void Post(Report report);
  void Apply(Report report);

  const kube::Client& base_;  // cloned for each watch
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Report> queue_;  // guarded by mutex_
  std::vector<std::unique_ptr<Collection>> watches_;
  std::vector<std::string> warnings_;
  std::vector<Ended> ended_;
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_CLUSTER_WATCH_H_
