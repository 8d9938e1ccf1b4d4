// Plain-text tables in kubectl's layout: a header row of upper-case names, then one row per
// item, each column padded to its widest cell (by display width) and separated by three spaces;
// the last column is not padded. Cells never contain line breaks (they are replaced by spaces).
#ifndef WMAP_CLI_TABLE_WRITER_H_
#define WMAP_CLI_TABLE_WRITER_H_

#include <string>
#include <vector>

namespace wmap::cli {

class TableWriter {
 public:
  explicit TableWriter(std::vector<std::string> header) : header_(std::move(header)) {}
  // A row with fewer cells than the header is padded with empty cells.
  void AddRow(std::vector<std::string> cells);
  size_t rows() const { return rows_.size(); }
  std::string Render() const;
  // The rows laid out with *widths, each grown to the widest cell of its column first (for
  // output printed in parts, such as a watch: later rows line up with earlier ones); the
  // header too when `header`.
  std::string Render(std::vector<size_t>* widths, bool header) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace wmap::cli

#endif  // WMAP_CLI_TABLE_WRITER_H_
