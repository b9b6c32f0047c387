#pragma once
// The counting allocator's shared state: every allocation entry point
// (malloc family, operator new) reports here. Lock-free and allocation-free,
// because it runs inside malloc.
#include <cstddef>
#include <cstdint>

namespace cobench::alloc {

/// Totals since process start. in_use and peak are in usable bytes (what the
/// allocator really handed out); bytes is the sum of requested sizes.
struct Totals {
  int64_t allocs = 0;
  int64_t bytes = 0;
  int64_t in_use = 0;
  int64_t peak = 0;   ///< highest in_use since the last reset_peak()
};

/// Reads the counters (relaxed: exact once the measured code has returned).
Totals totals();

/// Starts a new peak window at the current in-use level.
void reset_peak();

/// Records a successful allocation of `requested` bytes at `ptr`.
void count_alloc(void* ptr, size_t requested);

/// Records that `ptr` is about to be freed (call before the real free).
void count_free(void* ptr);

/// Records that a block of `usable` bytes left the heap (realloc's old block).
void count_released(size_t usable);

}  // namespace cobench::alloc
