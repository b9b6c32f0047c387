#pragma once
// The runner seam: how one side's built benchmarks are turned into measurable
// units and how one run of a unit becomes a RunRecord. Google Benchmark is the
// first runner; Go (`go test -bench`) and plain commands plug in beside it.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cobench::run {

/// The two sides of a comparison.
enum class Side { Base, Head };

std::string to_string(Side side);                           ///< "base" | "head"
std::optional<Side> side_from_string(const std::string& text);  ///< nullopt when neither

/// Everything a runner may need about one prepared (checked out and built) side.
struct SideContext {
  Side side = Side::Base;
  std::string sha;                          ///< full commit SHA of the side
  std::filesystem::path worktree;           ///< the side's checkout
  std::filesystem::path build_dir;          ///< its build folder (empty when nothing is built)
  /// Built executables by target name (Google Benchmark: the discovered targets).
  std::map<std::string, std::filesystem::path> executables;
};

/// One measurable thing on one side: a benchmark executable, a Go package, a command.
struct Unit {
  std::string name;                         ///< target name; the same on both sides
  std::vector<std::string> argv;            ///< what one run executes (before per-run output flags)
  std::filesystem::path cwd;                ///< where it runs
};

/// One benchmark's sample from one run: metric name -> value. Times are ns
/// ("real_ns", "cpu_ns"); allocation runs add "allocs_per_iter", "bytes_per_iter".
using Sample = std::map<std::string, double>;

/// The outcome of one run of one unit on one side: a line of results.jsonl.
struct RunRecord {
  std::string target;
  Side side = Side::Base;
  std::string sha;
  int run = 0;                              ///< 0-based run index on that side
  std::string kind = "time";                ///< "time"; allocation runs use "alloc"
  std::string status = "ok";                ///< "ok" or the cause: "SIGSEGV", "exit 2", "timeout", "unparsable JSON"
  int exit_code = 0;                        ///< valid when the process exited
  int signal = 0;                           ///< non-zero when it was killed by a signal
  double wall_seconds = 0;
  std::map<std::string, Sample> samples;    ///< benchmark name -> sample; empty unless ok
  std::map<std::string, std::string> errors;  ///< benchmark name -> its own error/skip message
  std::string detail;                       ///< one line for people: "killed by SIGSEGV", parse error
  std::string log;                          ///< stderr log, relative to the output folder
  bool interrupted = false;                 ///< cancelled by SIGINT/SIGTERM: not data, never logged

  bool ok() const { return status == "ok"; }
};

/// Runs units of one kind. Implementations never throw for a benchmark's own
/// failure (crash, exit status, timeout, bad output): that is a failed RunRecord.
class Runner {
 public:
  virtual ~Runner() = default;
  /// The measurable units of one built side.
  virtual std::vector<Unit> prepare(const SideContext& side) = 0;
  /// Runs `unit` once as run `run_index` of `side`; `sha` is stamped on the record.
  virtual RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index) = 0;
  /// Benchmark names a unit would run, without measuring (for one-sided targets); may be empty.
  virtual std::vector<std::string> list(const Unit& unit) { return {}; }
};

}  // namespace cobench::run
