// A box-drawing tree of labelled nodes, rendered for a terminal of a given width.
//
// Guarantees, for width W > 0: no output line is wider than W display columns (colour escapes do
// not count), as long as W leaves room for the tree prefix plus 8 columns. A label that does not
// fit is shortened in the middle with "…" (both ends of a generated name such as a pod's stay
// visible); details that do not fit on the label's line continue on the next lines, aligned under
// the label and kept inside the tree's guide lines; a single detail wider than a whole line is cut
// with "…". W = 0 means no limit. Colours are ANSI SGR sequences and appear only when enabled.
#ifndef WMAP_CLI_TREE_RENDER_H_
#define WMAP_CLI_TREE_RENDER_H_

#include <string>
#include <vector>

namespace wmap::cli {

enum class Tone { kPlain, kBold, kDim, kGreen, kYellow, kRed, kCyan, kMagenta };

struct Span {
  std::string text;
  Tone tone = Tone::kPlain;
};

struct TreeNode {
  std::vector<Span> label;    // kept on one line (shortened when too wide)
  std::vector<Span> details;  // each may move to a continuation line
  std::vector<TreeNode> children;
};

struct RenderOptions {
  size_t width = 0;  // 0 = unlimited
  bool color = false;
};

// The text of spans with their colours (when enabled).
std::string Paint(const std::vector<Span>& spans, bool color);
std::string Paint(const Span& span, bool color);

// `root` and its descendants: the root without a guide, children with ├─ / └─ and │ guides.
std::string RenderTree(const TreeNode& root, const RenderOptions& options);

// Shortens text to at most `width` display columns by replacing its middle with "…".
std::string ShortenMiddle(const std::string& text, size_t width);

}  // namespace wmap::cli

#endif  // WMAP_CLI_TREE_RENDER_H_
