// `wmap completion bash|zsh|fish`: shell completion scripts generated from the command table and
// the flags each command's help lists.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "cli/pod_commands.h"

namespace wmap::cli {
namespace {

// One flag as a command's help describes it.
struct FlagInfo {
  std::vector<std::string> names;  // "-f", "--filename"
  bool takes_value = false;
  std::string description;
  std::vector<std::string> values;  // the known values (output formats), if any
};

// A command of the table with the flags its help lists (in help order, each name once).
struct CommandInfo {
  std::string name;
  std::string summary;
  std::vector<FlagInfo> flags;
};

bool IsFlagChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; }

// A flag token at text[i]: "-x" or "--name", not inside a word.
size_t FlagTokenEnd(std::string_view text, size_t i) {
  if (text[i] != '-' || (i > 0 && (IsFlagChar(text[i - 1]) || text[i - 1] == '\''))) return 0;
  size_t j = i + 1;
  if (j < text.size() && text[j] == '-') ++j;
  if (j >= text.size() || !std::isalpha(static_cast<unsigned char>(text[j]))) return 0;
  while (j < text.size() && IsFlagChar(text[j])) ++j;
  if (text[j - 1] == '-') return 0;
  if (i + 2 == j && text[i + 1] != '-') return j;  // -x
  if (text[i + 1] != '-') return 0;                // -word is not a flag
  return j;
}

// An argument placeholder: FILE, NAME=VALUE, [NAME=]IMAGE, KEY=VALUE, FORMAT...
bool IsPlaceholder(std::string_view word) {
  bool upper = false;
  for (char c : word) {
    if (std::islower(static_cast<unsigned char>(c))) return false;
    upper = upper || std::isupper(static_cast<unsigned char>(c));
  }
  return upper;
}

const std::vector<std::string>& KnownFormats() {
  static const std::vector<std::string> formats = {"table", "wide", "tree",  "text",
                                                   "json",  "yaml", "patch", "json-patch"};
  return formats;
}

// Splits on any of `separators`, dropping empty pieces.
std::vector<std::string_view> Split(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(separators, start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool IsFlagName(std::string_view word) { return FlagTokenEnd(word, 0) == word.size(); }

// The flags of a help text. A line that starts (after indentation) with a flag is a flag table
// row: its names and placeholders ("-f, --filename PATH"), two or more spaces, a description.
// Any other flag mentioned in the text ("Flags: -d/--definition FILE, ...") is added by name,
// taking a value when an upper-case placeholder follows it.
std::vector<FlagInfo> ParseFlags(std::string_view help) {
  std::vector<FlagInfo> flags;
  std::set<std::string> seen;
  // Lines outside the examples (which show other programs' flags too).
  std::vector<std::string_view> lines;
  bool in_examples = false;
  for (std::string_view line : Split(help, "\n")) {
    if (line.starts_with("Example")) in_examples = true;
    if (line.find_first_not_of(' ') == std::string_view::npos) in_examples = false;
    if (!in_examples) lines.push_back(line);
  }
  for (std::string_view line : lines) {
    size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos || first == 0 || line[first] != '-') continue;
    size_t gap = line.find("  ", first);
    std::string_view spec = line.substr(first, gap == std::string_view::npos ? gap : gap - first);
    FlagInfo f;
    for (std::string_view word : Split(spec, " ,/")) {
      if (IsFlagName(word)) {
        f.names.emplace_back(word);
      } else if (IsPlaceholder(word) || word.find('|') != std::string_view::npos) {
        f.takes_value = true;
        for (std::string_view v : Split(word, "|[]")) {
          for (const std::string& format : KnownFormats()) {
            if (v == format) f.values.push_back(format);
          }
        }
      }
    }
    if (f.names.empty()) continue;
    if (gap != std::string_view::npos) {
      size_t d = line.find_first_not_of(' ', gap);
      if (d != std::string_view::npos) f.description = std::string(line.substr(d));
    }
    bool output = std::find(f.names.begin(), f.names.end(), "--output") != f.names.end();
    if (output && f.values.empty()) {
      for (const std::string& format : KnownFormats()) {
        if (f.description.find(format) != std::string::npos) f.values.push_back(format);
      }
    }
    bool fresh = false;
    for (const std::string& n : f.names) fresh = seen.insert(n).second || fresh;
    if (fresh) flags.push_back(std::move(f));
  }
  for (std::string_view line : lines) {
    for (size_t i = 0; i < line.size(); ++i) {
      size_t end = FlagTokenEnd(line, i);
      if (end == 0) continue;
      std::string name(line.substr(i, end - i));
      i = end;
      if (!seen.insert(name).second) continue;
      FlagInfo f;
      f.names.push_back(name);
      if (end < line.size() && line[end] == ' ') {
        size_t word_end = line.find_first_of(" ,)", end + 1);
        if (word_end == std::string_view::npos) word_end = line.size();
        f.takes_value = IsPlaceholder(line.substr(end + 1, word_end - end - 1));
      }
      flags.push_back(std::move(f));
    }
  }
  return flags;
}

std::vector<CommandInfo> CommandInfos() {
  std::vector<CommandInfo> out;
  for (const Command& c : Commands()) {
    CommandInfo info{std::string(c.name), std::string(c.summary), ParseFlags(c.help())};
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.name < b.name; });
  return out;
}

bool IsFileFlag(std::string_view name) {
  return name == "-f" || name == "--filename" || name == "-d" || name == "--definition" ||
         name == "--from-file" || name == "--slurpfile" || name == "--rawfile";
}

bool IsDirFlag(std::string_view name) {
  return name == "--definitions" || name == "-L" || name == "--library-path";
}

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : std::string(sep)) + s;
  return out;
}

