// Label selectors in kubectl's syntax (wmap/selector.h).
#include "wmap/selector.h"

#include <cctype>
#include <charconv>
#include <cstdint>

namespace wmap {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A label key: an optional DNS prefix and '/', then a name of alphanumerics, '-', '_', '.'.
bool ValidKey(std::string_view key) {
  if (key.empty()) return false;
  size_t slash = key.rfind('/');
  std::string_view name = slash == std::string_view::npos ? key : key.substr(slash + 1);
  if (name.empty() || name.size() > 63) return false;
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
        c != '/') {
      return false;
    }
  }
  return std::isalnum(static_cast<unsigned char>(name.front())) &&
         std::isalnum(static_cast<unsigned char>(name.back()));
}

bool ValidValue(std::string_view v) {
  if (v.size() > 63) return false;
  for (char c : v) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return v.empty() || (std::isalnum(static_cast<unsigned char>(v.front())) &&
                       std::isalnum(static_cast<unsigned char>(v.back())));
}

// Splits at commas that are not inside parentheses.
std::vector<std::string_view> SplitRequirements(std::string_view text, bool* balanced) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  *balanced = true;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth < 0) *balanced = false;
    if (text[i] == ',' && depth == 0) {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (depth != 0) *balanced = false;
  out.push_back(text.substr(start));
  return out;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<LabelSelector> LabelSelector::Parse(std::string_view text, std::string* error) {
  LabelSelector selector;
  text = Trim(text);
  if (text.empty()) return selector;
  bool balanced = true;
  std::vector<std::string_view> parts = SplitRequirements(text, &balanced);
  if (!balanced) {
    *error = "unbalanced parentheses in selector \"" + std::string(text) + "\"";
    return std::nullopt;
  }
  for (std::string_view raw : parts) {
    std::string_view part = Trim(raw);
    auto bad = [&](std::string_view why) {
      *error = "invalid selector requirement \"" + std::string(part) + "\": " + std::string(why);
      return std::nullopt;
    };
    if (part.empty()) return bad("empty requirement");
    Requirement r;
    if (part.front() == '!') {
      r.key = std::string(Trim(part.substr(1)));
      r.op = Op::kNotExists;
    } else if (size_t p = part.find_first_of("=!<>"); p != std::string_view::npos) {
      r.key = std::string(Trim(part.substr(0, p)));
      std::string_view rest = part.substr(p);
      std::string_view value;
      if (rest.starts_with("==")) {
        r.op = Op::kEquals;
        value = rest.substr(2);
      } else if (rest.starts_with("!=")) {
        r.op = Op::kNotEquals;
        value = rest.substr(2);
      } else if (rest.starts_with("=")) {
        r.op = Op::kEquals;
        value = rest.substr(1);
      } else if (rest.starts_with(">")) {
        r.op = Op::kGreater;
        value = rest.substr(1);
      } else if (rest.starts_with("<")) {
        r.op = Op::kLess;
        value = rest.substr(1);
      } else {
        return bad("expected =, ==, != , in, notin, > or <");
      }
      value = Trim(value);
      if ((r.op == Op::kGreater || r.op == Op::kLess) && !ParseInt(value)) {
        return bad("> and < take an integer");
      }
      if (r.op != Op::kGreater && r.op != Op::kLess && !ValidValue(value)) {
        return bad("invalid value \"" + std::string(value) + "\"");
      }
      r.values.emplace_back(value);
    } else if (size_t open = part.find('('); open != std::string_view::npos) {
      std::string_view head = Trim(part.substr(0, open));
      if (!part.ends_with(")")) return bad("a set ends with ')'");
      size_t space = head.find_last_of(" \t");
      if (space == std::string_view::npos) return bad("expected KEY in (...) or KEY notin (...)");
      std::string_view op = Trim(head.substr(space + 1));
      r.key = std::string(Trim(head.substr(0, space)));
      if (op == "in") {
        r.op = Op::kIn;
      } else if (op == "notin") {
        r.op = Op::kNotIn;
      } else {
        return bad("expected in or notin, not \"" + std::string(op) + "\"");
      }
      std::string_view inner = part.substr(open + 1, part.size() - open - 2);
      size_t start = 0;
      for (size_t i = 0; i <= inner.size(); ++i) {
        if (i == inner.size() || inner[i] == ',') {
          std::string_view v = Trim(inner.substr(start, i - start));
          if (!ValidValue(v)) return bad("invalid value \"" + std::string(v) + "\"");
          r.values.emplace_back(v);
          start = i + 1;
        }
      }
    } else {
      r.key = std::string(part);
      r.op = Op::kExists;
    }
    if (!ValidKey(r.key)) return bad("invalid label key \"" + r.key + "\"");
    selector.requirements_.push_back(std::move(r));
  }
  return selector;
}

bool LabelSelector::Matches(const Value& labels) const {
  for (const Requirement& r : requirements_) {
    const Value* v = labels.is_object() ? labels.find(r.key) : nullptr;
    bool present = v != nullptr && v->is_string();
    std::string_view value = present ? v->as_string() : std::string_view();
    auto in_set = [&] {
      for (const std::string& s : r.values) {
        if (s == value) return true;
      }
      return false;
    };
    bool ok = false;
    switch (r.op) {
      case Op::kEquals:
      case Op::kIn:
        ok = present && in_set();
        break;
      case Op::kNotEquals:
      case Op::kNotIn:
        ok = !present || !in_set();
        break;
      case Op::kExists:
        ok = present;
        break;
      case Op::kNotExists:
        ok = !present;
        break;
      case Op::kGreater:
      case Op::kLess: {
        std::optional<int64_t> have = present ? ParseInt(value) : std::nullopt;
        std::optional<int64_t> want = ParseInt(r.values[0]);
        ok = have && want && (r.op == Op::kGreater ? *have > *want : *have < *want);
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace wmap
