#pragma once
// What a validation found: per method, per true effect of the fixture, the
// shares of regression / pass / inconclusive verdicts and the runs they took;
// per job the build and measuring times. Rendered as markdown (stdout,
// summary.md) and as JSON (summary.json).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "validate/campaign.h"
#include "validate/fixture.h"

namespace cobench::validate {

/// The verdicts of one row of the table (one true effect), for one method.
struct Tally {
  int verdicts = 0;
  int regression = 0;
  int pass = 0;
  int faster = 0;               ///< of the passes, those whose interval lies below 1
  int inconclusive = 0;         ///< with the layout-sensitive: undecided either way
  double runs_per_side = 0;     ///< the sum over verdicts of (runs_base + runs_head) / 2
  std::vector<double> ratios;   ///< the measured head/base ratios (those compared)

  /// Adds one verdict.
  void add(const JobVerdict& verdict);
  /// Runs per side per verdict; NaN when there is none.
  double mean_runs_per_side() const;
  /// The median measured ratio; NaN when none was compared.
  double median_ratio() const;
};

/// One method's tallies over its jobs.
struct MethodSummary {
  Method method;
  std::vector<Tally> rows;       ///< one per Fixture::rows, in that order
  /// Each benchmark's own verdicts, by target and name: which benchmarks of a
  /// suite raise the false alarms, and which never decide.
  std::map<std::pair<std::string, std::string>, Tally> benchmarks;
  std::vector<JobResult> jobs;   ///< its finished jobs, in run order
  /// Verdicts "pass" at a true slowdown of 10% or more: a failure of the method (should be 0).
  int pass_at_10_or_more = 0;
  int verdicts_at_10_or_more = 0;  ///< all verdicts at a true slowdown of 10% or more

  /// The measuring seconds of all its jobs per decided (pass or regression) verdict; NaN when none decided.
  double measuring_seconds_per_decided() const;
  /// The median over its jobs of the spread the control rule held rows to; NaN when no job had a control.
  double median_control_spread() const;
};

/// Tallies finished jobs by method and row. Verdicts on benchmarks the
/// fixture does not know are left out; failed jobs count in no row.
std::vector<MethodSummary> summarize(const Fixture& fixture, const std::vector<Method>& methods,
                                     const std::vector<JobResult>& jobs);

/// Where and how the campaign ran: printed before the tables.
struct Context {
  std::string command;                 ///< the exact command line, shell-quoted
  std::string version;                 ///< cobench's
  nlohmann::json host;                 ///< host::collect_host_context() at the start
  nlohmann::json load_end;             ///< the load average at the end ([1, 5, 15] minutes)
  int jobs_per_method = 0;             ///< as planned
  std::vector<std::string> job_args;   ///< every job's flags besides the method's
  std::string builds;                  ///< how builds are shared: "ccache (...)" or why every job builds anew
  double wall_seconds = 0;             ///< this sitting of the campaign
  /// With --resume: the earlier sittings' command lines, wall time and the jobs they finished (counted in the tables).
  std::vector<std::string> resumed_commands;
  double resumed_wall_seconds = 0;
  int resumed_jobs = 0;
  std::string stopped;                 ///< why it stopped early (interrupted, a job failed); empty: ran to the end
};

/// The markdown: the context, a table per method, the methods side by side
/// (when more than one), and every job in a folded table.
std::string render_markdown(const Context& context, const Fixture& fixture, const std::vector<MethodSummary>& methods);

/// The same as JSON (schema 1): counts, not only shares, so campaigns can be pooled.
nlohmann::json to_json(const Context& context, const Fixture& fixture, const std::vector<MethodSummary>& methods);

}  // namespace cobench::validate
