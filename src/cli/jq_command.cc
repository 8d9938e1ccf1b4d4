#include "cli/jq_command.h"

#include <cctype>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <pthread.h>
#include <unistd.h>

#include "cli/input_source.h"
#include "cli/jq_flags.h"
#include "cli/output_buffer.h"
#include "cli/source_error.h"
#include "wmap/jq.h"
#include "wmap/json.h"
#include "wmap/source.h"
#include "wmap/yaml.h"

namespace wmap::cli {
namespace {

constexpr std::string_view kProgram = "wmap: ";

// A failure that ends the command with an exit code after printing its message.
struct Failure {
  int code;
  std::string message;
};

class Environment {
 public:
  explicit Environment(const char* const* entries) {
    for (const char* const* e = entries; e != nullptr && *e != nullptr; ++e) {
      std::string_view entry(*e);
      size_t eq = entry.find('=');
      if (eq == std::string_view::npos) continue;
      pairs_.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    }
  }
  std::optional<std::string_view> Get(std::string_view name) const {
    for (const auto& [k, v] : pairs_) {
      if (k == name) return v;
    }
    return std::nullopt;
  }
  Value ToValue() const {
    Value obj = Value::EmptyObject(pairs_.size());
    for (const auto& [k, v] : pairs_) {
      if (obj.find(k) == nullptr) obj.set(k, Value::String(v));
    }
    return obj;
  }

 private:
  std::vector<std::pair<std::string_view, std::string_view>> pairs_;
};

bool IsValidVariableName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// Parses exactly one JSON value for --argjson/--jsonargs; `name` labels errors.
std::optional<Value> ParseJsonArgument(std::string_view text, std::string_view name,
                                       std::string* error) {
  json::StreamReader reader(text, {.gojq_numbers = true});
  Value v;
  Error e;
  bool got = reader.Next(&v, &e);
  if (got && !reader.failed()) return v;
  SourceErrorSpec spec;
  spec.kind = "invalid json";
  spec.name = name;
  spec.contents = text;
  if (!got) {
    spec.offset = text.size();
    spec.message = "unexpected EOF";
  } else {
    spec.offset = e.position.offset;
    spec.message = e.message;
  }
  *error = FormatSourceError(spec);
  return std::nullopt;
}

// The values bound to the named variables (--arg & co.) and $ARGS.
struct Bindings {
  std::vector<std::string> names;
  std::vector<Value> values;
};

std::optional<Failure> BuildBindings(const JqFlags& flags, Bindings* out) {
  Value named = Value::EmptyObject();
  for (const NamedArgument& arg : flags.named) {
    Value v;
    switch (arg.kind) {
      case NamedArgument::Kind::kString:
        v = Value::String(arg.value);
        break;
      case NamedArgument::Kind::kJson: {
        std::string error;
        std::optional<Value> parsed = ParseJsonArgument(arg.value, "$" + arg.name, &error);
        if (!parsed) return Failure{kExitRuntime, error};
        v = std::move(*parsed);
        break;
      }
      case NamedArgument::Kind::kSlurpFile: {
        InputSource source(InputFormat::kJson, true, {arg.value}, -1);
        std::string error;
        if (arg.value == "-") return Failure{kExitRuntime, "open -: no such file or directory"};
        if (source.Next(&v, &error) != InputSource::Status::kValue) {
          return Failure{kExitRuntime, error};
        }
        break;
      }
      case NamedArgument::Kind::kRawFile: {
        std::string text;
        std::string error;
        if (!ReadWholeFile(arg.value, &text, &error)) return Failure{kExitRuntime, error};
        v = Value::String(std::move(text));
        break;
      }
    }
    named.set(arg.name, v);
    out->names.push_back(arg.name);
    out->values.push_back(std::move(v));
  }
  Value positional = Value::EmptyArray(flags.positional.size());
  for (const PositionalArgument& p : flags.positional) {
    if (!p.json) {
      positional.push_back(Value::String(p.text));
      continue;
    }
    std::string error;
    std::optional<Value> parsed = ParseJsonArgument(p.text, "--jsonargs", &error);
    if (!parsed) return Failure{kExitRuntime, error};
    positional.push_back(std::move(*parsed));
  }
  Value args = Value::EmptyObject(2);
  args.set("named", std::move(named));
  args.set("positional", std::move(positional));
  out->names.push_back("ARGS");
  out->values.push_back(std::move(args));
  return std::nullopt;
}

// Writes results as the gojq command does.
class ResultPrinter {
 public:
  ResultPrinter(const JqFlags& flags, const json::Colors* colors, OutputBuffer* out)
      : flags_(flags), out_(out), write_options_(MakeOptions(flags, colors, out)) {
    raw_ = flags.raw_output || flags.join_output || flags.raw_output0;
  }

