// The workload commands: `wmap validate`, `definitions`, `get`, `describe`, `status`, `inspect`.
// Each returns the exit codes of cli/workload_input.h.
#ifndef WMAP_CLI_WORKLOAD_COMMANDS_H_
#define WMAP_CLI_WORKLOAD_COMMANDS_H_

#include <span>
#include <string>

#include "cli/command.h"

namespace wmap::cli {

// `wmap validate [--lenient] [--no-crd-defaults] [-v] FILE...|-`: exit 0 when every definition
// is valid, 1 when one is not, 2 on usage errors, 3 when a file does not exist.
int RunValidateCommand(std::span<const std::string> args, const CommandIo& io);
std::string ValidateCommandHelp();

// `wmap definitions [NAME] [--group G] [--kind K] [--version V] [-o table|json|yaml|markdown]`.
int RunDefinitionsCommand(std::span<const std::string> args, const CommandIo& io);
std::string DefinitionsCommandHelp();

// `wmap get -f PATH... [-l SELECTOR] [--status S] [-o table|wide|json|yaml]`.
int RunGetCommand(std::span<const std::string> args, const CommandIo& io);
std::string GetCommandHelp();

// `wmap describe -f WORKLOAD [-f PODS...] [-o tree|json|yaml]`.
int RunDescribeCommand(std::span<const std::string> args, const CommandIo& io);
std::string DescribeCommandHelp();

// `wmap status -f OBJ... [--definition DEF] [-o text|json]`.
int RunStatusCommand(std::span<const std::string> args, const CommandIo& io);
std::string StatusCommandHelp();

// `wmap inspect -f OBJ... [--definition DEF] [-o json]`.
int RunInspectCommand(std::span<const std::string> args, const CommandIo& io);
std::string InspectCommandHelp();

// `wmap apply`: submits objects by server-side apply, workloads changed through definitions.
int RunApplyCommand(std::span<const std::string> args, const CommandIo& io);
std::string ApplyCommandHelp();

// `wmap delete`: deletes objects from the cluster.
int RunDeleteCommand(std::span<const std::string> args, const CommandIo& io);
std::string DeleteCommandHelp();

}  // namespace wmap::cli

#endif  // WMAP_CLI_WORKLOAD_COMMANDS_H_
