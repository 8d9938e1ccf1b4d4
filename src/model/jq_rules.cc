#include "model/jq_rules.h"

#include <cctype>

namespace wmap::model {
namespace {

std::string Quoted(std::string_view text, std::string_view document_path) {
  return "'" + std::string(text) + "' at '" + GoFieldPath(document_path) + "'";
}

}  // namespace

std::string GoFieldPath(std::string_view document_path) {
  std::string out;
  size_t i = 0;
  while (i < document_path.size()) {
    size_t end = document_path.find_first_of(".[", i);
    if (end == std::string_view::npos) end = document_path.size();
    std::string_view segment = document_path.substr(i, end - i);
    if (segment == "optimizationInstructions") {
      out += "Instructions";
    } else if (!segment.empty()) {
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(segment[0])));
      out.append(segment.substr(1));
    }
    if (end < document_path.size() && document_path[end] == '[') {
      size_t close = document_path.find(']', end);
      if (close == std::string_view::npos) close = document_path.size() - 1;
      out.append(document_path.substr(end, close - end + 1));
      end = close + 1;
    }
    if (end < document_path.size() && document_path[end] == '.') {
      out += '.';
      ++end;
    }
    i = end;
  }
  return out;
}

namespace {

std::optional<jq::Program> CompileChecked(std::string_view text, std::string_view document_path,
                                          const jq::CompileOptions& options, JqFinding* finding) {
  // gojq parses an empty query as the identity.
  std::string_view effective = text.empty() ? std::string_view(".") : text;
  Result<std::optional<jq::ReadOnlyViolation>> parsed = jq::FindReadOnlyViolation(effective);
  if (!parsed.ok()) {
    finding->message = "failed to parse JQ expression " + Quoted(text, document_path) + ": " +
                       parsed.error().message;
    finding->offset = parsed.error().position.offset;
    finding->offset_known = parsed.error().position.known() && !text.empty();
    finding->hint = "fix the jq syntax of this expression";
    return std::nullopt;
  }
  if (const std::optional<jq::ReadOnlyViolation>& bad = parsed.value()) {
    finding->message =
        "JQ expression " + Quoted(text, document_path) + " failed validation: " + bad->reason;
    finding->offset = bad->offset;
    finding->offset_known = true;
    finding->hint =
        "definition expressions only read the object: no assignment, del, range, paths, "
        "recurse, walk, repeat or ..";
    return std::nullopt;
  }
  Result<jq::Program> program = jq::Program::Compile(effective, options);
  if (!program.ok()) {
    finding->message = "failed to compile JQ expression " + Quoted(text, document_path) + ": " +
                       program.error().message;
    finding->offset = program.error().position.offset;
    finding->offset_known = true;
    finding->hint = "paths start with '.', as in .spec.replicas; functions must exist in gojq";
    return std::nullopt;
  }
  return std::move(program.value());
}

}  // namespace

std::optional<jq::Program> CompileDefinitionExpression(std::string_view text,
                                                       std::string_view document_path,
                                                       JqFinding* finding) {
  return CompileChecked(text, document_path, {}, finding);
}

std::optional<jq::Program> CompileGangExpression(std::string_view text,
                                                 std::string_view document_path,
                                                 JqFinding* finding) {
  jq::CompileOptions options;
  options.variables = {"instance", "replica"};
  return CompileChecked(text, document_path, options, finding);
}

std::optional<jq::Program> CompileInternal(const std::string& text) {
  Result<jq::Program> program = jq::Program::Compile(text);
  if (!program.ok()) return std::nullopt;
  return std::move(program.value());
}

}  // namespace wmap::model