  // Prints one result; returns false (with *error) when it cannot be printed.
  bool Print(const Value& v, std::string* error) {
    std::string* buf = out_->buffer();
    if (flags_.yaml_output) {
      if (printed_any_) buf->append("---\n");
      printed_any_ = true;
      yaml::Write(v, {.style = yaml::Style::kGojq, .indent = flags_.indent.value_or(2)}, buf);
      out_->MaybeFlush();
      return true;
    }
    if (raw_ && v.is_string()) {
      std::string_view s = v.as_string();
      if (flags_.raw_output0 && s.find('\0') != std::string_view::npos) {
        *error = "cannot output a string containing NUL character: " + jq::GoQuote(s);
        return false;
      }
      buf->append(s);
    } else {
      json::Write(v, write_options_, buf);
    }
    printed_any_ = true;
    if (flags_.raw_output0) {
      buf->push_back('\0');
    } else if (!flags_.join_output) {
      buf->push_back('\n');
    }
    out_->MaybeFlush();
    return true;
  }

 private:
  static json::WriteOptions MakeOptions(const JqFlags& flags, const json::Colors* colors,
                                        OutputBuffer* out) {
    json::WriteOptions o;
    o.tab = flags.tab && !flags.compact;
    o.indent = flags.compact ? 0 : flags.indent.value_or(2);
    o.line_breaks_without_indent = !flags.compact;
    o.ascii = flags.ascii_output;
    o.colors = colors;
    // A large result goes out in pieces instead of being built whole in memory.
    o.spill_bytes = OutputBuffer::kFlushThreshold;
    o.spill = [out] { out->MaybeFlush(); };
    return o;
  }

  const JqFlags& flags_;
  OutputBuffer* out_;
  json::WriteOptions write_options_;
  bool raw_ = false;
  bool printed_any_ = false;
};

// Deep jq recursion (gojq has no depth limit: `def f: ...| f` a hundred thousand levels deep
// works) needs a deep native stack: the run goes on a thread whose stack reserves up to
// kStackBytes of address space (touched pages only are committed). Under an address-space limit
// that cannot reserve so much, smaller stacks are tried in turn; the evaluator measures the stack
// it runs on, so its recursion limit shrinks with it and deep programs end with a clean error.
constexpr size_t kStackBytes = size_t{4} << 30;
constexpr size_t kSmallestStackBytes = size_t{16} << 20;
constexpr size_t kMaxRecursionDepth = 400000;

// Runs fn on a new thread with the largest stack from kStackBytes down to kSmallestStackBytes
// that can be created, and waits for it; false when no such thread can be created (fn has not
// run).
bool RunOnLargeStack(const std::function<void()>& fn) {
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  for (size_t bytes = kStackBytes; bytes >= kSmallestStackBytes; bytes /= 4) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return false;
    pthread_attr_setstacksize(&attr, bytes);
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, trampoline,
                            const_cast<void*>(static_cast<const void*>(&fn)));
    pthread_attr_destroy(&attr);
    if (rc == 0) {
      pthread_join(thread, nullptr);
      return true;
    }
  }
  return false;
}

class JqRun {
 public:
  JqRun(const JqFlags& flags, const CommandIo& io) : flags_(flags), io_(io), env_(io.environment) {}

  int Run() {
    std::optional<Failure> failure = Prepare();
    if (failure) {
      PrintError(failure->message);
      return failure->code;
    }
    int code = kExitRuntime;
    if (!RunOnLargeStack([&] { code = Process(); })) code = Process();
    return code;
  }

 private:
  void PrintError(std::string_view message) {
    out_.Flush();
    std::string line(kProgram);
    line.append(message);
    line.push_back('\n');
    WriteAll(io_.err_fd, line);
  }

