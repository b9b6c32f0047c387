#pragma once
// A benchmark::MemoryManager reporting the counting allocator's figures,
// written against the vtable layout rather than a benchmark.h, so one build
// serves every Google Benchmark version a binary may carry:
//   1.5-1.7: ~MemoryManager, Start(), Stop(Result*), Stop(Result&)
//   1.8+   : ~MemoryManager, Start(), Stop(Result&)
// Result* and Result& are the same pointer in the ABI, so slot 3 serves both
// (and slot 4 catches 1.7's Stop(Result&)). Result starts with the same four
// int64 fields in every version (1.9 appends memory_iterations, which this
// leaves to the library).

namespace cobench::alloc {

/// The manager as benchmark::RegisterMemoryManager expects it.
void* memory_manager();

/// Calls benchmark::RegisterMemoryManager(memory_manager()) through `register_fn`.
void register_memory_manager(void (*register_fn)(void*));

}  // namespace cobench::alloc
