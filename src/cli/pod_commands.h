// `wmap gang`, `wmap mutate`, `wmap suspend`, `wmap resume` and `wmap completion`, and what they
// share: reading the workloads of `-f` inputs and printing whole objects or merge patches.
#ifndef WMAP_CLI_POD_COMMANDS_H_
#define WMAP_CLI_POD_COMMANDS_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/workload_input.h"
#include "wmap/value.h"

namespace wmap::cli {

int RunGangCommand(std::span<const std::string> args, const CommandIo& io);
std::string GangCommandHelp();

int RunMutateCommand(std::span<const std::string> args, const CommandIo& io);
std::string MutateCommandHelp();

int RunSuspendCommand(std::span<const std::string> args, const CommandIo& io);
std::string SuspendCommandHelp();
int RunResumeCommand(std::span<const std::string> args, const CommandIo& io);
std::string ResumeCommandHelp();

int RunCompletionCommand(std::span<const std::string> args, const CommandIo& io);
std::string CompletionCommandHelp();

// The workloads found in `-f` inputs, with the definitions that read them.
struct WorkloadInputs {
  DefinitionResolver resolver;
  Inventory split;
};

// Loads the definitions and reads and splits the inputs of `flags`. Objects of a kind no
// definition reads are reported once per kind as a warning when there are workloads; when there
// is none the result is an error: exit 4 for an object without a definition, exit 3 when the
// inputs hold only pods or owned objects (or nothing).
// When `all` is given it receives every object read, in input order (before the split).
std::optional<Error> ReadWorkloadInputs(const InputFlags& flags, const CommandIo& io,
                                        std::string_view command, WorkloadInputs* out,
                                        std::vector<SourceObject>* all = nullptr);

// A Error located at the workload (its file and document position).
Error WorkloadError(const SourceObject& workload, ErrorCode code, std::string message,
                    std::string hint = "");

// Documents in the format of -o: "yaml" (kubectl's style, field order kept, "---" between
// documents) or "json" (indented, field order kept, one value per document).
std::string RenderDocuments(const std::vector<Value>& documents, std::string_view format);

// What -o asks a command that changes a workload to print: the changed object ("yaml", "json"),
// a JSON merge patch ("patch", RFC 7386) or a JSON patch ("json-patch", RFC 6902) from `before`.
Value OutputDocument(std::string_view format, const Value& before, const Value& after);

}  // namespace wmap::cli

#endif  // WMAP_CLI_POD_COMMANDS_H_
