// The retry policy: Retry-After parsing and backoff bounds.
#include <gtest/gtest.h>

#include "kube/exec_credential.h"
#include "wmap/kube.h"

namespace wmap::kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(RetryTest, RetryAfterSecondsAndDates) {
  EXPECT_EQ(ParseRetryAfter("3", 0), seconds(3));
  EXPECT_EQ(ParseRetryAfter(" 0 ", 0), seconds(0));
  // Sun, 06 Nov 1994 08:49:37 GMT is 784111777.
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", 784111770), seconds(7));
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", 784111790), seconds(0));
  EXPECT_FALSE(ParseRetryAfter("", 0).has_value());
  EXPECT_FALSE(ParseRetryAfter("soon", 0).has_value());
  EXPECT_FALSE(ParseRetryAfter("-1", 0).has_value());
  EXPECT_EQ(ParseRetryAfter("99999999999", 0), seconds(60));
}

TEST(RetryTest, BackoffGrowsWithJitterAndIsCapped) {
  std::mt19937_64 random(42);
  for (int i = 0; i < 200; ++i) {
    milliseconds first = RetryDelay(1, std::nullopt, &random);
    EXPECT_GE(first, milliseconds(125));
    EXPECT_LE(first, milliseconds(250));
    milliseconds third = RetryDelay(3, std::nullopt, &random);
    EXPECT_GE(third, milliseconds(500));
    EXPECT_LE(third, milliseconds(1000));
    milliseconds late = RetryDelay(30, std::nullopt, &random);
    EXPECT_GE(late, milliseconds(4000));
    EXPECT_LE(late, milliseconds(8000));
  }
  EXPECT_EQ(RetryDelay(1, seconds(5), &random), milliseconds(5000));
  EXPECT_EQ(RetryDelay(1, seconds(600), &random), milliseconds(60000));
}

TEST(RetryTest, RetryableStatuses) {
  for (long s : {429L, 500L, 502L, 503L, 504L}) EXPECT_TRUE(RetryableStatus(s)) << s;
  for (long s : {200L, 400L, 401L, 403L, 404L, 409L, 410L, 501L}) {
    EXPECT_FALSE(RetryableStatus(s)) << s;
  }
}

TEST(ExecCredentialTest, ParsesTokenAndExpiry) {
  Result<ExecCredential> c = ParseExecCredential(
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
          "status":{"token":"t0k","expirationTimestamp":"2026-01-02T03:04:05Z"}})",
      "client.authentication.k8s.io/v1", "get-token");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->token, "t0k");
  EXPECT_EQ(c->expires, 1767323045);
  c = ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1beta1",
      "kind":"ExecCredential","status":{"token":"x"}})",
                          "client.authentication.k8s.io/v1", "get-token");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("expected kind ExecCredential"), std::string::npos);
  EXPECT_EQ(ParseRfc3339("2026-01-02T04:04:05.123+01:00"), 1767323045);
  EXPECT_FALSE(ParseRfc3339("yesterday").has_value());
}

}  // namespace
}  // namespace wmap::kube
