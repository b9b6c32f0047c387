#pragma once
// The measured loop of a Google Benchmark benchmark, seen from a library
// preloaded into its process (LD_PRELOAD). It interposes benchmark::State's
// StartKeepRunning and FinishKeepRunning (entered right before the first
// iteration and right after the last) and PauseTiming / ResumeTiming, always
// forwards to Google Benchmark's own, and tells a listener when the measured
// code starts and stops running: the "window". What a benchmark does before
// its loop (its setup) and while paused is outside the window.
//
// This works where the benchmark binary calls a shared libbenchmark (Debian's,
// any version from 1.5 on: these four member functions are exported and
// called from the header's inline loop code). A libbenchmark linked into the
// executable binds those calls inside it; listen() then says so and the
// listener is never told anything.
namespace cobench::loop {

/// What the preloaded library does at the edges of the window. Every member may be null.
struct Listener {
  void (*opened)() = nullptr;   ///< the first thread of a benchmark entered its loop (its threads share one window)
  void (*closed)() = nullptr;   ///< the last one left it
  void (*paused)() = nullptr;   ///< the calling thread paused timing inside its loop
  void (*resumed)() = nullptr;  ///< the calling thread resumed timing
};

/// Starts telling `listener`. Returns false when Google Benchmark's State
/// cannot be interposed in this process (linked statically, or absent).
bool listen(const Listener& listener);

/// Whether the measured code is running for the calling thread: some
/// benchmark thread is inside its loop and this thread has not paused timing.
/// Threads a benchmark starts inside its loop count as measured.
bool measuring();

}  // namespace cobench::loop
