#pragma once
// Joins words with a separator into one string, sized once up front.
#include <cstddef>
#include <string>
#include <vector>

namespace demo {

inline std::string join(const std::vector<std::string>& words, const std::string& separator) {
  std::size_t size = 0;
  for (const auto& word : words) size += word.size() + separator.size();
  std::string out;
  out.reserve(size);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i) out += separator;
    out += words[i];
  }
  return out;
}

}  // namespace demo
