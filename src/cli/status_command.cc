// `wmap status`: the phase, conditions and matched statuses of workload objects; and the input
// helpers shared with `wmap inspect`.
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "cli/workload_commands.h"
#include "wmap/json.h"
#include "wmap/workload.h"
#include "wmap/yaml.h"

namespace wmap::cli {

std::optional<WorkloadFlags> ParseWorkloadFlags(std::span<const std::string> args,
                                                std::string* error) {
  WorkloadFlags flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string_view name, std::string* out) {
      std::string prefix = std::string(name) + "=";
      if (a.rfind(prefix, 0) == 0) {
        *out = a.substr(prefix.size());
        return true;
      }
      if (a != name) return false;
      if (i + 1 >= args.size()) {
        *error = "flag needs an argument: " + std::string(name);
        return false;
      }
      *out = args[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      flags.help = true;
    } else if (a == "--lenient") {
      flags.lenient = true;
    } else if (a == "--no-crd-defaults") {
      flags.crd_defaults = false;
    } else if (value("--definition", &flags.definition) || value("-d", &flags.definition) ||
               value("--filename", &flags.object) || value("-f", &flags.object) ||
               value("--output", &flags.output) || value("-o", &flags.output)) {
      continue;
    } else if (!error->empty()) {
      return std::nullopt;
    } else {
      *error = "unknown argument \"" + a + "\"";
      return std::nullopt;
    }
    if (!error->empty()) return std::nullopt;
  }
  if (!error->empty()) return std::nullopt;
  return flags;
}

bool ReadInput(const std::string& path, const CommandIo& io, std::string* text,
               std::string* error) {
  if (path == "-") return ReadWholeFd(io.in_fd, text, error);
  return ReadWholeFile(path, text, error);
}

const Definition* ChooseDefinition(const std::vector<Definition>& definitions,
                                   const Value& object) {
  if (definitions.size() == 1) return &definitions[0];
  const Value* api_version = object.find("apiVersion");
  const Value* kind = object.find("kind");
  if (!api_version || !kind || !api_version->is_string() || !kind->is_string()) return nullptr;
  for (const Definition& d : definitions) {
    if (d.root_kind().ApiVersion() == api_version->as_string() &&
        d.root_kind().kind == kind->as_string()) {
      return &d;
    }
  }
  return nullptr;
}

bool ReadObjects(const std::string& text, const std::string& name, std::vector<Value>* objects,
                 std::string* error) {
  Result<std::vector<yaml::Document>> docs = yaml::ParseStream(text);
  if (!docs.ok()) {
    Error e = docs.error();
    e.file = name;
    *error = e.ToString();
    return false;
  }
  for (yaml::Document& d : *docs) {
    if (!d.value.is_null()) objects->push_back(std::move(d.value));
  }
  if (objects->empty()) {
    *error = name + ": no object found";
    return false;
  }
  return true;
}

namespace {

Value ConditionValue(const Condition& c) {
  Value v = Value::EmptyObject();
  v.set("type", Value::String(c.type));
  v.set("status", c.status ? Value::String(*c.status) : Value());
  if (c.reason) v.set("reason", Value::String(*c.reason));
  if (!c.message.empty()) v.set("message", Value::String(c.message));
  return v;
}

std::string MatchedText(const WorkloadStatus& s) {
  std::string out;
  for (size_t i = 0; i < s.matched.size(); ++i) {
    if (i) out += ",";
    out += ResourceStatusName(s.matched[i]);
  }
  return out;
}

}  // namespace

std::string StatusCommandHelp() {
  return "Show the status of workload objects as their definition reads it.\n"
         "\n"
         "Usage:\n"
         "  wmap status --definition DEF -f OBJ [-o text|json]\n"
         "\n"
         "Flags:\n"
         "  -d, --definition FILE  the definition (a file of one or more definitions; the one\n"
         "                         whose root kind matches the object is used)\n"
         "  -f, --filename FILE    the workload object(s), YAML or JSON; - for standard input\n"
         "  -o, --output FORMAT    text (default) or json:\n"
         "                         {\"phase\": string|null, \"conditions\": [...], "
         "\"matched\": [...]}\n"
         "  --lenient              ignore unknown fields in the definition\n"
         "  --no-crd-defaults      do not default the condition field names\n"
         "\n"
         "Exit status: 0 success, 1 the status could not be evaluated, 2 usage or input "
         "error.\n";
}

