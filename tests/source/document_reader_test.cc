// DocumentReader: inputs cut into documents as they arrive, from mapped files and from pipes,
// with the place of each and a size limit that holds whatever the input.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "wmap/source.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

namespace fs = std::filesystem;

struct Doc {
  std::string text;
  Position start;
  int number = 0;
  bool json = false;
};

struct Outcome {
  std::vector<Doc> docs;
  std::optional<Error> error;
};

Outcome Drain(DocumentReader* reader) {
  Outcome out;
  DocumentText d;
  while (reader->Next(&d, &out.error)) {
    if (out.error) break;
    out.docs.push_back({std::string(d.text), d.start, d.number, d.json});
  }
  return out;
}

// Reads `text` through a pipe, written by another thread in small pieces (so documents arrive
// cut anywhere), and again from a mapped file; both must agree.
Outcome ReadBothWays(const std::string& text, DocumentReaderOptions options = {}) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    for (size_t i = 0; i < text.size(); i += 7) {
      size_t n = std::min<size_t>(7, text.size() - i);
      if (::write(fds[1], text.data() + i, n) != static_cast<ssize_t>(n)) break;
    }
    ::close(fds[1]);
  });
  DocumentReader piped("<stdin>", options);
  piped.OpenFd(fds[0]);
  Outcome from_pipe = Drain(&piped);
  writer.join();
  ::close(fds[0]);

  fs::path path = fs::temp_directory_path() /
                  ("wmap_document_reader_test_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path, std::ios::binary) << text;
  DocumentReader mapped(path.string(), options);
  std::string error;
  EXPECT_TRUE(mapped.OpenPath(path.string(), &error)) << error;
  Outcome from_file = Drain(&mapped);
  fs::remove(path);

  EXPECT_EQ(from_pipe.docs.size(), from_file.docs.size());
  for (size_t i = 0; i < std::min(from_pipe.docs.size(), from_file.docs.size()); ++i) {
    EXPECT_EQ(from_pipe.docs[i].text, from_file.docs[i].text) << i;
    EXPECT_EQ(from_pipe.docs[i].start.line, from_file.docs[i].start.line) << i;
    EXPECT_EQ(from_pipe.docs[i].start.offset, from_file.docs[i].start.offset) << i;
  }
  EXPECT_EQ(from_pipe.error.has_value(), from_file.error.has_value());
  return from_pipe;
}

std::vector<std::string> Texts(const Outcome& o) {
  std::vector<std::string> out;
  for (const Doc& d : o.docs) out.push_back(d.text);
  return out;
}

TEST(DocumentReaderTest, YamlIsCutAtDocumentMarkers) {
  Outcome o = ReadBothWays("a: 1\n---\nb: 2\n--- \nc: 3\n---\n");
  ASSERT_FALSE(o.error);
  EXPECT_EQ(Texts(o), (std::vector<std::string>{"a: 1\n", "---\nb: 2\n", "--- \nc: 3\n", "---\n"}));
  ASSERT_EQ(o.docs.size(), 4u);
  EXPECT_EQ(o.docs[1].start.line, 2);
  EXPECT_EQ(o.docs[2].start.line, 4);
  EXPECT_EQ(o.docs[2].start.offset, 14u);
  EXPECT_EQ(o.docs[3].number, 4);
  EXPECT_FALSE(o.docs[0].json);
}

TEST(DocumentReaderTest, MarkersOnlyAtTheStartOfALine) {
  Outcome o = ReadBothWays("a: ---\nb: |\n  ---\n----\nc: '\n  ---'\n");
  ASSERT_FALSE(o.error);
  EXPECT_EQ(o.docs.size(), 1u);
}

TEST(DocumentReaderTest, CommentsAndDirectivesStayWithTheirDocument) {
  Outcome o = ReadBothWays(
      "# header\n%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n%TAG ! tag:x,2000:\n---\nb: 2\n---\nc\n");
  ASSERT_FALSE(o.error);
  EXPECT_EQ(Texts(o),
            (std::vector<std::string>{"# header\n%YAML 1.1\n---\na: 1\n...\n",
                                      "%YAML 1.1\n%TAG ! tag:x,2000:\n---\nb: 2\n", "---\nc\n"}));
  // Each piece reads as the whole text would.
  for (const std::string& t : Texts(o)) EXPECT_TRUE(yaml::ParseStream(t).ok()) << t;
}

