#include "cli/tree_render.h"

#include <algorithm>

#include "wmap/text.h"

namespace wmap::cli {
namespace {

constexpr std::string_view kBranch = "├─ ";
constexpr std::string_view kLast = "└─ ";
constexpr std::string_view kPipe = "│  ";
constexpr std::string_view kBlank = "   ";
constexpr std::string_view kEllipsis = "…";
constexpr size_t kDetailGap = 2;

std::string_view Sgr(Tone tone) {
  switch (tone) {
    case Tone::kPlain:
      return "";
    case Tone::kBold:
      return "\033[1m";
    case Tone::kDim:
      return "\033[2m";
    case Tone::kGreen:
      return "\033[32m";
    case Tone::kYellow:
      return "\033[33m";
    case Tone::kRed:
      return "\033[31m";
    case Tone::kCyan:
      return "\033[36m";
    case Tone::kMagenta:
      return "\033[35m";
  }
  return "";
}

size_t SpansWidth(const std::vector<Span>& spans) {
  size_t w = 0;
  for (const Span& s : spans) w += text::DisplayWidth(s.text);
  return w;
}

// The longest prefix of text that fits in `width` columns (never splitting a UTF-8 sequence).
std::string FitPrefix(std::string_view text, size_t width) {
  std::string out;
  size_t used = 0;
  for (size_t i = 0; i < text.size();) {
    size_t len =
        std::min(text::Utf8LengthFromLead(static_cast<unsigned char>(text[i])), text.size() - i);
    size_t w = text::DisplayWidth(text.substr(i, len));
    if (used + w > width) break;
    out.append(text.substr(i, len));
    used += w;
    i += len;
  }
  return out;
}

// The longest suffix of text that fits in `width` columns.
std::string FitSuffix(std::string_view text, size_t width) {
  size_t start = text.size();
  size_t used = 0;
  while (start > 0) {
    size_t s = text::Utf8Floor(text, start - 1);
    size_t w = text::DisplayWidth(text.substr(s, start - s));
    if (used + w > width) break;
    used += w;
    start = s;
  }
  return std::string(text.substr(start));
}

// Shortens spans to `width` columns: the widest span loses its middle.
std::vector<Span> FitSpans(std::vector<Span> spans, size_t width) {
  size_t total = SpansWidth(spans);
  if (total <= width || spans.empty()) return spans;
  size_t widest = 0;
  for (size_t i = 1; i < spans.size(); ++i) {
    if (text::DisplayWidth(spans[i].text) > text::DisplayWidth(spans[widest].text)) widest = i;
  }
  size_t others = total - text::DisplayWidth(spans[widest].text);
  if (others + 2 > width) {
    // Even the other spans do not fit: cut the whole label at the end.
    std::string flat;
    for (const Span& s : spans) flat += s.text;
    return {
        Span{FitPrefix(flat, width > 0 ? width - 1 : 0) + std::string(kEllipsis), spans[0].tone}};
  }
  spans[widest].text = ShortenMiddle(spans[widest].text, width - others);
  return spans;
}

void RenderNode(const TreeNode& node, const std::string& prefix, const std::string& child_prefix,
                const RenderOptions& options, std::string* out) {
  const bool color = options.color;
  const size_t prefix_width = text::DisplayWidth(prefix);
  // Continuation lines keep the guide of this node's children (if any) under the label.
  std::string cont_prefix = child_prefix + (node.children.empty() ? "  " : "│ ");
  const size_t cont_width = text::DisplayWidth(cont_prefix);

  std::vector<Span> label = node.label;
  if (options.width > 0 && prefix_width + 8 <= options.width) {
    label = FitSpans(label, options.width - prefix_width);
  }
  std::string line = Paint(Span{prefix, Tone::kDim}, color) + Paint(label, color);
  size_t col = prefix_width + SpansWidth(label);
  for (const Span& d : node.details) {
    size_t w = text::DisplayWidth(d.text);
    if (options.width > 0 && col + kDetailGap + w > options.width && col > cont_width) {
      *out += line + "\n";
      line = Paint(Span{cont_prefix, Tone::kDim}, color);
      col = cont_width;
      if (col + w > options.width && options.width > col + 1) {
        Span cut{FitPrefix(d.text, options.width - col - 1) + std::string(kEllipsis), d.tone};
        line += Paint(cut, color);
        col += text::DisplayWidth(cut.text);
        continue;
      }
      line += Paint(d, color);
      col += w;
      continue;
    }
    line += std::string(kDetailGap, ' ') + Paint(d, color);
    col += kDetailGap + w;
  }
  *out += line + "\n";
  for (size_t i = 0; i < node.children.size(); ++i) {
    bool last = i + 1 == node.children.size();
    RenderNode(node.children[i], child_prefix + std::string(last ? kLast : kBranch),
               child_prefix + std::string(last ? kBlank : kPipe), options, out);
  }
}

}  // namespace

std::string Paint(const Span& span, bool color) {
  // Spans carry what objects hold (names, messages): never an escape sequence of theirs.
  std::string shown = text::EscapeForTerminal(span.text);
  std::string_view sgr = Sgr(span.tone);
  if (!color || sgr.empty() || shown.empty()) return shown;
  return std::string(sgr) + shown + "\033[0m";
}

std::string Paint(const std::vector<Span>& spans, bool color) {
  std::string out;
  for (const Span& s : spans) out += Paint(s, color);
  return out;
}

std::string ShortenMiddle(const std::string& text, size_t width) {
  if (text::DisplayWidth(text) <= width) return text;
  if (width == 0) return "";
  if (width == 1) return std::string(kEllipsis);
  size_t keep = width - 1;
  size_t tail = keep / 2;
  size_t head = keep - tail;
  return FitPrefix(text, head) + std::string(kEllipsis) + FitSuffix(text, tail);
}

std::string RenderTree(const TreeNode& root, const RenderOptions& options) {
  std::string out;
  RenderNode(root, "", "", options, &out);
  return out;
}

}  // namespace wmap::cli
