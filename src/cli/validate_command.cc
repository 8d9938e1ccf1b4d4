// `wmap validate FILE...|-`: loads each file as definitions and reports every problem found.
#include <string>
#include <vector>

#include "cli/workload_commands.h"
#include "cli/workload_input.h"
#include "wmap/definition.h"
#include "wmap/source.h"
#include "wmap/text.h"

namespace wmap::cli {
namespace {

// Messages may quote multi-line expressions; each problem stays on one line ("\n" escaped).
std::string OneLine(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string ValidateCommandHelp() {
  return "Check definition files (run.ai/v1alpha1 Karta) before using them.\n"
         "\n"
         "Usage:\n"
         "  wmap validate [flags] FILE...\n"
         "  wmap validate [flags] -          (read standard input)\n"
         "\n"
         "Every document of every file is checked: the schema (unknown fields, types, required\n"
         "fields), the structural rules (unique names, ownership, pod selectors, gang groups)\n"
         "and every jq expression (syntax, forbidden constructs, compilation).\n"
         "\n"
         "Prints \"OK: FILE is a valid definition (GVK: ...)\" per definition, or \"INVALID: "
         "FILE\"\n"
         "followed by one \"file:line:col: message\" line per problem.\n"
         "\n"
         "Flags:\n"
         "  --lenient          ignore unknown fields\n"
         "  --no-crd-defaults  do not default the condition field names (type, status, message,\n"
         "                     reason) as the API server would\n"
         "  -v, --verbose      print a hint under each problem\n"
         "  -h, --help         show this help\n"
         "\n"
         "Examples:\n"
         "  wmap validate catalog/*.yaml\n"
         "  wmap validate catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml\n"
         "  cat my-definition.yaml | wmap validate -\n"
         "\n"
         "Exit status: 0 all valid, 1 a definition is invalid, 2 usage error or unreadable "
         "file,\n"
         "3 a file does not exist.\n";
}

int RunValidateCommand(std::span<const std::string> args, const CommandIo& io) {
  LoadOptions options;
  bool verbose = false;
  std::vector<std::string> files;
  bool flags_done = false;
  for (const std::string& a : args) {
    if (!flags_done && a == "--") {
      flags_done = true;
    } else if (!flags_done && (a == "-h" || a == "--help")) {
      WriteAll(io.out_fd, ValidateCommandHelp());
      return kExitOk;
    } else if (!flags_done && a == "--lenient") {
      options.lenient = true;
    } else if (!flags_done && a == "--no-crd-defaults") {
      options.apply_crd_defaults = false;
    } else if (!flags_done && (a == "-v" || a == "--verbose")) {
      verbose = true;
    } else if (!flags_done && a.size() > 1 && a[0] == '-') {
      WriteAll(io.err_fd, "wmap validate: unknown flag \"" + a +
                              "\"\nRun 'wmap validate --help' for usage.\n");
      return kExitUsage;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    WriteAll(io.err_fd,
             "wmap validate: give a definition file, or - for standard input\n"
             "Run 'wmap validate --help' for usage.\n");
    return kExitUsage;
  }
  int exit_code = kExitOk;
  std::string out;
  for (const std::string& file : files) {
    std::string text;
    std::string error;
    ErrorCode read_code = ErrorCode::kIo;
    bool read = file == "-" ? ReadWholeFd(io.in_fd, &text, &error)
                            : ReadWholeFile(file, &text, &error, &read_code);
    if (!read) {
      WriteAll(io.out_fd, out);
      out.clear();
      int code = ReportError(io, "validate", "", Error::Of(read_code, error));
      if (exit_code != kExitNotFound) exit_code = code;
      continue;
    }
    std::string name = file == "-" ? "<stdin>" : file;
    LoadResult result = LoadDefinitions(text, name, options);
    name = text::EscapeForTerminal(name);
    if (result.ok()) {
      for (const Definition& d : result.definitions) {
        out += "OK: " + name + " is a valid definition (GVK: " + d.root_kind().ToString() + ")\n";
      }
      continue;
    }
    out += "INVALID: " + name + "\n";
    for (const Error& e : result.errors) {
      Error shown = e;
      shown.file = text::EscapeForTerminal(e.file);
      out += text::EscapeForTerminal(OneLine(shown.ToString()), true) + "\n";
      if (verbose && !e.hint.empty()) out += "    hint: " + text::EscapeForTerminal(e.hint) + "\n";
    }
    if (exit_code == kExitOk) exit_code = kExitFalsy;
  }
  WriteAll(io.out_fd, out);
  return exit_code;
}

}  // namespace wmap::cli
