// Errors, flags, definition resolution and workload splitting of the workload commands.
#include "cli/workload_input.h"

#include "cli/limit_values.h"

#include <string>
#include <utility>

#include "wmap/json.h"
#include "wmap/text.h"
#include "wmap/view.h"
#include "wmap/yaml.h"

namespace wmap::cli {

Error UsageError(std::string message, std::string hint) {
  return Error::Of(ErrorCode::kUsage, std::move(message), std::move(hint));
}

std::string_view MachineFormat(std::string_view output) {
  if (output == "json") return "json";
  if (output == "yaml") return "yaml";
  return "";
}

int ReportError(const CommandIo& io, std::string_view command, std::string_view output,
                const Error& error) {
  std::string_view format = MachineFormat(output);
  if (format.empty()) {
    // File names and messages quote what the input holds: no escape sequence of it reaches the
    // terminal, and a line feed in a file name cannot break file:line:col.
    Error shown = error;
    shown.file = text::EscapeForTerminal(error.file);
    shown.message = text::EscapeForTerminal(error.message, /*keep_newlines=*/true);
    std::string text =
        std::string(io.program) + " " + std::string(command) + ": " + shown.ToString() + "\n";
    if (!error.hint.empty()) {
      text += "hint: " + ForProgram(io, text::EscapeForTerminal(error.hint, true)) + "\n";
    }
    WriteAll(io.err_fd, text);
    return ErrorCodeInfo(error.code).exit_code;
  }
  Error documented = error;
  documented.hint = ForProgram(io, error.hint);
  Value v = view::ErrorDocument(documented);
  if (format == "json") {
    json::WriteOptions w;
    w.sort_keys = false;
    WriteAll(io.out_fd, json::ToString(v, w) + "\n");
  } else {
    WriteAll(io.out_fd, yaml::ToString(v));
  }
  return ErrorCodeInfo(error.code).exit_code;
}

void ReportWarning(const CommandIo& io, std::string_view command, std::string_view text) {
  WriteAll(io.err_fd, std::string(io.program) + " " + std::string(command) +
                          ": warning: " + text::EscapeForTerminal(text) + "\n");
}

void WarnUndefinedKind(const CommandIo& io, std::string_view command, const SourceObject& object,
                       std::set<std::string>* warned) {
  std::string gvk = std::string(object.ApiVersion()) + " " + std::string(object.Kind());
  if (!warned->insert(gvk).second) return;
  ReportWarning(io, command,
                DefinitionResolver::NoDefinition(object).ToString() +
                    (command == "mutate" ? " (objects of this kind are left unchanged)"
                                         : " (objects of this kind are skipped)"));
}

std::optional<std::string_view> GetEnv(const CommandIo& io, std::string_view name) {
  if (io.environment == nullptr) return std::nullopt;
  for (const char* const* e = io.environment; *e != nullptr; ++e) {
    std::string_view entry(*e);
    if (entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

// ---- FlagParser ----

void FlagParser::String(std::initializer_list<std::string_view> names, std::string* out) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.string = out;
  flags_.push_back(std::move(f));
}

void FlagParser::Strings(std::initializer_list<std::string_view> names,
                         std::vector<std::string>* out) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.strings = out;
  flags_.push_back(std::move(f));
}

void FlagParser::Bool(std::initializer_list<std::string_view> names, bool* out) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.boolean = out;
  flags_.push_back(std::move(f));
}

void FlagParser::Optional(std::initializer_list<std::string_view> names, std::string* out,
                          std::string_view bare) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.optional = out;
  f.bare = std::string(bare);
  flags_.push_back(std::move(f));
}

std::optional<Error> FlagParser::Parse(std::span<const std::string> args,
                                       std::vector<std::string>* positional) const {
  bool flags_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (flags_done || a == "-" || a.empty() || a[0] != '-') {
      positional->push_back(a);
      continue;
    }
    if (a == "--") {
      flags_done = true;
      continue;
    }
    std::string name = a;
    std::optional<std::string> inline_value;
    if (size_t eq = a.find('='); eq != std::string::npos && a.starts_with("--")) {
      name = a.substr(0, eq);
      inline_value = a.substr(eq + 1);
    } else if (!a.starts_with("--") && a.size() > 2) {
      // "-fFILE" / "-ojson": a short flag with its value attached.
      name = a.substr(0, 2);
      inline_value = a.substr(2);
    }
    const Flag* flag = nullptr;
    for (const Flag& f : flags_) {
      for (const std::string& n : f.names) {
        if (n == name) flag = &f;
      }
    }
    if (flag == nullptr) return UsageError("unknown flag \"" + name + "\"");
    if (flag->optional != nullptr) {
      *flag->optional = inline_value.value_or(flag->bare);
      continue;
    }
    if (flag->boolean != nullptr) {
      if (inline_value) {
        if (*inline_value == "true") {
          *flag->boolean = true;
        } else if (*inline_value == "false") {
          *flag->boolean = false;
        } else {
          return UsageError("flag " + name + " takes true or false, not \"" + *inline_value + "\"");
        }
      } else {
        *flag->boolean = true;
      }
      continue;
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return UsageError("flag needs an argument: " + name);
    }
    if (flag->string != nullptr) {
      *flag->string = value;
    } else {
      flag->strings->push_back(value);
    }
  }
  return std::nullopt;
}

