// Error formatting.
#include "wmap/status.h"

namespace wmap {

std::string Error::ToString() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    out += ':';
  }
  if (position.known()) {
    out += std::to_string(position.line);
    out += ':';
    if (position.column > 0) {
      out += std::to_string(position.column);
      out += ':';
    }
  }
  if (!out.empty()) out += ' ';
  out += message;
  return out;
}

}  // namespace wmap
