// How often cobench's verdicts are right, by simulation: the real adaptive
// schedule (run::run_schedule) and the real aggregation into a report
// (aggregate::report_of, which judges exactly as `cobench run` does) driven by a
// Runner that draws its samples from a noise model of a shared CI runner
// instead of spawning processes. Nothing statistical is reimplemented here.
//
// The model splits the noise as measured: a process carries its own offset
// (layout, page placement: repetitions inside it do not average it away), its
// repetitions scatter around that offset, whole processes are hit by bursts,
// and the machine drifts during the job. Methods are compared side by side on
// the same draws: how cobench judged before (unpaired, every look at 95%, one
// repetition) and now (paired, Haybittle-Peto looks, repetitions by choice).
// A last section puts a control beside the row, noisy or showing a bias of
// the head side, and compares the control rules on the same draws: none, the
// spread rule (before) and the shift rule (now), the last also with
// repetitions chosen from the noise split.
//
//   verdict_simulation [--jobs N] [--seed S] [--control-case TEXT]
//     (defaults: 4000 jobs per case, seed 20240611; --control-case: only the
//     control cases whose label contains TEXT, nothing else)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "aggregate/aggregate.h"
#include "results/log.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "stats/stats.h"

namespace {

using cobench::run::RunRecord;
using cobench::run::RunScope;
using cobench::run::Side;
using cobench::run::Unit;

constexpr double kBudget = 0.05;

/// One shared CI runner as seen by one job, for one benchmark.
struct NoiseModel {
  std::string name;
  double within = 0.06;           ///< σ of log time between repetitions inside one process
  double between = 0.0;           ///< σ of a process's own offset (log scale)
  double outlier_share = 0.05;    ///< share of processes hit by a neighbour's burst
  double outlier_mean = 0.25;     ///< such a process is 1 + Exp(mean) times slower
  double drift_max = 0.10;        ///< per job the machine slows linearly by U(0, drift_max) ...
  int drift_runs = 24;            ///< ... every this many runs, for the whole job
  double process_seconds = 0.5;   ///< what a process costs besides its repetitions (start, iteration search)
  double rep_seconds = 0.5;       ///< one repetition (Google Benchmark's default min time)
};

/// One way of measuring and judging, as `cobench run` settings.
struct Method {
  std::string label;
  std::string pairing = "paired";
  std::string looks = "haybittle-peto";
  cobench::run::RepetitionPolicy repetitions = {};
  int min_runs = 6;
  int max_runs = 30;
  std::optional<double> time_budget = {};
  std::string control_rule = "shift";
};


/// What one simulated target is: its noise and its true change.
struct TargetModel {
  NoiseModel noise;
  double slowdown = 0;  ///< the change's true effect on the head side (0.10: 10% slower)
};

/// A Runner whose runs are draws from the targets' noise models; one instance
/// per job. `head_bias` slows every head run, controls included: what the
/// environment or layout, not the change, does to the head side.
class ModelRunner : public cobench::run::Runner {
 public:
  ModelRunner(std::map<std::string, TargetModel> targets, double head_bias, std::mt19937_64& rng)
      : targets_(std::move(targets)), head_bias_(head_bias), rng_(rng) {
    double drift_max = 0, drift_runs = 1;
    for (const auto& [name, target] : targets_) {
      drift_max = std::max(drift_max, target.noise.drift_max);
      drift_runs = target.noise.drift_runs;
    }
    std::uniform_real_distribution<double> drift(0, drift_max);
    drift_per_run_ = drift(rng_) / drift_runs;  // the machine's: one for every target of the job
  }

  std::vector<Unit> prepare(const cobench::run::SideContext&) override { return {}; }

  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                     const RunScope& scope) override {
    const TargetModel& target = targets_.at(unit.name);
    const NoiseModel& model = target.noise;
    const int k = scope.repetitions > 0 ? scope.repetitions : 1;
    std::normal_distribution<double> offset(0, model.between), scatter(0, model.within);
    std::bernoulli_distribution hit(model.outlier_share);
    std::exponential_distribution<double> burst(1 / model.outlier_mean);
    double process = std::exp(offset(rng_)) * (1 + drift_per_run_ * calls_++);
    if (hit(rng_)) process *= 1 + burst(rng_);
    const double head = side == Side::Head ? (1 + target.slowdown) * (1 + head_bias_) : 1;
    std::vector<double> reps, logs;
    for (int r = 0; r < k; ++r) {
      const double log_value = scatter(rng_);
      logs.push_back(log_value);
      reps.push_back(1000 * head * process * std::exp(log_value));
    }
    RunRecord record;
    record.target = unit.name;
    record.side = side;
    record.sha = sha;
    record.run = run_index;
    record.wall_seconds = model.process_seconds + k * model.rep_seconds;
    const double median = cobench::stats::median(reps);
    cobench::run::Sample sample = {{"real_ns", median}, {"cpu_ns", median}, {"threads", 1},
                                   {"rep_seconds", model.rep_seconds}};
    if (k >= 2) {
      sample["reps"] = k;
      sample["real_log_sd"] = sample["cpu_log_sd"] = cobench::stats::robust_sigma(logs);
    }
    record.samples["BM_model"] = sample;
    machine_seconds += record.wall_seconds;
    return record;
  }

