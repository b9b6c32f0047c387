#include "routines.h"

namespace routines {

// A tight loop of cheap, independent operations: its speed is set by how fast
// the front end feeds it, which depends on where the loop lies in memory.
std::uint32_t touched(const std::uint32_t* data, std::size_t size) {
  std::uint32_t a = 0, b = 0;
  for (std::size_t i = 0; i < size; ++i) {
    a += data[i];
    b ^= a + static_cast<std::uint32_t>(i);
  }
  return a ^ b;
}

}  // namespace routines
