// The `wmap` executable: dispatches to the subcommands of src/cli/.
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "cli/command.h"

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    wmap::cli::CommandIo io;
    // Run as kubectl-wmap (the kubectl plugin), help and messages say "kubectl wmap".
    if (argc > 0) io.program = wmap::cli::ProgramName(argv[0]);
    return wmap::cli::RunMain(args, io);
  } catch (const std::bad_alloc&) {
    // Budgets bound what queries and readers allocate; this is the last line for the rest
    // (a result too large to hold): a clean message and the runtime-error exit code.
    std::fputs("wmap: out of memory\n", stderr);
    return 5;
  }
}
