// Every form of the global operator new/delete (C++17: sized, aligned,
// nothrow). They go straight to the real allocator and count once, so a
// `new` is one allocation whether or not the malloc hooks are also active.
#include <cstdlib>
#include <new>

#include "alloc/counting.h"
#include "alloc/real_malloc.h"

namespace real = cobench::alloc::real;

namespace {

void* allocate(std::size_t size, std::size_t alignment) {
  if (size == 0) size = 1;
  return alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ ? real::malloc(size) : real::memalign(alignment, size);
}

// The standard's loop: call the new-handler until memory appears or it gives up.
void* new_or_throw(std::size_t size, std::size_t alignment) {
  for (;;) {
    if (void* ptr = allocate(size, alignment)) {
      cobench::alloc::count_alloc(ptr, size);
      return ptr;
    }
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* new_or_null(std::size_t size, std::size_t alignment) noexcept {
  try {
    return new_or_throw(size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void release(void* ptr) noexcept {
  if (ptr == nullptr) return;
  cobench::alloc::count_free(ptr);
  real::free(ptr);
}

constexpr std::size_t kDefault = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

}  // namespace

#pragma GCC visibility push(default)
void* operator new(std::size_t n) { return new_or_throw(n, kDefault); }
void* operator new[](std::size_t n) { return new_or_throw(n, kDefault); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return new_or_null(n, kDefault); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return new_or_null(n, kDefault); }
void* operator new(std::size_t n, std::align_val_t a) { return new_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return new_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return new_or_null(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return new_or_null(n, static_cast<std::size_t>(a));
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
#pragma GCC visibility pop
