// How often cobench's verdicts are right, by simulation: the real adaptive
// schedule (run::run_schedule) and the real per-benchmark comparison
// (verdict::judge_time) driven by a Runner that draws its samples from a
// noise model of a shared CI runner instead of spawning processes. Nothing
// statistical is reimplemented here, so the figures are those of `cobench run`.
//
//   verdict_simulation [--jobs N] [--seed S]     (defaults: 4000 jobs per case, seed 20240611)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "verdict/judge.h"
#include "run/runner.h"
#include "results/samples.h"
#include "run/schedule.h"

namespace {

using cobench::run::RunRecord;
using cobench::run::Side;
using cobench::run::Unit;

constexpr double kBudget = 0.05;
constexpr int kMinRuns = 6;
constexpr int kMaxRuns = 30;
constexpr double kConfidence = 0.95;

/// One shared CI runner as seen by one job: every run of either side is
/// base_time * (1 + slowdown on head) * lognormal noise * outlier * drift(t).
struct NoiseModel {
  double sigma = 0.06;            ///< log-normal run-to-run noise (sd of log time)
  double outlier_share = 0.05;    ///< share of runs hit by a neighbour's burst, an interrupt storm
  double outlier_mean = 0.25;     ///< such a run is 1 + Exp(mean) times slower
  double drift_max = 0.10;        ///< per job the machine slows linearly by U(0, drift_max) ...
  int drift_runs = 24;            ///< ... every this many runs (6 pairs of pairs), for the whole job
  bool drift_fixed = false;       ///< true: every job drifts by exactly drift_max
};

/// How the runs of one job are ordered and how many there are.
struct Procedure {
  int min_runs = kMinRuns;   ///< per side, as --min-runs
  int max_runs = kMaxRuns;   ///< per side, as --max-runs; equal to min_runs: a fixed number of runs
  bool interleaved = true;   ///< false: all base runs first, then all head runs (min_runs == max_runs)

  /// Time (runs since the job started) of run `index` of `side`; `call` is the
  /// schedule's call order, which is the ABBA order cobench runs in.
  int time_of(Side side, int index, int call) const {
    return interleaved ? call : index + (side == Side::Head) * max_runs;
  }
};

/// cobench's default adaptive procedure.
constexpr Procedure kCobench{};

/// A Runner whose runs are draws from the noise model; one instance per job.
class ModelRunner : public cobench::run::Runner {
 public:
  ModelRunner(const NoiseModel& model, double slowdown, const Procedure& procedure, std::mt19937_64& rng)
      : model_(model), slowdown_(slowdown), procedure_(procedure), rng_(rng) {
    std::uniform_real_distribution<double> drift(0, model.drift_max);
    drift_per_run_ = (model.drift_fixed ? model.drift_max : drift(rng_)) / model.drift_runs;
  }

  std::vector<Unit> prepare(const cobench::run::SideContext&) override { return {}; }

  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index) override {
    const int t = procedure_.time_of(side, run_index, calls_);
    ++calls_;
    RunRecord record;
    record.target = unit.name;
    record.side = side;
    record.sha = sha;
    record.run = run_index;
    record.wall_seconds = 1;
    const double ns = 1000 * (side == Side::Head ? 1 + slowdown_ : 1) * noise_factor(t);
    record.samples["BM_model"] = {{"real_ns", ns}, {"cpu_ns", ns}};
    return record;
  }

  /// The machine's slowdown factor for one run at time t (no code change).
  double noise_factor(int t) {
    std::normal_distribution<double> log_noise(0, model_.sigma);
    std::bernoulli_distribution hit(model_.outlier_share);
    std::exponential_distribution<double> burst(1 / model_.outlier_mean);
    double factor = std::exp(log_noise(rng_)) * (1 + drift_per_run_ * t);
    if (hit(rng_)) factor *= 1 + burst(rng_);
    return factor;
  }

 private:
  const NoiseModel& model_;
  double slowdown_;
  Procedure procedure_;
  std::mt19937_64& rng_;
  double drift_per_run_ = 0;
  int calls_ = 0;
};

/// Shares of final verdicts over many simulated jobs of one case.
struct Tally {
  int jobs = 0, regression = 0, pass = 0, inconclusive = 0;
  long runs_per_side = 0;

  double share(int count) const { return 100.0 * count / jobs; }
};

/// One `cobench run` of one target with one benchmark: the real schedule,
/// then the verdict the report would print, from the same records.
cobench::stats::Verdict simulate_job(ModelRunner& runner, const Procedure& procedure, int& runs_per_side) {
  cobench::run::ScheduleSettings settings;
  settings.min_runs = procedure.min_runs;
  settings.max_runs = procedure.max_runs;
  settings.confidence = kConfidence;
  settings.sample_key = "real_ns";
  settings.budget_for = [](const std::string&, const std::string&) { return kBudget; };
  cobench::run::ScheduleHooks hooks;
  hooks.elapsed_seconds = [] { return 0.0; };
  hooks.cancelled = [] { return false; };
  const Unit unit{"sim", {}, {}};
  const std::vector<cobench::run::UnitPair> pairs{{"sim", unit, unit, "base", "head"}};
  auto outcome = cobench::run::run_schedule(runner, pairs, settings, hooks);
  auto samples = cobench::results::collect_samples(outcome.records, "sim", settings.sample_key).at("BM_model");
  runs_per_side = static_cast<int>(samples.base.size());
  return cobench::verdict::judge_time(samples.base, samples.head, kBudget, kConfidence).verdict;
}

