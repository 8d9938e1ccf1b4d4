// ObjectMeta as the API server checks it for every object, whatever a custom resource's schema
// says about `metadata`: its field schema, and the syntax rules for names, label keys and values,
// and annotation keys.
#ifndef WMAP_SCHEMA_OBJECT_META_H_
#define WMAP_SCHEMA_OBJECT_META_H_

#include <string>
#include <string_view>

#include "schema/graph.h"
#include "schema/reporter.h"
#include "wmap/value.h"

namespace wmap::schema {

// The compiled metav1.ObjectMeta schema (built-in dialect: nulls accepted, unknown fields
// rejected); its root is node 0. Built once, on first use; safe from any thread.
const Graph& ObjectMetaGraph();

// Each returns "" when the text is valid, otherwise the API server's explanation (the part of
// the message after "Invalid value: <text>: ").
std::string CheckDnsSubdomain(std::string_view name);
std::string CheckLabelKey(std::string_view key);  // also annotation keys (qualified names)
std::string CheckLabelValue(std::string_view value);

// Reports the API server's syntax rules for an object's own metadata: name (or generateName)
// present and a DNS subdomain, label keys and values, annotation keys and total size. The
// reporter's path must be at "metadata".
void CheckMetadataRules(const Value& meta, Reporter* report);

}  // namespace wmap::schema

#endif  // WMAP_SCHEMA_OBJECT_META_H_
