#pragma once
// A Runner that spawns nothing: deterministic samples per target and side,
// a fake clock, and a log of the order in which runs were asked for.
#include <algorithm>
#include <functional>
#include <map>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "formats/formats.h"
#include "results/samples.h"
#include "run/runner.h"
#include "run/schedule.h"

namespace cobench::run::testing {

/// How one fake target behaves.
struct FakeTarget {
  double head_factor = 1.0;   ///< head time = base time * factor
  double noise = 0.01;        ///< uniform relative noise, +-, one draw per process
  std::vector<std::string> benchmarks = {"BM_a"};
  /// Returns a cause ("SIGSEGV") to make that run fail, "" for success.
  std::function<std::string(Side, int run)> failure = {};
  /// Normal relative noise (σ, on the log scale) of each repetition around its process's draw, where a run asks for
  /// repetitions (RunScope::repetitions > 1) and a length (RunScope::min_time, each repetition's seconds).
  double within = 0.0;
};

class FakeRunner : public Runner {
 public:
  std::map<std::string, FakeTarget> targets;
  std::vector<std::pair<std::string, Side>> calls;  ///< in call order
  std::vector<RunScope> scopes;                     ///< what each call covered
  double clock = 0;                                 ///< advances by run_seconds per run
  double run_seconds = 1;
  /// When set, a run's seconds from what it covered (its length and repetitions), instead of run_seconds.
  std::function<double(const RunScope&)> run_cost;

  std::vector<Unit> prepare(const SideContext& side) override {
    std::vector<Unit> units;
    for (const auto& [name, target] : targets) units.push_back(Unit{name, {name}, {}});
    return units;
  }

  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index, const RunScope& scope) override {
    calls.emplace_back(unit.name, side);
    scopes.push_back(scope);
    const double run_seconds = run_cost ? run_cost(scope) : this->run_seconds;
    clock += run_seconds;
    const FakeTarget& target = targets.at(unit.name);
    RunRecord record;
    record.target = unit.name;
    record.side = side;
    record.sha = sha;
    record.run = run_index;
    record.wall_seconds = run_seconds;
    if (target.failure) {
      std::string cause = target.failure(side, run_index);
      if (!cause.empty()) {
        record.status = cause;
        record.signal = cause == "SIGSEGV" ? 11 : 0;
        return record;
      }
    }
    std::mt19937 rng(static_cast<unsigned>(std::hash<std::string>{}(unit.name) + run_index * 7 + (side == Side::Head)));
    std::uniform_real_distribution<double> jitter(1 - target.noise, 1 + target.noise);
    for (const auto& name : target.benchmarks) {
      const auto& only = scope.benchmarks;
      if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
      double base_ns = 1000 * jitter(rng);
      double value = side == Side::Head ? base_ns * target.head_factor : base_ns;
      record.samples[name] = {{"real_ns", value}, {"cpu_ns", value}};
      if (scope.repetitions > 1 && scope.min_time > 0) {
        std::normal_distribution<double> scatter(0, target.within);
        formats::Entry entry;
        entry.threads = 1;
        for (int r = 0; r < scope.repetitions; ++r) {
          entry.cpu_ns.push_back(value * std::exp(scatter(rng)));
          entry.real_ns.push_back(entry.cpu_ns.back());
          entry.iterations.push_back(scope.min_time * 1e9 / entry.cpu_ns.back());
        }
        record.samples[name] = results::sample_from_entry(entry);
      }
    }
    return record;
  }

  /// How many runs of `target` were made on `side`.
  int count(const std::string& target, Side side) const {
    int n = 0;
    for (const auto& [t, s] : calls) n += t == target && s == side;
    return n;
  }
};

/// Pairs for every fake target, as the pipeline would build them.
inline std::vector<UnitPair> fake_pairs(FakeRunner& runner) {
  std::vector<UnitPair> pairs;
  for (const auto& unit : runner.prepare({})) pairs.push_back({unit.name, unit, unit, "b", "h"});
  return pairs;
}

}  // namespace cobench::run::testing
