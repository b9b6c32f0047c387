#pragma once
// One run's outcome, as results.jsonl records it: which target and side ran,
// how the process ended, and the per-benchmark samples it produced.
#include <map>
#include <optional>
#include <string>

namespace cobench::results {

/// The two sides of a comparison.
enum class Side { Base, Head };

std::string to_string(Side side);                           ///< "base" | "head"
std::optional<Side> side_from_string(const std::string& text);  ///< nullopt when neither

/// One benchmark's sample from one run: metric name -> value. Times are ns
/// ("real_ns", "cpu_ns"); allocation runs add "allocs_per_iter", "bytes_per_iter".
using Sample = std::map<std::string, double>;

/// The outcome of one run of one unit on one side: a line of results.jsonl.
struct RunRecord {
  std::string job;                          ///< the job's id (results.jsonl); empty in records not yet logged
  std::string target;
  Side side = Side::Base;
  std::string sha;
  int run = 0;                              ///< 0-based run index on that side
  std::string kind = "time";                ///< "time"; allocation runs use "alloc"
  int layout = 1;                           ///< the code layout both sides were built in (1: the job's own build)
  std::string status = "ok";                ///< "ok" or the cause: "SIGSEGV", "exit 2", "timeout", "unparsable JSON"
  int exit_code = 0;                        ///< valid when the process exited
  int signal = 0;                           ///< non-zero when it was killed by a signal
  double wall_seconds = 0;
  std::map<std::string, Sample> samples;    ///< benchmark name -> sample; empty unless ok
  std::map<std::string, std::string> errors;  ///< benchmark name -> its own error/skip message
  std::string detail;                       ///< one line for people: "killed by SIGSEGV", parse error
  std::string log;                          ///< stderr log, relative to the output folder
  std::string command;                      ///< failed runs: the command line, shell-quoted for people
  std::string output_tail;                  ///< failed runs: the last lines the process printed
  bool interrupted = false;                 ///< cancelled by SIGINT/SIGTERM: not data, never logged

  bool ok() const { return status == "ok"; }
};

/// The status of the allocation record (kind "alloc", no samples) that ends a
/// target's informational allocation runs after a first pair whose sides
/// counted alike. Logged so that the reports say why fewer runs ran from what
/// was decided, not from a guess; not a failure.
inline constexpr const char* kCountedAlikeStatus = "counted alike";

}  // namespace cobench::results