TEST(DocumentReaderTest, CrLfAndByteOrderMark) {
  Outcome o = ReadBothWays(
      "\xEF\xBB\xBF"
      "a: 1\r\n---\r\nb: 2\r\n");
  ASSERT_FALSE(o.error);
  EXPECT_EQ(Texts(o), (std::vector<std::string>{"a: 1\r\n", "---\r\nb: 2\r\n"}));
  EXPECT_EQ(o.docs[0].start.column, 4);  // after the byte order mark
}

TEST(DocumentReaderTest, LeadingBlankLinesAreSkippedButIndentationIsKept) {
  Outcome o = ReadBothWays("\n\n  a: 1\n  b: 2\n");
  ASSERT_FALSE(o.error);
  ASSERT_EQ(o.docs.size(), 1u);
  EXPECT_EQ(o.docs[0].text, "  a: 1\n  b: 2\n");
  EXPECT_EQ(o.docs[0].start.line, 3);
  EXPECT_TRUE(yaml::Parse(o.docs[0].text).ok());
}

TEST(DocumentReaderTest, WhiteSpaceOnlyHoldsNoDocument) {
  EXPECT_TRUE(ReadBothWays(" \n\n\t\n").docs.empty());
  EXPECT_TRUE(ReadBothWays("").docs.empty());
}

TEST(DocumentReaderTest, JsonValuesEndWhereTheyEnd) {
  Outcome o = ReadBothWays("{\"a\": \"}\\\\\", \"b\": \"\\\"]\"}\n  [1, [2]] 3\n\"x\"\ntrue");
  ASSERT_FALSE(o.error);
  EXPECT_EQ(Texts(o), (std::vector<std::string>{"{\"a\": \"}\\\\\", \"b\": \"\\\"]\"}", "[1, [2]]",
                                                "3", "\"x\"", "true"}));
  EXPECT_TRUE(o.docs[1].json);
  EXPECT_EQ(o.docs[1].start.line, 2);
  EXPECT_EQ(o.docs[1].start.column, 3);
  EXPECT_EQ(o.docs[3].start.line, 3);
}

TEST(DocumentReaderTest, JsonWhenAskedWhateverTheFirstCharacter) {
  Outcome o = ReadBothWays("1 2", {.format = DocumentFormat::kJson});
  EXPECT_EQ(Texts(o), (std::vector<std::string>{"1", "2"}));
  Outcome yaml = ReadBothWays("[1, 2]\n", {.format = DocumentFormat::kYaml});
  ASSERT_EQ(yaml.docs.size(), 1u);
  EXPECT_FALSE(yaml.docs[0].json);
}

