// Errors, flags, definition resolution and workload splitting of the workload commands.
#include "cli/workload_input.h"

#include <string>
#include <unordered_map>
#include <utility>

#include <sys/stat.h>

#include "cli/file_reader.h"
#include "wmap/json.h"
#include "wmap/yaml.h"

namespace wmap::cli {

std::string CliError::Located() const {
  Error e;
  e.message = message;
  e.file = file;
  e.position = position;
  return e.ToString();
}

CliError CliError::From(const Error& error) {
  CliError e;
  e.code = error.code;
  e.message = error.message;
  e.hint = error.hint;
  e.file = error.file;
  e.position = error.position;
  return e;
}

CliError UsageError(std::string message, std::string hint) {
  CliError e;
  e.code = ErrorCode::kUsage;
  e.message = std::move(message);
  e.hint = std::move(hint);
  return e;
}

std::string_view MachineFormat(std::string_view output) {
  if (output == "json") return "json";
  if (output == "yaml") return "yaml";
  return "";
}

int ReportError(const CommandIo& io, std::string_view command, std::string_view output,
                const CliError& error) {
  std::string_view format = MachineFormat(output);
  if (format.empty()) {
    std::string text = "wmap " + std::string(command) + ": " + error.Located() + "\n";
    if (!error.hint.empty()) text += "hint: " + error.hint + "\n";
    WriteAll(io.err_fd, text);
    return error.exit_code();
  }
  Value v = Value::EmptyObject();
  v.set("error", Value::String(std::string(error.name())));
  v.set("message", Value::String(error.message));
  v.set("hint", Value::String(error.hint));
  if (!error.file.empty()) v.set("file", Value::String(error.file));
  if (error.position.known()) {
    v.set("line", Value::Int(error.position.line));
    v.set("column", Value::Int(error.position.column));
  }
  if (format == "json") {
    json::WriteOptions w;
    w.sort_keys = false;
    WriteAll(io.out_fd, json::ToString(v, w) + "\n");
  } else {
    WriteAll(io.out_fd, yaml::ToString(v));
  }
  return error.exit_code();
}

void ReportWarning(const CommandIo& io, std::string_view command, std::string_view text) {
  WriteAll(io.err_fd, "wmap " + std::string(command) + ": warning: " + std::string(text) + "\n");
}

std::optional<std::string_view> GetEnv(const CommandIo& io, std::string_view name) {
  if (io.environment == nullptr) return std::nullopt;
  for (const char* const* e = io.environment; *e != nullptr; ++e) {
    std::string_view entry(*e);
    if (entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

// ---- FlagParser ----

void FlagParser::String(std::initializer_list<std::string_view> names, std::string* out) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.string = out;
  flags_.push_back(std::move(f));
}

void FlagParser::Strings(std::initializer_list<std::string_view> names,
                         std::vector<std::string>* out) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.strings = out;
  flags_.push_back(std::move(f));
}

void FlagParser::Bool(std::initializer_list<std::string_view> names, bool* out) {
  Flag f;
  for (std::string_view n : names) f.names.emplace_back(n);
  f.boolean = out;
  flags_.push_back(std::move(f));
}

std::optional<CliError> FlagParser::Parse(std::span<const std::string> args,
                                          std::vector<std::string>* positional) const {
  bool flags_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (flags_done || a == "-" || a.empty() || a[0] != '-') {
      positional->push_back(a);
      continue;
    }
    if (a == "--") {
      flags_done = true;
      continue;
    }
    std::string name = a;
    std::optional<std::string> inline_value;
    if (size_t eq = a.find('='); eq != std::string::npos && a.starts_with("--")) {
      name = a.substr(0, eq);
      inline_value = a.substr(eq + 1);
    } else if (!a.starts_with("--") && a.size() > 2) {
      // "-fFILE" / "-ojson": a short flag with its value attached.
      name = a.substr(0, 2);
      inline_value = a.substr(2);
    }
    const Flag* flag = nullptr;
    for (const Flag& f : flags_) {
      for (const std::string& n : f.names) {
        if (n == name) flag = &f;
      }
    }
    if (flag == nullptr) return UsageError("unknown flag \"" + name + "\"");
    if (flag->boolean != nullptr) {
      if (inline_value) {
        if (*inline_value == "true") {
          *flag->boolean = true;
        } else if (*inline_value == "false") {
          *flag->boolean = false;
        } else {
          return UsageError("flag " + name + " takes true or false, not \"" + *inline_value + "\"");
        }
      } else {
        *flag->boolean = true;
      }
      continue;
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return UsageError("flag needs an argument: " + name);
    }
    if (flag->string != nullptr) {
      *flag->string = value;
    } else {
      flag->strings->push_back(value);
    }
  }
  return std::nullopt;
}

void InputFlags::Register(FlagParser* parser) {
  parser->Strings({"-f", "--filename"}, &files);
  parser->Strings({"-d", "--definition"}, &definition_files);
  parser->Strings({"--definitions"}, &definition_dirs);
  parser->Bool({"--lenient"}, &lenient);
  parser->Bool({"--no-crd-defaults"}, &no_crd_defaults);
}

LoadOptions InputFlags::load_options() const {
  LoadOptions o;
  o.lenient = lenient;
  o.apply_crd_defaults = !no_crd_defaults;
  return o;
}

// ---- object fields ----

bool IsPod(const Value& object) {
  return StringField(object, "kind") == "Pod" && StringField(object, "apiVersion") == "v1";
}

bool IsUncontrolledPod(const Value& object) {
  return IsPod(object) && meta::HasOwnerReferences(object) && ControllerUid(object).empty();
}

std::string InputObject::Where() const {
  Error e;
  e.file = file;
  e.position = position;
  std::string out = e.ToString();
  // Error::ToString ends with ": " and an empty message.
  if (out.size() >= 2 && out.ends_with(": ")) out.resize(out.size() - 2);
  if (list_index >= 0) out += " items[" + std::to_string(list_index) + "]";
  return out;
}

std::string_view InputObject::ApiVersion() const { return StringField(value, "apiVersion"); }
std::string_view InputObject::Kind() const { return StringField(value, "kind"); }
std::string_view InputObject::Name() const { return MetadataField(value, "name"); }
std::string_view InputObject::Namespace() const { return MetadataField(value, "namespace"); }
std::string_view InputObject::Uid() const { return MetadataField(value, "uid"); }

// ---- DefinitionResolver ----

namespace {

CliError DefinitionErrors(const std::string& path, const std::vector<Error>& errors) {
  CliError e;
  e.code = ErrorCode::kInvalidDefinition;
  e.message = "invalid definition " + path;
  for (const Error& err : errors) e.message += "\n  " + err.ToString();
  e.hint = "run 'wmap validate " + path + "' for every problem with hints";
  return e;
}

std::optional<CliError> CheckExists(const std::string& path, bool want_dir_ok) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    CliError e;
    e.code = ErrorCode::kNotFound;
    e.message = "open " + path + ": no such file or directory";
    return e;
  }
  if (!want_dir_ok && S_ISDIR(st.st_mode)) {
    CliError e;
    e.code = ErrorCode::kIo;
    e.message = "read " + path + ": is a directory";
    e.hint = "use --definitions DIR for a folder of definitions";
    return e;
  }
  return std::nullopt;
}

}  // namespace

