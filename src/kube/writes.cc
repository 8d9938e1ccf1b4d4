// Writes: server-side apply, create, patch and delete, each with dry-run.
#include <string>

#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

std::string ObjectPath(const ApiResource& resource, std::string_view namespace_name,
                       std::string_view name, std::string_view subresource) {
  std::string path = resource.CollectionPath(resource.namespaced ? namespace_name : "");
  if (!name.empty()) path += "/" + QueryEscape(name);
  if (!subresource.empty()) path += "/" + std::string(subresource);
  return path;
}

std::string WriteQuery(const WriteOptions& options, bool with_manager) {
  std::string query;
  auto param = [&](std::string_view key, std::string_view value) {
    if (!query.empty()) query += "&";
    query += std::string(key) + "=" + QueryEscape(value);
  };
  if (with_manager && !options.field_manager.empty()) param("fieldManager", options.field_manager);
  if (options.dry_run) param("dryRun", "All");
  return query;
}

std::string_view MetadataString(const Value& object, std::string_view key) {
  const Value* metadata = object.find("metadata");
  const Value* v = metadata != nullptr ? metadata->find(key) : nullptr;
  return v != nullptr && v->is_string() ? v->as_string() : std::string_view();
}

// Sends the request; a 2xx answer's body is the object (or Status) returned.
Result<Value> Write(Client* client, Request request, const RequestContext& context) {
  Result<Response> r = client->Send(request);
  if (!r.ok()) return r.error();
  if (r->status < 200 || r->status > 299) {
    return StatusError(r->status, r->body, context, client->config().server,
                       client->config().user_name);
  }
  Result<Value> answer = json::Parse(r->body);
  if (!answer.ok() || !answer->is_object()) {
    return Error::Of(ErrorCode::kInvalidInput, "the answer of " + client->config().server + " to " +
                                                   context.verb + " " + context.kind + " \"" +
                                                   context.name + "\" is not a JSON object");
  }
  return std::move(*answer);
}

std::string_view ContentType(PatchType type) {
  switch (type) {
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
    case PatchType::kApply:
      return "application/apply-patch+yaml";
  }
  return "application/merge-patch+json";
}

}  // namespace

Result<Value> Apply(Client* client, const ApiResource& resource, std::string_view namespace_name,
                    const Value& object, const WriteOptions& options) {
  std::string_view ns = MetadataString(object, "namespace");
  if (ns.empty()) ns = namespace_name;
  const std::string_view name = MetadataString(object, "name");
  if (name.empty()) {
    return Error::Of(ErrorCode::kInvalidInput,
                     "a " + resource.kind + " without metadata.name cannot be applied",
                     "server-side apply needs a name; generateName works only with create");
  }
  Request request;
  request.method = "PATCH";
  request.path = ObjectPath(resource, ns, name, "");
  request.query = WriteQuery(options, true);
  if (options.force_conflicts) request.query += "&force=true";
  request.content_type = std::string(ContentType(PatchType::kApply));
  request.body = json::ToCompactString(object);
  return Write(client, std::move(request), ContextOf("patch", resource, ns, name));
}

Result<Value> Create(Client* client, const ApiResource& resource, std::string_view namespace_name,
                     const Value& object, const WriteOptions& options) {
  std::string_view ns = MetadataString(object, "namespace");
  if (ns.empty()) ns = namespace_name;
  Request request;
  request.method = "POST";
  request.path = ObjectPath(resource, ns, "", "");
  request.query = WriteQuery(options, true);
  request.body = json::ToCompactString(object);
  std::string_view name = MetadataString(object, "name");
  if (name.empty()) name = MetadataString(object, "generateName");
  return Write(client, std::move(request), ContextOf("create", resource, ns, name));
}

Result<Value> Patch(Client* client, const ApiResource& resource, std::string_view namespace_name,
                    std::string_view name, PatchType type, std::string_view body,
                    const WriteOptions& options, std::string_view subresource) {
  Request request;
  request.method = "PATCH";
  request.path = ObjectPath(resource, namespace_name, name, subresource);
  request.query = WriteQuery(options, true);
  if (type == PatchType::kApply && options.force_conflicts) request.query += "&force=true";
  request.content_type = std::string(ContentType(type));
  request.body = std::string(body);
  RequestContext context = ContextOf("patch", resource, namespace_name, name);
  if (!subresource.empty()) context.resource += "/" + std::string(subresource);
  return Write(client, std::move(request), context);
}

Result<Value> Delete(Client* client, const ApiResource& resource, std::string_view namespace_name,
                     std::string_view name, const WriteOptions& options) {
  Request request;
  request.method = "DELETE";
  request.path = ObjectPath(resource, namespace_name, name, "");
  request.query = WriteQuery(options, false);
  if (!options.propagation_policy.empty()) {
    request.query += std::string(request.query.empty() ? "" : "&") +
                     "propagationPolicy=" + QueryEscape(options.propagation_policy);
  }
  return Write(client, std::move(request), ContextOf("delete", resource, namespace_name, name));
}

}  // namespace wmap::kube
