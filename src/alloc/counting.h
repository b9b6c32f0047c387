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
  int64_t allocs = 0;        ///< counted allocations (see count_only_while)
  int64_t bytes = 0;         ///< their requested bytes
  int64_t in_use = 0;        ///< every block, counted or not
  int64_t peak = 0;          ///< highest in_use while counting, since the last begin_window()
  int64_t window_base = 0;   ///< in_use when the last begin_window() was called
};

/// Reads the counters (relaxed: exact once the measured code has returned).
Totals totals();

/// Starts a new peak window at the current in-use level.
void begin_window();

/// From now on only allocations made while `measured()` returns true are
/// counted and raise the peak; blocks are still tracked in and out of use.
/// The preload passes the benchmark loop's window (loop::measuring), so a
/// benchmark's setup is not counted. Without it everything is.
void count_only_while(bool (*measured)());

/// Records a successful allocation of `requested` bytes at `ptr`.
void count_alloc(void* ptr, size_t requested);

/// Records that `ptr` is about to be freed (call before the real free).
void count_free(void* ptr);

/// Records that a block of `usable` bytes left the heap (realloc's old block).
void count_released(size_t usable);

}  // namespace cobench::alloc
