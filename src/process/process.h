#pragma once
// The only place cobench starts processes: fork + exec with an argv array,
// never a shell string. Children get their own process group (and, when asked
// and possible, their own cgroup) so a timeout or a cancellation can kill
// everything they started. Their stdout and stderr are pipes that cobench
// reads into files or strings of bounded size.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cobench::process {

/// What to run and how.
struct Command {
  std::vector<std::string> argv;  ///< argv[0] is looked up in PATH unless it has a '/'
  std::filesystem::path cwd;      ///< empty: inherit
  /// Full environment ("KEY=VALUE"). nullopt: inherit cobench's own.
  std::optional<std::vector<std::string>> env;
  /// Applied on top of env (or the inherited one): set or replace KEY.
  std::vector<std::pair<std::string, std::string>> env_overrides;
  std::optional<int> cpu;               ///< pin the child to this CPU (sched_setaffinity)
  /// The child's stdout, written by cobench from a pipe (capped: keep_output_bytes);
  /// empty: capture into Result::out.
  std::filesystem::path stdout_path;
  std::filesystem::path stderr_path;    ///< empty: capture into Result::err
  bool merge_stderr_into_stdout = false;
  /// Of each captured stream (file or memory) keep the first and the last this
  /// many bytes and put "[cobench: N bytes cut here]" between them, so a
  /// benchmark that prints a gigabyte leaves a log of kilobytes. 0 keeps
  /// everything: for output that is data to parse (git's, `go test`'s).
  std::size_t keep_output_bytes = 64 * 1024;
  double timeout_seconds = 0;           ///< 0: no limit
  bool stop_on_cancellation = true;     ///< kill the child when SIGINT/SIGTERM arrives
  /// Run in a cgroup v2 of its own, killed whole when the run ends however it
  /// ends, so that nothing the command starts outlives it, not even a
  /// grandchild in a new session (setsid) that ignores SIGTERM. Where cgroups
  /// are unavailable the process group is all there is (Result::containment).
  bool own_cgroup = false;
};

/// How a process ended, with its resource usage.
struct Result {
  enum class Outcome { Exited, Signaled, TimedOut, SpawnFailed, Interrupted };
  Outcome outcome = Outcome::SpawnFailed;
  int exit_code = -1;       ///< valid when Exited
  int signal = 0;           ///< valid when Signaled
  double wall_seconds = 0;
  double user_seconds = 0;
  double sys_seconds = 0;
  long max_rss_kib = 0;
  std::string out;          ///< captured stdout (when not redirected to a file)
  std::string err;          ///< captured stderr (when not redirected to a file)
  std::string spawn_error;  ///< why it could not start
  /// What held the process and its descendants: "cgroup v2 (<parent folder>)",
  /// or "process group", with the reason when a cgroup was asked for.
  std::string containment = "process group";

  bool ok() const { return outcome == Outcome::Exited && exit_code == 0; }
};

/// Runs a command to completion (or timeout/cancellation). Never throws for
/// the child's failures: they are data in Result.
Result run(const Command& command);

/// What Command::own_cgroup gets on this machine: Result::containment of a
/// trivial command run that way, found once per cobench process.
std::string containment();

/// Where `program` is in the folders of cobench's own PATH (the first
/// executable regular file of that name); nullopt when none has it.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

/// Convenience: run argv in cwd and capture output.
Result run_capture(std::vector<std::string> argv, const std::filesystem::path& cwd = {});

/// "exit status 2", "killed by SIGSEGV", "timed out after 300 s", "could not start: ...".
std::string describe(const Result& result);

/// Short cause for tables: "exit 2", "SIGSEGV", "timeout", "spawn failed".
std::string short_cause(const Result& result);

/// argv as a shell-quoted line, for messages only (never executed); each
/// argument longer than 256 bytes is shown shortened, saying its length.
std::string quote_command_line(const std::vector<std::string>& argv);

/// Last `max_lines` lines of text.
std::string tail_lines(const std::string& text, size_t max_lines);

/// Signal name without number: SIGSEGV, SIGKILL, "signal 42".
std::string signal_name(int sig);

}  // namespace cobench::process
