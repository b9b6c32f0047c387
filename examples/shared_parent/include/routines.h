#pragma once
// Two routines computing the same checksum of a word buffer, each in its own
// source file of the `routines` library: `touched` is the one the example's
// head changes, `untouched` is the control whose code nobody edits.
#include <cstddef>
#include <cstdint>

namespace routines {

/// The checksum of data[0..size), as the changed routine computes it.
std::uint32_t touched(const std::uint32_t* data, std::size_t size);

/// The same checksum, from the source file no change edits.
std::uint32_t untouched(const std::uint32_t* data, std::size_t size);

}  // namespace routines
