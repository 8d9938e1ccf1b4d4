// The reader's options for large documents: sharing repeated values (share_repeated) and giving
// back parsed text (release_consumed).
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "value/value_nodes.h"
#include "wmap/json.h"

namespace wmap::json {
namespace {

using internal::ValueBuilder;

Value MustParse(std::string_view text, const ReadOptions& options) {
  Result<Value> r = Parse(text, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return r.ok() ? *r : Value();
}

// A list of workload-like objects built from a few templates, with the edge cases a sharing
// reader must keep apart: repeated keys, escaped long strings, empty containers, numbers kept
// as written, values that differ only in one leaf.
std::string RepetitiveDocument(int n) {
  std::string text = "{\"kind\":\"List\",\"items\":[";
  for (int i = 0; i < n; ++i) {
    if (i > 0) text += ",\n";
    text += "{\"metadata\":{\"name\":\"worker-" + std::to_string(i % 7) +
            "\",\"labels\":{\"app.kubernetes.io/name\":\"trainer\",\"team\":\"vision\"}},"
            "\"spec\":{\"replicas\":" +
            std::to_string(i % 3) +
            ",\"template\":{\"metadata\":{},\"spec\":{\"containers\":[{\"name\":\"main\","
            "\"image\":\"registry.example.com/train:v1.2.3\",\"args\":[\"--epochs\",\"10\"],"
            "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"8\"}},\"ports\":[]}],"
            "\"note\":\"escaped \\\"quotes\\\" in a long string\",\"ratio\":1.50,"
            "\"big\":123456789012345678901234567890,\"dup\":1,\"dup\":" +
            std::to_string(i % 2) + "}}}}";
  }
  text += "]}";
  return text;
}

TEST(JsonSharedReadTest, SameValuesAsAPlainRead) {
  std::string text = RepetitiveDocument(500);
  for (bool gojq_numbers : {false, true}) {
    Value plain = MustParse(text, {.gojq_numbers = gojq_numbers});
    Value shared = MustParse(text, {.gojq_numbers = gojq_numbers, .share_repeated = true});
    EXPECT_EQ(Compare(plain, shared), 0);
    EXPECT_EQ(ToString(plain, {.indent = 0, .sort_keys = false}),
              ToString(shared, {.indent = 0, .sort_keys = false}));
  }
}

// The number of distinct nodes (or inline values) among vs.
size_t DistinctNodes(const std::vector<Value>& vs) {
  std::set<std::pair<uint64_t, uint64_t>> seen;
  for (const Value& v : vs) {
    uint64_t w0, w1;
    ValueBuilder::Words(v, &w0, &w1);
    seen.insert({w0, w1});
  }
  return seen.size();
}

// The table is lossy (a slot keeps the latest of the values hashing to it), so which copies
// share is not fixed; with 1000 copies nearly all do, and without sharing none does.
TEST(JsonSharedReadTest, RepeatedSubtreesAndStringsShareNodes) {
  std::string text = "[";
  for (int i = 0; i < 1000; ++i) {
    text += std::string(i > 0 ? "," : "") +
            "[{\"a\":[1,2],\"s\":\"a string longer than inline\"},{\"a\":[1," + std::to_string(i) +
            "]},[],{}]";
  }
  text += "]";
  for (bool share : {true, false}) {
    Value doc = MustParse(text, {.share_repeated = share});
    std::vector<Value> same, strings, differing, empty_arrays, empty_objects;
    for (const Value& item : doc.items()) {
      same.push_back(item.items()[0]);
      strings.push_back(*item.items()[0].find("s"));
      differing.push_back(item.items()[1]);
      empty_arrays.push_back(item.items()[2]);
      empty_objects.push_back(item.items()[3]);
    }
    EXPECT_EQ(DistinctNodes(differing), 1000u);
    if (share) {
      EXPECT_LE(DistinctNodes(same), 100u);
      EXPECT_LE(DistinctNodes(strings), 100u);
      EXPECT_EQ(DistinctNodes(empty_arrays), 1u);
      EXPECT_EQ(DistinctNodes(empty_objects), 1u);
    } else {
      EXPECT_EQ(DistinctNodes(same), 1000u);
      EXPECT_EQ(DistinctNodes(strings), 1000u);
      EXPECT_EQ(DistinctNodes(empty_arrays), 1000u);
    }
  }
}

TEST(JsonSharedReadTest, WritingASharedValueLeavesItsTwinAlone) {
  Value doc = MustParse("[{\"a\":{\"b\":[1]}},{\"a\":{\"b\":[1]}}]", {.share_repeated = true});
  Value kept = doc;
  doc.mutable_items()[0].find_mutable("a")->set("b", Value::Int(7));
  EXPECT_EQ(ToCompactString(doc), "[{\"a\":{\"b\":7}},{\"a\":{\"b\":[1]}}]");
  EXPECT_EQ(ToCompactString(kept), "[{\"a\":{\"b\":[1]}},{\"a\":{\"b\":[1]}}]");
}

TEST(JsonSharedReadTest, RepeatedKeysStillKeepTheLastValue) {
  Value doc =
      MustParse("[{\"a\":1,\"a\":2},{\"a\":1,\"a\":2},{\"a\":2}]", {.share_repeated = true});
  EXPECT_EQ(ToCompactString(doc), "[{\"a\":2},{\"a\":2},{\"a\":2}]");
}

TEST(JsonSharedReadTest, StreamSharesAcrossDocumentsUntilForgotten) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += "{\"spec\":{\"x\":[1,2,3]}}\n";
  for (bool forget : {false, true}) {
    StreamReader reader(text, {.share_repeated = true});
    std::vector<Value> docs;
    Value v;
    Error e;
    while (reader.Next(&v, &e)) {
      ASSERT_FALSE(reader.failed());
      docs.push_back(v);
      if (forget) reader.ForgetShared();
    }
    ASSERT_EQ(docs.size(), 300u);
    if (forget) {
      EXPECT_EQ(DistinctNodes(docs), 300u);
      for (const Value& d : docs) EXPECT_EQ(Compare(d, docs[0]), 0);
    } else {
      EXPECT_LE(DistinctNodes(docs), 30u);
    }
  }
}

// Parses `text` while zeroing every released byte of a private copy, as a caller that gives
// the pages back would see them; records the offsets released.
Result<Value> ParseReleasing(const std::string& text, std::vector<size_t>* released) {
  auto copy = std::make_shared<std::string>(text);
  ReadOptions options;
  options.share_repeated = true;
  options.release_interval = 1;  // as often as the reader allows
  options.release_consumed = [copy, released](size_t offset) {
    EXPECT_TRUE(released->empty() || offset > released->back());
    std::memset(copy->data(), 0, offset);
    released->push_back(offset);
  };
  return Parse(*copy, options);
}

TEST(JsonReleasedTextTest, ValueUnchangedWhenParsedTextIsGivenBack) {
  std::string text = RepetitiveDocument(3000);
  std::vector<size_t> released;
  Result<Value> r = ParseReleasing(text, &released);
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_GT(released.size(), 3u);
  EXPECT_EQ(Compare(*r, MustParse(text, {})), 0);
}

TEST(JsonReleasedTextTest, ErrorPositionsStayExact) {
  std::string good = RepetitiveDocument(3000);
  // Break the document near its end, after several releases.
  for (std::string after : {"\"replicas\":", "\"ratio\":1."}) {
    std::string text = good;
    size_t at = text.rfind(after);
    ASSERT_NE(at, std::string::npos);
    text.insert(at + after.size(), "@");
    std::vector<size_t> released;
    Result<Value> r = ParseReleasing(text, &released);
    Result<Value> plain = Parse(text);
    ASSERT_FALSE(r.ok());
    ASSERT_FALSE(plain.ok());
    EXPECT_FALSE(released.empty());
    EXPECT_EQ(r.error().message, plain.error().message);
    EXPECT_EQ(r.error().position.line, plain.error().position.line);
    EXPECT_EQ(r.error().position.column, plain.error().position.column);
    EXPECT_EQ(r.error().position.offset, plain.error().position.offset);
    EXPECT_GT(r.error().position.line, 2900);
  }
}

}  // namespace
}  // namespace wmap::json
