// The shared input and error layer of the workload commands: flags, objects from files, folders
// and standard input with positions, definition resolution, workload splitting, error reports,
// label selectors, display formats and the tree renderer's width guarantee.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cli/display_format.h"
#include "cli/label_selector.h"
#include "cli/source_error.h"
#include "cli/tree_render.h"
#include "cli/workload_input.h"
#include "shared_data.h"
#include "wmap/json.h"
#include "wmap/yaml.h"
#include "workload_golden.h"

namespace wmap::cli {
namespace {

namespace fs = std::filesystem;

// A scratch folder removed on destruction.
class Scratch {
 public:
  Scratch() {
    path_ = fs::temp_directory_path() /
            ("wmap_input_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::create_directories(path_);
  }
  ~Scratch() { fs::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& text) const {
    fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

CommandIo NoTerminalIo() {
  static const char* const kEnv[] = {"NO_COLOR=1", nullptr};
  CommandIo io;
  io.in_fd = -1;
  io.err_fd = -1;
  io.environment = kEnv;
  return io;
}

std::vector<InputObject> ReadAll(const std::vector<std::string>& paths,
                                 std::optional<CliError>* error) {
  std::vector<InputObject> out;
  *error = ReadAllObjects(paths, NoTerminalIo(), &out);
  return out;
}

TEST(FlagParserTest, ValuesListsBooleansAndPositionals) {
  std::vector<std::string> files;
  std::string output;
  bool verbose = false;
  FlagParser p;
  p.Strings({"-f", "--filename"}, &files);
  p.String({"-o", "--output"}, &output);
  p.Bool({"-v"}, &verbose);
  std::vector<std::string> positional;
  std::vector<std::string> args = {
      "-f", "a.yaml", "--filename=b.yaml", "-fc.yaml", "-ojson", "NAME", "-v", "-", "--", "-x"};
  EXPECT_FALSE(p.Parse(args, &positional).has_value());
  EXPECT_EQ(files, (std::vector<std::string>{"a.yaml", "b.yaml", "c.yaml"}));
  EXPECT_EQ(output, "json");
  EXPECT_TRUE(verbose);
  EXPECT_EQ(positional, (std::vector<std::string>{"NAME", "-", "-x"}));

  std::vector<std::string> unknown = {"--nope"};
  std::optional<CliError> e = p.Parse(unknown, &positional);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->exit_code(), kExitUsage);
  EXPECT_EQ(e->message, "unknown flag \"--nope\"");
  std::vector<std::string> missing = {"-o"};
  e = p.Parse(missing, &positional);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, "flag needs an argument: -o");
}

TEST(ObjectReaderTest, YamlDocumentsJsonStreamsArraysAndLists) {
  Scratch s;
  std::string yaml_file = s.Write("a.yaml",
                                  "apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\n---\n---\n"
                                  "apiVersion: v1\nkind: List\nitems:\n"
                                  "- {apiVersion: v1, kind: Pod, metadata: {name: p2}}\n"
                                  "- {apiVersion: v1, kind: Pod, metadata: {name: p3}}\n");
  std::string json_file = s.Write("b.json",
                                  "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p4\"}}\n"
                                  "  [{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p5\"}},\n"
                                  "   {\"kind\": \"Pod\", \"metadata\": {\"name\": \"p6\"}}]\n");
  std::optional<CliError> error;
  std::vector<InputObject> objects = ReadAll({yaml_file, json_file}, &error);
  ASSERT_FALSE(error.has_value()) << error->Located();
  ASSERT_EQ(objects.size(), 6u);
  std::vector<std::string> names;
  for (const InputObject& o : objects) names.emplace_back(o.Name());
  EXPECT_EQ(names, (std::vector<std::string>{"p1", "p2", "p3", "p4", "p5", "p6"}));
  EXPECT_EQ(objects[0].position.line, 1);
  EXPECT_EQ(objects[1].position.line, 6);  // the List document
  EXPECT_EQ(objects[2].list_index, 1);
  EXPECT_EQ(objects[2].Where(), yaml_file + ":6:1 items[1]");
  EXPECT_EQ(objects[3].file, json_file);
  EXPECT_EQ(objects[3].position.line, 1);
  EXPECT_EQ(objects[4].position.line, 2);
  EXPECT_EQ(objects[4].position.column, 3);
  EXPECT_EQ(objects[5].list_index, 1);
}

TEST(ObjectReaderTest, FoldersAreWalkedRecursivelyInPathOrder) {
  Scratch s;
  s.Write("z.yaml", "kind: Pod\nmetadata: {name: z}\n");
  s.Write("sub/b.yml", "kind: Pod\nmetadata: {name: b}\n");
  s.Write("sub/a.json", "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}");
  s.Write("sub/notes.txt", "not an object");
  std::optional<CliError> error;
  std::vector<InputObject> objects = ReadAll({s.path()}, &error);
  ASSERT_FALSE(error.has_value());
  std::vector<std::string> names;
  for (const InputObject& o : objects) names.emplace_back(o.Name());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "z"}));
}

