// Reads: one object, or a collection page by page.
#include <string>

#include "kube/object_kind.h"
#include "wmap/json.h"
#include "wmap/kube.h"

namespace wmap::kube {

Value WithKind(Value item, const ApiResource& resource) {
  Value out = Value::EmptyObject(item.size() + 2);
  out.set("apiVersion", Value::String(resource.ApiVersion()));
  out.set("kind", Value::String(resource.kind));
  for (const auto& member : item.members()) {
    if (member.key.as_string() == "apiVersion" || member.key.as_string() == "kind") continue;
    out.set(member.key, member.value);
  }
  return out;
}

RequestContext ContextOf(std::string_view verb, const ApiResource& resource,
                         std::string_view namespace_name, std::string_view name) {
  RequestContext c;
  c.verb = std::string(verb);
  c.group = resource.group;
  c.resource = resource.resource;
  c.kind = resource.kind;
  c.namespace_name = resource.namespaced ? std::string(namespace_name) : "";
  c.name = std::string(name);
  return c;
}

std::string QueryEscape(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

std::optional<Error> List(Client* client, const ApiResource& resource, const ListOptions& options,
                          const std::function<bool(Value item)>& visit, int* pages,
                          std::string* resource_version) {
  const std::string path = resource.CollectionPath(options.namespace_name);
  if (resource_version != nullptr) resource_version->clear();
  std::string continue_token;
  do {
    std::string query;
    auto param = [&](std::string_view name, std::string_view value) {
      if (value.empty()) return;
      if (!query.empty()) query += "&";
      query += std::string(name) + "=" + QueryEscape(value);
    };
    if (options.chunk_size > 0) param("limit", std::to_string(options.chunk_size));
    param("continue", continue_token);
    param("labelSelector", options.label_selector);
    param("fieldSelector", options.field_selector);
    Result<Response> r = client->Get(path, query);
    if (pages != nullptr) ++*pages;
    if (!r.ok()) return r.error();
    if (r->status != 200) {
      return StatusError(r->status, r->body,
                         ContextOf("list", resource, options.namespace_name, ""),
                         client->config().server, client->config().user_name);
    }
    json::ReadOptions read;
    read.share_repeated = true;
    Result<Value> list = json::Parse(r->body, read);
    if (!list.ok() || !list->is_object()) {
      return Error::Of(ErrorCode::kInvalidInput, "the list of " + resource.GroupResource() +
                                                     " from " + client->config().server +
                                                     " is not a JSON object");
    }
    continue_token.clear();
    if (const Value* metadata = list->find("metadata")) {
      if (const Value* v = metadata->find("resourceVersion"); v != nullptr && v->is_string() &&
                                                              resource_version != nullptr &&
                                                              resource_version->empty()) {
        *resource_version = std::string(v->as_string());
      }
      if (const Value* c = metadata->find("continue"); c != nullptr && c->is_string()) {
        continue_token = std::string(c->as_string());
      }
    }
    if (const Value* items = list->find("items"); items != nullptr && items->is_array()) {
      for (const Value& item : items->items()) {
        if (!visit(WithKind(item, resource))) return std::nullopt;
      }
    }
  } while (!continue_token.empty());
  return std::nullopt;
}

Result<Value> GetObject(Client* client, const ApiResource& resource,
                        std::string_view namespace_name, std::string_view name) {
  const std::string path = resource.CollectionPath(namespace_name) + "/" + QueryEscape(name);
  Result<Response> r = client->Get(path, "");
  if (!r.ok()) return r.error();
  if (r->status != 200) {
    return StatusError(r->status, r->body, ContextOf("get", resource, namespace_name, name),
                       client->config().server, client->config().user_name);
  }
  Result<Value> object = json::Parse(r->body);
  if (!object.ok() || !object->is_object()) {
    return Error::Of(ErrorCode::kInvalidInput, "the " + resource.kind + " \"" + std::string(name) +
                                                   "\" from " + client->config().server +
                                                   " is not JSON");
  }
  return WithKind(std::move(*object), resource);
}

}  // namespace wmap::kube
