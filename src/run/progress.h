#pragma once
// Progress output: on a TTY one updating line, otherwise one plain line per
// round for CI logs. Written to stderr so stdout stays the report.
#include <cstdio>
#include <string>

namespace cobench::run {

/// A snapshot of the measuring phase.
struct ProgressState {
  std::string target;
  int round = 0;
  int runs_base = 0;
  int runs_head = 0;
  int undecided = 0;      ///< benchmarks still inconclusive across all targets
  double elapsed_seconds = 0;
  double eta_seconds = -1;  ///< < 0: unknown
};

/// Renders ProgressState updates.
class Progress {
 public:
  /// tty: use a single updating line (\r); else newline-terminated lines.
  Progress(std::FILE* out, bool tty);
  /// Shows the state; on non-TTY only prints when the round changes.
  void update(const ProgressState& state);
  /// A message on its own line (clears the TTY line first).
  void message(const std::string& text);
  /// Ends the updating line.
  void finish();

 private:
  std::FILE* out_;
  bool tty_;
  bool line_open_ = false;
  std::string last_key_;
};

}  // namespace cobench::run