int RunStatusCommand(std::span<const std::string> args, const CommandIo& io) {
  std::string error;
  std::optional<WorkloadFlags> flags = ParseWorkloadFlags(args, &error);
  if (!flags) {
    WriteAll(io.err_fd, "wmap status: " + error + "\nRun 'wmap status --help' for usage.\n");
    return kExitUsage;
  }
  if (flags->help) {
    WriteAll(io.out_fd, StatusCommandHelp());
    return kExitOk;
  }
  if (flags->output.empty()) flags->output = "text";
  if (flags->output != "text" && flags->output != "json") {
    WriteAll(io.err_fd,
             "wmap status: unknown output format \"" + flags->output + "\" (use text or json)\n");
    return kExitUsage;
  }
  if (flags->definition.empty() || flags->object.empty()) {
    WriteAll(io.err_fd,
             "wmap status: give --definition DEF and -f OBJ (a built-in catalog is not "
             "available in this build)\nRun 'wmap status --help' for usage.\n");
    return kExitUsage;
  }
  std::string def_text, obj_text;
  if (!ReadInput(flags->definition, io, &def_text, &error) ||
      !ReadInput(flags->object, io, &obj_text, &error)) {
    WriteAll(io.err_fd, "wmap status: " + error + "\n");
    return kExitUsage;
  }
  LoadOptions options;
  options.lenient = flags->lenient;
  options.apply_crd_defaults = flags->crd_defaults;
  LoadResult loaded = LoadDefinitions(def_text, flags->definition, options);
  if (!loaded.ok()) {
    std::string text = "wmap status: invalid definition " + flags->definition + "\n";
    for (const Error& e : loaded.errors) text += e.ToString() + "\n";
    WriteAll(io.err_fd, text);
    return kExitUsage;
  }
  std::vector<Value> objects;
  std::string object_name = flags->object == "-" ? "<stdin>" : flags->object;
  if (!ReadObjects(obj_text, object_name, &objects, &error)) {
    WriteAll(io.err_fd, "wmap status: " + error + "\n");
    return kExitUsage;
  }
  int exit_code = kExitOk;
  std::string out;
  for (const Value& object : objects) {
    const Definition* definition = ChooseDefinition(loaded.definitions, object);
    if (definition == nullptr) {
      WriteAll(io.err_fd, "wmap status: no definition in " + flags->definition +
                              " describes this object's apiVersion and kind\n");
      exit_code = kExitFalsy;
      continue;
    }
    Workload workload(*definition, object);
    Result<std::optional<WorkloadStatus>> status = workload.Status(0);
    if (!status.ok()) {
      WriteAll(io.err_fd, "wmap status: " + status.error().message + "\n");
      exit_code = kExitFalsy;
      continue;
    }
    const WorkloadStatus& s = **status;  // the root always has a statusDefinition
    if (flags->output == "json") {
      Value v = Value::EmptyObject();
      v.set("phase", s.phase ? Value::String(*s.phase) : Value());
      Value conditions = Value::EmptyArray();
      for (const Condition& c : s.conditions) conditions.push_back(ConditionValue(c));
      v.set("conditions", conditions);
      Value matched = Value::EmptyArray();
      for (ResourceStatus r : s.matched) matched.push_back(Value::String(ResourceStatusName(r)));
      v.set("matched", matched);
      json::WriteOptions w;
      w.sort_keys = false;
      out += json::ToString(v, w) + "\n";
    } else {
      out += "STATUS:     " + MatchedText(s) + "\n";
      out += "PHASE:      " + (s.phase ? *s.phase : std::string("<none>")) + "\n";
      out += "CONDITIONS:";
      if (s.conditions.empty()) out += " <none>";
      out += "\n";
      for (const Condition& c : s.conditions) {
        out += "  " + c.type + "=" + c.status.value_or("");
        if (c.reason && !c.reason->empty()) out += " (" + *c.reason + ")";
        if (!c.message.empty()) out += ": " + c.message;
        out += "\n";
      }
    }
  }
  WriteAll(io.out_fd, out);
  return exit_code;
}

}  // namespace wmap::cli
