// Watches: one watch request read event by event, and the list-then-watch loop that keeps a
// caller up to date across server timeouts, dropped connections and expired versions.
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kube/object_kind.h"
#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

std::optional<WatchEventType> ParseEventType(std::string_view type) {
  if (type == "ADDED") return WatchEventType::kAdded;
  if (type == "MODIFIED") return WatchEventType::kModified;
  if (type == "DELETED") return WatchEventType::kDeleted;
  if (type == "BOOKMARK") return WatchEventType::kBookmark;
  return std::nullopt;
}

std::string ResourceVersionOf(const Value& object) {
  const Value* metadata = object.find("metadata");
  const Value* v = metadata != nullptr ? metadata->find("resourceVersion") : nullptr;
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : "";
}

// Sleeps `delay` in short steps, returning early (false) once *stop is set.
bool SleepUnlessStopped(std::chrono::milliseconds delay, const std::atomic<bool>& stop) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (std::chrono::steady_clock::now() < until) {
    if (stop.load()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !stop.load();
}

// Failures that waiting can get past: the network, a server restarting or overloaded.
bool Transient(const Error& e) { return e.code == ErrorCode::kUnreachable; }

}  // namespace

std::string_view WatchEventName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kBookmark:
      return "BOOKMARK";
  }
  return "ADDED";
}

WatchEnd WatchOnce(Client* client, const ApiResource& resource, const WatchOptions& options,
                   const std::function<bool(WatchEvent event)>& on_event,
                   const std::atomic<bool>* stop, std::string* resource_version) {
  Request request;
  request.path = resource.CollectionPath(options.namespace_name);
  std::string& q = request.query;
  auto param = [&](std::string_view name, std::string_view value) {
    if (value.empty()) return;
    if (!q.empty()) q += "&";
    q += std::string(name) + "=" + QueryEscape(value);
  };
  param("watch", "1");
  param("allowWatchBookmarks", "true");
  param("resourceVersion", *resource_version);
  param("timeoutSeconds", std::to_string(options.timeout_seconds));
  param("labelSelector", options.label_selector);
  param("fieldSelector", options.field_selector);
  const RequestContext context = ContextOf("watch", resource, options.namespace_name, "");
  WatchEnd end;
  auto on_line = [&](std::string_view line) {
    Result<Value> frame = json::Parse(line);
    const Value* type = frame.ok() ? frame->find("type") : nullptr;
    const Value* object = frame.ok() ? frame->find("object") : nullptr;
    if (type == nullptr || !type->is_string() || object == nullptr || !object->is_object()) {
      end.how = WatchEnd::kFailed;
      end.error = Error::Of(ErrorCode::kInvalidInput,
                            "a watch event of " + resource.GroupResource() + " from " +
                                client->config().server + " is not a JSON watch event");
      return false;
    }
    if (type->as_string() == "ERROR") {
      // A Status object: 410 when the version has expired (compacted, or older than the
      // server's watch cache).
      const Value* code = object->find("code");
      const long status =
          code != nullptr && code->is_number() ? static_cast<long>(code->as_double()) : 500;
      if (status == 410) {
        end.how = WatchEnd::kExpired;
      } else {
        end.how = WatchEnd::kFailed;
        end.error = StatusError(status, json::ToCompactString(*object), context,
                                client->config().server, client->config().user_name);
      }
      return false;
    }
    std::optional<WatchEventType> kind = ParseEventType(type->as_string());
    if (!kind) return true;  // a type this client does not know: skipped
    std::string version = ResourceVersionOf(*object);
    if (!version.empty()) *resource_version = std::move(version);
    WatchEvent event;
    event.type = *kind;
    event.object = *kind == WatchEventType::kBookmark ? *object : WithKind(*object, resource);
    if (!on_event(std::move(event))) {
      end.how = WatchEnd::kStopped;
      return false;
    }
    return true;
  };
  Result<Response> r = client->Stream(request, on_line, stop);
  if (!r.ok()) return {WatchEnd::kFailed, r.error()};
  if (end.how != WatchEnd::kEnded) return end;
  if (stop != nullptr && stop->load()) return {WatchEnd::kStopped, std::nullopt};
  if (r->status == 410) return {WatchEnd::kExpired, std::nullopt};
  if (r->status != 200) {
    return {WatchEnd::kFailed, StatusError(r->status, r->body, context, client->config().server,
                                           client->config().user_name)};
  }
  return end;
}

std::optional<Error> ListAndWatch(Client* client, const ApiResource& resource,
                                  const ListOptions& options, const ReflectorHandlers& handlers,
                                  const std::atomic<bool>& stop, std::string resume_from) {
  std::string version = std::move(resume_from);
  bool need_list = version.empty();
  bool interrupted = false;
  int failures = 0;  // in a row, for the backoff
  std::mt19937_64 random(std::random_device{}());
  // A failure that waiting can get past is reported once and retried after a backoff; false
  // when the loop is to end.
  auto retry = [&](const Error& e) {
    if (!interrupted && handlers.interrupted) handlers.interrupted(e);
    interrupted = true;
    return SleepUnlessStopped(RetryDelay(++failures, std::nullopt, &random), stop);
  };
  auto recovered = [&] {
    failures = 0;
    if (interrupted && handlers.resumed) handlers.resumed();
    interrupted = false;
  };
  WatchOptions watch;
  watch.namespace_name = options.namespace_name;
  watch.label_selector = options.label_selector;
  watch.field_selector = options.field_selector;
  while (!stop.load()) {
    if (need_list) {
      std::vector<Value> items;
      std::optional<Error> e = List(
          client, resource, options,
          [&](Value item) {
            items.push_back(std::move(item));
            return !stop.load();
          },
          nullptr, &version);
      if (stop.load()) return std::nullopt;
      // A continue token that expired midway (410) is a list to start again.
      if (e && (Transient(*e) || e->message.find("(410 Gone)") != std::string::npos)) {
        if (!retry(*e)) return std::nullopt;
        continue;
      }
      if (e) return e;
      recovered();
      need_list = false;
      if (handlers.replace) handlers.replace(std::move(items));
    }
    bool received = false;
    WatchEnd end = WatchOnce(
        client, resource, watch,
        [&](WatchEvent event) {
          if (!received) recovered();
          received = true;
          if (event.type != WatchEventType::kBookmark && handlers.event) {
            handlers.event(std::move(event));
          }
          return !stop.load();  // a handler that sets *stop ends the stream at once
        },
        &stop, &version);
    switch (end.how) {
      case WatchEnd::kStopped:
        return std::nullopt;
      case WatchEnd::kEnded:
        // The server's timeout, or a stream that closed at once (a server shutting down):
        // both resume from `version`, the latter after a pause.
        if (!received && !SleepUnlessStopped(std::chrono::milliseconds(200), stop)) {
          return std::nullopt;
        }
        break;
      case WatchEnd::kExpired:
        need_list = true;
        break;
      case WatchEnd::kFailed:
        if (!Transient(*end.error)) return end.error;
        if (!retry(*end.error)) return std::nullopt;
        break;
    }
  }
  return std::nullopt;
}

}  // namespace wmap::kube
