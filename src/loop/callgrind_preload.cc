// libcobench_callgrind_preload.so: preloaded into a benchmark process run
// under callgrind, it has callgrind collect inside the benchmark loop only.
// Collection is per thread in callgrind: each thread collects while it is in
// its loop and not paused, and a thread started by a thread that is (workers
// a benchmark starts in its loop) collects too. At exit one dump named
// loop::kLoopDumpName holds the loop's events. Without a shared libbenchmark
// to interpose nothing is fenced: every thread collects from this library's
// start to its end, and callgrind's dump at the program's end holds that.
// Needs --collect-atstart=no. Outside valgrind the client requests do nothing.
#include <dlfcn.h>
#include <pthread.h>
#include <valgrind/callgrind.h>

#include <cerrno>
#include <cstdlib>

#include "loop/loop.h"
#include "loop/window.h"

namespace {

bool g_fenced = false;

// Callgrind can only toggle a thread's collection, and keeps a thread's state
// in its slot: a thread started later in the same slot inherits it. cobench
// runs it with --collect-atstart=no, every thread started here is left not
// collecting when it ends (start_thread), so every thread is born not
// collecting, and each one tracks its own state here.
thread_local bool t_collecting = false;

void collect(bool on) {
  if (t_collecting == on) return;
  CALLGRIND_TOGGLE_COLLECT;
  t_collecting = on;
}

/// Stops collecting when a thread ends by pthread_exit instead of returning.
struct NotCollectingAtExit {
  ~NotCollectingAtExit() { collect(false); }
};

__attribute__((constructor)) void fence_callgrind_to_the_loop() {
  cobench::loop::Listener listener;
  listener.started = [] { collect(true); };
  listener.stopped = [] { collect(false); };
  g_fenced = cobench::loop::listen(listener);
  // Unfenced (libbenchmark linked statically), the whole process counts from here.
  if (!g_fenced) collect(true);
}

__attribute__((destructor)) void dump_the_loop() {
  if (g_fenced) CALLGRIND_DUMP_STATS_AT(cobench::loop::kLoopDumpName);
}

/// A thread's start routine, and whether it is measured from its first instruction.
struct Start {
  void* (*routine)(void*);
  void* argument;
  bool measured;
};

void* start_thread(void* boxed) {
  const Start start = *static_cast<Start*>(boxed);
  std::free(boxed);
  static thread_local NotCollectingAtExit restore;
  (void)restore;
  collect(start.measured);  // a thread started outside any loop collects from its own loop on
  void* result = start.routine(start.argument);
  collect(false);
  return result;
}

using PthreadCreate = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

}  // namespace

// Every thread starts through start_thread. Google Benchmark's (Threads(n)) start outside any loop and collect
// from their own loops on; unfenced, every thread collects.
extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                      void* (*routine)(void*), void* argument) {
  static const auto next = reinterpret_cast<PthreadCreate>(dlsym(RTLD_NEXT, "pthread_create"));
  auto* start = static_cast<Start*>(std::malloc(sizeof(Start)));
  if (start == nullptr) return EAGAIN;
  *start = {routine, argument, !g_fenced || cobench::loop::thread_in_loop()};
  const int status = next(thread, attr, start_thread, start);
  if (status != 0) std::free(start);
  return status;
}
