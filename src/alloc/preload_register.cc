// libcobench_alloc_preload.so's constructor: when the process carries a
// shared libbenchmark, hand it the counting MemoryManager. A binary with
// benchmark linked statically does not export the symbol; then the library
// only counts (link cobench_alloc_counter into such binaries instead).
#include <dlfcn.h>

#include "alloc/memory_manager.h"

namespace {

// benchmark::RegisterMemoryManager(benchmark::MemoryManager*), every version.
constexpr const char* kRegisterSymbol = "_ZN9benchmark21RegisterMemoryManagerEPNS_13MemoryManagerE";

__attribute__((constructor)) void register_with_shared_benchmark() {
  if (void* symbol = dlsym(RTLD_DEFAULT, kRegisterSymbol)) {
    cobench::alloc::register_memory_manager(reinterpret_cast<void (*)(void*)>(symbol));
  }
}

}  // namespace
