// libcobench_callgrind_preload.so: preloaded into a benchmark run under
// callgrind, it counts the benchmark loop only. Each window of the loop
// starts from zeroed counters and ends in a dump of its own
// (<out>.1, <out>.2, ...; cobench sums those), and a paused stretch inside it
// (PauseTiming/ResumeTiming) is not collected. Without a shared libbenchmark
// to interpose nothing is toggled, and callgrind's dump at the program's end
// holds the whole process. Outside valgrind the client requests do nothing.
#include <valgrind/callgrind.h>

#include "loop/loop.h"
#include "loop/window.h"

namespace {

__attribute__((constructor)) void fence_callgrind_to_the_loop() {
  cobench::loop::Listener listener;
  // Zeroing and dumping cover every thread, so threads a benchmark starts in its loop are counted with it.
  listener.opened = [] { CALLGRIND_ZERO_STATS; };
  listener.closed = [] { CALLGRIND_DUMP_STATS_AT(cobench::loop::kLoopDumpName); };
  // Collection is per thread in callgrind: the thread that pauses is the one whose work is left out.
  listener.paused = [] { CALLGRIND_TOGGLE_COLLECT; };
  listener.resumed = [] { CALLGRIND_TOGGLE_COLLECT; };
  cobench::loop::listen(listener);
}

}  // namespace
