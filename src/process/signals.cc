#include "process/signals.h"

#include <csignal>

#include "core/errors.h"

namespace cobench::signals {
namespace {
volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_signal(int sig) { g_signal = sig; }
}  // namespace

void install_cancellation_handlers() {
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void ignore_broken_pipes() {
  struct sigaction action {};
  action.sa_handler = SIG_IGN;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPIPE, &action, nullptr);
}

bool cancellation_requested() { return g_signal != 0; }
int cancellation_signal() { return g_signal; }

void throw_if_cancelled() {
  if (cancellation_requested()) throw Interrupted();
}

void reset_cancellation_for_testing() { g_signal = 0; }

}  // namespace cobench::signals