TEST(ObjectReaderTest, FlowYamlThatIsNotJsonIsReadAsYaml) {
  Scratch s;
  std::string f = s.Write("flow.yaml", "{kind: Pod, metadata: {name: flow}}\n");
  std::optional<CliError> error;
  std::vector<InputObject> objects = ReadAll({f}, &error);
  ASSERT_FALSE(error.has_value());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(objects[0].Name(), "flow");
}

TEST(ObjectReaderTest, ErrorsNameTheFileAndPosition) {
  Scratch s;
  std::string bad_json = s.Write("bad.json", "{\"a\": 1}\n{\"b\": }\n");
  std::optional<CliError> error;
  ReadAll({bad_json}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->exit_code(), kExitError);
  EXPECT_EQ(error->code, ErrorCode::kInvalidInput);
  EXPECT_EQ(error->file, bad_json);
  EXPECT_EQ(error->position.line, 2);
  EXPECT_EQ(error->Located().rfind(bad_json + ":2:", 0), 0u) << error->Located();

  std::string bad_yaml = s.Write("bad.yaml", "a: 1\n---\nb: [1\n");
  ReadAll({bad_yaml}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ErrorCode::kInvalidInput);
  EXPECT_GE(error->position.line, 3);

  ReadAll({s.path() + "/missing.yaml"}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->exit_code(), kExitNotFound);
  EXPECT_EQ(error->message, "open " + s.path() + "/missing.yaml: no such file or directory");
}

TEST(ObjectReaderTest, StandardInputIsReadOnce) {
  workload_golden::Temp in("kind: Pod\nmetadata: {name: from-stdin}\n");
  CommandIo io = NoTerminalIo();
  io.in_fd = in.fd();
  std::vector<InputObject> objects;
  ASSERT_FALSE(ReadAllObjects({"-", "-"}, io, &objects).has_value());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(objects[0].file, "<stdin>");
}

TEST(ObjectReaderTest, LargeStreamKeepsOneDocumentAtATime) {
  Scratch s;
  std::string text;
  for (int i = 0; i < 5000; ++i) {
    text += "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-" + std::to_string(i) +
            "\n  uid: u" + std::to_string(i) + "\n---\n";
  }
  std::string f = s.Write("many.yaml", text);
  ObjectReader reader({f}, NoTerminalIo());
  InputObject o;
  std::optional<CliError> error;
  int count = 0;
  while (reader.Next(&o, &error)) {
    ASSERT_FALSE(error.has_value());
    EXPECT_EQ(o.position.line, 1 + 6 * count);
    ++count;
  }
  EXPECT_EQ(count, 5000);
}