std::optional<CliError> DefinitionResolver::Create(const InputFlags& flags, const CommandIo& io,
                                                   DefinitionResolver* out) {
  out->catalog_ = Catalog::BuiltIn();
  LoadOptions options = flags.load_options();
  for (const std::string& dir : flags.definition_dirs) {
    if (auto e = CheckExists(dir, true)) return e;
    std::vector<Error> errors = out->catalog_.AddPath(dir, options);
    if (!errors.empty()) return DefinitionErrors(dir, errors);
  }
  for (const std::string& file : flags.definition_files) {
    if (file == "-") {
      std::string text, error;
      if (!ReadWholeFd(io.in_fd, &text, &error)) {
        CliError e;
        e.code = ErrorCode::kIo;
        e.message = error;
        return e;
      }
      std::vector<Error> errors = out->catalog_.AddText(text, "<stdin>", options);
      if (!errors.empty()) return DefinitionErrors("<stdin>", errors);
      continue;
    }
    if (auto e = CheckExists(file, false)) return e;
    std::vector<Error> errors = out->catalog_.AddPath(file, options);
    if (!errors.empty()) return DefinitionErrors(file, errors);
  }
  return std::nullopt;
}

const CatalogEntry* DefinitionResolver::Find(std::string_view api_version,
                                             std::string_view kind) const {
  if (api_version.empty() || kind.empty()) return nullptr;
  return catalog_.Find(api_version, kind);
}

