#include "alloc/counting.h"

#include <malloc.h>

#include <atomic>

namespace cobench::alloc {
namespace {

std::atomic<int64_t> g_allocs{0};
std::atomic<int64_t> g_bytes{0};
std::atomic<int64_t> g_in_use{0};
std::atomic<int64_t> g_peak{0};
std::atomic<int64_t> g_window_base{0};
std::atomic<bool (*)()> g_measured{nullptr};

bool counted_now() {
  bool (*measured)() = g_measured.load(std::memory_order_relaxed);
  return measured == nullptr || measured();
}

void raise_peak(int64_t level) {
  int64_t seen = g_peak.load(std::memory_order_relaxed);
  while (level > seen && !g_peak.compare_exchange_weak(seen, level, std::memory_order_relaxed)) {
  }
}

}  // namespace

Totals totals() {
  return {g_allocs.load(std::memory_order_relaxed), g_bytes.load(std::memory_order_relaxed),
          g_in_use.load(std::memory_order_relaxed), g_peak.load(std::memory_order_relaxed),
          g_window_base.load(std::memory_order_relaxed)};
}

void begin_window() {
  const int64_t level = g_in_use.load(std::memory_order_relaxed);
  g_window_base.store(level, std::memory_order_relaxed);
  g_peak.store(level, std::memory_order_relaxed);
}

void count_only_while(bool (*measured)()) { g_measured.store(measured, std::memory_order_relaxed); }

void count_alloc(void* ptr, size_t requested) {
  if (ptr == nullptr) return;
  // Sizes on free come from the allocator itself, so in-use needs no header.
  const int64_t size = static_cast<int64_t>(malloc_usable_size(ptr));
  const int64_t level = g_in_use.fetch_add(size, std::memory_order_relaxed) + size;
  if (!counted_now()) return;
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(static_cast<int64_t>(requested), std::memory_order_relaxed);
  raise_peak(level);
}

void count_free(void* ptr) {
  if (ptr != nullptr) count_released(malloc_usable_size(ptr));
}

void count_released(size_t usable) { g_in_use.fetch_sub(static_cast<int64_t>(usable), std::memory_order_relaxed); }

}  // namespace cobench::alloc
