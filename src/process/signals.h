#pragma once
// One place that owns SIGINT/SIGTERM: handlers only record the request, and
// long-running loops poll it so that RAII cleanup (worktrees, children) runs.

namespace cobench::signals {

/// Installs SIGINT/SIGTERM handlers that record the signal (no SA_RESTART,
/// so blocking waits wake up with EINTR).
void install_cancellation_handlers();

/// True once SIGINT or SIGTERM has arrived.
bool cancellation_requested();

/// The signal that requested cancellation, 0 if none.
int cancellation_signal();

/// Throws cobench::Interrupted when cancellation was requested.
void throw_if_cancelled();

/// For tests: forget a recorded request.
void reset_cancellation_for_testing();

}  // namespace cobench::signals