TEST(ObjectReaderTest, LargeJsonFilesGiveTheSameObjectsAsSmallOnes) {
  // More than 8 MiB: read as a large document (repeated subtrees shared, parsed pages of the
  // mapped file dropped), as a list and as a stream; the objects and their lines must be the
  // ones a YAML reading of the same objects gives.
  Scratch s;
  std::string list = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n";
  std::string stream;
  std::string yaml;
  for (int i = 0; i < 40000; ++i) {
    std::string name = "job-" + std::to_string(i);
    std::string object =
        "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name +
        "\",\"namespace\":\"training\"},\"spec\":{\"parallelism\":" + std::to_string(i % 4) +
        ",\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":"
        "\"registry.example.com/trainer:v1.2.3\",\"resources\":{\"limits\":"
        "{\"nvidia.com/gpu\":\"8\"}}}]}}}}";
    list += (i > 0 ? ",\n" : "") + object;
    stream += object + "\n";
    yaml += "---\n" + object + "\n";
  }
  list += "]}\n";
  ASSERT_GT(list.size(), size_t{9} << 20);
  std::optional<CliError> error;
  std::vector<InputObject> from_list = ReadAll({s.Write("list.json", list)}, &error);
  ASSERT_FALSE(error.has_value()) << error->message;
  std::vector<InputObject> from_stream = ReadAll({s.Write("stream.json", stream)}, &error);
  ASSERT_FALSE(error.has_value()) << error->message;
  std::vector<InputObject> from_yaml = ReadAll({s.Write("objects.yaml", yaml)}, &error);
  ASSERT_FALSE(error.has_value()) << error->message;
  ASSERT_EQ(from_list.size(), 40000u);
  ASSERT_EQ(from_stream.size(), 40000u);
  ASSERT_EQ(from_yaml.size(), 40000u);
  for (size_t i = 0; i < from_yaml.size(); i += 997) {
    EXPECT_EQ(json::ToCompactString(from_list[i].value), json::ToCompactString(from_yaml[i].value));
    EXPECT_EQ(json::ToCompactString(from_stream[i].value),
              json::ToCompactString(from_yaml[i].value));
    EXPECT_EQ(from_stream[i].position.line, static_cast<int>(i) + 1);
  }
  // A syntax error past the dropped pages is reported at its line.
  std::string broken = stream;
  broken.insert(broken.rfind("\"parallelism\":") + 14, "@");
  ReadAll({s.Write("broken.json", broken)}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->position.line, 40000);
}

Value Obj(const std::string& yaml_text) { return *yaml::Parse(yaml_text); }

InputObject In(const std::string& yaml_text) {
  InputObject o;
  o.value = Obj(yaml_text);
  o.file = "objects.yaml";
  return o;
}

TEST(ProgressTest, SilentOffTerminalAndAfterTheFirstSecondOnOne) {
  // Not a terminal: nothing, however long it takes.
  workload_golden::Temp file;
  CommandIo io = NoTerminalIo();
  io.err_fd = file.fd();
  {
    Progress quiet(io, "reading");
    quiet.Update(10, 100, 1);
  }
  EXPECT_EQ(workload_golden::ReadFd(file.fd()), "");

  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  int terminal = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  io.err_fd = terminal;
  std::string shown;
  {
    Progress progress(io, "reading");
    progress.Update(10, 100, 1);  // within the first second: nothing
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    progress.Update(50 << 20, 100 << 20, 1234);
    progress.Finish();
  }
  ::fcntl(master, F_SETFL, O_NONBLOCK);
  char buf[512];
  ssize_t n;
  while ((n = ::read(master, buf, sizeof buf)) > 0) shown.append(buf, static_cast<size_t>(n));
  ::close(terminal);
  ::close(master);
  EXPECT_EQ(shown, "\r\033[Kreading: 50.0 MB of 100.0 MB (50%), 1234 objects\r\033[K");
}

TEST(DefinitionResolverTest, BuiltInOverriddenByFiles) {
  WMAP_NEEDS_SHARED("conformance/upstream");
  InputFlags flags;
  DefinitionResolver builtin;
  ASSERT_FALSE(DefinitionResolver::Create(flags, NoTerminalIo(), &builtin).has_value());
  const CatalogEntry* ray = builtin.Find("ray.io/v1", "RayCluster");
  ASSERT_NE(ray, nullptr);
  EXPECT_EQ(ray->origin, kBuiltInOrigin);

  flags.definition_files = {::wmap::test_files::SharedDir().string() +
                            "/conformance/upstream/catalog/ray-io-raycluster-v1.yaml"};
  DefinitionResolver overridden;
  ASSERT_FALSE(DefinitionResolver::Create(flags, NoTerminalIo(), &overridden).has_value());
  EXPECT_EQ(overridden.Find("ray.io/v1", "RayCluster")->origin, flags.definition_files[0]);
  EXPECT_EQ(overridden.Find(Obj("apiVersion: example.com/v1\nkind: Foo\n")), nullptr);

  flags.definition_files = {"/nonexistent/definition.yaml"};
  std::optional<CliError> e = DefinitionResolver::Create(flags, NoTerminalIo(), &overridden);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->exit_code(), kExitNotFound);
}

