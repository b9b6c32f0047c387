// cobench_alloc_counter's registration: a static initializer that calls
// RegisterMemoryManager directly, for binaries that link benchmark
// statically (where the preload library cannot find the symbol).
#include "alloc/memory_manager.h"

namespace benchmark {
class MemoryManager;
void RegisterMemoryManager(MemoryManager* manager);
}  // namespace benchmark

namespace {

// Google Benchmark keeps the manager in a constant-initialised pointer, so
// registering before its own static initializers run is safe.
const bool registered = [] {
  cobench::alloc::register_memory_manager(
      [](void* manager) { benchmark::RegisterMemoryManager(static_cast<benchmark::MemoryManager*>(manager)); });
  return true;
}();

}  // namespace
