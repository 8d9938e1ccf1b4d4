// API Status objects worded with the next step.
#include <gtest/gtest.h>

#include "wmap/kube.h"

namespace wmap::kube {
namespace {

constexpr char kForbidden[] =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
"message":"jobsets.jobset.x-k8s.io is forbidden: User \"alice\" cannot list resource \"jobsets\" in API group \"jobset.x-k8s.io\" in the namespace \"ml\"",
"reason":"Forbidden","details":{"group":"jobset.x-k8s.io","kind":"jobsets"},"code":403})";

RequestContext ListJobSets(std::string ns) {
  RequestContext c;
  c.verb = "list";
  c.group = "jobset.x-k8s.io";
  c.resource = "jobsets";
  c.kind = "JobSet";
  c.namespace_name = std::move(ns);
  return c;
}

TEST(StatusErrorTest, ForbiddenNamesVerbResourceNamespaceAndRule) {
  Error e = StatusError(403, kForbidden, ListJobSets("ml"), "https://k:6443", "alice");
  EXPECT_EQ(e.code, ErrorCode::kForbidden);
  EXPECT_EQ(ErrorCodeInfo(e.code).exit_code, 1);
  EXPECT_EQ(e.message.substr(0, e.message.find(" (the server said")),
            "user \"alice\" may not list jobsets.jobset.x-k8s.io in namespace ml (403 Forbidden)");
  EXPECT_NE(e.message.find("cannot list resource"), std::string::npos);
  EXPECT_NE(
      e.hint.find(R"({apiGroups: ["jobset.x-k8s.io"], resources: ["jobsets"], verbs: ["list"]})"),
      std::string::npos);
  EXPECT_NE(e.hint.find("RoleBinding in namespace ml"), std::string::npos);

  e = StatusError(403, "", ListJobSets(""), "https://k:6443", "alice");
  EXPECT_NE(e.message.find("at the cluster scope"), std::string::npos);
  EXPECT_NE(e.hint.find("ClusterRoleBinding"), std::string::npos);
}

TEST(StatusErrorTest, NotFoundNamesTheObject) {
  RequestContext c = ListJobSets("ml");
  c.verb = "get";
  c.name = "llama";
  Error e = StatusError(404, R"({"kind":"Status","code":404,"reason":"NotFound"})", c, "s", "u");
  EXPECT_EQ(e.code, ErrorCode::kNotFound);
  EXPECT_EQ(e.message, "JobSet \"llama\" not found in namespace ml");
  c.name.clear();
  e = StatusError(404, "404 page not found", c, "https://k", "u");
  EXPECT_EQ(e.message, "the API server https://k does not serve jobsets.jobset.x-k8s.io");
}

TEST(StatusErrorTest, UnauthorizedSaysCredentialsWereRejected) {
  Error e = StatusError(401, R"({"kind":"Status","code":401,"reason":"Unauthorized"})",
                        ListJobSets("ml"), "https://k:6443", "tester");
  EXPECT_EQ(e.code, ErrorCode::kUnauthorized);
  EXPECT_EQ(e.message,
            "the API server https://k:6443 rejected the credentials of user \"tester\" (401 "
            "Unauthorized)");
  EXPECT_FALSE(e.hint.empty());
}

TEST(StatusErrorTest, OtherStatuses) {
  Error e = StatusError(410, R"({"kind":"Status","message":"too old","reason":"Expired"})",
                        ListJobSets("ml"), "s", "u");
  EXPECT_NE(e.message.find("410 Gone"), std::string::npos);
  EXPECT_NE(e.hint.find("--chunk-size"), std::string::npos);
  e = StatusError(503, R"({"kind":"Status","message":"etcd down","reason":"ServiceUnavailable"})",
                  ListJobSets("ml"), "https://k", "u");
  EXPECT_EQ(e.code, ErrorCode::kUnreachable);
  EXPECT_EQ(e.message,
            "the API server https://k answered 503 ServiceUnavailable to list "
            "jobsets.jobset.x-k8s.io in namespace ml (the server said: etcd down)");
}

TEST(StatusErrorTest, ApplyConflictNamesEachFieldAndItsManager) {
  RequestContext c = ListJobSets("ml");
  c.verb = "patch";
  c.name = "llama";
  const char* body =
      R"({"kind":"Status","status":"Failure","message":"Apply failed with 2 conflicts: ...",
"reason":"Conflict","details":{"causes":[
{"reason":"FieldManagerConflict","message":"conflict with \"kubectl\" using jobset.x-k8s.io/v1alpha2","field":".spec.suspend"},
{"reason":"FieldManagerConflict","message":"conflict with \"kueue\" using jobset.x-k8s.io/v1alpha2","field":".metadata.labels.queue"}]},
"code":409})";
  Error e = StatusError(409, body, c, "s", "u");
  EXPECT_EQ(e.code, ErrorCode::kConflict);
  EXPECT_EQ(ErrorCodeInfo(e.code).name, "conflict");
  EXPECT_EQ(e.message,
            "applying JobSet \"llama\" in namespace ml conflicts with 2 fields another manager "
            "owns:\n  .spec.suspend: conflict with \"kubectl\" using jobset.x-k8s.io/v1alpha2\n  "
            ".metadata.labels.queue: conflict with \"kueue\" using jobset.x-k8s.io/v1alpha2");
  EXPECT_NE(e.hint.find("--force-conflicts"), std::string::npos);

  e = StatusError(409, R"({"kind":"Status","reason":"AlreadyExists","code":409})", c, "s", "u");
  EXPECT_EQ(e.message, "JobSet \"llama\" already exists in namespace ml");
}

TEST(StatusErrorTest, InvalidListsTheFieldErrors) {
  RequestContext c = ListJobSets("ml");
  c.verb = "create";
  c.name = "llama";
  const char* body =
      R"({"kind":"Status","message":"JobSet.jobset.x-k8s.io \"llama\" is invalid: ...",
"reason":"Invalid","details":{"causes":[
{"reason":"FieldValueRequired","message":"Required value","field":"spec.replicatedJobs"},
{"reason":"FieldValueInvalid","message":"Invalid value: -1: spec.x must be positive","field":"spec.x"}]},"code":422})";
  Error e = StatusError(422, body, c, "s", "u");
  EXPECT_EQ(e.code, ErrorCode::kInvalidInput);
  EXPECT_EQ(e.message,
            "the API server rejected JobSet \"llama\" as invalid:\n  spec.replicatedJobs: Required "
            "value\n  Invalid value: -1: spec.x must be positive");
}

}  // namespace
}  // namespace wmap::kube
