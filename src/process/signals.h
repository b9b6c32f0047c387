#pragma once
// One place that owns cobench's signals: SIGINT/SIGTERM handlers only record
// the request, and long-running loops poll it so that RAII cleanup
// (worktrees, children) runs; SIGPIPE is ignored for the same reason.

namespace cobench::signals {

/// Installs SIGINT/SIGTERM handlers that record the signal (no SA_RESTART,
/// so blocking waits wake up with EINTR).
void install_cancellation_handlers();

/// Ignores SIGPIPE: a reader that closes cobench's stdout or stderr early
/// (`cobench run | head`) then makes writes fail with EPIPE, which printing
/// shrugs off, instead of killing cobench before it removes its worktrees and
/// writes the reports. Children get the default back before exec (process::run).
void ignore_broken_pipes();

/// True once SIGINT or SIGTERM has arrived.
bool cancellation_requested();

/// The signal that requested cancellation, 0 if none.
int cancellation_signal();

/// Throws cobench::Interrupted when cancellation was requested.
void throw_if_cancelled();

/// For tests: forget a recorded request.
void reset_cancellation_for_testing();

}  // namespace cobench::signals
