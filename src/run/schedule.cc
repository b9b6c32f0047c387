#include "run/schedule.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/clock.h"
#include "core/parse.h"
#include "formats/benchmark_name.h"
#include "process/signals.h"
#include "results/noise_split.h"
#include "results/samples.h"
#include "verdict/control.h"
#include "verdict/futility.h"
#include "verdict/judge.h"
#include "verdict/measures_nothing.h"

namespace cobench::run {

std::string budget_name(double seconds, const std::string& name) {
  return name.empty() ? fmt::format("time budget {}", format_duration(seconds)) : name;
}

namespace {

double budget_of(const ScheduleSettings& settings, const std::string& target, const std::string& name) {
  return settings.budget_for ? settings.budget_for(target, name) : 0.05;
}

/// The benchmarks of one target that measure nothing on either side (likely
/// optimised away on both, the sides agreeing): more runs cannot tell
/// anything about them.
std::set<std::string> measuring_nothing(const std::map<std::string, verdict::BenchmarkSamples>& samples,
                                        const ScheduleSettings& settings, const std::string& target) {
  std::vector<verdict::TimedInstance> base, head;
  for (const auto& [name, s] : samples) {
    base.push_back({name, verdict::least_work(s.base_work)});
    head.push_back({name, verdict::least_work(s.head_work)});
  }
  const auto on_base = verdict::likely_optimised_away(base), on_head = verdict::likely_optimised_away(head);
  std::set<std::string> out;
  for (size_t i = 0; i < base.size(); ++i)
    if (verdict::worth_no_more_runs(!on_base[i].empty(), !on_head[i].empty(), base[i].ns_per_iteration,
                                    head[i].ns_per_iteration, budget_of(settings, target, base[i].name)))
      out.insert(base[i].name);
  return out;
}


/// Progress of one target through the plan.
struct TargetState {
  const UnitPair* pair = nullptr;
  int pairs_done = 0;        // runs attempted per side
  bool active = true;
  // What its runs cost, for the time budget: their wall time and count, since its length was chosen
  // (then a projection of one run at the new length stands in for the runs before it).
  double seconds = 0;
  int runs = 0;
  RunScope scope;            // what its next runs cover
  bool length_open = false;  // its run length is still to be chosen at the first look
};

class Scheduler {
 public:
  Scheduler(Runner& runner, const std::vector<UnitPair>& pairs, const ScheduleSettings& settings,
            const ScheduleHooks& hooks)
      : runner_(runner), settings_(settings), hooks_(hooks), start_(std::chrono::steady_clock::now()) {
    for (const auto& pair : pairs) {
      TargetState state;
      state.pair = &pair;
      state.scope.repetitions = first_repetitions();
      state.scope.benchmarks = pair.only;
      const RunLengthPolicy& length = settings_.run_length;
      // The machine control runs a fixed iteration count: no length to choose.
      if (const auto chosen = length.chosen.find(pair.target); chosen != length.chosen.end()) {
        state.scope.min_time = chosen->second;
      } else if (length.automatic && !pair.one_binary) {
        state.length_open = true;
        state.scope.repetitions = 2;
        state.scope.min_time = length.seconds * length.first_pairs_share / 2;
      }
      states_.push_back(state);
    }
  }

