// Runs the built `wmap` through a shell, optionally under an address-space cap, and collects what
// it printed and how it ended: the harness of the tests of hostile and endless inputs.
#ifndef WMAP_TESTS_CLI_CAPPED_RUN_H_
#define WMAP_TESTS_CLI_CAPPED_RUN_H_

#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace wmap::cli::capped_run {

// AddressSanitizer reserves terabytes of shadow address space at start-up, so a sanitized `wmap`
// cannot run under an address-space cap at all; there the tests run without one.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif
#else
inline constexpr bool kAddressSanitized = false;
#endif

struct Outcome {
  bool exited = false;  // false: killed by a signal
  int code = -1;
  std::string output;  // stdout and stderr together
};

// Single-quotes text for the shell.
inline std::string Quote(std::string_view s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `BEFORE wmap ARGS` through bash (BEFORE feeds standard input, as "yes -- --- |"), under
// an address-space cap of `cap` bytes (0: none; always none in sanitized builds) and a 120 s
// wall-clock guard (exit 124); wmap's standard error goes where its standard output goes unless
// ARGS redirects that.
inline Outcome RunShell(const std::string& before, const std::string& args, uint64_t cap = 0) {
  std::string limit =
      cap == 0 || kAddressSanitized ? "" : "prlimit --as=" + std::to_string(cap) + " ";
  std::string shell = before + " " + limit + "timeout 120 " + Quote(WMAP_BINARY) + " 2>&1 " + args;
  FILE* pipe = ::popen(("bash -c " + Quote(shell)).c_str(), "r");
  Outcome o;
  if (pipe == nullptr) return o;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) o.output.append(buf, n);
  int status = ::pclose(pipe);
  o.exited = WIFEXITED(status);
  if (o.exited) o.code = WEXITSTATUS(status);
  return o;
}

inline bool Has(const Outcome& o, std::string_view text) {
  return o.output.find(text) != std::string::npos;
}

}  // namespace wmap::cli::capped_run

#endif  // WMAP_TESTS_CLI_CAPPED_RUN_H_
