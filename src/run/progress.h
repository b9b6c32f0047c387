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

/// The text of one progress line, without \r or newline:
/// "bench_sort: round 3, runs 6 base / 6 head, 2 undecided, 0:12 elapsed, ETA 0:40".
std::string format_progress(const ProgressState& state);

/// "0:07", "12:30", "1:02:03": elapsed times and ETAs.
std::string format_clock(double seconds);

/// Renders ProgressState updates.
class Progress {
 public:
  /// tty: use a single updating line (\r); else newline-terminated lines.
  Progress(std::FILE* out, bool tty);
  /// A Progress on `out` that updates in place when `out` is a terminal (not TERM=dumb).
  static Progress for_stream(std::FILE* out);
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
