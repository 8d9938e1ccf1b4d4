// Human-readable figures for tables and trees: CPU and memory quantities, ages as kubectl prints
// them, and the reference "now" (SOURCE_DATE_EPOCH when set, so that output can be reproduced).
#ifndef WMAP_CLI_DISPLAY_FORMAT_H_
#define WMAP_CLI_DISPLAY_FORMAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli/command.h"
#include "wmap/view.h"

namespace wmap::cli {

// Short forms that never lose precision: where one decimal cannot state the amount exactly,
// the canonical quantity (FormatAmount, wmap/quantity.h) is printed instead, so every command
// shows one amount the same way.
// Millicores: "0", "500m", "2", "2.5", "2555m".
std::string FormatCpu(int64_t millicores);
// Bytes in the largest binary unit that keeps a value of at least 1, with at most one decimal:
// "0", "512Mi", "1.5Gi", "256Gi", "1Ti"; "2056Gi" for 2056Gi (not "2Ti").
std::string FormatMemory(int64_t bytes);
// Ages and timestamps: wmap/view.h's, which the documents use too.
using view::HumanDuration;
using view::ParseTimestamp;
// SOURCE_DATE_EPOCH from the command's environment when it is an integer, else the clock.
int64_t NowSeconds(const CommandIo& io);

}  // namespace wmap::cli

#endif  // WMAP_CLI_DISPLAY_FORMAT_H_