Tally simulate_case(const NoiseModel& model, double slowdown, const Procedure& procedure, int jobs,
                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int j = 0; j < jobs; ++j) {
    ModelRunner runner(model, slowdown, procedure, rng);
    int runs = 0;
    switch (simulate_job(runner, procedure, runs)) {
      case cobench::stats::Verdict::Regression: ++tally.regression; break;
      case cobench::stats::Verdict::Pass: ++tally.pass; break;
      case cobench::stats::Verdict::Inconclusive: ++tally.inconclusive; break;
    }
    ++tally.jobs;
    tally.runs_per_side += runs;
  }
  return tally;
}

void print_row(const std::string& label, const Tally& t) {
  fmt::print("| {:<22} | {:>6.1f}% | {:>6.1f}% | {:>6.1f}% | {:>5.1f} |\n", label, t.share(t.regression),
             t.share(t.pass), t.share(t.inconclusive), static_cast<double>(t.runs_per_side) / t.jobs);
}

void print_header(const std::string& first) {
  fmt::print("| {:<22} | regression | pass | inconclusive | runs/side |\n|---|---|---|---|---|\n", first);
}

/// The spread the model produces over 40 runs in a row of one binary
/// (coefficient of variation, mean over jobs), to compare with the 8.9% measured.
double model_spread(const NoiseModel& model, std::mt19937_64& rng) {
  double sum = 0;
  const int jobs = 2000;
  for (int j = 0; j < jobs; ++j) {
    ModelRunner runner(model, 0, kCobench, rng);
    std::vector<double> v;
    for (int t = 0; t < 40; ++t) v.push_back(runner.noise_factor(t));
    double mean = 0, sq = 0;
    for (double x : v) mean += x / v.size();
    for (double x : v) sq += (x - mean) * (x - mean) / (v.size() - 1);
    sum += std::sqrt(sq) / mean;
  }
  return 100 * sum / jobs;
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

}  // namespace

int main(int argc, char** argv) {
  int jobs = 4000;
  std::uint64_t seed = 20240611;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if ((arg == "--jobs" || arg == "--seed") && i + 1 < argc) {
      const int value = parse_count(arg, argv[++i]);
      if (arg == "--jobs") jobs = value;
      else seed = static_cast<std::uint64_t>(value);
    } else {
      fmt::print(stderr, "verdict_simulation: unknown argument '{}' (usage: [--jobs N] [--seed S])\n", arg);
      return 2;
    }
  }
  const NoiseModel model;
  std::mt19937_64 calibration_rng(seed);
  fmt::print("model: lognormal sigma {:.1f}%, {:.0f}% outliers of 1+Exp({:.2f})x, drift U(0, {:.0f}%) over {} runs;"
             " CV over 40 runs in a row = {:.1f}%\n",
             model.sigma * 100, model.outlier_share * 100, model.outlier_mean, model.drift_max * 100,
             model.drift_runs, model_spread(model, calibration_rng));
  fmt::print("procedure: budget {:.0f}%, min_runs {}, max_runs {}, confidence {:.2f}, {} jobs per case, seed {}\n\n",
             kBudget * 100, kMinRuns, kMaxRuns, kConfidence, jobs, seed);

  const std::vector<double> slowdowns{0, 0.03, 0.05, 0.10, 0.20, 0.50};
  auto rows = [&](const std::string& label, const NoiseModel& noise, int count, double slowdown, std::uint64_t case_seed,
                  const std::vector<std::pair<std::string, Procedure>>& procedures) {
    for (const auto& [name, procedure] : procedures)
      print_row(label + name, simulate_case(noise, slowdown, procedure, count, case_seed));
  };
  fmt::print("cobench run: interleaved (ABBA), adaptive {}..{} runs per side\n\n", kMinRuns, kMaxRuns);
  print_header("true slowdown");
  for (size_t i = 0; i < slowdowns.size(); ++i)
    rows(fmt::format("{:.0f}%", slowdowns[i] * 100), model, jobs, slowdowns[i], seed + i, {{"", kCobench}});
  const Procedure abba30{kMaxRuns, kMaxRuns, true}, seq30{kMaxRuns, kMaxRuns, false}, seq6{kMinRuns, kMinRuns, false};
  fmt::print("\nfixed {} runs per side: interleaved vs all base runs first, then all head, {} jobs each\n\n",
             kMaxRuns, jobs / 2);
  print_header("true slowdown, order");
  for (size_t i = 0; i < slowdowns.size(); ++i)
    rows(fmt::format("{:.0f}%", slowdowns[i] * 100), model, jobs / 2, slowdowns[i], seed + i,
         {{", ABBA", abba30}, {", sequential", seq30}});
  fmt::print("\nA/A (no change) under a fixed drift per {} runs, {} jobs each\n\n", model.drift_runs, jobs / 2);
  print_header("drift, procedure");
  for (double drift : {0.0, 0.10, 0.20, 0.40}) {
    NoiseModel fixed = model;
    fixed.drift_max = drift;
    fixed.drift_fixed = true;
    rows(fmt::format("{:.0f}%", drift * 100), fixed, jobs / 2, 0, seed + 100,
         {{", cobench", kCobench}, {", seq. 6", seq6}, {", seq. 30", seq30}});
  }
  return 0;
}
