// Command-line flags of `wmap jq`, parsed with the gojq command's rules.
//
// Rules: long flags `--name` or `--name=value`; short flags clump (`-nr`), and a short flag that
// takes a value takes the rest of its clump (`-Ltestdata`, `-L=testdata`) or the next argument;
// an argument starting with '-' that contains a non-letter (`-.`, `-1`, `-j0`) is not a flag;
// `--` ends the flags. The first non-flag argument is the query (or, with -f, the query file);
// later ones are input files, except after --args/--jsonargs, where they are positional values.
// A variable given twice by --arg/--argjson/--slurpfile/--rawfile keeps its first definition.
#ifndef WMAP_CLI_JQ_FLAGS_H_
#define WMAP_CLI_JQ_FLAGS_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wmap::cli {

struct NamedArgument {
  enum class Kind { kString, kJson, kSlurpFile, kRawFile };
  Kind kind;
  std::string name;   // without '$'
  std::string value;  // the text, JSON text, or file name
};

struct PositionalArgument {
  bool json = false;
  std::string text;
};

struct JqFlags {
  bool compact = false;
  bool raw_output = false;
  bool raw_output0 = false;
  bool join_output = false;
  bool ascii_output = false;
  bool color = false;
  bool monochrome = false;
  bool sort_keys = false;  // accepted for jq compatibility; output is always sorted
  bool yaml_output = false;
  std::optional<int> indent;
  bool tab = false;
  bool null_input = false;
  bool raw_input = false;
  bool slurp = false;
  bool stream = false;
  bool yaml_input = false;
  bool from_file = false;
  bool exit_status = false;
  bool version = false;
  bool help = false;
  // Limits (extensions: gojq has none); unset or 0 means no limit.
  std::optional<std::chrono::nanoseconds> timeout;   // --timeout: evaluation of the whole command
  uint64_t max_steps = 0;                            // --max-steps: per input value
  uint64_t max_document_size = uint64_t{256} << 20;  // --max-document-size (0: none)
  uint64_t max_memory = 0;                           // --max-memory: bytes built per input value
  uint64_t max_outputs = 0;                          // --max-outputs: per input value
  std::vector<std::string> library_paths;
  std::vector<NamedArgument> named;
  std::vector<PositionalArgument> positional;
  std::vector<std::string> rest;  // the query (or query file), then input files
};

// Parses args (without the program and command names). On failure returns nullopt and sets
// *error to gojq's message (e.g. "unknown flag `--qqq'").
std::optional<JqFlags> ParseJqFlags(std::span<const std::string> args, std::string* error);

// The option list printed by `wmap jq --help`.
std::string JqFlagsHelp();

}  // namespace wmap::cli

#endif  // WMAP_CLI_JQ_FLAGS_H_
