#include "alloc/memory_manager.h"

#include <cstdint>

#include "alloc/counting.h"

namespace cobench::alloc {
namespace {

/// benchmark::MemoryManager::Result's common prefix.
struct ResultPrefix {
  int64_t num_allocs;
  int64_t max_bytes_used;         ///< here: peak bytes in use above the level where the loop began
  int64_t total_allocated_bytes;  ///< requested bytes allocated between Start and Stop
  int64_t net_heap_growth;        ///< usable bytes still in use at Stop minus at Start
};

/// Same virtual layout as benchmark::MemoryManager (see memory_manager.h).
class CountingManager {
 public:
  virtual ~CountingManager() = default;
  virtual void Start() {
    begin_window();
    start_ = totals();
  }
  virtual void Stop(ResultPrefix* result) { fill(result); }
  virtual void StopByReference(ResultPrefix* result) { fill(result); }

 private:
  void fill(ResultPrefix* result) const {
    Totals now = totals();
    result->num_allocs = now.allocs - start_.allocs;
    // Above the level where the last loop window opened (with the loop unseen: where Start found it).
    result->max_bytes_used = now.peak - now.window_base;
    result->total_allocated_bytes = now.bytes - start_.bytes;
    result->net_heap_growth = now.in_use - start_.in_use;
  }

  Totals start_;
};

CountingManager g_manager;

}  // namespace

void* memory_manager() { return &g_manager; }

void register_memory_manager(void (*register_fn)(void*)) { register_fn(memory_manager()); }

}  // namespace cobench::alloc
