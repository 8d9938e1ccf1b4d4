#include "cli/table_writer.h"

#include <algorithm>

#include "wmap/text.h"

namespace wmap::cli {

void TableWriter::AddRow(std::vector<std::string> cells) {
  for (std::string& cell : cells) cell = text::EscapeForTerminal(cell);
  cells.resize(std::max(cells.size(), header_.size()));
  for (std::string& c : cells) std::replace(c.begin(), c.end(), '\n', ' ');
  rows_.push_back(std::move(cells));
}

std::string TableWriter::Render() const {
  std::vector<size_t> widths;
  return Render(&widths, true);
}

std::string TableWriter::Render(std::vector<size_t>* widths_io, bool header) const {
  std::vector<size_t>& widths = *widths_io;
  widths.resize(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], text::DisplayWidth(row[i]));
    }
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t i = 0; i < widths.size(); ++i) {
      line += row[i];
      if (i + 1 < widths.size()) line.append(widths[i] - text::DisplayWidth(row[i]) + 3, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  if (header) emit(header_);
  for (const auto& row : rows_) emit(row);
  return out;
}

}  // namespace wmap::cli