  double machine_seconds = 0;

 private:
  std::map<std::string, TargetModel> targets_;
  double head_bias_;
  std::mt19937_64& rng_;
  double drift_per_run_ = 0;
  int calls_ = 0;
};

/// One simulated situation: the measured row, a control beside it (or none),
/// and a bias of the head side that the change did not cause.
struct Case {
  TargetModel row;
  std::optional<NoiseModel> control = {};
  double head_bias = 0;
};

/// Shares of final verdicts over many simulated jobs of one case.
struct Tally {
  int jobs = 0, regression = 0, pass = 0, inconclusive = 0;
  double runs_per_side = 0, machine_seconds = 0;

  double share(int count) const { return 100.0 * count / jobs; }
};

/// One `cobench run` of one target with one benchmark: the real schedule,
/// then the verdict its report prints, from the same records.
cobench::verdict::Verdict simulate_job(ModelRunner& runner, const Method& method, bool with_control,
                                     double& runs_per_side) {
  cobench::results::JobSettings job;
  job.metric = "auto";
  job.pairing = method.pairing;
  job.looks = method.looks;
  job.control_rule = method.control_rule;
  if (with_control) job.layout_controls = {"control"};
  job.stopping = "benchmark";
  job.min_runs = method.min_runs;
  job.max_runs = method.max_runs;
  job.budgets = cobench::verdict::Budgets({kBudget, std::nullopt, std::nullopt}, {});

  cobench::run::ScheduleSettings settings;
  settings.min_runs = method.min_runs;
  settings.max_runs = method.max_runs;
  settings.time_budget = method.time_budget;
  settings.rule = cobench::results::time_rule(job);
  settings.repetitions = method.repetitions;
  settings.budget_for = [](const std::string&, const std::string&) { return kBudget; };
  cobench::run::ScheduleHooks hooks;
  hooks.elapsed_seconds = [&runner] { return runner.machine_seconds; };
  hooks.cancelled = [] { return false; };
  const Unit unit{"sim", {}, {}}, control{"control", {}, {}};
  std::vector<cobench::run::UnitPair> pairs{{"sim", unit, unit, "base", "head"}};
  if (with_control) pairs.push_back({"control", control, control, "base", "head", true});
  auto outcome = cobench::run::run_schedule(runner, pairs, settings, hooks);

  cobench::results::ResultsFile file;
  file.settings = job;
  file.runs = std::move(outcome.records);
  file.stops = outcome.stop_reasons;
  const auto report = cobench::aggregate::report_of(file, "simulation");
  for (const auto& row : report.benchmarks) {
    if (row.is_control) continue;
    runs_per_side = static_cast<double>(row.base_samples.size());
    return row.verdict;
  }
  return cobench::verdict::Verdict::Inconclusive;
}

Tally simulate_case(const Case& situation, const Method& method, int jobs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);  // every method sees the same sequence of draws
  std::map<std::string, TargetModel> targets = {{"sim", situation.row}};
  if (situation.control) targets["control"] = TargetModel{*situation.control, 0};
  Tally tally;
  for (int j = 0; j < jobs; ++j) {
    ModelRunner runner(targets, situation.head_bias, rng);
    double runs = 0;
    switch (simulate_job(runner, method, situation.control.has_value(), runs)) {
      case cobench::verdict::Verdict::Regression: ++tally.regression; break;
      case cobench::verdict::Verdict::Pass: ++tally.pass; break;
      case cobench::verdict::Verdict::Inconclusive: ++tally.inconclusive; break;
      case cobench::verdict::Verdict::Unrelated: break;  // no reach pass in the simulation: never given
      case cobench::verdict::Verdict::LayoutSensitive: break;  // one layout in the simulation: never given
    }
    ++tally.jobs;
    tally.runs_per_side += runs;
    tally.machine_seconds += runner.machine_seconds;
  }
  tally.runs_per_side /= jobs;
  tally.machine_seconds /= jobs;
  return tally;
}

