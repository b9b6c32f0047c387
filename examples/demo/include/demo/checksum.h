#pragma once
// FNV-1a over a byte buffer: one multiply per byte on a serial dependency
// chain, so its speed is set by the multiplier's latency.
#include <cstddef>
#include <cstdint>

namespace demo {

inline std::uint64_t checksum(const unsigned char* data, std::size_t size) {
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace demo
