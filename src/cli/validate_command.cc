// `wmap validate FILE...|-`: loads each file as definitions and reports every problem found.
#include <string>
#include <vector>

#include "cli/limit_values.h"
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

// Loads the definitions of one file document by document, as they are read (memory stays near
// one document). *read_error is set when the file cannot be read or holds a document larger
// than the limit.
LoadResult LoadFile(const std::string& file, const std::string& name, const CommandIo& io,
                    const LoadOptions& options, uint64_t document_limit,
                    std::optional<Error>* read_error) {
  DocumentReader reader(name,
                        {.format = DocumentFormat::kYaml, .max_document_size = document_limit});
  if (file == "-") {
    reader.OpenFd(io.in_fd);
  } else {
    std::string error;
    ErrorCode code = ErrorCode::kIo;
    if (!reader.OpenPath(file, &error, &code)) {
      *read_error = Error::Of(code, error);
      return {};
    }
  }
  LoadResult all;
  DocumentText doc;
  while (reader.Next(&doc, read_error)) {
    if (*read_error) return {};
    if (doc.Empty()) continue;  // nothing to load, as the whole stream would have it
    LoadResult one = LoadDefinitions(doc.text, name, options);
    if (one.documents == 0) {
      // Comments only ("no definition found", kInvalidDefinition), or text that does not
      // parse: that error alone is the file's, as when the whole text is read at once.
      if (one.errors.empty() || one.errors.front().code == ErrorCode::kInvalidDefinition) {
        continue;
      }
      LoadResult failed;
      failed.errors.push_back(std::move(one.errors.front()));
      doc.Locate(&failed.errors.back());
      return failed;
    }
    all.documents += one.documents;
    for (Definition& d : one.definitions) all.definitions.push_back(std::move(d));
    for (Error& e : one.errors) {
      doc.Locate(&e);
      all.errors.push_back(std::move(e));
    }
  }
  if (all.documents == 0 && all.errors.empty()) return LoadDefinitions("", name, options);
  return all;
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
         "  --max-document-size N\n"
         "                     the longest document a file may hold: 256Mi (0: no limit;\n"
         "                     docs/limits.md)\n"
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
  uint64_t document_limit = kDefaultMaxDocumentSize;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!flags_done && (a == "--max-document-size" || a.starts_with("--max-document-size="))) {
      std::string value;
      if (a.size() > 19) {
        value = a.substr(20);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        WriteAll(io.err_fd, "wmap validate: flag needs an argument: --max-document-size\n");
        return kExitUsage;
      }
      std::optional<uint64_t> bytes =
          value == "0" ? std::optional<uint64_t>(0) : ParseLimitBytes(value);
      if (!bytes) {
        WriteAll(io.err_fd, "wmap validate: invalid --max-document-size \"" +
                                text::EscapeForTerminal(value) +
                                "\"\nhint: give a size such as 64Mi or 1Gi (0 for no limit)\n");
        return kExitUsage;
      }
      document_limit = *bytes;
    } else if (!flags_done && a == "--") {
      flags_done = true;
    } else if (!flags_done && (a == "-h" || a == "--help")) {
      WriteAll(io.out_fd, ForProgram(io, ValidateCommandHelp()));
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
    std::string name = file == "-" ? "<stdin>" : file;
    std::optional<Error> read_error;
    LoadResult result = LoadFile(file, name, io, options, document_limit, &read_error);
    if (read_error) {
      WriteAll(io.out_fd, out);
      out.clear();
      int code = ReportError(io, "validate", "", *read_error);
      if (exit_code != kExitNotFound) exit_code = code;
      continue;
    }
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
