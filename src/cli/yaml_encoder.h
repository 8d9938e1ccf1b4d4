// YAML text as the gojq command prints it with --yaml-output (go-yaml v3 style).
//
// Guarantees: block style; keys in byte order; nested mappings and sequences indented by
// `indent` spaces (sequences inside mappings too); empty containers as [] and {}; strings
// plain when they read back as the same string, in literal block style when they span lines,
// single-quoted when only plain style is unsafe, double-quoted otherwise; every document ends
// with a newline.
#ifndef WMAP_CLI_YAML_ENCODER_H_
#define WMAP_CLI_YAML_ENCODER_H_

#include <string>

#include "wmap/value.h"

namespace wmap::cli {

// Appends one YAML document for v (no leading "---").
void EncodeYaml(const Value& v, int indent, std::string* out);

}  // namespace wmap::cli

#endif  // WMAP_CLI_YAML_ENCODER_H_