TEST(DefinitionResolverTest, NoDefinitionSaysWhatToDo) {
  InputObject o = In("apiVersion: example.com/v1\nkind: Foo\n");
  o.position.line = 3;
  o.position.column = 1;
  CliError e = DefinitionResolver::NoDefinition(o);
  EXPECT_EQ(e.exit_code(), kExitNoDefinition);
  EXPECT_EQ(e.code, ErrorCode::kNoDefinition);
  EXPECT_EQ(e.Located(),
            "objects.yaml:3:1: no definition for example.com/v1 Foo: pass --definition FILE or "
            "add one with --definitions DIR");
}

TEST(SplitWorkloadsTest, OwnershipChainsAttributePodsAndChildren) {
  DefinitionResolver resolver;
  ASSERT_FALSE(DefinitionResolver::Create({}, NoTerminalIo(), &resolver).has_value());
  auto owned = [](const std::string& kind, const std::string& name, const std::string& uid,
                  const std::string& owner_uid) {
    std::string api = kind == "Pod" ? "v1" : (kind == "Job" ? "batch/v1" : "apps/v1");
    return In("apiVersion: " + api + "\nkind: " + kind + "\nmetadata:\n  name: " + name +
              "\n  uid: " + uid + "\n  ownerReferences:\n  - {apiVersion: x, kind: y, name: o, " +
              "uid: " + owner_uid + ", controller: true}\n");
  };
  std::vector<InputObject> objects = {
      In("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, uid: js1}\n"),
      owned("Job", "js-a-0", "job1", "js1"),
      owned("Pod", "js-a-0-0", "pod1", "job1"),
      owned("Pod", "orphan", "pod2", "missing-owner"),
      In("apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: foo}\n"),
      In("apiVersion: v1\nkind: Pod\nmetadata: {name: bare, uid: bare1}\n"),
  };
  SplitResult r = SplitWorkloads(objects, resolver);
  ASSERT_EQ(r.workloads.size(), 2u);
  EXPECT_EQ(r.workloads[0].workload.Name(), "js");
  ASSERT_EQ(r.workloads[0].children.size(), 1u);
  ASSERT_EQ(r.workloads[0].pods.size(), 1u);
  EXPECT_EQ(MetadataField(r.workloads[0].pods[0], "name"), "js-a-0-0");
  EXPECT_EQ(r.workloads[1].workload.Name(), "bare");
  ASSERT_EQ(r.orphans.size(), 1u);
  EXPECT_EQ(r.orphans[0].Name(), "orphan");
  ASSERT_EQ(r.undefined.size(), 1u);
  EXPECT_EQ(r.undefined[0].Kind(), "Foo");
}

TEST(ReportErrorTest, TextOnStderrDocumentsOnStdout) {
  CliError e;
  e.code = ErrorCode::kNotFound;
  e.message = "definition \"x\" not found";
  e.hint = "list them";
  for (std::string output : {"", "json", "yaml"}) {
    workload_golden::Temp out, err;
    CommandIo io = NoTerminalIo();
    io.out_fd = out.fd();
    io.err_fd = err.fd();
    EXPECT_EQ(ReportError(io, "definitions", output, e), kExitNotFound);
    std::string o = workload_golden::ReadFd(out.fd());
    std::string r = workload_golden::ReadFd(err.fd());
    if (output.empty()) {
      EXPECT_EQ(o, "");
      EXPECT_EQ(r, "wmap definitions: definition \"x\" not found\nhint: list them\n");
      continue;
    }
    EXPECT_EQ(r, "");
    Result<Value> v = output == "json" ? json::Parse(o) : yaml::Parse(o);
    ASSERT_TRUE(v.ok()) << o;
    EXPECT_EQ(*v->find("error"), Value::String("not_found"));
    EXPECT_EQ(*v->find("message"), Value::String("definition \"x\" not found"));
    EXPECT_EQ(*v->find("hint"), Value::String("list them"));
  }
}

