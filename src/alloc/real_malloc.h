#pragma once
// The next allocator in symbol lookup order (glibc's), found with
// dlsym(RTLD_NEXT). Until it is resolved, a static arena serves the
// allocations dlsym itself makes.
#include <cstddef>

namespace cobench::alloc::real {

void* malloc(size_t size);                          ///< glibc malloc (or the arena while bootstrapping)
void* calloc(size_t count, size_t size);            ///< glibc calloc
void* realloc(void* ptr, size_t size);              ///< glibc realloc; arena pointers are moved out
void* memalign(size_t alignment, size_t size);      ///< glibc memalign
void free(void* ptr);                               ///< glibc free; arena pointers are ignored
bool from_arena(const void* ptr);                   ///< true for bootstrap allocations (never counted)

}  // namespace cobench::alloc::real
