// API errors (Status objects) worded with the next step.
#include <string>
#include <vector>

#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

std::string Str(const Value& object, std::string_view key) {
  const Value* v = object.find(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::string Where(const RequestContext& c) {
  return c.namespace_name.empty() ? "at the cluster scope" : "in namespace " + c.namespace_name;
}

// "jobsets.jobset.x-k8s.io" or "pods".
std::string GroupResource(const RequestContext& c) {
  return c.group.empty() ? c.resource : c.resource + "." + c.group;
}

// The causes of a Status (details.causes), each as "field: message" (the message alone when
// it names the field already). A conflict's message names the manager that owns the field.
std::vector<std::string> Causes(std::string_view body) {
  std::vector<std::string> out;
  Result<Value> doc = json::Parse(body);
  if (!doc.ok() || !doc->is_object()) return out;
  const Value* details = doc->find("details");
  const Value* causes = details != nullptr ? details->find("causes") : nullptr;
  if (causes == nullptr || !causes->is_array()) return out;
  for (const Value& c : causes->items()) {
    if (!c.is_object()) continue;
    std::string field = Str(c, "field");
    std::string message = Str(c, "message");
    if (field.empty() || message.find(field) != std::string::npos) {
      out.push_back(message.empty() ? field : message);
    } else {
      out.push_back(field + ": " + message);
    }
  }
  return out;
}

}  // namespace

Error StatusError(long http_status, std::string_view body, const RequestContext& context,
                  std::string_view server, std::string_view user) {
  std::string server_message;
  std::string reason;
  if (Result<Value> doc = json::Parse(body); doc.ok() && doc->is_object()) {
    if (Str(*doc, "kind") == "Status") {
      server_message = Str(*doc, "message");
      reason = Str(*doc, "reason");
    }
  }
  const std::string who = user.empty() ? "this client" : "user \"" + std::string(user) + "\"";
  const std::string said =
      server_message.empty() ? "" : " (the server said: " + server_message + ")";
  Error e;
  switch (http_status) {
    case 401:
      e.code = ErrorCode::kUnauthorized;
      e.message = "the API server " + std::string(server) + " rejected the credentials of " + who +
                  " (401 Unauthorized)";
      e.hint =
          "the token or client certificate is wrong or has expired: check the user in the "
          "kubeconfig (kubectl config view --minify) or log in again";
      return e;
    case 403: {
      e.code = ErrorCode::kForbidden;
      e.message = who + " may not " + context.verb + " " + GroupResource(context) +
                  (context.name.empty() ? "" : " \"" + context.name + "\"") + " " + Where(context) +
                  " (403 Forbidden)" + said;
      std::string rule = "{apiGroups: [\"" + context.group + "\"], resources: [\"" +
                         context.resource + "\"], verbs: [\"" + context.verb + "\"]}";
      e.hint = "the missing RBAC rule is " + rule + ": ask an administrator to grant it " +
               (context.namespace_name.empty()
                    ? "with a ClusterRole and ClusterRoleBinding"
                    : "with a Role and RoleBinding in namespace " + context.namespace_name +
                          " (or a ClusterRole for every namespace)") +
               (context.verb == "get" || context.verb == "list" || context.verb == "watch"
                    ? "; deploy/rbac/wmap-reader.yaml holds what wmap get needs"
                    : "; deploy/rbac/wmap-submitter.yaml holds what wmap apply, delete, suspend, "
                      "resume and mutate --apply "
                      "need");
      return e;
    }
    case 404:
      e.code = ErrorCode::kNotFound;
      if (!context.name.empty()) {
        e.message =
            (context.kind.empty() ? GroupResource(context) : context.kind) + " \"" + context.name +
            "\" not found" +
            (context.namespace_name.empty() ? "" : " in namespace " + context.namespace_name);
        e.hint = "check the name and the namespace (-n NAMESPACE, or -A to list every one)";
      } else {
        e.message = "the API server " + std::string(server) + " does not serve " +
                    GroupResource(context) + said;
        e.hint =
            "the resource's CRD may not be installed: kubectl api-resources lists what the "
            "server serves";
      }
      return e;
    case 409: {
      e.code = ErrorCode::kConflict;
      const std::string object = (context.kind.empty() ? GroupResource(context) : context.kind) +
                                 " \"" + context.name + "\"";
      if (reason == "AlreadyExists") {
        e.message = object + " already exists " + Where(context);
        e.hint = "apply it instead (wmap apply -f FILE) or delete it first";
        return e;
      }
      // Server-side apply: one cause per field another manager owns.
      std::vector<std::string> conflicts = Causes(body);
      if (!conflicts.empty()) {
        e.message = "applying " + object + " " + Where(context) + " conflicts with " +
                    std::to_string(conflicts.size()) + " field" +
                    (conflicts.size() == 1 ? "" : "s") + " another manager owns:";
        for (const std::string& c : conflicts) e.message += "\n  " + c;
        e.hint =
            "leave these fields out of the file to let their manager keep them, or re-run with "
            "--force-conflicts to take them over";
        return e;
      }
      e.message =
          object + " " + Where(context) + " was changed by someone else (409 Conflict)" + said;
      e.hint = "read it again and retry";
      return e;
    }
    case 422: {
      e.code = ErrorCode::kInvalidInput;
      const std::string object = (context.kind.empty() ? GroupResource(context) : context.kind) +
                                 (context.name.empty() ? "" : " \"" + context.name + "\"");
      std::vector<std::string> fields = Causes(body);
      e.message = "the API server rejected " + object + " as invalid";
      if (fields.empty()) {
        e.message += said;
      } else {
        e.message += ":";
        for (const std::string& f : fields) e.message += "\n  " + f;
      }
      e.hint =
          "fix the fields named and submit it again ('kubectl explain KIND.FIELD' describes "
          "a field)";
      return e;
    }
    case 410:
      e.code = ErrorCode::kNotFound;
      e.message = "the list of " + GroupResource(context) +
                  " expired while it was read page by page (410 Gone)" + said;
      e.hint = "run the command again, or with a larger --chunk-size (0 reads all at once)";
      return e;
    default:
      break;
  }
  e.code = http_status >= 500 || http_status == 429 ? ErrorCode::kUnreachable : ErrorCode::kUnknown;
  e.message = "the API server " + std::string(server) + " answered " + std::to_string(http_status) +
              (reason.empty() ? "" : " " + reason) + " to " + context.verb + " " +
              GroupResource(context) + " " + Where(context) + said;
  e.hint = http_status >= 500 || http_status == 429
               ? "the server is busy or failing: try again later"
               : "the server refused the request as sent";
  return e;
}

}  // namespace wmap::kube