  std::optional<Failure> Prepare() {
    bool color = false;
    if (flags_.color || flags_.monochrome) {
      color = !flags_.monochrome;
    } else if (env_.Get("NO_COLOR").value_or("") != "" || env_.Get("TERM") == "dumb") {
      color = false;
    } else {
      color = ::isatty(io_.out_fd) == 1;
    }
    if (color) {
      std::optional<std::string_view> spec = env_.Get("GOJQ_COLORS");
      if (spec && !spec->empty()) {
        std::string bad;
        if (!colors_.Parse(*spec, &bad)) {
          return Failure{kExitRuntime, "invalid color: " + jq::GoQuote(bad)};
        }
      }
      use_colors_ = true;
    }
    if (flags_.indent) {
      if (*flags_.indent > 9) {
        return Failure{kExitRuntime,
                       "too many indentation count: " + std::to_string(*flags_.indent)};
      }
      if (*flags_.indent < 0) {
        return Failure{kExitRuntime,
                       "negative indentation count: " + std::to_string(*flags_.indent)};
      }
    }
    if (flags_.yaml_output && flags_.tab) {
      return Failure{kExitRuntime, "cannot use tabs for YAML output"};
    }
    if (std::optional<Failure> f = BuildBindings(flags_, &bindings_)) return f;

    std::vector<std::string> rest = flags_.rest;
    std::string query_name = "<arg>";
    if (flags_.from_file) {
      if (rest.empty()) return Failure{kExitRuntime, "expected a query file for flag `-f'"};
      std::string error;
      if (!ReadWholeFile(rest[0], &query_, &error)) return Failure{kExitRuntime, error};
      query_name = rest[0];
      rest.erase(rest.begin());
    } else if (rest.empty()) {
      query_ = ".";
    } else {
      query_ = Trim(rest[0]);
      rest.erase(rest.begin());
    }
    files_ = std::move(rest);

    if (IsEmptyQuery(query_)) {
      return Failure{kExitCompile, "compile error: missing query (try \".\")"};
    }
    for (const NamedArgument& arg : flags_.named) {
      if (!IsValidVariableName(arg.name)) {
        return Failure{kExitCompile, "invalid variable name: $" + arg.name};
      }
    }
    jq::CompileOptions options;
    options.variables = bindings_.names;
    options.library_paths = flags_.library_paths;
    if (options.library_paths.empty()) {
      if (std::optional<std::string_view> home = env_.Get("HOME")) {
        options.library_paths.push_back(std::string(*home) + "/.jq");
      }
    }
    Result<jq::Program> program = jq::Program::Compile(query_, options);
    if (!program.ok()) {
      const Error& e = program.error();
      // A syntax error in the query (the parser attaches a caret hint to those).
      if (e.position.known() && e.file.empty() && !e.hint.empty()) {
        return Failure{kExitCompile, jq::FormatQueryError(query_, e, query_name)};
      }
      // A syntax error in a module comes formatted ("invalid query: m.jq:1 ..."). Every other
      // compile error reads as the gojq command prints it: "compile error: function not
      // defined: f/0".
      if (e.code == ErrorCode::kParse && !e.file.empty()) return Failure{kExitCompile, e.message};
      return Failure{kExitCompile, "compile error: " + e.message};
    }
    program_.emplace(std::move(*program));
    return std::nullopt;
  }

  static std::string Trim(std::string_view s) {
    size_t b = 0;
    size_t e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
  }

  int Process() {
    InputFormat format = flags_.raw_input    ? InputFormat::kRaw
                         : flags_.stream     ? InputFormat::kStream
                         : flags_.yaml_input ? InputFormat::kYaml
                                             : InputFormat::kJson;
    InputSource inputs(format, flags_.slurp, files_, io_.in_fd, flags_.max_document_size);
    bool files_given = !files_.empty();

    jq::RunContext context;
    context.env = env_.ToValue();
    context.budget.max_depth = kMaxRecursionDepth;
    context.budget.max_steps = flags_.max_steps;
    context.budget.max_memory_bytes = static_cast<size_t>(flags_.max_memory);
    context.budget.max_outputs = static_cast<size_t>(flags_.max_outputs);
    if (flags_.timeout)
      context.budget.deadline = std::chrono::steady_clock::now() + *flags_.timeout;
    context.next_input = [&](Value* out, jq::RunError* error) {
      std::string message;
      switch (inputs.Next(out, &message)) {
        case InputSource::Status::kValue:
          return true;
        case InputSource::Status::kEnd:
          return false;
        case InputSource::Status::kError:
          error->kind = jq::ErrorKind::kRuntime;
          error->value = Value::String(message);
          error->message = message;
          return false;
      }
      return false;
    };
    context.input_filename = [&]() {
      if (!inputs.name().empty() && (files_given || !flags_.null_input)) {
        return Value::String(inputs.name());
      }
      return Value();
    };
    context.debug = [&](const Value& v) {
      std::string line = "[\"DEBUG:\",";
      json::Write(v, {.indent = 0}, &line);
      line.append("]\n");
      WriteAll(io_.err_fd, line);
    };
    context.stderr_output = [&](const Value& v) {
      std::string text;
      if (v.is_string()) {
        text = v.as_string();
      } else {
        json::Write(v, {.indent = 0}, &text);
      }
      WriteAll(io_.err_fd, text);
    };

    ResultPrinter printer(flags_, use_colors_ ? &colors_ : nullptr, &out_);
    bool failed = false;
    int exit_status = kExitNoOutput;
    std::string output_error;
    auto on_output = [&](const Value& v) {
      // Output that cannot be written ends the run (with SIGPIPE ignored, a closed pipe would
      // otherwise let an endless filter spin); Finish reports it.
      if (!out_.ok()) return false;
      if (!printer.Print(v, &output_error)) return false;
      exit_status = v.truthy() ? kExitOk : kExitFalsy;
      return true;
    };

    auto run_one = [&](const Value& input) -> std::optional<int> {
      output_error.clear();
      std::optional<jq::RunError> error =
          program_->Run(input, bindings_.values, context, on_output);
      if (!output_error.empty()) {
        PrintError(output_error);
        failed = true;
        return std::nullopt;
      }
      if (!error) return std::nullopt;
      if (error->kind == jq::ErrorKind::kHalt) {
        out_.Flush();
        if (error->value.is_string()) {
          WriteAll(io_.err_fd, error->value.as_string());
        } else if (!error->value.is_null()) {
          std::string text;
          json::Write(error->value, {.indent = 0}, &text);
          text.push_back('\n');
          WriteAll(io_.err_fd, text);
        }
        return error->exit_code;
      }
      PrintError(RuntimeMessage(*error));
      failed = true;
      // Past the --timeout deadline, later inputs would only fail too: the command ends.
      if (error->kind == jq::ErrorKind::kBudget && context.budget.deadline &&
          std::chrono::steady_clock::now() >= *context.budget.deadline) {
        return kExitRuntime;
      }
      return std::nullopt;
    };

    if (flags_.null_input) {
      if (std::optional<int> halt = run_one(Value())) return Finish(*halt);
    } else {
      while (true) {
        Value input;
        std::string message;
        InputSource::Status s = inputs.Next(&input, &message);
        if (s == InputSource::Status::kEnd) break;
        if (s == InputSource::Status::kError) {
          PrintError(message);
          failed = true;
          continue;
        }
        if (std::optional<int> halt = run_one(input)) return Finish(*halt);
        if (!out_.ok()) break;
      }
    }
    if (failed) return Finish(kExitRuntime);
    return Finish(flags_.exit_status ? exit_status : kExitOk);
  }