TEST(LabelSelectorTest, KubectlSyntax) {
  Value labels = Obj("{app: web, tier: front, version: '3'}");
  auto matches = [&](const std::string& text) {
    std::string error;
    std::optional<LabelSelector> s = LabelSelector::Parse(text, &error);
    EXPECT_TRUE(s.has_value()) << text << ": " << error;
    return s && s->Matches(labels);
  };
  EXPECT_TRUE(matches(""));
  EXPECT_TRUE(matches("app=web"));
  EXPECT_TRUE(matches("app==web,tier!=back"));
  EXPECT_FALSE(matches("app=db"));
  EXPECT_TRUE(matches("tier in (front, back)"));
  EXPECT_FALSE(matches("tier notin (front,back)"));
  EXPECT_TRUE(matches("missing notin (x),!missing,app"));
  EXPECT_FALSE(matches("!app"));
  EXPECT_TRUE(matches("version>2,version<4"));
  EXPECT_FALSE(matches("version>3"));
  EXPECT_TRUE(matches("missing!=x"));
  for (const char* bad : {"a in (b", "=x", "a in b", "a>x", "a=b c", "a,,b"}) {
    std::string error;
    EXPECT_FALSE(LabelSelector::Parse(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty());
  }
}

TEST(DisplayFormatTest, QuantitiesAgesAndTimestamps) {
  EXPECT_EQ(FormatCpu(0), "0");
  EXPECT_EQ(FormatCpu(500), "500m");
  EXPECT_EQ(FormatCpu(2000), "2");
  EXPECT_EQ(FormatCpu(2500), "2.5");
  EXPECT_EQ(FormatMemory(0), "0");
  EXPECT_EQ(FormatMemory(512ll << 20), "512Mi");
  EXPECT_EQ(FormatMemory(3ll << 29), "1.5Gi");
  EXPECT_EQ(FormatMemory(1ll << 40), "1Ti");
  EXPECT_EQ(HumanDuration(-5), "<invalid>");
  EXPECT_EQ(HumanDuration(45), "45s");
  EXPECT_EQ(HumanDuration(200), "3m20s");
  EXPECT_EQ(HumanDuration(5 * 3600), "5h");
  EXPECT_EQ(HumanDuration(3 * 86400 + 3600), "3d1h");
  EXPECT_EQ(HumanDuration(40 * 86400), "40d");
  EXPECT_EQ(HumanDuration(800 * 86400), "2y70d");
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseTimestamp("2025-03-14T09:26:53Z"), 1741944413);
  EXPECT_EQ(ParseTimestamp("2025-03-14T10:26:53.5+01:00"), 1741944413);
  EXPECT_FALSE(ParseTimestamp("yesterday").has_value());
  EXPECT_FALSE(ParseTimestamp("2025-03-14T09:26:53").has_value());
}

TEST(TreeRenderTest, NoLineWiderThanTheWidth) {
  TreeNode root;
  root.label = {{"a-very-long-component-name-that-keeps-going-and-going", Tone::kBold},
                {" StatefulSet", Tone::kCyan}};
  root.details = {
      {"Running", Tone::kGreen}, {"replicas 10/10/10"}, {"64 GPUs"}, {"cpu 258"}, {"mem 2Ti"}};
  TreeNode child = root;
  child.children.push_back(root);
  child.children.push_back(root);
  root.children = {child, child};
  for (size_t width : {40u, 60u, 80u}) {
    std::string text = RenderTree(root, {width, true});
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      std::string line = text.substr(start, end - start);
      // Colour escapes do not count.
      std::string plain;
      for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\033') {
          while (i < line.size() && line[i] != 'm') ++i;
          continue;
        }
        plain += line[i];
      }
      EXPECT_LE(DisplayWidth(plain), width) << plain;
      start = end + 1;
    }
  }
  EXPECT_EQ(ShortenMiddle("llama-finetune-workers-3-1-s2rfl", 15), "llama-f…1-s2rfl");
}

}  // namespace
}  // namespace wmap::cli
