// The subcommands of the `wmap` executable and what each needs from the process.
#ifndef WMAP_CLI_COMMAND_H_
#define WMAP_CLI_COMMAND_H_

#include <span>
#include <string>
#include <string_view>

namespace wmap::cli {

// The process resources a command uses, so tests can run commands on pipes.
struct CommandIo {
  int in_fd = 0;
  int out_fd = 1;
  int err_fd = 2;
  // NAME=VALUE entries, terminated by nullptr (the process environment by default).
  const char* const* environment = nullptr;
  // How the user runs the program, as help and messages name it: "wmap", or "kubectl wmap"
  // when it runs as the kubectl plugin kubectl-wmap (ProgramName).
  std::string_view program = "wmap";
};

// The program as argv[0] names it: "kubectl wmap" for an executable named kubectl-wmap (kubectl
// runs plugins by their path), else "wmap".
std::string_view ProgramName(std::string_view argv0);

// `text` (a help page or a hint) with every command line it teaches, "wmap ..." after a line
// start, a space, a quote or a parenthesis, said as io.program says it. Unchanged for "wmap".
std::string ForProgram(const CommandIo& io, std::string_view text);

// Writes all of `text` to fd, retrying short writes. Returns false on a write error, which is
// also remembered for the fd: RunMain reports the first one on the command's standard output
// once ("wmap: write error: No space left on device") and exits non-zero.
bool WriteAll(int fd, std::string_view text);

// Remembers a write error on fd for RunMain to report (WriteAll and OutputBuffer call it).
void NoteWriteError(int fd, int err);

// "write error: <strerror(err)>".
std::string WriteErrorText(int err);

// Exit codes shared by every command (the gojq command's codes).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFalsy = 1;     // -e: the last output was false or null
inline constexpr int kExitUsage = 2;     // bad flags or command line
inline constexpr int kExitCompile = 3;   // the query does not compile
inline constexpr int kExitNoOutput = 4;  // -e: no output at all
inline constexpr int kExitRuntime = 5;   // a runtime or input error

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(std::span<const std::string> args, const CommandIo& io);
  std::string (*help)();
};

// Every command, in the order `wmap --help` lists them.
std::span<const Command> Commands();

// The `wmap` entry point: dispatches argv[1] to a command. args excludes the program name.
int RunMain(std::span<const std::string> args, const CommandIo& io);

// The project version ("0.1.0").
std::string_view Version();

}  // namespace wmap::cli

#endif  // WMAP_CLI_COMMAND_H_
