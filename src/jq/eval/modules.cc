#include "jq/eval/modules.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "jq/parser.h"

namespace wmap::jq::eval {
namespace {

bool IsFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string Join(const std::string& dir, std::string_view name) {
  if (dir.empty() || dir == ".") return std::string(name);
  std::string s = dir;
  if (s.back() != '/') s.push_back('/');
  s.append(name);
  return s;
}

std::vector<std::string> SearchDirs(const Value& metadata, const std::string& base_dir) {
  std::vector<std::string> dirs;
  const Value* search = metadata.is_object() ? metadata.find("search") : nullptr;
  auto add = [&](const Value& v) {
    if (!v.is_string()) return;
    std::string d(v.as_string());
    dirs.push_back(!d.empty() && d[0] == '/' ? d : Join(base_dir, d));
  };
  if (search != nullptr) {
    if (search->is_array()) {
      for (const Value& v : search->items()) add(v);
    } else {
      add(*search);
    }
  }
  return dirs;
}

}  // namespace

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::optional<std::string> FindModule(std::string_view relpath, std::string_view ext,
                                      const Value& metadata, const std::string& base_dir,
                                      const std::vector<std::string>& library_paths) {
  std::vector<std::string> dirs = SearchDirs(metadata, base_dir);
  dirs.insert(dirs.end(), library_paths.begin(), library_paths.end());
  std::string rel(relpath);
  size_t slash = rel.rfind('/');
  std::string last = slash == std::string::npos ? rel : rel.substr(slash + 1);
  for (const std::string& dir : dirs) {
    std::string direct = Join(dir, rel + std::string(ext));
    if (IsFile(direct)) return direct;
    std::string nested = Join(dir, rel + "/" + last + std::string(ext));
    if (IsFile(nested)) return nested;
  }
  return std::nullopt;
}

bool ReadTextFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

bool ModuleMeta(std::string_view name, const std::vector<std::string>& library_paths, Value* out,
                std::string* error) {
  std::optional<std::string> file = FindModule(name, ".jq", Value(), "", library_paths);
  std::string text;
  if (!file || !ReadTextFile(*file, &text)) {
    *error = "module not found: \"" + std::string(name) + "\"";
    return false;
  }
  auto parsed = ParseModule(text);
  if (!parsed.ok()) {
    *error = "invalid query: " + *file + ": " + parsed.error().message;
    return false;
  }
  Value meta = parsed->module_metadata.is_object() ? parsed->module_metadata : Value::EmptyObject();
  Value deps = Value::EmptyArray();
  for (const ast::Import& imp : parsed->imports) {
    Value dep = imp.metadata.is_object() ? imp.metadata : Value::EmptyObject();
    if (!imp.is_include) dep.set("as", Value::String(imp.alias));
    dep.set("is_data", Value::Bool(imp.is_data));
    dep.set("relpath", Value::String(imp.path));
    deps.push_back(std::move(dep));
  }
  Value defs = Value::EmptyArray();
  for (const ast::NodePtr& def : parsed->defs) {
    defs.push_back(Value::String(def->name + "/" + std::to_string(def->params.size())));
  }
  meta.set("deps", std::move(deps));
  meta.set("defs", std::move(defs));
  *out = std::move(meta);
  return true;
}

}  // namespace wmap::jq::eval
