#pragma once
// The measured loop of a Google Benchmark benchmark, seen from a library
// preloaded into its process (LD_PRELOAD). It interposes benchmark::State's
// StartKeepRunning and FinishKeepRunning (entered right before the first
// iteration and right after the last) and PauseTiming / ResumeTiming, always
// forwards to Google Benchmark's own, and tells a listener when the measured
// code starts and stops running. What a benchmark does before its loop (its
// setup) and while paused is not measured.
//
// This works where the benchmark binary calls a shared libbenchmark (Debian's,
// any version from 1.5 on: these four member functions are exported and
// called from the header's inline loop code). A libbenchmark linked into the
// executable binds those calls inside it; listen() then says so and the
// listener is never told anything.
namespace cobench::loop {

/// What the preloaded library does at the edges of the measured code. Every member may be null.
struct Listener {
  /// The window: from the first thread of a benchmark entering its loop to the last one leaving it.
  void (*opened)() = nullptr;
  void (*closed)() = nullptr;
  /// The calling thread is measured from now on: it entered its loop, or resumed timing in it.
  void (*started)() = nullptr;
  /// The calling thread is not measured from now on: it left its loop, or paused timing in it.
  void (*stopped)() = nullptr;
};

/// Starts telling `listener`. Returns false when Google Benchmark's State
/// cannot be interposed in this process (linked statically, or absent).
bool listen(const Listener& listener);

/// For counting what every thread does: the window is open, and the calling
/// thread has not paused timing nor left its own loop before the benchmark's
/// other threads. Threads a benchmark starts inside its loop are measured.
bool measuring();

/// For counting per thread: the calling thread is inside its loop, not paused.
bool thread_in_loop();

}  // namespace cobench::loop