TEST(DocumentReaderTest, RereadAsYamlStartsTheDocumentAgain) {
  DocumentReader reader("<stdin>");
  fs::path path = fs::temp_directory_path() /
                  ("wmap_document_reader_flow_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << "{a: 1}\n---\n{b: 2}\n";
  std::string error;
  ASSERT_TRUE(reader.OpenPath(path.string(), &error));
  DocumentText d;
  std::optional<Error> e;
  ASSERT_TRUE(reader.Next(&d, &e));
  EXPECT_TRUE(d.json);
  EXPECT_EQ(d.text, "{a: 1}");
  reader.RereadAsYaml();
  ASSERT_TRUE(reader.Next(&d, &e));
  EXPECT_FALSE(d.json);
  EXPECT_EQ(d.text, "{a: 1}\n");
  EXPECT_EQ(d.number, 1);
  ASSERT_TRUE(reader.Next(&d, &e));
  EXPECT_EQ(d.text, "---\n{b: 2}\n");
  EXPECT_FALSE(reader.Next(&d, &e));
  fs::remove(path);
}

TEST(DocumentReaderTest, ADocumentLongerThanTheLimitIsAnErrorNamingIt) {
  std::string text = "a: 1\n---\nb: " + std::string(3000, 'x') + "\n---\nc: 1\n";
  Outcome o = ReadBothWays(text, {.max_document_size = 1024});
  ASSERT_TRUE(o.error);
  EXPECT_EQ(o.error->code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(o.error->file, "<stdin>");
  EXPECT_EQ(o.error->position.line, 2);
  EXPECT_EQ(o.error->message, "document 2 is larger than 1Ki (--max-document-size)");
  EXPECT_EQ(Texts(o), std::vector<std::string>{"a: 1\n"});
  // No limit: every document.
  EXPECT_EQ(ReadBothWays(text, {.max_document_size = 0}).docs.size(), 3u);
}

TEST(DocumentReaderTest, AnInputWithoutLineBreaksStopsAtTheLimit) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  DocumentReader reader("/dev/zero", {.max_document_size = 8 << 20});
  std::string error;
  ASSERT_TRUE(reader.OpenPath("/dev/zero", &error)) << error;
  Outcome o = Drain(&reader);
  ASSERT_TRUE(o.error);
  EXPECT_EQ(o.error->code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(o.error->position.line, 1);
  EXPECT_TRUE(o.docs.empty());
}

TEST(DocumentReaderTest, AnEndlessRunOfEmptyDocumentsIsReadOneAtATime) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  constexpr int kDocs = 200000;
  std::thread writer([&] {
    std::string chunk;
    for (int i = 0; i < 1000; ++i) chunk += "---\n";
    for (int i = 0; i < kDocs / 1000; ++i) {
      if (::write(fds[1], chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size())) break;
    }
    ::close(fds[1]);
  });
  DocumentReader reader("<stdin>", {.max_document_size = 64});
  reader.OpenFd(fds[0]);
  DocumentText d;
  std::optional<Error> e;
  int count = 0;
  while (reader.Next(&d, &e) && !e) {
    EXPECT_TRUE(d.Empty());
    ++count;
  }
  writer.join();
  ::close(fds[0]);
  EXPECT_FALSE(e);
  EXPECT_EQ(count, kDocs);
}

TEST(DocumentReaderTest, PositionsAndErrorsMoveToTheirPlaceInTheInput) {
  Outcome o = ReadBothWays("a: 1\n---\nb: [\n");
  ASSERT_EQ(o.docs.size(), 2u);
  DocumentText d;
  d.text = o.docs[1].text;
  d.start = o.docs[1].start;
  auto parsed = yaml::ParseStream(d.text);
  ASSERT_FALSE(parsed.ok());
  Error err = parsed.error();
  d.Locate(&err);
  EXPECT_EQ(err.position.line, 4);
  EXPECT_TRUE(err.message.starts_with("yaml: line 4, column 1: ")) << err.message;
  DocumentText json;
  json.start = {3, 5, 20};
  EXPECT_EQ(json.Locate(Position{1, 2, 1}).column, 6);
  EXPECT_EQ(json.Locate(Position{2, 2, 9}).line, 4);
  EXPECT_EQ(json.Locate(Position{2, 2, 9}).column, 2);
  EXPECT_EQ(json.Locate(Position{2, 2, 9}).offset, 29u);
}

// The documents of the pieces, parsed one by one, are the documents of the whole text.
TEST(DocumentReaderTest, PiecesReadAsTheWholeText) {
  const char* inputs[] = {
      "a: 1\n---\nb: 2\n",
      "---\na: 1\n---\n---\nb: [1, 2]\n...\n",
      "# c\n%YAML 1.1\n---\na: &x {k: v}\nb: *x\n...\n%YAML 1.1\n---\nc: |\n  ---\n  text\n",
      "--- |\n  block\n--- >\n  folded\n---\n",
      "\xEF\xBB\xBF"
      "a: 1\r\n---\r\nb: 2\r\n",
      "\n\n  a: 1\n  b: 2\n---\n- x\n- y\n",
      "a: '---'\nb: \"\n---x\"\n---\n",
      "---",
      "a: 1\n---\n",
  };
  for (const char* text : inputs) {
    for (yaml::Schema schema : {yaml::Schema::kKubernetes, yaml::Schema::kGojq}) {
      auto whole = yaml::ParseStream(text, {.schema = schema});
      ASSERT_TRUE(whole.ok()) << text << whole.error().message;
      Outcome o = ReadBothWays(text, {.format = DocumentFormat::kYaml});
      ASSERT_FALSE(o.error) << text;
      std::vector<Value> pieces;
      for (const Doc& d : o.docs) {
        auto one = yaml::ParseStream(d.text, {.schema = schema});
        ASSERT_TRUE(one.ok()) << text << " | " << d.text << one.error().message;
        for (const yaml::Document& doc : *one) pieces.push_back(doc.value);
      }
      ASSERT_EQ(pieces.size(), whole->size()) << text;
      for (size_t i = 0; i < pieces.size(); ++i) EXPECT_EQ(pieces[i], (*whole)[i].value) << text;
    }
  }
}

TEST(DocumentReaderTest, EmptyDocuments) {
  DocumentText d;
  for (const char* t : {"", "---", "---\n", "--- \n\n", "\n"}) {
    d.text = t;
    EXPECT_TRUE(d.Empty()) << t;
  }
  for (const char* t : {"a", "--- a\n", "# c\n", "%YAML 1.1\n---\n"}) {
    d.text = t;
    EXPECT_FALSE(d.Empty()) << t;
  }
}

}  // namespace
}  // namespace wmap
