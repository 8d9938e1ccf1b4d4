#include "model/labels.h"

namespace wmap::model {
namespace {

constexpr std::string_view kQualifiedNameMessage =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kQualifiedNameFormat = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kSubdomainMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kSubdomainFormat =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], anchored.
bool MatchesQualifiedName(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// One RFC 1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool MatchesDns1123Label(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool MatchesSubdomain(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    if (!MatchesDns1123Label(s.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// apimachinery's RegexError layout (including its double spaces).
std::string RegexError(std::string_view message, std::string_view format,
                       std::initializer_list<std::string_view> examples) {
  std::string s(message);
  s += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) s += " or ";
    first = false;
    s += "'" + std::string(example) + "', ";
  }
  s += "regex used for validation is '" + std::string(format) + "')";
  return s;
}

std::string MaxLenError(int n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

}  // namespace

std::vector<std::string> QualifiedNameErrors(std::string_view key) {
  std::vector<std::string> errors;
  std::string_view name = key;
  size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) {
      errors.push_back("a qualified name " +
                       RegexError(kQualifiedNameMessage, kQualifiedNameFormat,
                                  {"MyName", "my.name", "123-abc"}) +
                       " with an optional DNS subdomain prefix and '/' (e.g. "
                       "'example.com/MyName')");
      return errors;
    }
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      errors.push_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > 253) errors.push_back("prefix part " + MaxLenError(253));
      if (!MatchesSubdomain(prefix)) {
        errors.push_back("prefix part " +
                         RegexError(kSubdomainMessage, kSubdomainFormat, {"example.com"}));
      }
    }
  }
  if (name.empty()) {
    errors.push_back("name part must be non-empty");
  } else {
    if (name.size() > 63) errors.push_back("name part " + MaxLenError(63));
    if (!MatchesQualifiedName(name)) {
      errors.push_back("name part " + RegexError(kQualifiedNameMessage, kQualifiedNameFormat,
                                                 {"MyName", "my.name", "123-abc"}));
    }
  }
  return errors;
}

std::vector<std::string> LabelValueErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > 63) errors.push_back(MaxLenError(63));
  if (!value.empty() && !MatchesQualifiedName(value)) {
    errors.push_back(RegexError(kLabelValueMessage, "(" + std::string(kQualifiedNameFormat) + ")?",
                                {"MyValue", "my_value", "12345"}));
  }
  return errors;
}

std::string InvalidValueMessage(std::string_view field, std::string_view value,
                                std::string_view detail) {
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  quoted += '"';
  return std::string(field) + ": Invalid value: " + quoted + ": " + std::string(detail);
}

}  // namespace wmap::model
