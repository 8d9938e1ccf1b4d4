// Following one object of the cluster by a watch of its name, for the commands that wait
// (`apply --wait`, `delete --wait`): no polling, a change seen as soon as the server has it.
#ifndef WMAP_CLI_OBJECT_WATCH_H_
#define WMAP_CLI_OBJECT_WATCH_H_

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "wmap/kube.h"
#include "wmap/status.h"
#include "wmap/value.h"

namespace wmap::cli {

enum class FollowEnd { kDone, kTimedOut };

// Calls `seen` with the object named `name` as it is now and after each change (nullptr while
// it does not exist, after it was deleted too) until `seen` returns true (kDone) or `deadline`
// passes (kTimedOut). The watch is resumed across dropped connections and server restarts (each
// loss goes to `warn` once) and listed again after 410 Gone; an error no retry can get past
// (403, 404 of the resource) is returned.
Result<FollowEnd> FollowObject(kube::Client* client, const kube::ApiResource& resource,
                               const std::string& namespace_name, const std::string& name,
                               std::optional<std::chrono::steady_clock::time_point> deadline,
                               const std::function<bool(const Value* object)>& seen,
                               const std::function<void(const std::string& warning)>& warn);

}  // namespace wmap::cli

#endif  // WMAP_CLI_OBJECT_WATCH_H_
