#pragma once
// Error kinds that map to cobench's exit codes. Every message is one line and
// names what was wrong: the file and position, or the command and its status.
#include <stdexcept>
#include <string>

namespace cobench {

/// Process exit codes: the contract CI templates rely on.
enum ExitCode : int {
  kExitOk = 0,
  kExitGateFailed = 1,
  kExitUsage = 2,   ///< usage, config or input error
  kExitInfra = 3,   ///< build or infrastructure failure
  kExitInterrupted = 130,
};

/// Bad user input: flags, config, JSON, diffs, refs. Exit code 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A tool or the machine failed (git, cmake, compiler, fork). Exit code 3.
struct InfraError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// SIGINT or SIGTERM arrived; unwinding cleans up worktrees.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace cobench
