#include "cli/display_format.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <limits>

#include "cli/command.h"
#include "cli/workload_input.h"
#include "wmap/quantity.h"
#include "wmap/text.h"

namespace wmap::cli {
namespace {

// One decimal, trailing ".0" dropped.
std::string OneDecimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.ends_with(".0")) s.resize(s.size() - 2);
  return s;
}

}  // namespace

std::string FormatCpu(int64_t millicores) {
  if (millicores % 1000 == 0 || millicores < 1000 || millicores % 100 != 0) {
    return FormatAmount("cpu", millicores);
  }
  return OneDecimal(static_cast<double>(millicores) / 1000.0);
}

std::string FormatMemory(int64_t bytes) {
  static constexpr const char* kUnits[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  int unit = 0;
  while (unit < 6 && bytes >= (int64_t{1} << (10 * (unit + 1)))) ++unit;
  const int64_t size = int64_t{1} << (10 * unit);
  // Exact at one decimal: bytes * 10 is a multiple of the unit (no overflow: bytes < 2^63 / 10
  // is checked first).
  if (bytes > std::numeric_limits<int64_t>::max() / 10 || (bytes * 10) % size != 0) {
    return FormatAmount("memory", bytes);
  }
  return OneDecimal(static_cast<double>(bytes) / static_cast<double>(size)) + kUnits[unit];
}

int64_t NowSeconds(const CommandIo& io) {
  if (std::optional<std::string_view> epoch = GetEnv(io, "SOURCE_DATE_EPOCH")) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(epoch->data(), epoch->data() + epoch->size(), v);
    if (ec == std::errc() && p == epoch->data() + epoch->size()) return v;
    WriteAll(io.err_fd, "wmap: warning: SOURCE_DATE_EPOCH=" + text::EscapeForTerminal(*epoch) +
                            " is not a whole number of seconds; ages count from the clock\n");
  }
  return static_cast<int64_t>(std::time(nullptr));
}

}  // namespace wmap::cli
