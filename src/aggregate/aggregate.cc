#include "aggregate/aggregate.h"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aggregate/alloc_metrics.h"
#include "aggregate/failed_runs.h"
#include "aggregate/instruction_metrics.h"
#include "core/note.h"
#include "verdict/futility.h"
#include "verdict/judging.h"
#include "results/noise_split.h"
#include "results/run_length.h"
#include "results/samples.h"
#include "verdict/control.h"
#include "verdict/layouts.h"
#include "verdict/measures_nothing.h"

namespace cobench::aggregate {
namespace {

/// What happened to one target's timing runs.
struct TargetRuns {
  int attempted[2] = {0, 0};
  int succeeded[2] = {0, 0};
  std::vector<report::FailedRun> failed;
  std::map<std::string, std::string> errors;  // benchmark -> "head: message"
  std::set<std::string> head_errors;          // benchmarks that reported an error (SkipWithError) in a head run
  const results::RunRecord* first_failure = nullptr;   // explains a target whose every run failed
};

/// Targets in first-seen order with their run counts.
std::vector<std::pair<std::string, TargetRuns>> tally(const std::vector<results::RunRecord>& runs) {
  std::vector<std::pair<std::string, TargetRuns>> out;
  for (const auto& record : runs) {
    if (record.kind != "time") continue;
    auto it = std::find_if(out.begin(), out.end(), [&](auto& t) { return t.first == record.target; });
    if (it == out.end()) it = out.insert(out.end(), {record.target, TargetRuns{}});
    auto& target = it->second;
    const int side = record.side == results::Side::Base ? 0 : 1;
    ++target.attempted[side];
    if (record.ok()) {
      ++target.succeeded[side];
      for (const auto& [name, message] : record.errors) {
        target.errors[name] = to_string(record.side) + ": " + message;
        if (record.side == results::Side::Head) target.head_errors.insert(name);
      }
    } else {
      target.failed.push_back({to_string(record.side), record.run, record.status, record.log});
      if (!target.first_failure) target.first_failure = &record;
    }
  }
  return out;
}

/// A warning when the runner was loaded: its load average at the start reached
/// its CPU count, or the benchmark processes got under 0.8 of a CPU (median
/// cpu_time/real_time). It says what that does to the rows and what helps.
std::optional<std::string> loaded_runner_note(const results::ResultsFile& results, const std::vector<report::BenchmarkRow>& rows) {
  std::vector<double> shares;
  for (const auto& record : results.runs) {
    if (record.kind != "time" || !record.ok()) continue;
    for (const auto& [name, sample] : record.samples) {
      auto real = sample.find("real_ns"), cpu = sample.find("cpu_ns");
      if (real != sample.end() && cpu != sample.end() && real->second > 0) shares.push_back(cpu->second / real->second);
    }
  }
  // Nothing was timed on it (instruction counts do not depend on the load).
  if (std::none_of(results.runs.begin(), results.runs.end(), [](const results::RunRecord& r) { return r.kind == "time"; }))
    return std::nullopt;
  const double share = shares.empty() ? 1 : stats::median(shares);
  // The host line is read as it came (a hand-edited or another tool's file): a fact of another type is no fact.
  const auto count = results.host.find("cpu_count");
  const bool counted = count != results.host.end() && count->is_number_integer() && count->get<int64_t>() > 0 &&
                       count->get<int64_t>() <= (1 << 20);
  const int cpus = counted ? static_cast<int>(count->get<int64_t>()) : 0;
  const auto found = results.host.find("load_average");
  const nlohmann::json averages =
      found != results.host.end() && found->is_array() ? *found : nlohmann::json::array();
  const double load = !averages.empty() && averages[0].is_number() ? averages[0].get<double>() : 0;
  const bool loaded = (cpus > 0 && load >= cpus) || share < 0.8;
  if (!loaded) return std::nullopt;
  std::vector<std::string> facts;
  if (cpus > 0 && !averages.empty()) facts.push_back(fmt::format("load average {:g} on {} CPUs at the start", load, cpus));
  if (!shares.empty())
    facts.push_back(fmt::format("benchmark processes got {:.0f}% of a CPU (median cpu_time/real_time)", share * 100));
  const long real_rows = std::count_if(rows.begin(), rows.end(), [](const auto& row) { return row.metric == "real_time"; });
  std::string effect = real_rows > 0
                           ? fmt::format("; {} of {} rows are judged on real_time, which counts the time a run waited "
                                         "for a CPU: their intervals are wider",
                                         real_rows, rows.size())
                           : "";
  const std::string metric_hint =
      real_rows > 0 && results.settings.metric != "auto" ? ", --metric auto (cpu_time for single-threaded benchmarks)" : "";
  return fmt::format("the runner was loaded: {}{}. What helps: a quieter runner (fewer parallel jobs on it){}, more "
                     "runs (--max-runs), a looser budget",
                     fmt::join(facts, ", "), effect, metric_hint);
}

/// Rows whose head measured nothing while their base did, because the head
/// failed in every run (a crash, an exit status, a timeout: the targets of
/// `broken_targets`) or the benchmark reported an error in every head run
/// that ran (SkipWithError: the (target, name) pairs of `errored_on_head`;
/// the row's note names the error). The change broke the benchmark: a
/// regression of the change, never a row left inconclusive, and its note says
/// so first. Applied last, so no control, reach or allocation rule turns it back.
void mark_broken_by_the_change(report::Report& out, const std::set<std::string>& broken_targets,
                               const std::set<std::pair<std::string, std::string>>& errored_on_head) {
  for (auto& row : out.benchmarks) {
    if (row.is_control || !row.head_samples.empty() || row.base_samples.empty()) continue;
    std::string how;
    if (broken_targets.count(row.target))
      how = "the head failed in every run";
    else if (errored_on_head.count({row.target, row.name}))
      how = "the head reported an error in every run";
    else
      continue;
    row.time.verdict = row.verdict = verdict::Verdict::Regression;
    row.decided_by = "time";
    prepend_note(row.note, "broken by the change: " + how + ", the base did not");
  }
}

}  // namespace

/// How many pairs the schedule had run of a benchmark when it last looked at it: its last run index + 1.
int runs_of(const verdict::BenchmarkSamples& s) {
  int last_run = -1;
  for (const auto* runs : {&s.base_runs, &s.head_runs})
    for (int run : *runs) last_run = std::max(last_run, run);
  return last_run + 1;
}

/// How many pairs the schedule ran of a target: those of its longest-measured benchmark.
int pairs_of_target(const std::map<std::string, verdict::BenchmarkSamples>& samples) {
  int pairs = 0;
  for (const auto& [name, s] : samples) pairs = std::max(pairs, runs_of(s));
  return pairs;
}

/// Whether a benchmark was still measured when its target was stopped undecided (max_runs, the
/// time budget): `target_pairs` is the target's pair count, nullopt when it was not stopped.
bool ran_until_stopped(const verdict::BenchmarkSamples& s, std::optional<int> target_pairs) {
  return target_pairs && runs_of(s) >= *target_pairs;
}

/// The look the schedule last took at a benchmark: the final one when it ran in the pair at
/// max_runs or until its target was stopped undecided; otherwise the look that decided it (or found
/// it not worth more runs), after which it ran no more, also when its target went on and was later
/// stopped for its other benchmarks (judged at the final look, a row the first look decided on its
/// runs as two samples read as paired at 95.5%, another test at another level than the one that
/// decided it).
verdict::Look last_look(const verdict::BenchmarkSamples& s, std::optional<int> target_pairs, int max_runs) {
  return ran_until_stopped(s, target_pairs) ? verdict::Look::Final : verdict::LookRule::look_at(runs_of(s), max_runs);
}

/// The pair count of `target` when the schedule stopped it undecided, nullopt when it did not.
std::optional<int> stopped_after(const results::ResultsFile& results, const std::string& target,
                                 const std::map<std::string, verdict::BenchmarkSamples>& samples) {
  if (!results.stops.count(target)) return std::nullopt;
  return pairs_of_target(samples);
}

/// Which control `target` is in this job: "machine", "layout", or "" for a measured target.
std::string control_kind_of(const results::JobSettings& settings, const std::string& target) {
  const auto& layout = settings.layout_controls;
  if (!settings.machine_control.empty() && target == settings.machine_control) return "machine";
  if (std::find(layout.begin(), layout.end(), target) != layout.end()) return "layout";
  return "";
}

/// "layout control bench_join/BM_Join/64: 1.031 [1.020, 1.043]": one control's interval, for notes.
std::string control_text(const verdict::ControlInterval& c) {
  return fmt::format("{} control {}: {:.3f} [{:.3f}, {:.3f}]", c.kind, c.name, c.ratio, c.ci_low, c.ci_high);
}

/// Why a claim fell to the controls, for the row's note.
std::string withdrawn_note(verdict::Claim claim, const stats::RatioEstimate& row_estimate, const verdict::ControlShift& shift,
                           const verdict::ControlOutcome& outcome, double budget) {
  const bool regression = claim == verdict::Claim::Regression;
  const std::string way = regression ? "slower" : "faster";
  if (shift.rule == verdict::ControlRule::Spread) {
    const auto& widest = *shift.slower_by;
    return fmt::format("within the controls' spread of ±{:.1f}% ({}): not told apart from no change",
                       widest.spread * 100, control_text(widest));
  }
  if (const auto& shown = regression ? shift.slower_by : shift.faster_by;
      shown && !verdict::clears_shown_shift(claim, row_estimate, budget, shift))
    return fmt::format("the controls show the head side {:+.1f}% {} with no change ({}), and this interval does not "
                       "clear the budget on top of that: not told apart from no change",
                       ((regression ? shown->ci_low : shown->ci_high) - 1) * 100, way, control_text(*shown));
  if (!outcome.net_against) {  // every control too wide to tell yet
    const auto& bound = regression ? shift.slower_bound_by : shift.faster_bound_by;
    return fmt::format("no control rules out yet that the head side is up to {:+.1f}% {} with no change ({}), and "
                       "this interval does not clear the budget on top of that: not told apart from no change before "
                       "the last look",
                       ((regression ? shift.slower_bound : shift.faster_bound) - 1) * 100, way, control_text(*bound));
  }
  const auto& against = *outcome.net_against;
  const bool shows = against.ci_low > 1 || against.ci_high < 1;
  const std::string which =
      shows ? fmt::format("the controls show the head side {:+.1f}% {} with no change ({})",
                          ((regression ? against.ci_low : against.ci_high) - 1) * 100, way, control_text(against))
            : fmt::format("the {} is narrow enough to have shown a shift of the budget's size", control_text(against));
  if (!outcome.net || !outcome.net->ci_reachable)
    return fmt::format("{}; too few runs beside that control to take it out: not told apart from no change", which);
  const auto& net = *outcome.net;
  return fmt::format("{}; net of that control, this row reads {:.3f} [{:.3f}, {:.3f}], {}: not told "
                     "apart from no change",
                     which, net.ratio, net.ci_low, net.ci_high,
                     regression ? fmt::format("not wholly above {:g}", verdict::budget_line(budget)) : std::string("not wholly below 1"));
}

/// Marks the controls' rows and applies the control rule (verdict::claim_stands,
/// through apply_control_rule as the schedule does) to every other row: a
/// regression it does not let stand becomes inconclusive, a "faster" row a
/// plain pass, and the note says which control showed what.
void apply_controls(report::Report& out, const results::ResultsFile& results) {
  const results::JobSettings& settings = results.settings;
  std::map<std::string, std::string> kinds;
  for (auto& row : out.benchmarks) {
    row.control_kind = control_kind_of(settings, row.target);
    if (row.control_kind.empty()) continue;
    row.is_control = true;
    kinds[row.target] = row.control_kind;
  }
  const verdict::TimeRule rule = results::time_rule(settings);
  const auto control_samples = results::control_samples(results.runs, kinds, rule.metric);
  const verdict::JobControls controls = verdict::judge_controls(control_samples, rule);
  const std::vector<verdict::ControlInterval>& intervals = controls.controls;
  out.controls = verdict::telling_per_kind(intervals);
  if (intervals.empty()) return;
  out.control_rule = verdict::describe(rule.controls);
  const verdict::ControlShift& shift = controls.shift_at(verdict::Look::Final);
  // A row the schedule decided at an interim look was judged against the controls' runs until then: the
  // reports judge it against the same runs, not against what the controls read later, and on the metric
  // `auto` chose from those runs (on a loaded runner a control's later runs can turn it to real_time).
  std::map<int, verdict::JobControls> controls_by_runs;
  auto controls_after = [&](int runs) -> const verdict::JobControls& {
    auto [found, fresh] = controls_by_runs.try_emplace(runs);
    if (fresh) {
      std::vector<results::RunRecord> then;
      std::copy_if(results.runs.begin(), results.runs.end(), std::back_inserter(then),
                   [&](const results::RunRecord& r) { return kinds.count(r.target) && r.run < runs; });
      found->second = verdict::judge_controls(results::control_samples(then, kinds, rule.metric), rule);
    }
    return found->second;
  };
  struct TargetSamples {
    std::map<std::string, verdict::BenchmarkSamples> benchmarks;
    std::optional<int> stopped_after;  // its pair count when stopped undecided
  };
  std::map<std::string, TargetSamples> samples_by_target;
  for (auto& row : out.benchmarks) {
    if (row.is_control || !row.time.compared || !row.time.estimate.ci_reachable) continue;
    row.clears_control = verdict::clears(row.time.estimate, shift);
    if (row.time.verdict != verdict::Verdict::Regression && !row.time.faster) continue;
    auto [target, fresh] = samples_by_target.try_emplace(row.target);
    if (fresh) {
      target->second.benchmarks = results::collect_samples(results.runs, row.target, settings.metric);
      target->second.stopped_after = stopped_after(results, row.target, target->second.benchmarks);
    }
    const double budget = settings.budgets.for_benchmark(row.target, row.name).time;
    const verdict::BenchmarkSamples& samples = target->second.benchmarks[row.name];
    const verdict::Look look = last_look(samples, target->second.stopped_after, settings.max_runs);
    const verdict::JobControls& judged_against = look == verdict::Look::Final ? controls : controls_after(runs_of(samples));
    const auto outcome = verdict::apply_control_rule(row.time, budget, judged_against, rule, look);
    const verdict::ControlShift& shift_then = judged_against.shift_at(look);
    if (!outcome.regression_stands) {
      row.time.verdict = row.verdict = verdict::Verdict::Inconclusive;
      append_note(row.note, withdrawn_note(verdict::Claim::Regression, row.time.estimate, shift_then, outcome, budget));
    } else if (row.time.faster && !outcome.faster_stands) {
      row.time.faster = false;
      append_note(row.note, withdrawn_note(verdict::Claim::Faster, row.time.estimate, shift_then, outcome, budget));
    }
  }
}

/// One layout's reading of a row from its time judgement.
verdict::LayoutReading reading_of(int layout, const verdict::TimeJudgement& time) {
  const auto& e = time.estimate;
  const bool interval = time.compared && e.ci_reachable;
  return {layout, verdict::layout_verdict_of(time.verdict, time.faster), time.compared ? e.ratio : report::kUndefined,
          interval ? e.ci_low : report::kUndefined, interval ? e.ci_high : report::kUndefined};
}

/// A confirmed claim in a target where the second layout overturned another
/// claim, in a results file whose other layouts were moved plain builds: that
/// target's timings move with code layout, and one more layout agreeing does
/// not rule out that this claim is layout too (on kokkos/mdspan 2 of 7 layout
/// effects held in the 48-byte layout and were passes in layout-stable
/// builds). The row keeps its verdict; its note says what tells.
void note_layout_sensitive_neighbours(report::Report& out, const results::JobSettings& settings) {
  // Layout-stable layouts already keep every unchanged function's alignment: a claim they confirm is not that.
  if (settings.other_layouts_aligned()) return;
  std::map<std::string, int> overturned;  // target -> its layout-sensitive rows
  for (const auto& row : out.benchmarks)
    if (row.layout_outcome == verdict::LayoutOutcome::LayoutSensitive) ++overturned[row.target];
  for (auto& row : out.benchmarks) {
    const auto found = overturned.find(row.target);
    if (row.layout_outcome != verdict::LayoutOutcome::Confirmed || found == overturned.end()) continue;
    append_note(row.note, fmt::format("{} other claim{} of {} read otherwise in another layout: its timings move with "
                                      "code layout, and --layout-stable builds tell a layout effect from the change",
                                      found->second, found->second == 1 ? "" : "s", row.target));
  }
}

/// Layout confirmation (verdict/layouts.h): every claimed row's reading in
/// each layout its claimed benchmarks were re-measured in, judged as the
/// schedule judges (same metric as layout 1, same look rule; no controls run
/// beside them), and the outcome. A claim the layouts do not confirm reads
/// layout-sensitive; one whose check did not finish (the job's notes say why)
/// keeps its verdict and says so.
void apply_layouts(report::Report& out, const results::ResultsFile& results) {
  const results::JobSettings& settings = results.settings;
  out.layout_rule = verdict::describe_layout_rule(settings.layouts, settings.other_layouts_aligned());
  // The default asks for two layouts; a shared parent library makes one, and the reports say why.
  if (settings.layouts < 2 && settings.shared_parent)
    out.layout_rule = "one code layout: claims are not re-measured in another, since both sides link one shared parent "
                      "library build and another layout is a rebuild of each side";
  if (settings.layouts < 2) return;
  const verdict::TimeRule rule = results::time_rule(settings);
  for (auto& row : out.benchmarks) {
    if (row.decided_by != "time" || !row.time.compared) continue;  // a claim of allocations or instructions stands as counted
    const verdict::LayoutReading first = reading_of(1, row.time);
    if (!verdict::needs_layout_check(first.verdict, row.is_control)) continue;
    row.layouts = {first};
    for (int layout = 2; layout <= settings.layouts; ++layout) {
      std::vector<results::RunRecord> runs;
      std::copy_if(results.layout_runs.begin(), results.layout_runs.end(), std::back_inserter(runs),
                   [&](const results::RunRecord& r) { return r.layout == layout && r.target == row.target; });
      const auto samples = results::collect_samples(runs, row.target, row.metric.empty() ? settings.metric : row.metric);
      const auto found = samples.find(row.name);
      if (found == samples.end() || found->second.base.empty() || found->second.head.empty()) break;
      const verdict::Look look = last_look(found->second, false, settings.max_runs);
      row.layouts.push_back(reading_of(layout, verdict::judge_samples(found->second, row.budget, rule, look)));
      if (verdict::decide_layouts(row.layouts, settings.layouts, row.budget) != verdict::LayoutOutcome::NeedsLayout) break;
    }
    // Before layout 2 is measured this is the layout step's question: which rows need it.
    row.layout_outcome = row.layouts.size() < 2 ? verdict::LayoutOutcome::NeedsLayout
                                                : verdict::decide_layouts(row.layouts, settings.layouts, row.budget);
    if (*row.layout_outcome == verdict::LayoutOutcome::LayoutSensitive) row.verdict = verdict::Verdict::LayoutSensitive;
    if (*row.layout_outcome == verdict::LayoutOutcome::NeedsLayout)
      append_note(row.note, fmt::format("not confirmed: layout {} was not measured", row.layouts.size() + 1));
  }
  note_layout_sensitive_neighbours(out, settings);
}

/// Each measured row's reach from the reach lines: its instance's entry, else
/// its target's answer, else the job's; a row the reach pass has nothing for
/// is unknown. Controls (untouched by definition) carry none.
void apply_reach(report::Report& out, const results::ResultsFile& results) {
  if (!results.settings.reach) return;
  const results::ReachRecord* job = nullptr;
  std::map<std::string, const results::ReachRecord*> by_target;
  for (const auto& record : results.reach) (record.target.empty() ? job : by_target[record.target]) = &record;
  for (auto& row : out.benchmarks) {
    if (row.is_control) continue;
    auto target = by_target.find(row.target);
    if (target != by_target.end()) {
      auto instance = target->second->instances.find(row.name);
      row.reach = instance != target->second->instances.end() ? instance->second : target->second->fallback;
      if (instance == target->second->instances.end() && row.reach->reason.empty())
        row.reach->reason = "its coverage run did not list this benchmark";
    } else if (job) {
      row.reach = job->fallback;
    } else {
      row.reach = verdict::ChangeReach{verdict::ChangeReach::Status::Unknown, 0, 0, "no coverage pass for its target"};
    }
  }
}

/// The reached targets a benchmark filter narrowed away: it matched none of their benchmarks.
void note_filtered_out(report::Report& out, const results::ResultsFile& results) {
  if (!out.selection.is_object() || !out.selection.contains("filter") || !out.selection["filter"].is_string()) return;
  nlohmann::json filtered = nlohmann::json::array();
  for (const auto& [target, reason] : results.stops)
    if (reason.find("matches no benchmark") != std::string::npos) filtered.push_back(target);
  if (!filtered.empty()) out.selection["filtered_out"] = filtered;
}

/// Why nothing of a target was measured, when every run on both sides failed; "" otherwise.
std::string every_run_failed(const TargetRuns& runs) {
  if (runs.succeeded[0] + runs.succeeded[1] > 0 || !runs.first_failure) return "";
  return fmt::format("every run failed (base {}/{}, head {}/{}); first: {}", runs.attempted[0], runs.attempted[0],
                     runs.attempted[1], runs.attempted[1], describe_failed_run(*runs.first_failure));
}

std::vector<report::PhaseTime> phases_of(const results::ResultsFile& results) {
  std::vector<report::PhaseTime> out;
  double machine_control = 0;
  for (const auto& run : results.runs)
    if (!results.settings.machine_control.empty() && run.target == results.settings.machine_control)
      machine_control += run.wall_seconds;
  double job = 0, timed = 0;
  for (const auto& phase : results.phases) {
    if (phase.name == "job") {
      job = phase.seconds;
      continue;
    }
    if (phase.name == "measuring") {  // the machine control's processes are measuring's cost of its own
      const double runs = std::max(0.0, phase.seconds - machine_control);
      out.push_back({"runs", runs});
      if (machine_control > 0) out.push_back({"machine control", std::min(machine_control, phase.seconds)});
    } else {
      out.push_back({phase.name, phase.seconds});
    }
    timed += phase.seconds;
  }
  if (job > timed) out.push_back({"other", job - timed});
  return out;
}

report::Report report_of(const results::ResultsFile& results, const std::string& source) {
  report::Report out;
  out.tool = "run";
  const results::JobSettings& settings = results.settings;
  out.host = results.host;
  out.settings = to_json(settings);
  out.base = settings.base;
  out.head = settings.head;
  out.metric = settings.metric;
  out.confidence = settings.confidence;
  out.budget = settings.budgets.defaults().time;
  out.selection = settings.selection;
  const verdict::TimeRule rule = results::time_rule(settings);
  out.look_rule = verdict::describe(rule);
  out.reach_method = settings.reach_method;
  out.phases = phases_of(results);
  if (settings.run_length == "auto")
    out.run_length_rule = results::describe_auto_rule(settings.min_time, settings.min_runs, settings.first_pairs_share);

  std::set<std::string> broken_targets;  // every head run failed, some base run did not
  std::set<std::pair<std::string, std::string>> errored_on_head;  // (target, benchmark) that reported an error on head
  for (const auto& [target, runs] : tally(results.runs)) {
    if (runs.attempted[1] > 0 && runs.succeeded[1] == 0 && runs.succeeded[0] > 0) broken_targets.insert(target);
    // The machine control runs a measured target's binary: its failures are that target's, said once there.
    const std::string failure = target == settings.machine_control ? "" : every_run_failed(runs);
    out.targets.push_back(report::TargetInfo{target, {}, {}, 0, failure});
    if (auto length = results.run_lengths.find(target); length != results.run_lengths.end())
      out.targets.back().run_length = results::describe(length->second);
    auto samples = results::collect_samples(results.runs, target, settings.metric, target == settings.machine_control);
    for (const auto& [name, message] : runs.errors) samples[name];  // a row even without samples
    for (const auto& name : runs.head_errors) errored_on_head.insert({target, name});
    std::vector<std::string> notes = failure_notes(runs.failed, "base", runs.attempted[0]);
    for (auto& note : failure_notes(runs.failed, "head", runs.attempted[1])) notes.push_back(note);
    auto stop = results.stops.find(target);
    const std::optional<int> target_pairs = stopped_after(results, target, samples);  // once: a target may have thousands
    for (const auto& [name, s] : samples) {
      // A side that ran fine but never reported this benchmark: added/removed, not compared.
      if (s.base.empty() && runs.succeeded[0] > 0 && !s.head.empty() && !runs.errors.count(name)) {
        out.added.push_back({target, name});
        continue;
      }
      if (s.head.empty() && runs.succeeded[1] > 0 && !s.base.empty() && !runs.errors.count(name)) {
        out.removed.push_back({target, name});
        continue;
      }
      const double budget = settings.budgets.for_benchmark(target, name).time;
      // A control decides nothing: its interval bounds what no change does in this job, at the stated
      // level, however early it stopped (an interim 99.73% interval of 10 pairs is their extremes).
      const verdict::Look look = !control_kind_of(settings, target).empty()
                                     ? verdict::Look::Final
                                     : last_look(s, target_pairs, settings.max_runs);
      auto row = report::judged_row(target, name, s.base, s.head, budget, verdict::judge_samples(s, budget, rule, look));
      row.metric = s.metric;
      row.base_work = verdict::least_work(s.base_work);
      row.head_work = verdict::least_work(s.head_work);
      append_note(row.note, s.metric_note);
      // A benchmark that reported an error in every run has no samples, and so no metric to split.
      if (const auto split = s.metric.empty() ? results::VarianceSplit{}
                                              : results::variance_split(results.runs, target, name, results::sample_key_for_metric(s.metric));
          split.known) {
        row.within_sd = split.within;
        row.between_sd = split.between;
        row.repetitions = split.repetitions;
      }
      row.runs_base = runs.attempted[0];
      row.runs_head = runs.attempted[1];
      row.failed_runs = runs.failed;
      if (auto e = runs.errors.find(name); e != runs.errors.end()) append_note(row.note, e->second);
      for (const auto& note : notes) append_note(row.note, note);
      if (stop != results.stops.end() && row.verdict == verdict::Verdict::Inconclusive &&
          ran_until_stopped(s, target_pairs))
        append_note(row.note, stop->second);
      // The schedule stopped measuring it (run/schedule.cc): the same projection says why it is open. (A
      // control is judged at the final look.)
      else if (look != verdict::Look::Final) {
        if (const auto why = verdict::not_worth_more_runs(row.time, budget, verdict::complete_pairs(s), settings.max_runs,
                                                          rule.looks.confidence(verdict::Look::Final)))
          append_note(row.note, *why);
      }
      out.benchmarks.push_back(std::move(row));
    }
  }
  apply_instruction_metrics(out, results);  // before the controls: rows a job counting instructions only adds are marked too
  apply_controls(out, results);
  apply_reach(out, results);
  report::flag_optimised_away(out.benchmarks);
  for (auto& row : out.benchmarks)  // the schedule stopped measuring these (run/schedule.cc): say why they are open
    if (row.verdict == verdict::Verdict::Inconclusive &&
        verdict::worth_no_more_runs(row.optimised_away.find("base: ") != std::string::npos,
                                    row.optimised_away.find("head: ") != std::string::npos,
                                    report::work_per_iteration(row, true), report::work_per_iteration(row, false),
                                    row.budget))
      append_note(row.note, "not measured further: it likely measures nothing on either side");
  note_filtered_out(out, results);
  for (const auto& target : results.one_sided) {
    auto& list = target.side == results::Side::Head ? out.added : out.removed;
    if (target.names.empty()) list.push_back({target.target, ""});
    for (const auto& name : target.names) list.push_back({target.target, name});
  }
  out.notes = results.notes;
  if (settings.shard) out.notes.push_back(results::shard_note(*settings.shard));  // where the rest of the selection is
  if (settings.layout_probe)
    out.notes.push_back(
        "layout probe: base and head are one commit, the head side's translation units each start with an unused "
        "function; every ratio is layout noise, and a row that clears the machine control is a layout effect "
        "these benchmarks are subject to");
  // Several families in one source: said once for the job (each target's sources are in the selection).
  if (const auto layout = out.selection.find("layout_summary"); layout != out.selection.end() && layout->is_string())
    out.notes.push_back("layout: " + layout->get<std::string>());
  // A stop reason goes on the target's inconclusive rows; a target without rows still says why it stopped.
  for (const auto& [target, reason] : results.stops) {
    auto of_target = [&target = target](const auto& row) { return row.target == target; };
    auto failed = [&target = target](const report::TargetInfo& info) { return info.name == target && !info.failure.empty(); };
    if (std::any_of(out.targets.begin(), out.targets.end(), failed)) continue;  // its failure says more
    if (std::none_of(out.benchmarks.begin(), out.benchmarks.end(), of_target) &&
        std::none_of(out.added.begin(), out.added.end(), of_target) &&
        std::none_of(out.removed.begin(), out.removed.end(), of_target))
      out.notes.push_back(fmt::format("{}: {}", target, reason));
  }
  if (auto loaded = loaded_runner_note(results, out.benchmarks)) out.notes.insert(out.notes.begin(), *loaded);  // context first
  // Nothing measured is never a pass: say it first, in every report.
  const auto failures = report::infrastructure_failures(out);
  out.notes.insert(out.notes.begin(), failures.begin(), failures.end());
  if (results.truncated)
    out.notes.push_back(source + " ends with a cut-off line (the job was killed?); that line was skipped");
  apply_alloc_metrics(out, results);  // allocs/op, bytes/op and per-target alloc status
  apply_layouts(out, results);        // after every rule that makes or withdraws a claim
  mark_broken_by_the_change(out, broken_targets, errored_on_head);
  report::sort_rows(out.benchmarks);
  return out;
}

}  // namespace cobench::aggregate
