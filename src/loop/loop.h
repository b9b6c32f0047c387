#pragma once
// What cobench's callgrind runs and the library they preload agree on.
namespace cobench::loop {

/// The preloaded library that fences callgrind's counting to the benchmark loop.
inline constexpr const char* kCallgrindPreloadName = "libcobench_callgrind_preload.so";

/// The name each loop window's dump carries: callgrind writes it as
/// "desc: Trigger: Client Request: cobench loop" in that dump's file.
inline constexpr const char* kLoopDumpName = "cobench loop";

}  // namespace cobench::loop
