#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <string_view>

#include <unistd.h>

#include "cli/command.h"
#include "cli/jq_command.h"
#include "cli/pod_commands.h"
#include "cli/workload_commands.h"

extern char** environ;

namespace wmap::cli {
namespace {

constexpr Command kCommands[] = {
    {"jq", "run a jq program over JSON or YAML inputs (gojq-compatible)", RunJqCommand,
     JqCommandHelp},
    {"validate", "check definition files", RunValidateCommand, ValidateCommandHelp},
    {"definitions", "list the workload definitions (built-in catalog and your own)",
     RunDefinitionsCommand, DefinitionsCommandHelp},
    {"get", "list the workloads in files and folders with status, pods and GPUs", RunGetCommand,
     GetCommandHelp},
    {"describe", "show a workload as a tree of components, pods, resources and gang groups",
     RunDescribeCommand, DescribeCommandHelp},
    {"status", "show the status of workload objects through a definition", RunStatusCommand,
     StatusCommandHelp},
    {"inspect", "show components, instances, scale and templates as JSON", RunInspectCommand,
     InspectCommandHelp},
    {"gang", "show the pod groups a workload's gang-scheduling instructions produce",
     RunGangCommand, GangCommandHelp},
    {"mutate", "change pod templates (scheduler, labels, tolerations, images...), of files or live",
     RunMutateCommand, MutateCommandHelp},
    {"suspend", "suspend a workload in the cluster, or apply its suspend actions to a file",
     RunSuspendCommand, SuspendCommandHelp},
    {"resume", "resume a workload in the cluster, or apply its resume actions to a file",
     RunResumeCommand, ResumeCommandHelp},
    {"apply", "submit workloads to the cluster, changed first through their definitions",
     RunApplyCommand, ApplyCommandHelp},
    {"delete", "delete workloads from the cluster", RunDeleteCommand, DeleteCommandHelp},
    {"completion", "print a shell completion script (bash, zsh, fish)", RunCompletionCommand,
     CompletionCommandHelp},
};

const Command* Find(std::string_view name) {
  for (const Command& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string MainHelp(const CommandIo& io) {
  std::string out =
      "wmap - read Kubernetes workload objects through declarative definitions\n"
      "\n"
      "Usage:\n"
      "  wmap COMMAND [ARGS...]\n"
      "  wmap help COMMAND\n"
      "  wmap --version\n"
      "\n"
      "Commands:\n";
  for (const Command& c : kCommands) {
    std::string line = "  " + std::string(c.name);
    line.append(line.size() < 14 ? 14 - line.size() : 1, ' ');
    out += line + std::string(c.summary) + "\n";
  }
  out += "\nRun 'wmap help COMMAND' or 'wmap COMMAND --help' for the options of a command.\n";
  return ForProgram(io, out);
}

int UsageError(const CommandIo& io, const std::string& message) {
  WriteAll(io.err_fd, std::string(io.program) + ": " + message + "\n" +
                          ForProgram(io, "Run 'wmap --help' for the list of commands.\n"));
  return kExitUsage;
}

}  // namespace

std::string_view Version() { return WMAP_VERSION; }

namespace {

// The first write error of each descriptor since RunMain began on it (commands may run on
// several threads in tests, each with descriptors of its own).
std::mutex write_errors_mutex;
std::map<int, int>& WriteErrors() {
  static std::map<int, int> errors;
  return errors;
}

// The first write error on fd, forgotten as it is taken; 0 when none.
int TakeWriteError(int fd) {
  std::lock_guard<std::mutex> lock(write_errors_mutex);
  auto it = WriteErrors().find(fd);
  if (it == WriteErrors().end()) return 0;
  const int err = it->second;
  WriteErrors().erase(it);
  return err;
}

}  // namespace

void NoteWriteError(int fd, int err) {
  std::lock_guard<std::mutex> lock(write_errors_mutex);
  WriteErrors().emplace(fd, err);
}

bool WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      NoteWriteError(fd, errno);
      return false;
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string WriteErrorText(int err) { return "write error: " + std::string(std::strerror(err)); }

std::span<const Command> Commands() { return kCommands; }

std::string_view ProgramName(std::string_view argv0) {
  size_t slash = argv0.rfind('/');
  std::string_view base = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  return base == "kubectl-wmap" ? "kubectl wmap" : "wmap";
}

std::string ForProgram(const CommandIo& io, std::string_view text) {
  if (io.program == "wmap") return std::string(text);
  constexpr std::string_view kWord = "wmap ";
  std::string out;
  size_t done = 0;
  for (size_t at = text.find(kWord); at != std::string_view::npos; at = text.find(kWord, at + 1)) {
    // A command line, not part of a longer word or path (wmap-reader.yaml, build/wmap).
    const char before = at == 0 ? '\n' : text[at - 1];
    if (before != '\n' && before != ' ' && before != '\'' && before != '"' && before != '(' &&
        before != '`') {
      continue;
    }
    out.append(text.substr(done, at - done));
    out.append(io.program);
    out.push_back(' ');
    done = at + kWord.size();
  }
  out.append(text.substr(done));
  return out;
}

namespace {

int RunCommandLine(std::span<const std::string> args, const CommandIo& io_in) {
  CommandIo io = io_in;
  if (io.environment == nullptr) io.environment = environ;
  if (args.empty()) {
    WriteAll(io.err_fd, MainHelp(io));
    return kExitUsage;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h") {
    WriteAll(io.out_fd, MainHelp(io));
    return kExitOk;
  }
  if (first == "--version" || first == "-v" || first == "version") {
    WriteAll(io.out_fd, "wmap " + std::string(Version()) + "\n");
    return kExitOk;
  }
  if (first == "help") {
    if (args.size() == 1) {
      WriteAll(io.out_fd, MainHelp(io));
      return kExitOk;
    }
    const Command* c = Find(args[1]);
    if (c == nullptr) return UsageError(io, "unknown command \"" + args[1] + "\"");
    WriteAll(io.out_fd, ForProgram(io, c->help()));
    return kExitOk;
  }
  const Command* c = Find(first);
  if (c == nullptr) {
    if (first.starts_with("-")) return UsageError(io, "unknown flag \"" + first + "\"");
    return UsageError(io, "unknown command \"" + first + "\"");
  }
  try {
    return c->run(args.subspan(1), io);
  } catch (const std::bad_alloc&) {
    // Budgets bound what definitions, queries and readers build; this is the last line for the
    // rest (a machine with less memory than a budget allows). jq keeps gojq's runtime-error code;
    // the workload commands report an error (docs/limits.md).
    WriteAll(io.err_fd, std::string(io.program) + " " + std::string(c->name) +
                            ": out of memory\nhint: lower --eval-memory (or --max-memory for wmap "
                            "jq), or give the process more memory\n");
    return c->name == "jq" ? kExitRuntime : 1;
  }
}

}  // namespace

int RunMain(std::span<const std::string> args, const CommandIo& io) {
  TakeWriteError(io.out_fd);  // a descriptor number reused since an earlier run
  const int code = RunCommandLine(args, io);
  const int err = TakeWriteError(io.out_fd);
  if (err == 0) return code;
  // Whatever the command concluded, its output did not arrive.
  WriteAll(io.err_fd, "wmap: " + WriteErrorText(err) + "\n");
  TakeWriteError(io.err_fd);
  return code == kExitOk ? kExitRuntime : code;
}

}  // namespace wmap::cli