  ScheduleOutcome run() {
    for (int round = 0; round < settings_.min_runs && !outcome_.interrupted; ++round) {
      std::vector<TargetState*> round_targets;
      for (auto& state : states_) round_targets.push_back(&state);
      if (!run_pairs(fit_budget(round_targets, 1), 1)) break;
      keep_lengths_the_code_sets();
      report_round(round + 1);
    }
    int round = settings_.min_runs;
    while (!outcome_.interrupted) {
      auto candidates = look_at_targets();
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
    return seconds_since(start_);
  }

  int first_repetitions() const {
    const RepetitionPolicy& reps = settings_.repetitions;
    return reps.automatic ? reps.first : reps.fixed;
  }

  bool cancelled() const {
    return hooks_.cancelled ? hooks_.cancelled() : signals::cancellation_requested();
  }

  void stop(TargetState& state, const std::string& reason) {
    state.active = false;
    outcome_.stop_reasons[state.pair->target] = reason;
    if (hooks_.on_stop) hooks_.on_stop(state.pair->target, reason);
  }

  /// The benchmarks of `state` still undecided at this look; with per-benchmark
  /// stopping only those still running are looked at (a decided one stays decided).
  std::vector<std::string> undecided(const TargetState& state, verdict::Look look) const {
    auto names = undecided_benchmarks(state.pair->target, outcome_.records, settings_, look, controls_);
    const auto& running = state.scope.benchmarks;
    if (!settings_.per_benchmark || running.empty()) return names;
    std::erase_if(names, [&](const std::string& name) {
      return std::find(running.begin(), running.end(), name) == running.end();
    });
    return names;
  }

  /// Looks at every active target: finished (all decided), stopped (undecided
  /// at the final look) or to be measured on, with its next scope.
  std::vector<TargetState*> look_at_targets() {
    std::vector<TargetState*> out;
    controls_ = verdict::judge_controls(results::control_samples(outcome_.records, control_targets(), settings_.rule.metric), settings_.rule);
    for (auto& state : states_) {
      if (!state.active || state.pair->follows) continue;
      const verdict::Look look = verdict::LookRule::look_at(state.pairs_done, settings_.max_runs);
      const auto open = undecided(state, look);
      if (open.empty()) {
        state.active = false;
      } else if (look == verdict::Look::Final) {
        stop(state, fmt::format("still inconclusive after max_runs = {} runs per side", settings_.max_runs));
      } else {
        if (settings_.per_benchmark) state.scope.benchmarks = open;
        if (settings_.repetitions.automatic) state.scope.repetitions = chosen_repetitions(state, open);
        if (state.length_open) choose_length(state, open);
        out.push_back(&state);
      }
    }
    // The controls that follow the job run beside whatever is still measured, and end with it.
    for (auto& state : states_) {
      if (!state.pair->follows || !state.active) continue;
      if (out.empty() || state.pairs_done >= settings_.max_runs) {
        state.active = false;
      } else {
        if (state.length_open) choose_length(state, {});  // a control: every benchmark it measures
        out.push_back(&state);
      }
    }
    return out;
  }

  /// The noise split of `names` of a target (empty: every benchmark it has
  /// samples of), pooled (one process runs them all).
  results::VarianceSplit pooled_split_of(const TargetState& state, const std::vector<std::string>& names) const {
    const auto samples = results::collect_samples(outcome_.records, state.pair->target, settings_.rule.metric);
    std::vector<results::VarianceSplit> splits;
    for (const auto& [name, benchmark] : samples)
      if (names.empty() || std::find(names.begin(), names.end(), name) != names.end())
        splits.push_back(results::variance_split(outcome_.records, state.pair->target, name,
                                                 results::sample_key_for_metric(benchmark.metric)));
    return results::pooled_split(splits);
  }

  /// A target whose every benchmark sets its own length in its code
  /// (->Iterations, ->MinTime) has no length to choose, and would pay two
  /// whole repetitions in each of its first pairs: after its first pair it
  /// runs as with a fixed length.
  void keep_lengths_the_code_sets() {
    for (auto& state : states_) {
      if (!state.length_open) continue;
      const auto samples = results::collect_samples(outcome_.records, state.pair->target, settings_.rule.metric);
      if (samples.empty() || !std::all_of(samples.begin(), samples.end(), [](const auto& named) {
            return formats::fixes_its_own_length(named.first);
          }))
        continue;
      state.length_open = false;
      state.scope.repetitions = first_repetitions();
      state.scope.min_time = settings_.run_length.seconds;
      if (!hooks_.on_run_length) continue;
      results::RunLength kept{state.pair->target, state.scope.min_time};
      kept.set_by_benchmarks = true;
      hooks_.on_run_length(kept);
    }
  }

  /// Once, at the first look: one repetition per process from now on, as long
  /// as the split of the benchmarks still open (`open`; empty: all) says is
  /// cheapest per unit of precision, between the shortest and the configured length.
  void choose_length(TargetState& state, const std::vector<std::string>& open) {
    const RunLengthPolicy& policy = settings_.run_length;
    const double measured = policy.seconds * policy.first_pairs_share;  // by each of the first pairs' processes
    const double shortest = results::shortest_run_length(policy.seconds);
    const auto split = pooled_split_of(state, open);
    const double fraction = results::best_length_fraction(split, shortest / measured, policy.seconds / measured);
    state.length_open = false;
    state.scope.repetitions = 1;
    state.scope.min_time = measured * fraction;
    project_run_cost(state, results::length_cost_ratio(split, fraction));
    if (!hooks_.on_run_length) return;
    results::RunLength chosen{state.pair->target, state.scope.min_time};
    if (split.known) {
      chosen.within = split.within;
      chosen.between = split.between;
      chosen.process_seconds = split.process_seconds;
    }
    hooks_.on_run_length(chosen);
  }

  /// A run at a chosen length costs `scale` times what a first pair's did
  /// (results::length_cost_ratio). Lengthened runs would otherwise be fitted into the
  /// time budget at the first pairs' cheaper mean.
  static void project_run_cost(TargetState& state, double scale) {
    if (state.runs == 0) return;
    state.seconds = state.seconds / state.runs * scale;
    state.runs = 1;
  }

  /// The pairs that follow the job, as controls (the schedule need not know which kind).
  std::map<std::string, std::string> control_targets() const {
    std::map<std::string, std::string> out;
    for (const auto& state : states_)
      if (state.pair->follows) out[state.pair->target] = state.pair->one_binary ? "machine" : "layout";
    return out;
  }

  /// The repetitions that make the open benchmarks' intervals narrowest per
  /// second, from their noise split pooled (one process runs them all); the
  /// current count while it is not known.
  int chosen_repetitions(const TargetState& state, const std::vector<std::string>& open) const {
    return results::best_repetitions(pooled_split_of(state, open), settings_.repetitions.most)
        .value_or(state.scope.repetitions);
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
        stop(*state, fmt::format("{} exhausted after {} runs per side",
                                 budget_name(*settings_.time_budget, settings_.time_budget_name), state->pairs_done));
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
      RunRecord record = runner_.run_once(unit, side, sha, state.pairs_done, state.scope);
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
      if (!state.active || state.pair->follows) continue;  // the controls run beside the targets: not counted as one
      ++active;
      label = state.pair->target;
      const verdict::Look look = verdict::LookRule::look_at(state.pairs_done, settings_.max_runs);
      undecided += static_cast<int>(this->undecided(state, look).size());
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
  verdict::JobControls controls_;  // the job's controls at the last look
};

}  // namespace

std::vector<std::string> undecided_benchmarks(const std::string& target, const std::vector<RunRecord>& records,
                                              const ScheduleSettings& settings, verdict::Look look,
                                              const verdict::JobControls& controls) {
  std::vector<std::string> out;
  const auto all = results::collect_samples(records, target, settings.rule.metric);
  const auto nothing = measuring_nothing(all, settings, target);
  for (auto& [name, samples] : all) {
    if (samples.base.empty() || samples.head.empty() || nothing.count(name)) continue;
    const double budget = budget_of(settings, target, name);
    const auto judged = verdict::judge_samples(samples, budget, settings.rule, look);
    if (judged.verdict == verdict::Verdict::Inconclusive) {
      // One that the pairs left until max_runs would almost never decide ends open now.
      if (!settings.stop_when_futile ||
          !verdict::not_worth_more_runs(judged, budget, verdict::complete_pairs(samples), settings.max_runs,
                                        settings.rule.looks.confidence(verdict::Look::Final)))
        out.push_back(name);
    } else if (!verdict::apply_control_rule(judged, budget, controls, settings.rule, look).regression_stands) {
      out.push_back(name);
    }
  }
  return out;
}

ScheduleOutcome run_schedule(Runner& runner, const std::vector<UnitPair>& pairs, const ScheduleSettings& settings,
                             const ScheduleHooks& hooks) {
  return Scheduler(runner, pairs, settings, hooks).run();
}

std::vector<UnitPair> pair_units(Runner& runner, const SideContext& base, const SideContext& head) {
  auto head_units = runner.prepare(head);
  std::vector<UnitPair> pairs;
  for (auto& unit : runner.prepare(base))
    for (auto& other : head_units)
      if (other.name == unit.name) pairs.push_back({unit.name, unit, other, base.sha, head.sha, false, {}});
  return pairs;
}

}  // namespace cobench::run
