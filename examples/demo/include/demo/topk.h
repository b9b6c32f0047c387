#pragma once
// The k smallest values of a sample, in ascending order.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace demo {

inline std::vector<int> top_k(std::vector<int> values, std::size_t k) {
  k = std::min(k, values.size());
  std::sort(values.begin(), values.end());
  values.resize(k);
  return values;
}

}  // namespace demo
