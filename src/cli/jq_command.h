// `wmap jq [flags] FILTER [FILE...]`: the gojq command, on the project's engine.
#ifndef WMAP_CLI_JQ_COMMAND_H_
#define WMAP_CLI_JQ_COMMAND_H_

#include <span>
#include <string>
#include <string_view>

#include "cli/command.h"

namespace wmap::cli {

// Runs the command; returns the process exit code (see command.h). Writes results to io.out_fd
// through one large buffer and diagnostics to io.err_fd, prefixed "wmap: ".
int RunJqCommand(std::span<const std::string> args, const CommandIo& io);
std::string JqCommandHelp();

// True when a query holds nothing but whitespace and comments.
bool IsEmptyQuery(std::string_view query);

}  // namespace wmap::cli

#endif  // WMAP_CLI_JQ_COMMAND_H_
