#pragma once
// Where a job's terminal output goes: the one seam between the steps and the
// terminal. Lines for the reader go to stdout, each flushed at once (a CI log
// shows them as they happen, and a report line is never behind a crash);
// warnings and errors go to stderr after "cobench: ". The text is written as
// given: what came from names, flags or files is made safe for a terminal by
// the caller, which knows where it came from. Tests read a job's output by
// putting their own console in its place.
#include <string_view>

namespace cobench::job {

class Console {
 public:
  virtual ~Console() = default;
  /// `text` and a newline on stdout.
  virtual void line(std::string_view text) = 0;
  /// A block that ends its own lines (the table, the selection) on stdout.
  virtual void block(std::string_view text) = 0;
  /// "cobench: warning: TEXT" on stderr.
  virtual void warning(std::string_view text) = 0;
  /// "cobench: error: TEXT" on stderr.
  virtual void error(std::string_view text) = 0;
  /// "cobench: TEXT" on stderr: what a job did beside its work (a folder removed, one kept).
  virtual void note(std::string_view text) = 0;
};

/// The console jobs of this process write to: the terminal's, unless a test set another.
Console& console();

/// Puts `replacement` in the terminal's place (nullptr: the terminal again). For tests.
void set_console(Console* replacement);

}  // namespace cobench::job
