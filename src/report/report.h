#pragma once
// The report model every output is rendered from. report.json is its
// serialisation; `cobench report` rebuilds it from results.jsonl.
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/stats.h"
#include "verdict/change_reach.h"
#include "verdict/control.h"
#include "verdict/judge.h"
#include "verdict/layouts.h"

namespace cobench::report {

/// A number that could not be measured: NaN in the model, null in JSON.
inline constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

/// A run that produced no sample: crashed, non-zero exit, timeout, bad JSON.
struct FailedRun {
  std::string side;   ///< "base" | "head"
  int run = 0;        ///< run index on that side
  std::string cause;  ///< "SIGSEGV", "exit 2", "timeout", "unparsable JSON"
  std::string log;    ///< path of the kept stderr tail, relative to the report folder
};

/// How long one phase of the job took: "configure", "build", "reach", "runs",
/// "machine control", "analysis", "other" (the rest of the job: worktrees,
/// selection, cobench between runs).
struct PhaseTime {
  std::string name;
  double seconds = 0;
};

/// One benchmark compared across the two sides.
struct BenchmarkRow {
  std::string target;                  ///< empty for `compare`
  std::string name;
  std::vector<double> base_samples;    ///< metric values in ns (context for plots)
  std::vector<double> head_samples;
  double base_median = kUndefined;     ///< NaN (null in JSON, "-" in tables) without samples
  double head_median = kUndefined;
  /// The loop's own work per iteration per side (median of the least of real and
  /// cpu time, verdict::BenchmarkSamples::base_work): what "likely optimised away"
  /// reads. NaN where only the metric is known (`compare`): the medians stand in.
  double base_work = kUndefined;
  double head_work = kUndefined;
  double budget = 0.05;                ///< the time budget, a fraction: 0.05 means threshold 1.05
  std::string metric;                  ///< the time metric this row was judged on ("cpu_time"); empty: the report's
  /// Where the noise came from (log σ): inside a process (between repetitions)
  /// and between processes (a process's own offset); NaN when not measured.
  double within_sd = kUndefined;
  double between_sd = kUndefined;
  double repetitions = 1;              ///< repetitions per process in its runs (median)
  verdict::TimeJudgement time;         ///< ratio, interval, time verdict, faster
  bool time_measured = true;           ///< false: the job counted instructions only
  std::optional<verdict::InstructionJudgement> instructions;  ///< instructions per iteration, when counted
  verdict::Governing governing = verdict::Governing::Time;   ///< with time and instructions: whose verdict leads
  std::optional<verdict::MedianJudgement> allocs;  ///< allocs/op, when counted on both sides
  std::optional<verdict::MedianJudgement> bytes;   ///< bytes/op
  std::vector<verdict::UncountedBudget> uncounted_budgets;  ///< allocation budgets set but not counted
  verdict::Verdict verdict = verdict::Verdict::Inconclusive;  ///< overall: the worst judged metric
  std::string decided_by = "time";     ///< the metric that set `verdict` ("time", "instructions", "allocs/op", ...)
  std::string note;                    ///< why inconclusive, failures, warnings
  int runs_base = 0;                   ///< runs attempted per side (run only)
  int runs_head = 0;
  std::vector<FailedRun> failed_runs;
  bool is_control = false;             ///< an untouched benchmark bounding the noise
  std::string control_kind;            ///< "machine" (one binary as both sides) | "layout" (untouched, rebuilt)
  std::optional<bool> clears_control;  ///< compared with a control present: its interval clears the controls' spread
  std::optional<verdict::ChangeReach> reach;  ///< whether it executes the change (--reach); nullopt without a reach pass
  std::string optimised_away;          ///< why it likely measures nothing ("head: 0.32 ns per iteration"); "" when not
  int shard = 0;                       ///< in a merged report, the shard that measured it (1-based); else 0
  /// A claim's reading in each code layout measured, layout 1 (the job's own
  /// build) first; empty for a row that makes no claim or a job without layout confirmation.
  std::vector<verdict::LayoutReading> layouts = {};
  /// What the layouts made of the claim: confirmed or layout-sensitive;
  /// NeedsLayout while a layout it needs was not measured (a stopped job); nullopt when not checked.
  std::optional<verdict::LayoutOutcome> layout_outcome = {};
};

/// A benchmark present on one side only.
struct OneSided {
  std::string target;
  std::string name;
};

/// Per-target facts that are not per-benchmark: warnings, allocation status.
struct TargetInfo {
  std::string name;
  std::vector<std::string> warnings;   ///< e.g. "3 benchmark families in one TU: bench.cpp"
  std::string alloc_status;            ///< "measured (3 runs per side)" or why not
  int alloc_runs = 0;
  /// Every run on both sides failed: nothing was measured, an infrastructure
  /// failure (exit 3). Says the first failing run's command, how it ended and its output's tail.
  std::string failure = {};
  /// "measured (3 runs per side under callgrind, ...)" or why not; "" when instructions were not asked for.
  std::string instructions_status = {};
  int instruction_runs = 0;            ///< callgrind runs per side that gave counts
  int shard = 0;                       ///< in a merged report, the shard that built it (1-based); else 0
  /// Run length auto: how long its runs measured from its first look on, and from what noise
  /// split (results::describe); "" when the length was fixed.
  std::string run_length = {};
};

/// The whole comparison.
struct Report {
  int schema = 1;
  std::string tool = "compare";        ///< "compare" | "run"
  std::string base;                    ///< full SHA (run) or file list (compare)
  std::string head;
  std::string metric = "real_time";    ///< "real_time", "cpu_time" or "auto" (each row says its own)
  double budget = 0.05;
  double confidence = 0.95;            ///< the stated level; a row's interval may be at its look's level
  std::string look_rule;               ///< how the looks were made: "interim looks at 99.73%, the last ..."
  std::string reach_method;            ///< how reach was found (--reach); "" without a reach pass
  std::string control_rule;            ///< how the controls judged the rows; "" when no control had an interval
  std::string layout_rule;             ///< how claims were confirmed in other code layouts; "" when they were not
  std::string run_length_rule;         ///< how the run length was chosen (run length auto); "" when it was fixed
  std::vector<PhaseTime> phases;       ///< where the job's time went, in order; empty when not timed (a merge)
  nlohmann::json host = nlohmann::json::object();
  nlohmann::json settings = nlohmann::json::object();
  nlohmann::json selection = nlohmann::json::object();  ///< `cobench select` JSON, when run selected
  std::vector<BenchmarkRow> benchmarks;
  std::vector<OneSided> added;         ///< head only
  std::vector<OneSided> removed;       ///< base only
  std::vector<TargetInfo> targets;
  std::vector<std::string> notes;      ///< report-wide: time budget exhausted, interrupted, ...
  std::vector<verdict::ControlInterval> controls;  ///< the widest control of each kind that ran
  /// A merged report (`cobench merge`): one object per shard, in part order:
  /// index, count, folder, job, host (its own facts), targets (its part of the split).
  nlohmann::json shards = nlohmann::json::array();
};

/// A row for one benchmark: its samples and their medians, the time judged
/// against `budget` (a fraction) at `confidence`; the overall verdict is the
/// time verdict until settle_verdict() folds in allocs/op and bytes/op.
BenchmarkRow judged_row(std::string target, std::string name, std::vector<double> base, std::vector<double> head,
                        double budget, double confidence);

/// As above with the time already judged (paired, at a look): the row takes it as is.
BenchmarkRow judged_row(std::string target, std::string name, std::vector<double> base, std::vector<double> head,
                        double budget, verdict::TimeJudgement time);

/// The row's overall verdict from all its metrics and its reach
/// (verdict::fold); each metric that broke its budget is named in the note
/// ("allocs/op 0 → 1"), and an instruction verdict that disagrees with a
/// governing time verdict; a row that does not execute the change says so first.
void settle_verdict(BenchmarkRow& row);

/// Sets each row's optimised_away from its work per side, else its medians
/// (verdict::likely_optimised_away, families grouped within a target).
void flag_optimised_away(std::vector<BenchmarkRow>& rows);

/// The row's time per iteration on one side as flag_optimised_away reads it.
double work_per_iteration(const BenchmarkRow& row, bool base);

/// Whether the row's leading metric (the one in `decided_by` when it is time
/// or instructions) puts the whole interval or range below 1.
bool is_faster(const BenchmarkRow& row);

/// The targets whose every run failed, as "TARGET: FAILURE" lines (empty when none).
std::vector<std::string> infrastructure_failures(const Report& report);

/// Orders rows regressions → inconclusive and layout-sensitive → unrelated → faster → pass, then by target and name.
void sort_rows(std::vector<BenchmarkRow>& rows);

nlohmann::json to_json(const Report& report);
Report from_json(const nlohmann::json& json);  ///< throws InputError on a wrong shape

std::string render_table(const Report& report, bool color);   ///< terminal
std::string render_markdown(const Report& report);            ///< report.md
std::string render_junit(const Report& report);               ///< report.xml
std::string render_html(const Report& report);                ///< report.html

/// Writes report.json, report.md, report.xml and report.html into `dir`.
void write_reports(const Report& report, const std::filesystem::path& dir);

/// The files write_reports() writes ("report.json", "report.md", ...), in
/// order: the one list the report folder's owner (job::OutputDir) and the
/// terminal's "reports:" line read too.
const std::vector<std::string>& report_file_names();

/// "DIR/report.{json,md,xml,html}": where the reports are, for the terminal.
std::string describe_report_files(const std::filesystem::path& dir);

}  // namespace cobench::report
