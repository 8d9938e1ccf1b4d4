// DefinitionResolver: the built-in catalog and the definitions given besides it.
#include <string>
#include <vector>

#include <sys/stat.h>

#include "wmap/inventory.h"
#include "wmap/text.h"

namespace wmap {

namespace {

Error DefinitionErrors(const std::string& path, const std::vector<Error>& errors) {
  Error e;
  e.code = ErrorCode::kInvalidDefinition;
  e.message = "invalid definition " + path;
  for (const Error& err : errors) e.message += "\n  " + err.ToString();
  e.hint = "run 'wmap validate " + path + "' for every problem with hints";
  return e;
}

std::optional<Error> CheckExists(const std::string& path, bool want_dir_ok) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    Error e;
    e.code = ErrorCode::kNotFound;
    e.message = "open " + text::EscapeForTerminal(path) + ": no such file or directory";
    return e;
  }
  if (!want_dir_ok && S_ISDIR(st.st_mode)) {
    Error e;
    e.code = ErrorCode::kIo;
    e.message = "read " + path + ": is a directory";
    e.hint = "use --definitions DIR for a folder of definitions";
    return e;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Error> DefinitionResolver::Create(const DefinitionSources& sources,
                                                DefinitionResolver* out) {
  out->catalog_ = Catalog::BuiltIn();
  const LoadOptions& options = sources.load;
  for (const std::string& dir : sources.folders) {
    if (auto e = CheckExists(dir, true)) return e;
    std::vector<Error> errors = out->catalog_.AddPath(dir, options);
    if (!errors.empty()) return DefinitionErrors(dir, errors);
  }
  for (const std::string& file : sources.files) {
    if (file == "-") {
      std::string text, error;
      if (!ReadWholeFd(sources.stdin_fd, &text, &error)) {
        Error e;
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
  return Find(meta::StringField(object, "apiVersion"), meta::StringField(object, "kind"));
}

Error DefinitionResolver::NoDefinition(const SourceObject& object) {
  Error e;
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

}  // namespace wmap
