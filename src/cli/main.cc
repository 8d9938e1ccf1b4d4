// The `wmap` executable: dispatches to the subcommands of src/cli/.
#include <string>
#include <vector>

#include "cli/command.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return wmap::cli::RunMain(args, wmap::cli::CommandIo{});
}
