#include "cli/jq_flags.h"

#include "cli/limit_values.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string_view>

namespace wmap::cli {
namespace {

enum class Kind { kBool, kInt, kList, kMap, kPositional, kLimit };

struct FlagSpec {
  char short_name;  // 0 when none
  std::string_view long_name;
  Kind kind;
  std::string_view help;
};

constexpr FlagSpec kFlags[] = {
    {'c', "compact-output", Kind::kBool, "compact output"},
    {'r', "raw-output", Kind::kBool, "output raw strings"},
    {0, "raw-output0", Kind::kBool, "implies -r with NUL character delimiter"},
    {'j', "join-output", Kind::kBool, "implies -r with no newline delimiter"},
    {'a', "ascii-output", Kind::kBool, "output non-ASCII characters as \\uXXXX escapes"},
    {'C', "color-output", Kind::kBool, "colorize output even if piped"},
    {'M', "monochrome-output", Kind::kBool, "stop colorizing output"},
    {'S', "sort-keys", Kind::kBool, "sort keys of objects (always on)"},
    {0, "yaml-output", Kind::kBool, "output in YAML format"},
    {0, "indent", Kind::kInt, "number of spaces for indentation"},
    {0, "tab", Kind::kBool, "use tabs for indentation"},
    {'n', "null-input", Kind::kBool, "use null as input value"},
    {'R', "raw-input", Kind::kBool, "read input as raw strings"},
    {'s', "slurp", Kind::kBool, "read all inputs into an array"},
    {0, "stream", Kind::kBool, "parse input in stream fashion"},
    {0, "yaml-input", Kind::kBool, "read input as YAML format"},
    {'f', "from-file", Kind::kBool, "load query from file"},
    {'L', "library-path", Kind::kList, "directory to search modules from"},
    {0, "arg", Kind::kMap, "set a string value to a variable"},
    {0, "argjson", Kind::kMap, "set a JSON value to a variable"},
    {0, "slurpfile", Kind::kMap, "set the JSON contents of a file to a variable"},
    {0, "rawfile", Kind::kMap, "set the contents of a file to a variable"},
    {0, "args", Kind::kPositional, "consume remaining arguments as positional string values"},
    {0, "jsonargs", Kind::kPositional, "consume remaining arguments as positional JSON values"},
    {'e', "exit-status", Kind::kBool, "exit 1 when the last value is false or null"},
    {0, "timeout", Kind::kLimit, "stop evaluating after this long (30s, 500ms, 2m)"},
    {0, "max-memory", Kind::kLimit, "bytes a program may build per input (512Mi, 2G)"},
    {0, "max-steps", Kind::kLimit, "evaluation steps per input"},
    {0, "max-outputs", Kind::kLimit, "results per input"},
    {0, "max-document-size", Kind::kLimit,
     "longest YAML document or JSON value of an input (256Mi; 0: none)"},
    {'v', "version", Kind::kBool, "display version information"},
    {'h', "help", Kind::kBool, "display this help information"},
};

const FlagSpec* FindLong(std::string_view name) {
  for (const FlagSpec& f : kFlags) {
    if (f.long_name == name) return &f;
  }
  return nullptr;
}

const FlagSpec* FindShort(char c) {
  for (const FlagSpec& f : kFlags) {
    if (f.short_name != 0 && f.short_name == c) return &f;
  }
  return nullptr;
}

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

class Parser {
 public:
  Parser(std::span<const std::string> args, std::string* error) : args_(args), error_(error) {}

  std::optional<JqFlags> Run() {
    for (i_ = 0; i_ < args_.size(); ++i_) {
      const std::string& arg = args_[i_];
      if (arg == "--") {
        for (size_t k = i_ + 1; k < args_.size(); ++k) AddOperand(args_[k]);
        break;
      }
      if (arg.starts_with("--")) {
        if (!LongFlag(arg)) return std::nullopt;
        continue;
      }
      if (arg.size() > 1 && arg[0] == '-' && IsShortClump(arg)) {
        if (!ShortClump(arg)) return std::nullopt;
        continue;
      }
      AddOperand(arg);
    }
    return std::move(flags_);
  }

 private:
  // gojq treats "-xyz" as flags unless it contains a character that is not a letter before the
  // first flag that takes a value.
  static bool IsShortClump(const std::string& arg) {
    for (size_t k = 1; k < arg.size(); ++k) {
      const FlagSpec* f = FindShort(arg[k]);
      if (f != nullptr && f->kind != Kind::kBool) return true;
      if (f == nullptr && !IsLetter(arg[k])) return false;
    }
    return true;
  }

