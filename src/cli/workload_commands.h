// `wmap validate`, `wmap status` and `wmap inspect`: definitions and workload objects from files.
#ifndef WMAP_CLI_WORKLOAD_COMMANDS_H_
#define WMAP_CLI_WORKLOAD_COMMANDS_H_

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/command.h"
#include "wmap/definition.h"
#include "wmap/value.h"

namespace wmap::cli {

// `wmap validate [--lenient] [--no-crd-defaults] [-v] FILE...|-`: exit 0 when every definition
// is valid, 1 when one is not, 2 on usage errors or unreadable files.
int RunValidateCommand(std::span<const std::string> args, const CommandIo& io);
std::string ValidateCommandHelp();

// `wmap status --definition DEF -f OBJ [-o text|json]`.
int RunStatusCommand(std::span<const std::string> args, const CommandIo& io);
std::string StatusCommandHelp();

// `wmap inspect --definition DEF -f OBJ [-o json]`.
int RunInspectCommand(std::span<const std::string> args, const CommandIo& io);
std::string InspectCommandHelp();

// The flags shared by status and inspect.
struct WorkloadFlags {
  std::string definition;  // --definition FILE
  std::string object;      // -f FILE ("-" for standard input)
  std::string output;      // -o FORMAT ("" = the command's default)
  bool lenient = false;
  bool crd_defaults = true;
  bool help = false;
};
// Parses args; on failure returns nullopt and sets *error.
std::optional<WorkloadFlags> ParseWorkloadFlags(std::span<const std::string> args,
                                                std::string* error);

// Reads a file ("-" = io.in_fd). On failure sets *error.
bool ReadInput(const std::string& path, const CommandIo& io, std::string* text, std::string* error);

// The definition to read `object` through: the one of `definitions` whose root kind matches the
// object's apiVersion and kind, or the only one.
const Definition* ChooseDefinition(const std::vector<Definition>& definitions, const Value& object);

// The workload objects of a YAML/JSON stream (empty documents skipped).
bool ReadObjects(const std::string& text, const std::string& name, std::vector<Value>* objects,
                 std::string* error);

}  // namespace wmap::cli

#endif  // WMAP_CLI_WORKLOAD_COMMANDS_H_
