// The controller owner reference and metadata fields.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "wmap/json.h"
#include "wmap/meta.h"

namespace wmap::meta {
namespace {

Value Object(std::string_view text) {
  Result<Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : Value();
}

TEST(ControllerReferenceTest, OnlyTheOwnerMarkedControllerCounts) {
  Value pod = Object(R"({"metadata": {"ownerReferences": [
      {"kind": "ConfigMap", "uid": "a"},
      {"kind": "Job", "uid": "b", "controller": true}]}})");
  ASSERT_NE(ControllerReference(pod), nullptr);
  EXPECT_EQ(ControllerUid(pod), "b");
  EXPECT_TRUE(HasOwnerReferences(pod));

  // Owners, none of them the controller: no controller, though owners are listed.
  Value uncontrolled = Object(R"({"metadata": {"ownerReferences": [
      {"kind": "Job", "uid": "b", "controller": false}, {"kind": "Job", "uid": "c"}]}})");
  EXPECT_EQ(ControllerReference(uncontrolled), nullptr);
  EXPECT_EQ(ControllerUid(uncontrolled), "");
  EXPECT_TRUE(HasOwnerReferences(uncontrolled));

  // `controller` must be the boolean true; malformed lists own nothing.
  for (std::string_view text :
       {R"({"metadata": {"ownerReferences": [{"uid": "b", "controller": "true"}]}})",
        R"({"metadata": {"ownerReferences": {"uid": "b", "controller": true}}})",
        R"({"metadata": {"ownerReferences": []}})", R"({"metadata": 3})", R"({})"}) {
    Value v = Object(text);
    EXPECT_EQ(ControllerReference(v), nullptr) << text;
  }
  EXPECT_FALSE(HasOwnerReferences(Object(R"({"metadata": {"ownerReferences": []}})")));
}

TEST(MetadataFieldTest, StringsOnly) {
  Value v = Object(R"({"kind": "Pod", "metadata": {"name": "p", "uid": 7}})");
  EXPECT_EQ(StringField(v, "kind"), "Pod");
  EXPECT_EQ(MetadataField(v, "name"), "p");
  EXPECT_EQ(MetadataField(v, "uid"), "");
  EXPECT_EQ(MetadataField(v, "namespace"), "");
  EXPECT_EQ(ApiGroup("apps/v1"), "apps");
  EXPECT_EQ(ApiGroup("v1"), "");
}

TEST(NameOrGeneratedTest, TheNameElseTheGenerateNamePrefixWithAStableSuffix) {
  EXPECT_EQ(NameOrGenerated(Object(R"({"metadata": {"name": "train", "generateName": "x-"}})")),
            "train");
  EXPECT_EQ(NameOrGenerated(Object(R"({"metadata": {"namespace": "ml"}})")), "");
  EXPECT_EQ(NameOrGenerated(Object(R"({})")), "");

  // Five characters of the API server's alphabet where it would put five random ones: a valid
  // name, the same for the same object, another for another object.
  Value a = Object(R"({"kind": "Job", "metadata": {"generateName": "train-"}, "spec": {"x": 1}})");
  Value b = Object(R"({"kind": "Job", "metadata": {"generateName": "train-"}, "spec": {"x": 2}})");
  std::string name = NameOrGenerated(a);
  EXPECT_TRUE(std::regex_match(name, std::regex("train-[bcdfghjklmnpqrstvwxz2456789]{5}"))) << name;
  EXPECT_EQ(NameOrGenerated(a), name);
  EXPECT_NE(NameOrGenerated(b), name);
  EXPECT_EQ(NameOrGenerated(b).substr(0, 6), "train-");

  // The prefix is cut to 58 characters, as the API server cuts it.
  Value long_prefix =
      Object(R"({"metadata": {"generateName": ")" + std::string(70, 'a') + R"("}})");
  EXPECT_EQ(NameOrGenerated(long_prefix).size(), 63u);
  EXPECT_EQ(NameOrGenerated(long_prefix).substr(0, 58), std::string(58, 'a'));
}

}  // namespace
}  // namespace wmap::meta
