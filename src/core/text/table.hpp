// text: the plain-text tables the CLI reports print (imbalance, diff).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scope_speedscope {

// `text` padded with spaces to `width` (on the left when `right`).
inline std::string padded(const std::string& text, std::size_t width, bool right) {
  if (text.size() >= width) return text;
  const std::string pad(width - text.size(), ' ');
  return right ? pad + text : text + pad;
}

// Ascending ranks as people write them: "0-3, 5, 7-8".
inline std::string ranks_text(const std::vector<int64_t>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace scope_speedscope