const CatalogEntry* DefinitionResolver::Find(const Value& object) const {
  return Find(StringField(object, "apiVersion"), StringField(object, "kind"));
}

CliError DefinitionResolver::NoDefinition(const InputObject& object) {
  CliError e;
  e.code = ErrorCode::kNoDefinition;
  e.file = object.file;
  e.position = object.position;
  std::string_view api_version = object.ApiVersion();
  std::string_view kind = object.Kind();
  if (api_version.empty() || kind.empty()) {
    e.message = "object has no apiVersion or kind";
    if (object.list_index >= 0) e.message += " (items[" + std::to_string(object.list_index) + "])";
    e.hint = "every Kubernetes object names its apiVersion and kind";
    return e;
  }
  e.message = "no definition for " + std::string(api_version) + " " + std::string(kind) +
              ": pass --definition FILE or add one with --definitions DIR";
  e.hint =
      "'wmap definitions' lists the built-in definitions; docs/definitions.md describes the "
      "format";
  return e;
}

// ---- splitting ----

void OwnerIndex::Add(std::string_view uid, std::string_view owner_uid) {
  if (uid.empty()) return;
  owners_.emplace(std::string(uid), std::string(owner_uid));
}

void UncontrolledPods::Add(const InputObject& pod) {
  if (count_++ == 0) first_ = pod.Where() + " pod/" + std::string(pod.Name());
}

std::string UncontrolledPods::Warning() const {
  if (count_ == 0) return "";
  std::string subject = count_ == 1 ? "1 pod lists" : std::to_string(count_) + " pods list";
  return subject +
         " owner references but none with controller: true, so they belong to no workload "
         "above them (ownership follows the controller reference only; first: " +
         first_ + ")";
}

SplitResult SplitWorkloads(std::vector<InputObject> objects, const DefinitionResolver& resolver) {
  OwnerIndex index;
  for (const InputObject& o : objects) index.Add(o.Uid(), ControllerUid(o.value));
  // Which objects are workloads.
  std::vector<const CatalogEntry*> entries(objects.size(), nullptr);
  std::vector<bool> is_workload(objects.size(), false);
  std::unordered_map<std::string, size_t> group_of_uid;
  SplitResult result;
  for (size_t i = 0; i < objects.size(); ++i) {
    const Value& v = objects[i].value;
    std::string_view owner = ControllerUid(v);
    if (IsUncontrolledPod(v)) result.uncontrolled.Add(objects[i]);
    bool owned_here = !owner.empty() && index.Contains(owner);
    if (owned_here || (IsPod(v) && !owner.empty())) continue;
    entries[i] = resolver.Find(v);
    if (entries[i] == nullptr) {
      if (owner.empty()) result.undefined.push_back(objects[i]);
      continue;
    }
    is_workload[i] = true;
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    if (!is_workload[i]) continue;
    std::string uid(objects[i].Uid());
    if (!uid.empty()) group_of_uid.emplace(uid, result.workloads.size());
    WorkloadGroup g;
    g.workload = objects[i];
    g.entry = entries[i];
    result.workloads.push_back(std::move(g));
  }
  auto is_root = [&](std::string_view uid) { return group_of_uid.count(std::string(uid)) > 0; };
  for (size_t i = 0; i < objects.size(); ++i) {
    if (is_workload[i]) continue;
    const Value& v = objects[i].value;
    std::string_view owner = ControllerUid(v);
    std::string_view root = index.RootOf(owner, is_root);
    if (root.empty()) {
      if (!owner.empty()) result.orphans.push_back(std::move(objects[i]));
      continue;
    }
    WorkloadGroup& g = result.workloads[group_of_uid.at(std::string(root))];
    if (IsPod(v)) {
      g.pods.push_back(v);
    } else {
      g.children.push_back(v);
    }
  }
  return result;
}

}  // namespace wmap::cli
