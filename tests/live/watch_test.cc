// `wmap get -w` and the client's watches against a real kube-apiserver: rows printed as a
// workload's status, pods and existence change, a watch that outlives a restart of the API
// server, and an expired resourceVersion answered with a fresh list.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.h"
#include "live/live_harness.h"
#include "wmap/kube.h"

namespace wmap::live {
namespace {

using std::chrono::seconds;

// `wmap ARGS...` as admin on a thread of its own, its standard output a pipe read as it comes.
class Background {
 public:
  Background(const Cluster& c, std::vector<std::string> args) {
    std::signal(SIGPIPE, SIG_IGN);  // the pipe closes under a running watch
    env_ = {"KUBECONFIG=" + c.kubeconfig(), kEpoch, "HOME=/nonexistent",
            "KUBECACHEDIR=" + c.work() + "/kube-cache"};
    for (const std::string& e : env_) environment_.push_back(e.c_str());
    environment_.push_back(nullptr);
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);  // not inherited by what the test starts
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    char err_path[] = "/tmp/wmap-watch-err-XXXXXX";
    err_fd_ = ::mkostemp(err_path, O_CLOEXEC);
    err_path_ = err_path;
    in_fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    thread_ = std::thread([this, args = std::move(args)] {
      cli::CommandIo io{in_fd_, write_fd_, err_fd_, environment_.data()};
      code_ = cli::RunMain(args, io);
      ::close(write_fd_);
      done_ = true;
    });
  }
  ~Background() {
    if (thread_.joinable()) Finish();
    ::close(err_fd_);
    ::close(in_fd_);
    ::unlink(err_path_.c_str());
  }

  // Reads standard output until it holds `text` (after `from`), for up to `timeout`.
  bool WaitFor(const std::string& text, seconds timeout = seconds(30), size_t from = 0) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (out_.find(text, from) == std::string::npos) {
      if (std::chrono::steady_clock::now() >= until) return false;
      pollfd p{read_fd_, POLLIN, 0};
      if (::poll(&p, 1, 200) != 1) continue;
      char buffer[4096];
      ssize_t n = ::read(read_fd_, buffer, sizeof buffer);
      if (n <= 0) return out_.find(text, from) != std::string::npos;
      out_.append(buffer, static_cast<size_t>(n));
    }
    return true;
  }
  const std::string& out() const { return out_; }

  // Closes standard output's reading end, as `| head` does, and waits for the command to end.
  int Finish() {
    ::close(read_fd_);
    thread_.join();
    return code_;
  }
  std::string err() const { return ReadText(err_path_); }
  bool done() const { return done_; }

 private:
  std::vector<std::string> env_;
  std::vector<const char*> environment_;
  int read_fd_ = -1, write_fd_ = -1, err_fd_ = -1, in_fd_ = -1;
  std::string err_path_, out_;
  std::thread thread_;
  std::atomic<int> code_{-1};
  std::atomic<bool> done_{false};
};

// The words of the line of `text` that holds `needle` ("" when none).
std::vector<std::string> WordsOfLine(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(needle) == std::string::npos) continue;
    std::istringstream words(line);
    std::vector<std::string> out;
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  return {};
}

const char kCompleted[] =
    R"({"status":{"conditions":[{"type":"Completed","status":"True","reason":"AllJobsCompleted",)"
    R"("message":"done","lastTransitionTime":"2030-01-01T00:00:00Z"}]}})";

TEST(WatchTest, WatchNeedsTheCluster) {
  Outcome o = Wmap({"get", "-f", "examples/jobset-training.yaml", "-w"}, {});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("-w (--watch) reads the cluster"), std::string::npos) << o.err;
  o = Wmap({"get", "jobsets", "--output-watch-events"}, {});
  EXPECT_EQ(o.code, 2) << o.err;
}

TEST(WatchTest, RowsFollowStatusPodsAndDeletion) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("watch-rows");
  CreateExample(*cluster, "jobset-training", ns);
  Outcome listed = Live(*cluster, {"get", "jobsets", "-n", ns});
  ASSERT_EQ(listed.code, 0) << listed.err;

  Background watch(*cluster, {"get", "jobsets", "-n", ns, "-w", "--output-watch-events"});
  ASSERT_TRUE(watch.WaitFor("ADDED")) << watch.out() << watch.err();
  // The first rows are get's rows with the event in front.
  std::vector<std::string> first = WordsOfLine(watch.out(), "ADDED");
  ASSERT_FALSE(first.empty());
  first.erase(first.begin());
  EXPECT_EQ(first, WordsOfLine(listed.out, "llama-finetune")) << watch.out() << listed.out;
  EXPECT_EQ(WordsOfLine(watch.out(), "EVENT").front(), "EVENT");

  // A status the definition reads.
  cluster->MustKubectl({"patch", "jobset", "llama-finetune", "-n", ns, "--subresource=status",
                        "--type=merge", "-p", kCompleted});
  ASSERT_TRUE(watch.WaitFor("Completed")) << watch.out() << watch.err();
  EXPECT_EQ(WordsOfLine(watch.out(), "Completed").front(), "MODIFIED") << watch.out();

  // A pod gone: PODS drops from 9/9 to 8/9.
  std::string pod =
      cluster->MustKubectl({"get", "pods", "-n", ns, "-o", "jsonpath={.items[0].metadata.name}"});
  size_t mark = watch.out().size();
  cluster->MustKubectl({"delete", "pod", pod, "-n", ns, "--grace-period=0", "--force"});
  ASSERT_TRUE(watch.WaitFor("8/9", seconds(30), mark)) << watch.out() << watch.err();

  // The workload deleted.
  mark = watch.out().size();
  cluster->MustKubectl({"delete", "jobset", "llama-finetune", "-n", ns});
  ASSERT_TRUE(watch.WaitFor("DELETED", seconds(30), mark)) << watch.out() << watch.err();
  EXPECT_FALSE(watch.done());
  // Standard output closed: the watch ends without an error.
  EXPECT_EQ(watch.Finish(), 0) << watch.err();
  EXPECT_EQ(watch.err(), "");
}

