// Label selectors in kubectl's syntax.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "wmap/selector.h"
#include "wmap/yaml.h"

namespace wmap {
namespace {

Value Obj(const std::string& yaml_text) { return *yaml::Parse(yaml_text); }

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

}  // namespace
}  // namespace wmap