void InputFlags::Register(FlagParser* parser) {
  parser->Strings({"-f", "--filename"}, &files);
  parser->Strings({"-d", "--definition"}, &definition_files);
  parser->Strings({"--definitions"}, &definition_dirs);
  parser->Bool({"--lenient"}, &lenient);
  parser->Bool({"--no-crd-defaults"}, &no_crd_defaults);
  parser->String({"--eval-timeout"}, &eval_timeout);
  parser->String({"--eval-memory"}, &eval_memory);
  parser->String({"--deadline"}, &deadline);
  parser->String({"--max-document-size"}, &max_document_size);
}

std::optional<Error> InputFlags::ParseDocumentLimit() {
  if (max_document_size.empty()) return std::nullopt;
  std::optional<uint64_t> bytes =
      max_document_size == "0" ? std::optional<uint64_t>(0) : ParseLimitBytes(max_document_size);
  if (!bytes) {
    return UsageError("invalid --max-document-size \"" + max_document_size + "\"",
                      "give a size such as 64Mi or 1Gi (0 for no limit)");
  }
  document_limit = *bytes;
  return std::nullopt;
}

Result<EvalOptions> InputFlags::eval_limits() const {
  EvalOptions limits;
  limits.deadline = std::chrono::steady_clock::now() + kDefaultDeadline;
  auto duration = [](std::string_view flag, const std::string& text,
                     std::chrono::nanoseconds* out) -> std::optional<Error> {
    if (text == "0") {
      *out = std::chrono::nanoseconds::zero();
      return std::nullopt;
    }
    std::optional<std::chrono::nanoseconds> d = ParseLimitDuration(text);
    if (!d) {
      return UsageError("invalid " + std::string(flag) + " \"" + text + "\"",
                        "give a duration such as 30s, 1.5m or 500ms (0 for no limit)");
    }
    *out = *d;
    return std::nullopt;
  };
  if (!eval_timeout.empty()) {
    std::chrono::nanoseconds d{};
    if (std::optional<Error> e = duration("--eval-timeout", eval_timeout, &d)) return *e;
    // No limit is a limit far away (a year), so deadlines stay representable.
    limits.timeout = d.count() == 0 ? std::chrono::hours(24 * 365)
                                    : std::chrono::ceil<std::chrono::milliseconds>(d);
  }
  if (!deadline.empty()) {
    std::chrono::nanoseconds d{};
    if (std::optional<Error> e = duration("--deadline", deadline, &d)) return *e;
    if (d.count() == 0) {
      limits.deadline.reset();
    } else {
      limits.deadline = std::chrono::steady_clock::now() + d;
    }
  }
  if (!eval_memory.empty()) {
    if (eval_memory == "0") {
      limits.max_memory_bytes = 0;
    } else {
      std::optional<uint64_t> bytes = ParseLimitBytes(eval_memory);
      if (!bytes) {
        return UsageError("invalid --eval-memory \"" + eval_memory + "\"",
                          "give a size such as 256Mi or 1Gi (0 for no limit)");
      }
      limits.max_memory_bytes = static_cast<size_t>(*bytes);
    }
  }
  return limits;
}

DefinitionSources InputFlags::definition_sources(const CommandIo& io) const {
  DefinitionSources sources;
  sources.folders = definition_dirs;
  sources.files = definition_files;
  sources.load = load_options();
  sources.stdin_fd = io.in_fd;
  return sources;
}

LoadOptions InputFlags::load_options() const {
  LoadOptions o;
  o.lenient = lenient;
  o.apply_crd_defaults = !no_crd_defaults;
  return o;
}

}  // namespace wmap::cli