TEST(WatchTest, JsonEventsAndWatchOnly) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("watch-json");
  CreateExample(*cluster, "raycluster", ns);
  {
    Background watch(*cluster,
                     {"get", "rayclusters", "-n", ns, "-w", "-o", "json", "--output-watch-events"});
    ASSERT_TRUE(watch.WaitFor("\"type\": \"ADDED\"")) << watch.out() << watch.err();
    EXPECT_NE(watch.out().find("\"object\": {"), std::string::npos) << watch.out();
    EXPECT_EQ(watch.Finish(), 0) << watch.err();
  }
  // --watch-only: nothing for the state at the start, the change once it comes.
  Background watch(*cluster, {"get", "rayclusters", "-n", ns, "--watch-only", "-o", "name"});
  EXPECT_FALSE(watch.WaitFor("raycluster", seconds(3))) << watch.out();
  std::string name = cluster->MustKubectl(
      {"get", "rayclusters", "-n", ns, "-o", "jsonpath={.items[0].metadata.name}"});
  cluster->MustKubectl({"delete", "raycluster", name, "-n", ns});
  ASSERT_TRUE(watch.WaitFor("raycluster.ray.io/" + name)) << watch.out() << watch.err();
  EXPECT_EQ(watch.Finish(), 0) << watch.err();
}

TEST(WatchTest, SurvivesAnApiServerRestart) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("watch-restart");
  CreateExample(*cluster, "jobset-training", ns);
  Background watch(*cluster, {"get", "jobsets", "-n", ns, "-w"});
  ASSERT_TRUE(watch.WaitFor("llama-finetune")) << watch.out() << watch.err();

  const std::string restart = "bash " + std::string(WMAP_SOURCE_DIR) +
                              "/scripts/dev-cluster.sh restart-apiserver --dir " +
                              Quote(cluster->env("WMAP_CLUSTER_DIR")) + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(restart.c_str()), 0);
  cluster->MustKubectl({"patch", "jobset", "llama-finetune", "-n", ns, "--subresource=status",
                        "--type=merge", "-p", kCompleted});
  ASSERT_TRUE(watch.WaitFor("Completed", seconds(60))) << watch.out() << watch.err();
  EXPECT_EQ(watch.Finish(), 0) << watch.err();
  // The loss and the resumption were said.
  EXPECT_NE(watch.err().find("interrupted"), std::string::npos) << watch.err();
  EXPECT_NE(watch.err().find("resumed"), std::string::npos) << watch.err();
}

TEST(WatchTest, AnExpiredVersionIsListedAgain) {
  NEED_CLUSTER();
  const std::string ns = cluster->Namespace("watch-expired");
  CreateExample(*cluster, "jobset-training", ns);
  kube::Client* client = AdminClient(*cluster);
  Result<kube::Discovery> discovery = kube::Discovery::Fetch(client);
  ASSERT_TRUE(discovery.ok()) << discovery.error().message;
  const kube::ApiResource* jobsets = discovery->Resolve("jobsets");
  ASSERT_NE(jobsets, nullptr);

  // The server itself says 410 Gone to a version long compacted or older than its cache.
  kube::WatchOptions options;
  options.namespace_name = ns;
  options.timeout_seconds = 5;
  std::string version = "1";
  kube::WatchEnd end = kube::WatchOnce(
      client, *jobsets, options, [](const kube::WatchEvent&) { return true; }, nullptr, &version);
  ASSERT_EQ(end.how, kube::WatchEnd::kExpired) << (end.error ? end.error->message : "");

  // ListAndWatch resumed from it lists again and goes on watching.
  std::atomic<bool> stop{false};
  std::atomic<int> replaced{0}, events{0};
  std::atomic<size_t> items{0};
  kube::ReflectorHandlers handlers;
  handlers.replace = [&](std::vector<Value> listed) {
    items = listed.size();
    ++replaced;
  };
  handlers.event = [&](const kube::WatchEvent&) { ++events; };
  kube::ListOptions list;
  list.namespace_name = ns;
  Result<std::unique_ptr<kube::Client>> own = client->Clone();
  ASSERT_TRUE(own.ok());
  std::optional<Error> ended;
  std::thread reflector(
      [&] { ended = kube::ListAndWatch(own->get(), *jobsets, list, handlers, stop, "1"); });
  for (int i = 0; i < 300 && replaced == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(replaced, 1);
  EXPECT_EQ(items, 1u);
  cluster->MustKubectl({"label", "jobset", "llama-finetune", "-n", ns, "watched=yes"});
  for (int i = 0; i < 300 && events == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_GE(events, 1);
  stop = true;
  reflector.join();
  EXPECT_FALSE(ended) << ended->message;
}

}  // namespace
}  // namespace wmap::live
