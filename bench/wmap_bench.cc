// wmap-bench: the project's engine on the Karta catalog expressions over an NDJSON corpus of
// workload objects, with the interface, output lines and checksum of ../shared/bench's
// gojq-bench and libjq-bench (see ../shared/bench/README.md), so the engines share one table.
//
// Modes: compiled (compile each expression once, lazily, untimed; then run), upstream (compile
// on every evaluation, run with a 10 s deadline), decode (JSON decode and kind lookup only).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wmap/jq.h"
#include "wmap/json.h"
#include "wmap/value.h"

namespace {

using Clock = std::chrono::steady_clock;

int64_t Nanos(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

struct Row {
  std::string key, def, field, expr;
  std::optional<wmap::jq::Program> program;  // compiled mode
  std::string compile_error;                 // compiled mode
  bool compiled = false;
  int64_t evals = 0, nanos = 0, errs = 0;
  size_t index = 0;
};

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      out.push_back(c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c);
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

bool ReadExprs(const std::string& path, std::vector<std::unique_ptr<Row>>* rows) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "wmap-bench: open %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string_view> cols;
    size_t start = 0;
    while (true) {
      size_t tab = line.find('\t', start);
      cols.push_back(
          std::string_view(line).substr(start, tab == std::string::npos ? line.npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    if (cols.size() != 4) {
      std::fprintf(stderr, "wmap-bench: %s: bad line (want 4 tab-separated columns)\n",
                   path.c_str());
      return false;
    }
    auto r = std::make_unique<Row>();
    r->key = Unescape(cols[0]);
    r->def = Unescape(cols[1]);
    r->field = Unescape(cols[2]);
    r->expr = Unescape(cols[3]);
    r->index = rows->size();
    rows->push_back(std::move(r));
  }
  return true;
}

// ---------------------------------------------------------------- canonical JSON + FNV-1a

void CanonString(std::string_view s, std::string* b) {
  static constexpr char kHex[] = "0123456789abcdef";
  b->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        b->append("\\\"");
        break;
      case '\\':
        b->append("\\\\");
        break;
      case '\b':
        b->append("\\b");
        break;
      case '\f':
        b->append("\\f");
        break;
      case '\n':
        b->append("\\n");
        break;
      case '\r':
        b->append("\\r");
        break;
      case '\t':
        b->append("\\t");
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          b->append("\\u00");
          b->push_back(kHex[c >> 4]);
          b->push_back(kHex[c & 15]);
        } else {
          b->push_back(static_cast<char>(c));
        }
    }
  }
  b->push_back('"');
}

void CanonDouble(double f, std::string* b) {
  if (std::isnan(f)) {
    b->append("null");
    return;
  }
  if (std::isinf(f)) f = f > 0 ? 1.7976931348623157e308 : -1.7976931348623157e308;
  char tmp[64];
  if (f == std::trunc(f) && std::fabs(f) < 1e17) {
    std::snprintf(tmp, sizeof tmp, "%" PRId64, static_cast<int64_t>(f));
  } else {
    std::snprintf(tmp, sizeof tmp, "%.17g", f);
  }
  b->append(tmp);
}

void Canon(const wmap::Value& v, std::string* b) {
  switch (v.type()) {
    case wmap::Type::kNull:
      b->append("null");
      return;
    case wmap::Type::kBoolean:
      b->append(v.as_bool() ? "true" : "false");
      return;
    case wmap::Type::kNumber:
      if (v.is_integer() && v.as_int() < 100000000000000000 && v.as_int() > -100000000000000000) {
        b->append(std::to_string(v.as_int()));
      } else {
        CanonDouble(v.as_double(), b);
      }
      return;
    case wmap::Type::kString:
      CanonString(v.as_string(), b);
      return;
    case wmap::Type::kArray: {
      b->push_back('[');
      bool first = true;
      for (const wmap::Value& x : v.items()) {
        if (!first) b->push_back(',');
        first = false;
        Canon(x, b);
      }
      b->push_back(']');
      return;
    }
    case wmap::Type::kObject: {
      b->push_back('{');
      bool first = true;
      for (const wmap::Member* m : v.sorted_members()) {
        if (!first) b->push_back(',');
        first = false;
        CanonString(m->key.as_string(), b);
        b->push_back(':');
        Canon(m->value, b);
      }
      b->push_back('}');
      return;
    }
  }
}

