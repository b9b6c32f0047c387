#include "run/schedule.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/parse.h"
#include "process/signals.h"
#include "verdict/judge.h"
#include "results/samples.h"

namespace cobench::run {
namespace {

/// Progress of one target through the plan.
struct TargetState {
  const UnitPair* pair = nullptr;
  int pairs_done = 0;        // runs attempted per side
  bool active = true;
  double seconds = 0;        // wall time of its runs so far
  int runs = 0;
};

class Scheduler {
 public:
  Scheduler(Runner& runner, const std::vector<UnitPair>& pairs, const ScheduleSettings& settings,
            const ScheduleHooks& hooks)
      : runner_(runner), settings_(settings), hooks_(hooks), start_(std::chrono::steady_clock::now()) {
    for (const auto& pair : pairs) states_.push_back(TargetState{&pair});
  }

  ScheduleOutcome run() {
    for (int round = 0; round < settings_.min_runs && !outcome_.interrupted; ++round) {
      std::vector<TargetState*> round_targets;
      for (auto& state : states_) round_targets.push_back(&state);
      if (!run_pairs(fit_budget(round_targets, 1), 1)) break;
      report_round(round + 1);
    }
    int round = settings_.min_runs;
    while (!outcome_.interrupted) {
      auto candidates = adaptive_candidates();
      if (candidates.empty()) break;
      int block = 2;
      if (!run_pairs(fit_budget(candidates, block), block)) break;
      round += block;
      report_round(round);
    }
    return std::move(outcome_);
  }

 private:
  double elapsed() const {
    if (hooks_.elapsed_seconds) return hooks_.elapsed_seconds();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  bool cancelled() const {
    return hooks_.cancelled ? hooks_.cancelled() : signals::cancellation_requested();
  }

  void stop(TargetState& state, const std::string& reason) {
    state.active = false;
    outcome_.stop_reasons[state.pair->target] = reason;
    if (hooks_.on_stop) hooks_.on_stop(state.pair->target, reason);
  }

  /// Active targets with an inconclusive benchmark; the rest are finished.
  std::vector<TargetState*> adaptive_candidates() {
    std::vector<TargetState*> out;
    for (auto& state : states_) {
      if (!state.active) continue;
      if (undecided_benchmarks(state.pair->target, outcome_.records, settings_).empty()) {
        state.active = false;
      } else if (state.pairs_done >= settings_.max_runs) {
        stop(state, fmt::format("still inconclusive after max_runs = {} runs per side", settings_.max_runs));
      } else {
        out.push_back(&state);
      }
    }
    return out;
  }

  /// Keeps the targets whose next `pairs` pairs are expected to fit in the
  /// time budget (from the mean of their runs so far); stops the others.
  std::vector<TargetState*> fit_budget(std::vector<TargetState*> targets, int pairs) {
    std::vector<TargetState*> out;
    double expected = elapsed();
    for (auto* state : targets) {
      if (!state->active) continue;
      double mean = state->runs ? state->seconds / state->runs : 0;
      double cost = mean * 2 * pairs;
      if (settings_.time_budget && expected + cost > *settings_.time_budget) {
        stop(*state, fmt::format("time budget {} exhausted after {} runs per side",
                                 format_duration(*settings_.time_budget), state->pairs_done));
        continue;
      }
      expected += cost;
      out.push_back(state);
    }
    return out;
  }

  /// Runs up to `pairs` pairs of each target, interleaved across targets.
  bool run_pairs(const std::vector<TargetState*>& targets, int pairs) {
    for (int p = 0; p < pairs; ++p)
      for (auto* state : targets) {
        if (state->pairs_done >= settings_.max_runs) continue;
        if (!run_pair(*state)) return false;
      }
    return true;
  }

  bool run_pair(TargetState& state) {
    const UnitPair& pair = *state.pair;
    const Side first = state.pairs_done % 2 == 0 ? Side::Base : Side::Head;
    for (Side side : {first, first == Side::Base ? Side::Head : Side::Base}) {
      if (cancelled()) return interrupt();
      const Unit& unit = side == Side::Base ? pair.base : pair.head;
      const std::string& sha = side == Side::Base ? pair.base_sha : pair.head_sha;
      RunRecord record = runner_.run_once(unit, side, sha, state.pairs_done);
      if (record.interrupted) return interrupt();  // a run that finished still counts
      state.seconds += record.wall_seconds;
      ++state.runs;
      if (hooks_.on_record) hooks_.on_record(record);
      outcome_.records.push_back(std::move(record));
    }
    ++state.pairs_done;
    if (state.pairs_done == 1 && first_pair_ran_nothing()) stop(state, nothing_ran_reason());
    if (state.pairs_done == 1 && first_pair_failed()) stop(state, "its first run on each side failed");
    return true;
  }

  /// Both runs of a target's first pair failed (a flag the binary refuses, a
  /// CPU it cannot be pinned to, a crash on both sides): more runs would only
  /// repeat it, and the report says why from these two.
  bool first_pair_failed() const {
    const auto& r = outcome_.records;
    return r.size() >= 2 && std::none_of(r.end() - 2, r.end(), [](const RunRecord& record) { return record.ok(); });
  }

  /// Both runs of a target's first pair succeeded without a benchmark (a
  /// filter matching none of them): more runs would only repeat that.
  bool first_pair_ran_nothing() const {
    const auto& r = outcome_.records;
    return r.size() >= 2 && std::all_of(r.end() - 2, r.end(), [](const RunRecord& record) {
             return record.ok() && record.samples.empty() && record.errors.empty();
           });
  }

  std::string nothing_ran_reason() const {
    const std::string& detail = outcome_.records.back().detail;  // the runner's why, e.g. the filter
    return detail.empty() ? "its first run on each side reported no benchmark" : detail;
  }

  bool interrupt() {
    outcome_.interrupted = true;
    return false;
  }

  /// One progress line per round for all targets, so a CI log stays short.
  void report_round(int round) {
    if (!hooks_.on_round) return;
    int undecided = 0, active = 0;
    std::string label;
    for (const auto& state : states_) {
      if (!state.active) continue;
      ++active;
      label = state.pair->target;
      undecided += static_cast<int>(undecided_benchmarks(state.pair->target, outcome_.records, settings_).size());
    }
    if (active == 0) return;
    hooks_.on_round(active == 1 ? label : fmt::format("{} targets", active), round, undecided);
  }

  Runner& runner_;
  const ScheduleSettings& settings_;
  const ScheduleHooks& hooks_;
  std::chrono::steady_clock::time_point start_;
  std::vector<TargetState> states_;
  ScheduleOutcome outcome_;
};

}  // namespace

std::vector<std::string> undecided_benchmarks(const std::string& target, const std::vector<RunRecord>& records,
                                              const ScheduleSettings& settings) {
  std::vector<std::string> out;
  for (auto& [name, samples] : results::collect_samples(records, target, settings.sample_key)) {
    if (samples.base.empty() || samples.head.empty()) continue;
    double budget = settings.budget_for ? settings.budget_for(target, name) : 0.05;
    if (verdict::judge_time(samples.base, samples.head, budget, settings.confidence).verdict ==
        stats::Verdict::Inconclusive)
      out.push_back(name);
  }
  return out;
}

ScheduleOutcome run_schedule(Runner& runner, const std::vector<UnitPair>& pairs, const ScheduleSettings& settings,
                             const ScheduleHooks& hooks) {
  return Scheduler(runner, pairs, settings, hooks).run();
}

}  // namespace cobench::run
