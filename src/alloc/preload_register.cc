// libcobench_alloc_preload.so's constructor: when the process carries a
// shared libbenchmark, hand it the counting MemoryManager, counting inside
// the benchmark loop only (loop/window.h). A binary with
// benchmark linked statically does not export the symbol; then the library
// only counts (link cobench_alloc_counter into such binaries instead).
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "alloc/counting.h"
#include "alloc/memory_manager.h"
#include "loop/window.h"

namespace {

// benchmark::RegisterMemoryManager(benchmark::MemoryManager*), every version.
constexpr const char* kRegisterSymbol = "_ZN9benchmark21RegisterMemoryManagerEPNS_13MemoryManagerE";

// cobench asks, through COBENCH_ALLOC_STATUS=FILE, what happened, so the
// report can say why counts are missing. Plain syscalls: no allocation here.
void tell(const char* status) {
  const char* path = std::getenv("COBENCH_ALLOC_STATUS");
  if (path == nullptr || *path == '\0') return;
  int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t ignored = ::write(fd, status, std::strlen(status));
  (void)ignored;
  ::close(fd);
}

__attribute__((constructor)) void register_with_shared_benchmark() {
  void* symbol = dlsym(RTLD_DEFAULT, kRegisterSymbol);
  if (symbol == nullptr) {
    tell("no-shared-libbenchmark\n");
    return;
  }
  // Count the benchmark loop only: a benchmark's setup, Google Benchmark's own
  // bookkeeping in the memory pass and paused stretches are left out, so
  // allocs/op is the loop body's count per iteration.
  cobench::loop::Listener listener;
  listener.opened = cobench::alloc::begin_window;
  if (cobench::loop::listen(listener)) cobench::alloc::count_only_while(cobench::loop::measuring);
  cobench::alloc::register_memory_manager(reinterpret_cast<void (*)(void*)>(symbol));
  tell("registered\n");
}

}  // namespace