void print_header() {
  fmt::print("| method | true slowdown | regression | pass | inconclusive | runs/side | machine s/job |\n"
             "|---|---|---|---|---|---|---|\n");
}

void print_row(const std::string& method, double slowdown, const Tally& t) {
  fmt::print("| {} | {:g}% | {:.1f}% | {:.1f}% | {:.1f}% | {:.1f} | {:.0f} |\n", method, slowdown * 100,
             t.share(t.regression), t.share(t.pass), t.share(t.inconclusive), t.runs_per_side, t.machine_seconds);
}

int parse_count(std::string_view flag, const char* text) {
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value <= 0 || value > 10'000'000) {
    fmt::print(stderr, "verdict_simulation: {} expects a positive integer, got '{}'\n", flag, text);
    std::exit(2);
  }
  return static_cast<int>(value);
}

Method before() {
  Method m{"before: unpaired, every look 95%, 1 rep"};
  m.pairing = "unpaired";
  m.looks = "every-look";
  return m;
}

Method now(int reps) {
  Method m{reps == 1 ? "now: paired, Haybittle-Peto, 1 rep" : fmt::format("now: paired, Haybittle-Peto, {} reps", reps)};
  m.repetitions.fixed = reps > 1 ? reps : 0;
  return m;
}

Method now_auto() {
  Method m{"now: paired, Haybittle-Peto, auto reps"};
  m.repetitions.automatic = true;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  int jobs = 4000;
  std::uint64_t seed = 20240611;
  std::optional<std::string> control_case;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--control-case" && i + 1 < argc) {
      control_case = argv[++i];
    } else if ((arg == "--jobs" || arg == "--seed") && i + 1 < argc) {
      const int value = parse_count(arg, argv[++i]);
      if (arg == "--jobs") jobs = value;
      else seed = static_cast<std::uint64_t>(value);
    } else {
      fmt::print(stderr, "verdict_simulation: unknown argument '{}' (usage: [--jobs N] [--seed S] [--control-case TEXT])\n", arg);
      return 2;
    }
  }
  // The README's model (all noise inside the process), and the two kinds this
  // machine showed: compute-bound (repetitions are cheap precision) and
  // memory/allocator-bound (each process carries its own ~5% offset).
  const std::vector<NoiseModel> models = {
      {"within-process 6% (the README's model)", 0.06, 0.0},
      {"compute-bound: within 0.3%, between 0.4%", 0.003, 0.004},
      {"memory-bound: within 1%, between 5%", 0.01, 0.05},
  };
  const std::vector<double> slowdowns = {0, 0.03, 0.05, 0.10, 0.20, 0.50};
  fmt::print("{} jobs per case, budget {:g}%, runs 6-30 per side; same draws for every method of a case\n\n", jobs,
             kBudget * 100);
  for (const auto& model : models) {
    if (control_case) break;
    fmt::print("### {}\n\n", model.name);
    print_header();
    for (const Method& method : {before(), now(1), now(5), now_auto()})
      for (double slowdown : slowdowns)
        print_row(method.label, slowdown, simulate_case({{model, slowdown}}, method, jobs, seed));
    fmt::print("\n");
  }

  // The look rule keeps its promise whatever the run counts: a true slowdown
  // exactly at the budget is called a regression in at most 2.5% + 0.5% of jobs.
  if (!control_case) {
    fmt::print("### A true slowdown exactly at the budget (within-process 6% model): false regressions\n\n"
               "| runs per side | every look at 95% | Haybittle-Peto |\n|---|---|---|\n");
    for (auto [min_runs, max_runs] : {std::pair{6, 30}, {4, 12}, {6, 16}, {10, 50}, {6, 100}, {20, 30}}) {
      Method every = before(), hp = now(1);
      every.pairing = "paired";  // the look rule alone makes the difference here
      every.min_runs = hp.min_runs = min_runs;
      every.max_runs = hp.max_runs = max_runs;
      const Tally a = simulate_case({{models[0], kBudget}}, every, jobs, seed);
      const Tally b = simulate_case({{models[0], kBudget}}, hp, jobs, seed);
      fmt::print("| {}-{} | {:.1f}% | {:.1f}% |\n", min_runs, max_runs, a.share(a.regression), b.share(b.regression));
    }
  }

  // The control rule: a control beside the row, noisy or biased, judged by
  // the shift its interval shows (now) and by its half-width (before).
  // Two families of the same cases. The model: log-normal noise of the stated size per run and
  // nothing else (it reproduces the figures for the spread rule: 53%, 18% and 3.7% there). This
  // page's shared-runner model on top: 5% of processes hit by a neighbour's burst, and drift.
  struct ControlCase {
    std::string label;
    Case situation;
  };
  auto control_cases = [](bool bursts) {
    auto noise = [bursts](double per_run) {
      NoiseModel model{fmt::format("{:g}%", per_run * 100), per_run, 0.0};
      if (!bursts) model.outlier_share = model.drift_max = 0;
      return model;
    };
    const std::string family = bursts ? "bursts, " : "log-normal, ";
    return std::vector<ControlCase>{
        {family + "row 1%, control 13% noise, +10%", {{noise(0.01), 0.10}, noise(0.13)}},
        {family + "row 4%, control 13% noise, +10%", {{noise(0.04), 0.10}, noise(0.13)}},
        {family + "row 1%, control 13% noise, +7%", {{noise(0.01), 0.07}, noise(0.13)}},
        {family + "row 1%, control 13% noise, A/A", {{noise(0.01), 0.0}, noise(0.13)}},
        {family + "row 1%, control 1%, +5% (at the budget)", {{noise(0.01), 0.05}, noise(0.01)}},
        {family + "row 4%, control 4%, +5% (at the budget)", {{noise(0.04), 0.05}, noise(0.04)}},
        // A noisy row beside a quiet, unbiased control: what netting against a control that shows no
        // shift (but could have shown one of the budget's size) costs a real slowdown.
        {family + "row 8%, control 1%, +10%", {{noise(0.08), 0.10}, noise(0.01)}},
        {family + "row 8%, control 3%, +10%", {{noise(0.08), 0.10}, noise(0.03)}},
        {family + "head side +4%, row 1%, control 1%, +4% (reads 1.08)", {{noise(0.01), 0.04}, noise(0.01), 0.04}},
        {family + "head side +4%, row 4%, control 1%, +4% (reads 1.08)", {{noise(0.04), 0.04}, noise(0.01), 0.04}},
        {family + "head side +4%, row 1%, control 4%, +4% (reads 1.08)", {{noise(0.01), 0.04}, noise(0.04), 0.04}},
        {family + "head side +4%, row 1%, control 1%, +10%", {{noise(0.01), 0.10}, noise(0.01), 0.04}},
        {family + "head side +4%, row 4%, control 1%, +10%", {{noise(0.04), 0.10}, noise(0.01), 0.04}},
        {family + "head side +4%, row 1%, control 4%, +10%", {{noise(0.01), 0.10}, noise(0.04), 0.04}},
        // A large shift seen only through a noisy control: its near end is well above 1, and the row
        // must not read the shift as its own change.
        {family + "head side +20%, row 1%, control 13%, A/A (reads 1.20)", {{noise(0.01), 0.0}, noise(0.13), 0.20}},
        {family + "head side +10%, row 1%, control 13%, A/A (reads 1.10)", {{noise(0.01), 0.0}, noise(0.13), 0.10}},
        {family + "head side +20%, row 1%, control 13%, +10% (reads 1.32)", {{noise(0.01), 0.10}, noise(0.13), 0.20}},
    };
  };
  fmt::print("\n### The control rule: a control beside the row (noise per run; a head-side bias slows every head run)\n\n"
             "| case | rule | regression | pass | inconclusive | runs/side | machine s/job |\n"
             "|---|---|---|---|---|---|---|\n");
  for (bool bursts : {false, true}) {
    for (const auto& [label, situation] : control_cases(bursts)) {
      if (control_case && label.find(*control_case) == std::string::npos) continue;
      // The row alone for reference, the two rules, and the shift rule with --repetitions auto: where
      // the noise is inside the process (as modelled here) repetitions buy the row and the control precision.
      for (const char* rule : {"none", "spread", "shift", "shift, auto reps"}) {
        const std::string_view name = rule;
        Method method = name == "shift, auto reps" ? now_auto() : now(1);
        Case judged = situation;
        if (name == "none") judged.control.reset();  // the same row alone, for reference
        else method.control_rule = name == "spread" ? "spread" : "shift";
        const Tally t = simulate_case(judged, method, jobs, seed);
        fmt::print("| {} | {} | {:.1f}% | {:.1f}% | {:.1f}% | {:.1f} | {:.0f} |\n", label,
                   name == "shift" ? "shift (now)" : name == "spread" ? "spread (before)" : name == "none" ? "no control" : rule,
                   t.share(t.regression), t.share(t.pass), t.share(t.inconclusive), t.runs_per_side, t.machine_seconds);
      }
    }
  }
  return 0;
}
