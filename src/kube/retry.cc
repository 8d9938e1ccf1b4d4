// The retry policy: which answers deserve another attempt and how long to wait before it.
#include <algorithm>
#include <cctype>
#include <ctime>
#include <string>

#include "wmap/kube.h"

namespace wmap::kube {

namespace {
constexpr std::chrono::milliseconds kFirstDelay{250};
constexpr std::chrono::milliseconds kMaxDelay{8000};
constexpr std::chrono::seconds kMaxRetryAfter{60};
}  // namespace

bool RetryableStatus(long status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

std::chrono::milliseconds RetryDelay(int attempt, std::optional<std::chrono::seconds> retry_after,
                                     std::mt19937_64* random) {
  if (retry_after) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        std::clamp(*retry_after, std::chrono::seconds(0), kMaxRetryAfter));
  }
  // 250 ms, 500 ms, 1 s... capped, then a uniform pick in [half, whole] so that clients that
  // failed together do not retry together.
  std::chrono::milliseconds whole = kFirstDelay;
  for (int i = 1; i < attempt && whole < kMaxDelay; ++i) whole *= 2;
  whole = std::min(whole, kMaxDelay);
  std::uniform_int_distribution<int64_t> pick(whole.count() / 2, whole.count());
  return std::chrono::milliseconds(pick(*random));
}

std::optional<std::chrono::seconds> ParseRetryAfter(std::string_view text, int64_t now) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (text.size() > 9) return kMaxRetryAfter;
    return std::chrono::seconds(std::stoll(std::string(text)));
  }
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
  std::tm tm{};
  std::string s(text);
  const char* end = strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  const int64_t when = static_cast<int64_t>(timegm(&tm));
  return std::chrono::seconds(std::max<int64_t>(0, when - now));
}

}  // namespace wmap::kube
