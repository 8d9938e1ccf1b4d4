// Object streams: objects from files, folders and standard input with their places, lists
// unwrapped, large files read a document at a time, errors with codes and positions.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "wmap/json.h"
#include "wmap/source.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

// A scratch folder removed on destruction.
// A scratch folder removed on destruction.
class Scratch {
 public:
  Scratch() {
    path_ = fs::temp_directory_path() /
            ("wmap_source_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
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

// A file opened for reading, removed on destruction.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    std::FILE* f = std::tmpfile();
    std::fwrite(text.data(), 1, text.size(), f);
    std::rewind(f);
    file_ = f;
  }
  ~TempFile() { std::fclose(file_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return ::fileno(file_); }

 private:
  std::FILE* file_;
};

std::vector<SourceObject> ReadAll(const std::vector<std::string>& paths,
                                  std::optional<Error>* error) {
  std::vector<SourceObject> out;
  *error = ReadAllObjects(paths, {}, &out);
  return out;
}

TEST(ObjectStreamTest, YamlDocumentsJsonStreamsArraysAndLists) {
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
  std::optional<Error> error;
  std::vector<SourceObject> objects = ReadAll({yaml_file, json_file}, &error);
  ASSERT_FALSE(error.has_value()) << error->ToString();
  ASSERT_EQ(objects.size(), 6u);
  std::vector<std::string> names;
  for (const SourceObject& o : objects) names.emplace_back(o.Name());
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

TEST(ObjectStreamTest, FoldersAreWalkedRecursivelyInPathOrder) {
  Scratch s;
  s.Write("z.yaml", "kind: Pod\nmetadata: {name: z}\n");
  s.Write("sub/b.yml", "kind: Pod\nmetadata: {name: b}\n");
  s.Write("sub/a.json", "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}");
  s.Write("sub/notes.txt", "not an object");
  std::optional<Error> error;
  std::vector<SourceObject> objects = ReadAll({s.path()}, &error);
  ASSERT_FALSE(error.has_value());
  std::vector<std::string> names;
  for (const SourceObject& o : objects) names.emplace_back(o.Name());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "z"}));
}

TEST(ObjectStreamTest, AFileReachedTwiceIsReadOnce) {
  // A link in a folder to a file of the same folder, and a file named again: one object each.
  Scratch s;
  const std::string a = s.Write("a.yaml", "kind: Pod\nmetadata: {name: a}\n");
  fs::create_symlink(a, fs::path(s.path()) / "b.yaml");
  std::optional<Error> error;
  std::vector<SourceObject> objects = ReadAll({s.path(), a}, &error);
  ASSERT_FALSE(error.has_value());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(objects[0].file, a);
}

TEST(ObjectStreamTest, FlowYamlThatIsNotJsonIsReadAsYaml) {
  Scratch s;
  std::string f = s.Write("flow.yaml", "{kind: Pod, metadata: {name: flow}}\n");
  std::optional<Error> error;
  std::vector<SourceObject> objects = ReadAll({f}, &error);
  ASSERT_FALSE(error.has_value());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(objects[0].Name(), "flow");
}

TEST(ObjectStreamTest, ErrorsNameTheFileAndPosition) {
  Scratch s;
  std::string bad_json = s.Write("bad.json", "{\"a\": 1}\n{\"b\": }\n");
  std::optional<Error> error;
  ReadAll({bad_json}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ErrorCode::kInvalidInput);
  EXPECT_EQ(error->file, bad_json);
  EXPECT_EQ(error->position.line, 2);
  EXPECT_EQ(error->ToString().rfind(bad_json + ":2:", 0), 0u) << error->ToString();

  std::string bad_yaml = s.Write("bad.yaml", "a: 1\n---\nb: [1\n");
  ReadAll({bad_yaml}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ErrorCode::kInvalidInput);
  EXPECT_GE(error->position.line, 3);

  ReadAll({s.path() + "/missing.yaml"}, &error);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ErrorCode::kNotFound);
  EXPECT_EQ(error->message, "open " + s.path() + "/missing.yaml: no such file or directory");
}

TEST(ObjectStreamTest, StandardInputIsReadOnce) {
  TempFile in("kind: Pod\nmetadata: {name: from-stdin}\n");
  ObjectStreamOptions options;
  options.stdin_fd = in.fd();
  std::vector<SourceObject> objects;
  ASSERT_FALSE(ReadAllObjects({"-", "-"}, options, &objects).has_value());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(objects[0].file, "<stdin>");
}

TEST(ObjectStreamTest, LargeStreamKeepsOneDocumentAtATime) {
  Scratch s;
  std::string text;
  for (int i = 0; i < 5000; ++i) {
    text += "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-" + std::to_string(i) +
            "\n  uid: u" + std::to_string(i) + "\n---\n";
  }
  std::string f = s.Write("many.yaml", text);
  ObjectStream reader({f});
  SourceObject o;
  std::optional<Error> error;
  int count = 0;
  while (reader.Next(&o, &error)) {
    ASSERT_FALSE(error.has_value());
    EXPECT_EQ(o.position.line, 1 + 6 * count);
    ++count;
  }
  EXPECT_EQ(count, 5000);
}

TEST(ObjectStreamTest, LargeJsonFilesGiveTheSameObjectsAsSmallOnes) {
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
  std::optional<Error> error;
  std::vector<SourceObject> from_list = ReadAll({s.Write("list.json", list)}, &error);
  ASSERT_FALSE(error.has_value()) << error->message;
  std::vector<SourceObject> from_stream = ReadAll({s.Write("stream.json", stream)}, &error);
  ASSERT_FALSE(error.has_value()) << error->message;
  std::vector<SourceObject> from_yaml = ReadAll({s.Write("objects.yaml", yaml)}, &error);
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

TEST(ObjectStreamTest, ProgressIsReportedPerObjectAndOnceFinished) {
  Scratch s;
  std::string f = s.Write("pods.yaml", "kind: Pod\n---\nkind: Pod\n---\nkind: Pod\n");
  std::vector<ReadProgress> reports;
  ObjectStreamOptions options;
  options.on_progress = [&](const ReadProgress& p) { reports.push_back(p); };
  std::vector<SourceObject> objects;
  ASSERT_FALSE(ReadAllObjects({f}, options, &objects).has_value());
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[2].objects, 3u);
  EXPECT_FALSE(reports[2].finished);
  EXPECT_TRUE(reports[3].finished);
  EXPECT_EQ(reports[3].bytes_done, reports[3].bytes_total);
  EXPECT_EQ(reports[3].bytes_total, fs::file_size(f));
}

}  // namespace
}  // namespace wmap