std::string ShellWord(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string BashScript(const std::vector<CommandInfo>& commands) {
  std::vector<std::string> names;
  for (const CommandInfo& c : commands) names.push_back(c.name);
  std::string out =
      "# bash completion for wmap; load with: source <(wmap completion bash)\n"
      "_wmap() {\n"
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
      "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
      "    COMPREPLY=($(compgen -W " +
      ShellWord(Join(names, " ") + " help --help --version") +
      " -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  local flags=\"\" values=\"\"\n"
      "  case \"${COMP_WORDS[1]}\" in\n";
  for (const CommandInfo& c : commands) {
    if (c.name == "completion") continue;  // its shells are completed below
    std::vector<std::string> all, files, dirs, plain;
    std::string value_cases;
    for (const FlagInfo& f : c.flags) {
      for (const std::string& n : f.names) {
        all.push_back(n);
        if (!f.takes_value) continue;
        if (IsFileFlag(n)) {
          files.push_back(n);
        } else if (IsDirFlag(n)) {
          dirs.push_back(n);
        } else if (!f.values.empty()) {
          value_cases += "        " + n + ") values=" + ShellWord(Join(f.values, " ")) + " ;;\n";
        } else {
          plain.push_back(n);
        }
      }
    }
    out += "    " + c.name + ")\n";
    out += "      flags=" + ShellWord(Join(all, " ")) + "\n";
    out += "      case \"$prev\" in\n";
    if (!files.empty()) {
      out += "        " + Join(files, "|") +
             ") COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null; "
             "return ;;\n";
    }
    if (!dirs.empty()) {
      out += "        " + Join(dirs, "|") +
             ") COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null; "
             "return ;;\n";
    }
    out += value_cases;
    if (!plain.empty()) out += "        " + Join(plain, "|") + ") return ;;\n";
    out += "      esac\n";
    if (c.name == "jq" || c.name == "validate") {
      out +=
          "      if [[ \"$cur\" != -* ]]; then\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null; "
          "return\n"
          "      fi\n";
    }
    out += "      ;;\n";
  }
  out += "    help) COMPREPLY=($(compgen -W " + ShellWord(Join(names, " ")) +
         " -- \"$cur\")); return ;;\n"
         "    completion) COMPREPLY=($(compgen -W 'bash zsh fish' -- \"$cur\")); return ;;\n"
         "    *) return ;;\n"
         "  esac\n"
         "  if [[ -n \"$values\" ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -F _wmap wmap\n";
  return out;
}

// Text safe inside a zsh _arguments spec's [description].
std::string ZshDescription(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '[' || c == ']') {
      out += '\\';
    } else if (c == '\'') {
      out += "'\\''";
      continue;
    } else if (c == ':') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string ZshScript(const std::vector<CommandInfo>& commands) {
  std::string out =
      "#compdef wmap\n"
      "# zsh completion for wmap; load with: source <(wmap completion zsh)\n"
      "# or save as _wmap in a folder of $fpath\n"
      "_wmap() {\n"
      "  local -a commands\n"
      "  commands=(\n";
  for (const CommandInfo& c : commands) {
    out += "    '" + c.name + ":" + ZshDescription(c.summary) + "'\n";
  }
  out +=
      "    'help:show the help of a command'\n"
      "  )\n"
      "  if (( CURRENT == 2 )); then\n"
      "    _describe -t commands 'wmap command' commands\n"
      "    _arguments '--help[show help]' '--version[print the version]'\n"
      "    return\n"
      "  fi\n"
      "  local cmd=${words[2]}\n"
      "  shift 1 words\n"
      "  (( CURRENT-- ))\n"
      "  case $cmd in\n";
  for (const CommandInfo& c : commands) {
    if (c.name == "completion") continue;  // its shells are completed below
    out += "    " + c.name + ")\n      _arguments -s \\\n";
    for (const FlagInfo& f : c.flags) {
      std::string action;
      if (f.takes_value) {
        if (IsFileFlag(f.names[0])) {
          action = ":file:_files";
        } else if (IsDirFlag(f.names[0])) {
          action = ":folder:_files -/";
        } else if (!f.values.empty()) {
          action = ":value:(" + Join(f.values, " ") + ")";
        } else {
          action = ":value: ";
        }
      }
      std::string description = ZshDescription(f.description.empty() ? f.names[0] : f.description);
      bool repeatable = f.names[0] == "-f" || f.names[0] == "--label" || f.takes_value;
      for (const std::string& n : f.names) {
        out += "        '" + std::string(repeatable ? "*" : "") + n + "[" + description + "]" +
               action + "' \\\n";
      }
    }
    out +=
        (c.name == "jq" || c.name == "validate") ? "        '*:file:_files'\n" : "        '*: :'\n";
    out += "      ;;\n";
  }
  out +=
      "    help) _describe -t commands 'wmap command' commands ;;\n"
      "    completion) _values 'shell' bash zsh fish ;;\n"
      "  esac\n"
      "}\n"
      "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
      "  _wmap \"$@\"\n"
      "else\n"
      "  compdef _wmap wmap\n"
      "fi\n";
  return out;
}

std::string FishQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string FishScript(const std::vector<CommandInfo>& commands) {
  std::vector<std::string> names;
  for (const CommandInfo& c : commands) names.push_back(c.name);
  names.push_back("help");
  std::string all = Join(names, " ");
  std::string out =
      "# fish completion for wmap; load with: wmap completion fish | source\n"
      "complete -c wmap -f\n"
      "complete -c wmap -n '__fish_use_subcommand' -l help -d 'show help'\n"
      "complete -c wmap -n '__fish_use_subcommand' -l version -d 'print the version'\n";
  for (const CommandInfo& c : commands) {
    out += "complete -c wmap -n '__fish_use_subcommand' -a " + c.name + " -d " +
           FishQuote(c.summary) + "\n";
  }
  out +=
      "complete -c wmap -n '__fish_use_subcommand' -a help -d 'show the help of a command'\n"
      "complete -c wmap -n '__fish_seen_subcommand_from help' -a " +
      FishQuote(all) +
      "\n"
      "complete -c wmap -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n";
  for (const CommandInfo& c : commands) {
    std::string condition = "-n '__fish_seen_subcommand_from " + c.name + "'";
    if (c.name == "jq" || c.name == "validate") {
      out += "complete -c wmap " + condition + " -F\n";
    }
    for (const FlagInfo& f : c.flags) {
      std::string line = "complete -c wmap " + condition;
      for (const std::string& n : f.names) {
        line += n.starts_with("--") ? " -l " + n.substr(2) : " -s " + n.substr(1);
      }
      if (f.takes_value) {
        if (IsFileFlag(f.names[0])) {
          line += " -r -F";
        } else if (IsDirFlag(f.names[0])) {
          line += " -r -a '(__fish_complete_directories)'";
        } else if (!f.values.empty()) {
          line += " -x -a " + FishQuote(Join(f.values, " "));
        } else {
          line += " -x";
        }
      }
      if (!f.description.empty()) line += " -d " + FishQuote(f.description);
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace

std::string CompletionCommandHelp() {
  return "Print a shell completion script for every wmap command and flag.\n"
         "\n"
         "Usage:\n"
         "  wmap completion bash|zsh|fish\n"
         "\n"
         "Commands, their flags, output formats (-o), files (-f, --definition) and folders\n"
         "(--definitions) are completed.\n"
         "\n"
         "Flags:\n"
         "  -h, --help  show this help\n"
         "\n"
         "Examples:\n"
         "  source <(wmap completion bash)            # bash, this shell\n"
         "  wmap completion bash > /etc/bash_completion.d/wmap\n"
         "  wmap completion zsh > \"${fpath[1]}/_wmap\"  # zsh\n"
         "  wmap completion fish > ~/.config/fish/completions/wmap.fish\n"
         "\n"
         "Exit status: 0 ok, 2 usage (no shell or an unknown one).\n";
}

int RunCompletionCommand(std::span<const std::string> args, const CommandIo& io) {
  bool help = false;
  FlagParser parser;
  parser.Bool({"-h", "--help"}, &help);
  std::vector<std::string> positional;
  std::optional<Error> error = parser.Parse(args, &positional);
  if (!error && help) {
    WriteAll(io.out_fd, ForProgram(io, CompletionCommandHelp()));
    return kExitOk;
  }
  if (!error && positional.size() != 1) {
    error = UsageError(positional.empty() ? "name a shell" : "give one shell only");
  }
  if (!error && positional[0] != "bash" && positional[0] != "zsh" && positional[0] != "fish") {
    error = UsageError("unknown shell \"" + positional[0] + "\"");
  }
  if (error) {
    error->hint = "wmap completion bash, wmap completion zsh or wmap completion fish";
    return ReportError(io, "completion", "", *error);
  }
  std::vector<CommandInfo> commands = CommandInfos();
  const std::string& shell = positional[0];
  WriteAll(io.out_fd, shell == "bash"  ? BashScript(commands)
                      : shell == "zsh" ? ZshScript(commands)
                                       : FishScript(commands));
  return kExitOk;
}

}  // namespace wmap::cli