  static std::string RuntimeMessage(const jq::RunError& error) {
    if (!error.message.empty()) return error.message;
    if (error.value.is_string()) return "error: " + std::string(error.value.as_string());
    std::string text = "error: ";
    json::Write(error.value, {.indent = 0}, &text);
    return text;
  }

  int Finish(int code) {
    // RunMain reports a write error once.
    if (!out_.Flush()) return code == kExitOk ? kExitRuntime : code;
    return code;
  }

  const JqFlags& flags_;
  const CommandIo& io_;
  Environment env_;
  OutputBuffer out_{io_.out_fd};
  json::Colors colors_;
  bool use_colors_ = false;
  Bindings bindings_;
  std::string query_;
  std::vector<std::string> files_;
  std::optional<jq::Program> program_;
};

}  // namespace

bool IsEmptyQuery(std::string_view query) {
  size_t i = 0;
  while (i < query.size()) {
    char c = query[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c != '#') return false;
    // A comment runs to the end of the line; a line ending in an odd number of backslashes
    // continues it.
    while (i < query.size()) {
      size_t nl = query.find('\n', i);
      if (nl == std::string_view::npos) return true;
      size_t end = nl;
      if (end > i && query[end - 1] == '\r') --end;
      size_t backslashes = 0;
      while (end > i && query[end - 1] == '\\') {
        ++backslashes;
        --end;
      }
      i = nl + 1;
      if (backslashes % 2 == 0) break;
    }
  }
  return true;
}

std::string JqCommandHelp() {
  return "wmap jq - run a jq program over JSON or YAML inputs (gojq-compatible)\n"
         "\n"
         "Usage:\n"
         "  wmap jq [OPTIONS] FILTER [FILE...]\n"
         "  wmap jq [OPTIONS] -f QUERY_FILE [FILE...]\n"
         "\n"
         "Reads JSON values (or YAML documents with --yaml-input) from the files, or from\n"
         "standard input when none is given, and prints every result of FILTER.\n"
         "\n" +
         JqFlagsHelp() +
         "\n"
         "Exit codes: 0 ok, 1 last output false or null (with -e), 2 usage error,\n"
         "3 compile error, 4 no output (with -e), 5 runtime or input error.\n"
         "\n"
         "Example:\n"
         "  wmap jq --yaml-input '.spec.replicatedJobs[] | {name, replicas}' "
         "examples/jobset-training.yaml\n";
}

int RunJqCommand(std::span<const std::string> args, const CommandIo& io) {
  std::string error;
  std::optional<JqFlags> flags = ParseJqFlags(args, &error);
  if (!flags) {
    WriteAll(io.err_fd, std::string(kProgram) + error + "\n");
    return kExitUsage;
  }
  if (flags->help) {
    WriteAll(io.out_fd, ForProgram(io, JqCommandHelp()));
    return kExitOk;
  }
  if (flags->version) {
    WriteAll(io.out_fd, "wmap " + std::string(Version()) + "\n");
    return kExitOk;
  }
  return JqRun(*flags, io).Run();
}

}  // namespace wmap::cli