  void AddOperand(const std::string& arg) {
    if (positional_mode_ != 0 && !flags_.rest.empty()) {
      flags_.positional.push_back({positional_mode_ == 2, arg});
    } else {
      flags_.rest.push_back(arg);
    }
  }

  bool Fail(std::string message) {
    *error_ = std::move(message);
    return false;
  }

  bool LongFlag(const std::string& arg) {
    std::string_view name = std::string_view(arg).substr(2);
    std::optional<std::string> inline_value;
    const FlagSpec* f = FindLong(name);
    if (f == nullptr) {
      size_t eq = name.find('=');
      if (eq != std::string_view::npos) {
        f = FindLong(name.substr(0, eq));
        if (f != nullptr) {
          if (f->kind == Kind::kBool) {
            return Fail("boolean flag `--" + std::string(name.substr(0, eq)) +
                        "' cannot have an argument");
          }
          inline_value = std::string(name.substr(eq + 1));
        }
      }
      if (f == nullptr) return Fail("unknown flag `" + arg + "'");
    }
    return Apply(*f, "--" + std::string(f->long_name), inline_value);
  }

  bool ShortClump(const std::string& arg) {
    for (size_t k = 1; k < arg.size(); ++k) {
      const FlagSpec* f = FindShort(arg[k]);
      if (f == nullptr) return Fail(std::string("unknown flag `") + arg[k] + "'");
      std::string flag_name = std::string("-") + arg[k];
      if (f->kind == Kind::kBool) {
        if (!Apply(*f, flag_name, std::nullopt)) return false;
        continue;
      }
      std::string_view remainder = std::string_view(arg).substr(k + 1);
      bool remainder_is_flags = !remainder.empty();
      for (char c : remainder) {
        const FlagSpec* g = FindShort(c);
        if (g == nullptr || g->kind != Kind::kBool) remainder_is_flags = false;
      }
      if (remainder.empty() || remainder_is_flags) {
        if (!Apply(*f, flag_name, std::nullopt)) return false;
        continue;
      }
      if (remainder.starts_with("=")) remainder.remove_prefix(1);
      return Apply(*f, flag_name, std::string(remainder));
    }
    return true;
  }

  // Takes the value of a flag: inline, or the next argument.
  bool TakeValue(const std::string& flag_name, const std::optional<std::string>& inline_value,
                 std::string* value) {
    if (inline_value) {
      *value = *inline_value;
      return true;
    }
    if (i_ + 1 >= args_.size()) return Fail("expected argument for flag `" + flag_name + "'");
    *value = args_[++i_];
    return true;
  }

  bool Apply(const FlagSpec& f, const std::string& flag_name,
             const std::optional<std::string>& inline_value) {
    switch (f.kind) {
      case Kind::kBool:
        SetBool(f.long_name);
        return true;
      case Kind::kInt: {
        std::string text;
        if (!TakeValue(flag_name, inline_value, &text)) return false;
        int value = 0;
        if (!ParseInt(text, &value, flag_name)) return false;
        flags_.indent = value;
        return true;
      }
      case Kind::kList: {
        std::string text;
        if (!TakeValue(flag_name, inline_value, &text)) return false;
        flags_.library_paths.push_back(text);
        return true;
      }
      case Kind::kMap: {
        std::string name;
        std::string value;
        if (inline_value) {
          name = *inline_value;
          if (i_ + 1 >= args_.size())
            return Fail("expected 2 arguments for flag `" + flag_name + "'");
          value = args_[++i_];
        } else {
          if (i_ + 2 >= args_.size())
            return Fail("expected 2 arguments for flag `" + flag_name + "'");
          name = args_[i_ + 1];
          value = args_[i_ + 2];
          i_ += 2;
        }
        for (const NamedArgument& n : flags_.named) {
          if (n.name == name) return true;
        }
        NamedArgument::Kind kind = f.long_name == "arg"         ? NamedArgument::Kind::kString
                                   : f.long_name == "argjson"   ? NamedArgument::Kind::kJson
                                   : f.long_name == "slurpfile" ? NamedArgument::Kind::kSlurpFile
                                                                : NamedArgument::Kind::kRawFile;
        flags_.named.push_back({kind, std::move(name), std::move(value)});
        return true;
      }
      case Kind::kPositional:
        positional_mode_ = f.long_name == "jsonargs" ? 2 : 1;
        return true;
      case Kind::kLimit: {
        std::string text;
        if (!TakeValue(flag_name, inline_value, &text)) return false;
        return SetLimit(f.long_name, flag_name, text);
      }
    }
    return true;
  }