struct Fnv {
  uint64_t h = 14695981039346656037ull;
  void Write(std::string_view s) {
    uint64_t x = h;
    for (unsigned char c : s) {
      x ^= c;
      x *= 1099511628211ull;
    }
    h = x;
  }
};

struct Options {
  std::string corpus = "build/anchors/corpus.ndjson";
  std::string exprs = "build/anchors/exprs.tsv";
  std::string mode = "compiled";
  size_t max_results = 1000;
  int64_t limit = 0;
  bool per_expr = false;
  bool checksum = true;
  std::string dump;
};

bool ParseBool(std::string_view v) { return !(v == "false" || v == "0" || v == "f"); }

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    while (a.starts_with("-")) a.remove_prefix(1);
    std::string_view name = a;
    std::optional<std::string> value;
    if (size_t eq = a.find('='); eq != std::string_view::npos) {
      name = a.substr(0, eq);
      value = std::string(a.substr(eq + 1));
    }
    bool is_bool = name == "per-expr" || name == "checksum";
    if (!value && !is_bool) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "wmap-bench: flag needs an argument: -%.*s\n",
                     static_cast<int>(name.size()), name.data());
        return false;
      }
      value = argv[++i];
    }
    if (name == "corpus") {
      o->corpus = *value;
    } else if (name == "exprs") {
      o->exprs = *value;
    } else if (name == "mode") {
      o->mode = *value;
    } else if (name == "max-results") {
      o->max_results = std::stoul(*value);
    } else if (name == "limit") {
      o->limit = std::stoll(*value);
    } else if (name == "per-expr") {
      o->per_expr = !value || ParseBool(*value);
    } else if (name == "checksum") {
      o->checksum = !value || ParseBool(*value);
    } else if (name == "dump") {
      o->dump = *value;
    } else {
      std::fprintf(stderr, "wmap-bench: flag provided but not defined: -%.*s\n",
                   static_cast<int>(name.size()), name.data());
      return false;
    }
  }
  if (o->mode != "compiled" && o->mode != "upstream" && o->mode != "decode") {
    std::fprintf(stderr, "wmap-bench: --mode must be compiled, upstream or decode\n");
    return false;
  }
  return true;
}

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!ParseArgs(argc, argv, &opt)) return 2;
  std::vector<std::unique_ptr<Row>> rows;
  if (!ReadExprs(opt.exprs, &rows)) return 1;
  std::map<std::string, std::vector<Row*>, std::less<>> by_kind;
  for (auto& r : rows) by_kind[r->key].push_back(r.get());

  std::FILE* corpus = std::fopen(opt.corpus.c_str(), "rb");
  if (corpus == nullptr) {
    std::fprintf(stderr, "wmap-bench: open %s: %s\n", opt.corpus.c_str(), std::strerror(errno));
    return 1;
  }
  std::FILE* dump = nullptr;
  if (!opt.dump.empty()) {
    opt.checksum = true;
    dump = std::fopen(opt.dump.c_str(), "wb");
    if (dump == nullptr) {
      std::fprintf(stderr, "wmap-bench: create %s: %s\n", opt.dump.c_str(), std::strerror(errno));
      return 1;
    }
  }
  const bool decode_only = opt.mode == "decode";
  const bool upstream = opt.mode == "upstream";

  int64_t objects = 0, unmatched = 0, decode_errors = 0, evals = 0, results = 0, eval_errors = 0,
          truncated = 0, compile_errors = 0;
  int64_t decode_ns = 0, eval_ns = 0, sum_ns = 0, compile_ns = 0;
  Fnv hash;
  std::string buf;
  std::vector<wmap::Value> out;
  out.reserve(64);
  wmap::jq::RunContext context;

  // Read the corpus whole (page cache), then walk its lines.
  std::string text;
  {
    std::fseek(corpus, 0, SEEK_END);
    long size = std::ftell(corpus);
    std::fseek(corpus, 0, SEEK_SET);
    text.resize(size > 0 ? static_cast<size_t>(size) : 0);
    if (!text.empty() && std::fread(text.data(), 1, text.size(), corpus) != text.size()) {
      std::fprintf(stderr, "wmap-bench: reading corpus failed\n");
      return 1;
    }
    std::fclose(corpus);
  }

  Clock::time_point start = Clock::now();
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line =
        std::string_view(text).substr(pos, nl == std::string::npos ? text.npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    if (line.empty()) continue;
    if (opt.limit > 0 && objects >= opt.limit) break;
    Clock::time_point t0 = Clock::now();
    wmap::Result<wmap::Value> parsed = wmap::json::Parse(line);
    if (!parsed.ok()) {
      ++decode_errors;
      continue;
    }
    ++objects;
    const wmap::Value& obj = *parsed;
    std::vector<Row*>* exprs = nullptr;
    if (obj.is_object()) {
      const wmap::Value* kind = obj.find("kind");
      const wmap::Value* api = obj.find("apiVersion");
      std::string key;
      if (kind && kind->is_string()) key.append(kind->as_string());
      key.push_back(' ');
      if (api && api->is_string()) key.append(api->as_string());
      auto it = by_kind.find(key);
      if (it != by_kind.end()) exprs = &it->second;
    }
    decode_ns += Nanos(t0, Clock::now());
    if (decode_only) continue;
    if (exprs == nullptr) {
      ++unmatched;
      continue;
    }
    if (!upstream && !(*exprs)[0]->compiled) {
      Clock::time_point tc = Clock::now();
      for (Row* r : *exprs) {
        r->compiled = true;
        auto p = wmap::jq::Program::Compile(r->expr);
        if (p.ok()) {
          r->program.emplace(std::move(*p));
        } else {
          r->compile_error = p.error().ToString();
          ++compile_errors;
        }
      }
      compile_ns += Nanos(tc, Clock::now());
    }
    int64_t obj_index = objects - 1;
    for (Row* r : *exprs) {
      Clock::time_point te = Clock::now();
      ++evals;
      ++r->evals;
      out.clear();
      std::string failure;
      std::optional<wmap::jq::Program> fresh;
      const wmap::jq::Program* program = r->program ? &*r->program : nullptr;
      if (upstream) {
        auto p = wmap::jq::Program::Compile(r->expr);
        if (p.ok()) {
          fresh.emplace(std::move(*p));
          program = &*fresh;
        } else {
          failure = p.error().ToString();
          program = nullptr;
        }
        context.budget.deadline = te + std::chrono::seconds(10);
      } else if (program == nullptr) {
        failure = r->compile_error;
      }
      if (program != nullptr) {
        bool too_many = false;
        std::optional<wmap::jq::RunError> err =
            program->Run(obj, {}, context, [&](const wmap::Value& v) {
              if (out.size() >= opt.max_results) {
                too_many = true;
                return false;
              }
              out.push_back(v);
              return true;
            });
        if (too_many) {
          failure = "too many results (max " + std::to_string(opt.max_results) + ")";
          ++truncated;
        } else if (err) {
          failure = err->message.empty() ? "error" : err->message;
        }
      }
      Clock::time_point t1 = Clock::now();
      int64_t d = Nanos(te, t1);
      eval_ns += d;
      r->nanos += d;
      results += static_cast<int64_t>(out.size());
      if (!failure.empty()) {
        ++eval_errors;
        ++r->errs;
      }
      if (opt.checksum) {
        for (const wmap::Value& v : out) {
          buf.assign("R");
          Canon(v, &buf);
          buf.push_back('\n');
          hash.Write(buf);
          if (dump) {
            std::fprintf(dump, "%" PRId64 "\t%zu\tR\t%s", obj_index, r->index, buf.c_str() + 1);
          }
        }
        if (!failure.empty()) {
          hash.Write("E\n");
          if (dump) {
            std::fprintf(dump, "%" PRId64 "\t%zu\tE\t%s\n", obj_index, r->index,
                         OneLine(failure).c_str());
          }
        }
        hash.Write(".\n");
        sum_ns += Nanos(t1, Clock::now());
      }
      // Results may hold the last references to parts of the object: release them here, outside
      // the engine timer, as the next object's first evaluation must not pay for this one.
      out.clear();
    }
  }
  double total = static_cast<double>(Nanos(start, Clock::now()) - compile_ns) / 1e9;
  if (dump) std::fclose(dump);
  double decode_s = static_cast<double>(decode_ns) / 1e9;
  double eval_s = static_cast<double>(eval_ns) / 1e9;

  std::printf("engine: wmap 0.1.0\n");
  std::printf("mode: %s\n", opt.mode.c_str());
  if (!decode_only) std::printf("timeout: %s\n", upstream ? "10s" : "0s");
  std::printf("corpus: %s\n", opt.corpus.c_str());
  std::printf("objects: %" PRId64 "\n", objects);
  std::printf("unmatched_objects: %" PRId64 "\n", unmatched);
  std::printf("decode_errors: %" PRId64 "\n", decode_errors);
  std::printf("expressions: %zu\n", rows.size());
  std::printf("compile_errors: %" PRId64 "\n", compile_errors);
  std::printf("compile_s: %.6f\n", static_cast<double>(compile_ns) / 1e9);
  std::printf("evaluations: %" PRId64 "\n", evals);
  std::printf("eval_errors: %" PRId64 "\n", eval_errors);
  std::printf("truncated: %" PRId64 "\n", truncated);
  std::printf("results: %" PRId64 "\n", results);
  if (decode_only || !opt.checksum) {
    std::printf("checksum: -\n");
  } else {
    std::printf("checksum: %016" PRIx64 "\n", hash.h);
  }
  std::printf("total_s: %.6f\n", total);
  std::printf("decode_s: %.6f\n", decode_s);
  std::printf("eval_s: %.6f\n", eval_s);
  std::printf("checksum_s: %.6f\n", static_cast<double>(sum_ns) / 1e9);
  if (evals > 0) {
    std::printf("ns_per_eval: %.1f\n", eval_s * 1e9 / static_cast<double>(evals));
    std::printf("evals_per_s: %.0f\n", static_cast<double>(evals) / eval_s);
  } else {
    std::printf("ns_per_eval: -\nevals_per_s: -\n");
  }
  std::printf("objects_per_s: %.0f\n", static_cast<double>(objects) / (decode_s + eval_s));
  std::printf("objects_per_s_wall: %.0f\n", static_cast<double>(objects) / total);
  std::printf("decode_mb_per_s: %.1f\n",
              decode_s > 0 ? static_cast<double>(pos) / 1e6 / decode_s : 0.0);

  if (opt.per_expr && !decode_only) {
    std::vector<Row*> sorted;
    for (auto& r : rows) sorted.push_back(r.get());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Row* a, const Row* b) { return a->nanos > b->nanos; });
    std::printf("\nper-expression (sorted by total engine time)\n");
    std::printf("%5s %8s %7s %10s %9s  %s\n", "row", "evals", "errors", "total_ms", "ns/eval",
                "kind | field | expression");
    for (const Row* r : sorted) {
      if (r->evals == 0) continue;
      std::printf("%5zu %8" PRId64 " %7" PRId64 " %10.1f %9.0f  %s | %s | %s\n", r->index, r->evals,
                  r->errs, static_cast<double>(r->nanos) / 1e6,
                  static_cast<double>(r->nanos) / static_cast<double>(r->evals), r->key.c_str(),
                  r->field.c_str(), r->expr.c_str());
    }
  }
  return 0;
}
