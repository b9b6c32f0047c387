#include "alloc/real_malloc.h"

#include <dlfcn.h>

#include <atomic>
#include <cstring>

namespace cobench::alloc::real {
namespace {

using MallocFn = void* (*)(size_t);
using CallocFn = void* (*)(size_t, size_t);
using ReallocFn = void* (*)(void*, size_t);
using MemalignFn = void* (*)(size_t, size_t);
using FreeFn = void (*)(void*);

MallocFn g_malloc = nullptr;
CallocFn g_calloc = nullptr;
ReallocFn g_realloc = nullptr;
MemalignFn g_memalign = nullptr;
FreeFn g_free = nullptr;
std::atomic<bool> g_resolving{false};

// dlsym may allocate (its error buffer): those requests come back here while
// g_resolving is set and are served from this arena, never freed.
alignas(64) unsigned char g_arena[64 * 1024];
std::atomic<size_t> g_arena_used{0};

void* arena_alloc(size_t size, size_t alignment = 16) {
  size_t start = g_arena_used.load();
  size_t aligned;
  do {
    aligned = (start + alignment - 1) & ~(alignment - 1);
    if (aligned + size > sizeof(g_arena)) return nullptr;
  } while (!g_arena_used.compare_exchange_weak(start, aligned + size));
  return g_arena + aligned;
}

bool resolve() {
  if (g_free != nullptr) return true;
  if (g_resolving.exchange(true)) return false;  // re-entered from dlsym
  g_malloc = reinterpret_cast<MallocFn>(dlsym(RTLD_NEXT, "malloc"));
  g_calloc = reinterpret_cast<CallocFn>(dlsym(RTLD_NEXT, "calloc"));
  g_realloc = reinterpret_cast<ReallocFn>(dlsym(RTLD_NEXT, "realloc"));
  g_memalign = reinterpret_cast<MemalignFn>(dlsym(RTLD_NEXT, "memalign"));
  g_free = reinterpret_cast<FreeFn>(dlsym(RTLD_NEXT, "free"));
  g_resolving = false;
  return g_free != nullptr;
}

}  // namespace

bool from_arena(const void* ptr) {
  auto* p = static_cast<const unsigned char*>(ptr);
  return p >= g_arena && p < g_arena + sizeof(g_arena);
}

void* malloc(size_t size) { return resolve() ? g_malloc(size) : arena_alloc(size); }

void* calloc(size_t count, size_t size) {
  if (resolve()) return g_calloc(count, size);
  if (size != 0 && count > sizeof(g_arena) / size) return nullptr;
  return arena_alloc(count * size);  // static storage is already zeroed
}

void* memalign(size_t alignment, size_t size) {
  return resolve() ? g_memalign(alignment, size) : arena_alloc(size, alignment < 16 ? 16 : alignment);
}

void* realloc(void* ptr, size_t size) {
  if (!from_arena(ptr)) return resolve() ? g_realloc(ptr, size) : nullptr;
  void* moved = malloc(size);
  if (moved != nullptr) {
    size_t available = static_cast<size_t>(g_arena + sizeof(g_arena) - static_cast<unsigned char*>(ptr));
    std::memcpy(moved, ptr, size < available ? size : available);
  }
  return moved;
}

void free(void* ptr) {
  if (ptr == nullptr || from_arena(ptr)) return;
  if (resolve()) g_free(ptr);
}

}  // namespace cobench::alloc::real