  bool ParseInt(const std::string& text, int* value, const std::string& flag_name) {
    std::string_view digits = text;
    if (digits.starts_with("+") || digits.starts_with("-")) digits.remove_prefix(1);
    bool ok = !digits.empty();
    for (char c : digits) ok = ok && c >= '0' && c <= '9';
    if (!ok) {
      return Fail("invalid argument for flag `" + flag_name + "': strconv.Atoi: parsing \"" + text +
                  "\": invalid syntax");
    }
    errno = 0;
    long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v > INT_MAX || v < INT_MIN) {
      return Fail("invalid argument for flag `" + flag_name + "': strconv.Atoi: parsing \"" + text +
                  "\": value out of range");
    }
    *value = static_cast<int>(v);
    return true;
  }

  bool SetLimit(std::string_view name, const std::string& flag_name, const std::string& text) {
    if (name == "timeout") {
      flags_.timeout = ParseLimitDuration(text);
      if (flags_.timeout) return true;
      return Fail("invalid argument for flag `" + flag_name + "': \"" + text +
                  "\" (a number and a unit: ns, us, ms, s, m or h, as in 30s)");
    }
    if (name == "max-document-size") {
      std::optional<uint64_t> bytes =
          text == "0" ? std::optional<uint64_t>(0) : ParseLimitBytes(text);
      if (bytes) {
        flags_.max_document_size = *bytes;
        return true;
      }
      return Fail("invalid argument for flag `" + flag_name + "': \"" + text +
                  "\" (a number of bytes, optionally with Ki, Mi, Gi, k, M or G; 0 for none)");
    }
    if (name == "max-memory") {
      std::optional<uint64_t> bytes = ParseLimitBytes(text);
      if (bytes) {
        flags_.max_memory = *bytes;
        return true;
      }
      return Fail("invalid argument for flag `" + flag_name + "': \"" + text +
                  "\" (a positive number of bytes, optionally with Ki, Mi, Gi, k, M or G)");
    }
    std::optional<uint64_t> count = ParseLimitCount(text);
    if (!count) {
      return Fail("invalid argument for flag `" + flag_name + "': \"" + text +
                  "\" (a positive integer)");
    }
    (name == "max-steps" ? flags_.max_steps : flags_.max_outputs) = *count;
    return true;
  }

  void SetBool(std::string_view name) {
    struct Entry {
      std::string_view name;
      bool JqFlags::*field;
    };
    static constexpr Entry kBools[] = {
        {"compact-output", &JqFlags::compact},
        {"raw-output", &JqFlags::raw_output},
        {"raw-output0", &JqFlags::raw_output0},
        {"join-output", &JqFlags::join_output},
        {"ascii-output", &JqFlags::ascii_output},
        {"color-output", &JqFlags::color},
        {"monochrome-output", &JqFlags::monochrome},
        {"sort-keys", &JqFlags::sort_keys},
        {"yaml-output", &JqFlags::yaml_output},
        {"tab", &JqFlags::tab},
        {"null-input", &JqFlags::null_input},
        {"raw-input", &JqFlags::raw_input},
        {"slurp", &JqFlags::slurp},
        {"stream", &JqFlags::stream},
        {"yaml-input", &JqFlags::yaml_input},
        {"from-file", &JqFlags::from_file},
        {"exit-status", &JqFlags::exit_status},
        {"version", &JqFlags::version},
        {"help", &JqFlags::help},
    };
    for (const Entry& e : kBools) {
      if (e.name == name) flags_.*(e.field) = true;
    }
  }

  std::span<const std::string> args_;
  std::string* error_;
  size_t i_ = 0;
  int positional_mode_ = 0;  // 0: none, 1: --args, 2: --jsonargs
  JqFlags flags_;
};

}  // namespace

std::optional<JqFlags> ParseJqFlags(std::span<const std::string> args, std::string* error) {
  return Parser(args, error).Run();
}

std::string JqFlagsHelp() {
  std::string out = "Options:\n";
  for (const FlagSpec& f : kFlags) {
    std::string line = "  ";
    line += f.short_name != 0 ? std::string("-") + f.short_name + ", " : "    ";
    line += "--";
    line += f.long_name;
    if (f.kind == Kind::kInt) line += " N";
    if (f.kind == Kind::kList) line += " DIR";
    if (f.kind == Kind::kLimit) line += f.long_name == "timeout" ? " TIME" : " N";
    if (f.kind == Kind::kMap) {
      line += f.long_name.ends_with("file") ? " NAME FILE" : " NAME VALUE";
    }
    if (line.size() < 30) line.append(30 - line.size(), ' ');
    line += f.help;
    out += line + "\n";
  }
  return out;
}

}  // namespace wmap::cli
