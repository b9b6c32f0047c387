// The C allocation entry points. Defining them here interposes them on the
// whole process: via LD_PRELOAD (libcobench_alloc_preload.so) or by linking
// the static cobench_alloc_counter into the executable.
#include <errno.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdint>

#include "alloc/counting.h"
#include "alloc/real_malloc.h"

namespace real = cobench::alloc::real;
using cobench::alloc::count_alloc;
using cobench::alloc::count_free;

namespace {

void* counted(void* ptr, size_t requested) {
  if (!real::from_arena(ptr)) count_alloc(ptr, requested);
  return ptr;
}

void* aligned(size_t alignment, size_t size) { return counted(real::memalign(alignment, size), size); }

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

#pragma GCC visibility push(default)
extern "C" {

void* malloc(size_t size) { return counted(real::malloc(size), size); }

void* calloc(size_t count, size_t size) {
  size_t total = 0;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return counted(real::calloc(count, size), total);
}

void* realloc(void* ptr, size_t size) {
  if (ptr == nullptr) return malloc(size);
  if (real::from_arena(ptr)) return counted(real::realloc(ptr, size), size);
  size_t old_usable = malloc_usable_size(ptr);
  void* moved = real::realloc(ptr, size);
  if (moved == nullptr && size != 0) return nullptr;  // failed: the old block is still live
  // glibc frees on realloc(p, 0); otherwise the result counts as one new
  // allocation, whether or not it grew in place.
  cobench::alloc::count_released(old_usable);
  return moved == nullptr ? nullptr : counted(moved, size);
}

void* reallocarray(void* ptr, size_t count, size_t size) {
  size_t total = 0;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(ptr, total);
}

void free(void* ptr) {
  if (ptr == nullptr || real::from_arena(ptr)) return;
  count_free(ptr);
  real::free(ptr);
}

void* memalign(size_t alignment, size_t size) { return aligned(alignment, size); }

void* aligned_alloc(size_t alignment, size_t size) { return aligned(alignment, size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* ptr = aligned(alignment, size);
  if (ptr == nullptr) return ENOMEM;
  *out = ptr;
  return 0;
}

void* valloc(size_t size) { return aligned(page_size(), size); }

void* pvalloc(size_t size) {
  size_t page = page_size();
  return aligned(page, (size + page - 1) & ~(page - 1));
}

}  // extern "C"
#pragma GCC visibility pop
