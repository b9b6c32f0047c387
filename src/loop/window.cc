#include "loop/window.h"

#include <dlfcn.h>

#include <atomic>

namespace cobench::loop {
namespace {

using StateFunction = void (*)(void* state);

/// The four interposed members, by their mangled names (the same in every Google Benchmark version).
enum Member { kStart, kFinish, kPause, kResume, kMembers };
constexpr const char* kSymbols[kMembers] = {
    "_ZN9benchmark5State16StartKeepRunningEv",
    "_ZN9benchmark5State17FinishKeepRunningEv",
    "_ZN9benchmark5State11PauseTimingEv",
    "_ZN9benchmark5State12ResumeTimingEv",
};

std::atomic<StateFunction> g_next[kMembers] = {};
Listener g_listener;
std::atomic<bool> g_listening{false};
std::atomic<int> g_open_threads{0};  // benchmark threads inside their loop
// Initial-exec: these are read inside malloc (the counting allocator), where
// the general TLS model's __tls_get_addr could itself allocate. A preloaded
// library's thread-locals live in the static TLS block, where this is valid.
__attribute__((tls_model("initial-exec"))) thread_local bool t_in_loop = false;
__attribute__((tls_model("initial-exec"))) thread_local bool t_paused = false;
// Left its loop while other threads of the benchmark are still in theirs: what
// it does then (waiting at Google Benchmark's barrier) is not the measured code.
__attribute__((tls_model("initial-exec"))) thread_local bool t_left = false;

/// Google Benchmark's own member: the next definition after this library.
StateFunction next(Member member) {
  StateFunction function = g_next[member].load(std::memory_order_acquire);
  if (function == nullptr) {
    function = reinterpret_cast<StateFunction>(dlsym(RTLD_NEXT, kSymbols[member]));
    g_next[member].store(function, std::memory_order_release);
  }
  return function;
}

void call(void (*hook)()) {
  if (hook != nullptr) hook();
}

void forward(Member member, void* state) {
  if (StateFunction function = next(member)) function(state);
}

}  // namespace

bool listen(const Listener& listener) {
  for (int member = 0; member < kMembers; ++member)
    if (next(static_cast<Member>(member)) == nullptr) return false;
  g_listener = listener;
  g_listening.store(true, std::memory_order_release);
  return true;
}

bool measuring() { return g_open_threads.load(std::memory_order_relaxed) > 0 && !t_paused && !t_left; }

bool thread_in_loop() { return t_in_loop && !t_paused; }

}  // namespace cobench::loop

using namespace cobench::loop;

// The interposers, under the members' mangled names. Google Benchmark's
// StartKeepRunning resumes and FinishKeepRunning pauses its timer through
// these same symbols: those calls come while the thread is outside its loop
// here, and are only forwarded.
extern "C" {

__attribute__((visibility("default"))) void cobench_start_keep_running(void* state) __asm__(
    "_ZN9benchmark5State16StartKeepRunningEv");
__attribute__((visibility("default"))) void cobench_finish_keep_running(void* state) __asm__(
    "_ZN9benchmark5State17FinishKeepRunningEv");
__attribute__((visibility("default"))) void cobench_pause_timing(void* state) __asm__(
    "_ZN9benchmark5State11PauseTimingEv");
__attribute__((visibility("default"))) void cobench_resume_timing(void* state) __asm__(
    "_ZN9benchmark5State12ResumeTimingEv");

void cobench_start_keep_running(void* state) {
  forward(kStart, state);  // its barrier and timer start stay outside
  if (!g_listening.load(std::memory_order_acquire)) return;
  t_in_loop = true;
  t_paused = t_left = false;
  if (g_open_threads.fetch_add(1, std::memory_order_acq_rel) == 0) call(g_listener.opened);
  call(g_listener.started);
}

void cobench_finish_keep_running(void* state) {
  if (g_listening.load(std::memory_order_acquire) && t_in_loop) {
    const bool was_paused = t_paused;
    t_in_loop = t_paused = false;
    if (!was_paused) call(g_listener.stopped);
    // Others still in their loops: this thread's wait for them is not measured.
    if (g_open_threads.fetch_sub(1, std::memory_order_acq_rel) == 1) call(g_listener.closed);
    else t_left = true;
  }
  forward(kFinish, state);  // its barrier and timer stop stay outside
}

void cobench_pause_timing(void* state) {
  if (g_listening.load(std::memory_order_acquire) && t_in_loop && !t_paused) {
    t_paused = true;
    call(g_listener.stopped);
  }
  forward(kPause, state);
}

void cobench_resume_timing(void* state) {
  forward(kResume, state);
  if (g_listening.load(std::memory_order_acquire) && t_in_loop && t_paused) {
    t_paused = false;
    call(g_listener.started);
  }
}

}  // extern "C"
