#include "run/schedule.h"

#include <gtest/gtest.h>

#include <map>

#include "run/fake_runner.h"
#include "results/samples.h"
#include "verdict/futility.h"

namespace cobench::run {
namespace {

using testing::FakeRunner;
using testing::fake_pairs;

/// The schedule's mechanics (order, blocks, caps, budget) under the simplest
/// judging: unpaired, every look at 95%, so a clear case decides at min_runs.
ScheduleSettings settings(int min_runs, int max_runs) {
  ScheduleSettings s;
  s.min_runs = min_runs;
  s.max_runs = max_runs;
  s.rule.pairing = verdict::Pairing::Unpaired;
  s.rule.looks = verdict::LookRule(0.95, /*fixed=*/true);
  s.budget_for = [](const std::string&, const std::string&) { return 0.05; };
  return s;
}

/// cobench run's defaults: paired, Haybittle-Peto looks, per-benchmark stopping.
ScheduleSettings defaults(int min_runs, int max_runs) {
  ScheduleSettings s;
  s.min_runs = min_runs;
  s.max_runs = max_runs;
  s.budget_for = [](const std::string&, const std::string&) { return 0.05; };
  return s;
}

ScheduleHooks fake_clock(FakeRunner& runner) {
  ScheduleHooks hooks;
  hooks.elapsed_seconds = [&runner] { return runner.clock; };
  hooks.cancelled = [] { return false; };
  return hooks;
}

TEST(Schedule, AlternatesAbbaPerTarget) {
  FakeRunner runner;
  runner.targets["t"] = {};
  auto hooks = fake_clock(runner);
  run_schedule(runner, fake_pairs(runner), settings(4, 4), hooks);
  std::vector<Side> order;
  for (auto& [target, side] : runner.calls) order.push_back(side);
  const auto B = Side::Base, H = Side::Head;
  EXPECT_EQ(order, (std::vector<Side>{B, H, H, B, B, H, H, B}));
}

TEST(Schedule, InterleavesTargetsWithinARound) {
  FakeRunner runner;
  runner.targets["a"] = {};
  runner.targets["b"] = {};
  auto hooks = fake_clock(runner);
  run_schedule(runner, fake_pairs(runner), settings(2, 2), hooks);
  std::vector<std::string> targets;
  for (auto& [target, side] : runner.calls) targets.push_back(target);
  EXPECT_EQ(targets, (std::vector<std::string>{"a", "a", "b", "b", "a", "a", "b", "b"}));
}

TEST(Schedule, AddsBlocksOnlyToTheUndecidedTarget) {
  FakeRunner runner;
  runner.targets["clear"] = {2.0, 0.01};   // decided: regression after min_runs
  runner.targets["same"] = {1.0, 0.01};    // decided: pass
  runner.targets["noisy"] = {1.0, 0.5};    // +-50% noise: stays inconclusive
  auto hooks = fake_clock(runner);
  auto outcome = run_schedule(runner, fake_pairs(runner), settings(6, 10), hooks);
  EXPECT_EQ(runner.count("clear", Side::Base), 6);
  EXPECT_EQ(runner.count("clear", Side::Head), 6);
  EXPECT_EQ(runner.count("same", Side::Head), 6);
  EXPECT_EQ(runner.count("noisy", Side::Base), 10);
  EXPECT_EQ(runner.count("noisy", Side::Head), 10);
  EXPECT_FALSE(outcome.interrupted);
  EXPECT_EQ(outcome.records.size(), 6u * 2 * 2 + 10u * 2);
  ASSERT_TRUE(outcome.stop_reasons.count("noisy"));
  EXPECT_NE(outcome.stop_reasons["noisy"].find("max_runs"), std::string::npos);
  EXPECT_FALSE(outcome.stop_reasons.count("clear"));
}

TEST(Schedule, ReportsOneProgressLinePerRound) {
  FakeRunner runner;
  runner.targets["clear"] = {2.0, 0.01};
  runner.targets["noisy"] = {1.0, 0.5};
  auto hooks = fake_clock(runner);
  std::vector<std::pair<std::string, int>> rounds;
  hooks.on_round = [&](const std::string& label, int round, int) { rounds.emplace_back(label, round); };
  run_schedule(runner, fake_pairs(runner), settings(6, 8), hooks);
  using R = std::pair<std::string, int>;
  std::vector<R> expected;
  for (int round = 1; round <= 6; ++round) expected.emplace_back("2 targets", round);
  expected.emplace_back("noisy", 8);  // only the undecided target gets the block
  EXPECT_EQ(rounds, expected);

  // A control that follows the job runs beside the targets and is not counted as one of them.
  runner.targets["control"] = {1.0, 0.01};
  auto pairs = fake_pairs(runner);
  for (auto& pair : pairs) pair.follows = pair.target == "control";
  rounds.clear();
  run_schedule(runner, pairs, settings(6, 8), hooks);
  ASSERT_FALSE(rounds.empty());
  EXPECT_EQ(rounds.front(), R("2 targets", 1));
  EXPECT_EQ(rounds.back(), R("noisy", 8));
}

TEST(Schedule, MaxRunsCapsAPartialBlock) {
  FakeRunner runner;
  runner.targets["noisy"] = {1.0, 0.5};
  auto hooks = fake_clock(runner);
  run_schedule(runner, fake_pairs(runner), settings(6, 9), hooks);
  EXPECT_EQ(runner.count("noisy", Side::Base), 9);
  EXPECT_EQ(runner.count("noisy", Side::Head), 9);
}

TEST(Schedule, TimeBudgetStopsBeforeABlockThatWouldNotFit) {
  FakeRunner runner;
  runner.targets["clear"] = {2.0, 0.01};
  runner.targets["noisy"] = {1.0, 0.5};
  auto s = settings(6, 30);
  s.time_budget = 26;  // min runs take 24 fake seconds; a block needs 4 more
  std::vector<std::string> stopped;
  auto hooks = fake_clock(runner);
  hooks.on_stop = [&](const std::string& target, const std::string&) { stopped.push_back(target); };
  auto outcome = run_schedule(runner, fake_pairs(runner), s, hooks);
  EXPECT_EQ(runner.count("noisy", Side::Head), 6);
  EXPECT_EQ(stopped, std::vector<std::string>{"noisy"});
  EXPECT_NE(outcome.stop_reasons["noisy"].find("time budget"), std::string::npos);
  EXPECT_LE(runner.clock, 26);
}

// `cobench run --filter X` where X matches nothing in a target: one pair, not min_runs.
TEST(Schedule, ATargetWhoseFirstRunsReportNoBenchmarkStopsAfterThem) {
  FakeRunner runner;
  runner.targets["empty"] = {1.0, 0.01, {}};
  runner.targets["full"] = {};
  std::map<std::string, std::string> stopped;
  auto hooks = fake_clock(runner);
  hooks.on_stop = [&](const std::string& target, const std::string& reason) { stopped[target] = reason; };
  auto outcome = run_schedule(runner, fake_pairs(runner), settings(6, 30), hooks);
  EXPECT_EQ(runner.count("empty", Side::Base), 1);
  EXPECT_EQ(runner.count("empty", Side::Head), 1);
  EXPECT_EQ(runner.count("full", Side::Head), 6);
  EXPECT_EQ(stopped, (std::map<std::string, std::string>{{"empty", "its first run on each side reported no benchmark"}}));
}

TEST(Schedule, ATargetWhoseFirstRunFailsOnBothSidesStopsAfterThem) {
  FakeRunner runner;
  runner.targets["broken"] = {};
  runner.targets["broken"].failure = [](Side, int) { return "exit 1"; };
  runner.targets["base_only_fails_once"] = {};
  runner.targets["base_only_fails_once"].failure = [](Side side, int run) {
    return side == Side::Base && run == 0 ? "exit 1" : "";
  };
  std::map<std::string, std::string> stopped;
  auto hooks = fake_clock(runner);
  hooks.on_stop = [&](const std::string& target, const std::string& reason) { stopped[target] = reason; };
  run_schedule(runner, fake_pairs(runner), settings(6, 30), hooks);
  EXPECT_EQ(runner.count("broken", Side::Base), 1);
  EXPECT_EQ(runner.count("broken", Side::Head), 1);
  EXPECT_EQ(runner.count("base_only_fails_once", Side::Base), 6);  // one side still measures: runs go on
  EXPECT_EQ(stopped, (std::map<std::string, std::string>{{"broken", "its first run on each side failed"}}));
}

TEST(Schedule, ADecidedBenchmarkStopsRunningWhileItsUndecidedNeighbourGoesOnUntilMoreRunsAreNotWorthIt) {
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_quiet", "BM_noisy"}};
  runner.targets["t"].noise = 0.01;
  auto hooks = fake_clock(runner);
  // BM_noisy's samples scatter by ±50%: a second target would need its own noise; here one
  // benchmark is made noisy by a budget it cannot be told apart from.
  auto s = defaults(6, 20);
  s.budget_for = [](const std::string&, const std::string& name) { return name == "BM_noisy" ? 0.0 : 0.05; };
  auto outcome = run_schedule(runner, fake_pairs(runner), s, hooks);
  ASSERT_EQ(runner.scopes.size(), runner.calls.size());
  // The first runs cover everything; once BM_quiet is decided, runs name only BM_noisy.
  EXPECT_TRUE(runner.scopes.front().benchmarks.empty());
  EXPECT_EQ(runner.scopes.back().benchmarks, std::vector<std::string>{"BM_noisy"});
  int quiet = 0, noisy = 0;
  for (const auto& r : outcome.records) {
    quiet += r.side == Side::Base && r.samples.count("BM_quiet");
    noisy += r.side == Side::Base && r.samples.count("BM_noisy");
  }
  EXPECT_LT(quiet, noisy);   // the decided one got fewer runs: its own n
  // The undecided one sits on its budget line (ratio 1, budget 0): it runs on until its projected
  // chance to be decided by max_runs falls below 5%, and ends open then, before max_runs.
  EXPECT_GE(noisy, verdict::kFutilityFromPairs);
  EXPECT_LT(noisy, 20);
  EXPECT_FALSE(outcome.stop_reasons.count("t")) << "finished, not stopped at max_runs";
}

TEST(Schedule, WithoutTheFutilityStopAnUndecidedBenchmarkRunsToMaxRuns) {
  // The same undecided benchmark as above, where the runs are asked for agreement, not a decision.
  FakeRunner runner;
  runner.targets["t"] = {1.0, 0.01, {"BM_noisy"}};
  runner.targets["t"].noise = 0.01;
  auto hooks = fake_clock(runner);
  auto s = defaults(6, 20);
  s.budget_for = [](const std::string&, const std::string&) { return 0.0; };
  s.stop_when_futile = false;
  auto outcome = run_schedule(runner, fake_pairs(runner), s, hooks);
  EXPECT_EQ(runner.count("t", Side::Base), 20);
  EXPECT_TRUE(outcome.stop_reasons.count("t")) << "stopped at max_runs, still undecided";
}

TEST(Schedule, TheFirstLookDecidesAClearRowFromItsRunsAsTwoSamples) {
  // The early looks are at 99%: an exact signed-rank interval needs 8 pairs
  // whose times differ (2/2^8 < 1%); before that the runs are judged as two
  // samples at 99.73%, which 6 runs per side reach (2/924): a clear 2x is
  // decided at the first look of 6, and not at 4 (2/70).
  for (int min_runs : {6, 4}) {
    FakeRunner runner;
    runner.targets["clear"] = {2.0, 0.01};
    auto hooks = fake_clock(runner);
    auto outcome = run_schedule(runner, fake_pairs(runner), defaults(min_runs, 30), hooks);
    EXPECT_EQ(runner.count("clear", Side::Head), 6) << "first look at " << min_runs;
    EXPECT_FALSE(outcome.stop_reasons.count("clear"));
  }
}

TEST(Schedule, AFamilyFlatInItsArgumentStopsOnlyWhileItsSidesAgree) {
  // A family whose argument is an id, not a size, reads flat in it: "likely
  // optimised away" on both sides. Identical sides: more runs can tell
  // nothing, it stops after min_runs (4 runs per side decide nothing, above).
  // A head 8x slower measures something: it runs on until its regression is
  // decided (it stopped at min_runs, undecided, and passed --gate as inconclusive).
  for (double head_factor : {1.0, 8.0}) {
    FakeRunner runner;
    runner.targets["t"] = {head_factor, 0.01, {"BM_id/1", "BM_id/64"}};
    auto hooks = fake_clock(runner);
    run_schedule(runner, fake_pairs(runner), defaults(4, 30), hooks);
    EXPECT_EQ(runner.count("t", Side::Head), head_factor == 1.0 ? 4 : 6) << "head x" << head_factor;
  }
}

TEST(Schedule, ANoisyControlAroundOneNeverWithdrawsAClearRegression) {
  // A ±35% control shows no slower head side: until its upper end rules out a
  // shift as large as the 25%, the 25% runs on beside it, and at the end the
  // control, having shown nothing, moves nothing (the old rule left it
  // inconclusive unless it cleared the control's whole spread).
  FakeRunner runner;
  runner.targets["slow"] = {1.25, 0.01};
  runner.targets["control"] = {1.0, 0.35};  // rebuilt untouched, ±35% noisy
  auto pairs = fake_pairs(runner);
  for (auto& pair : pairs) pair.follows = pair.target == "control";
  const auto s = defaults(6, 20);
  auto outcome = run_schedule(runner, pairs, s, fake_clock(runner));
  EXPECT_EQ(runner.count("control", Side::Head), runner.count("slow", Side::Head));  // it follows, and ends with it
  EXPECT_FALSE(outcome.stop_reasons.count("slow")) << "decided, not stopped undecided";
  const auto controls = verdict::judge_controls(results::control_samples(outcome.records, {{"control", "layout"}}, s.rule.metric), s.rule);
  EXPECT_FALSE(controls.shift_at(verdict::Look::Final).slower_by.has_value()) << "no evidence of a slower head side";
  EXPECT_TRUE(undecided_benchmarks("slow", outcome.records, s, verdict::Look::Final, controls).empty());
}

TEST(Schedule, ARegressionWithinTheShiftABiasedControlShowsKeepsMeasuringWithTheControl) {
  // Everything on the head side reads ~6% slower (the control too): a row at
  // 1.10 is a regression on its own interval but not net of that shift (1.04).
  // The report would call it inconclusive, so the schedule must not stop it.
  FakeRunner runner;
  runner.targets["slow"] = {1.10, 0.01};
  runner.targets["control"] = {1.06, 0.01};
  auto pairs = fake_pairs(runner);
  for (auto& pair : pairs) pair.follows = pair.target == "control";
  const auto s = defaults(6, 20);
  auto outcome = run_schedule(runner, pairs, s, fake_clock(runner));
  EXPECT_EQ(runner.count("slow", Side::Head), s.max_runs);
  EXPECT_EQ(runner.count("control", Side::Head), s.max_runs);
  ASSERT_TRUE(outcome.stop_reasons.count("slow"));
  const auto controls = verdict::judge_controls(results::control_samples(outcome.records, {{"control", "layout"}}, s.rule.metric), s.rule);
  ASSERT_TRUE(controls.shift_at(verdict::Look::Final).slower_by.has_value());
  EXPECT_GT(controls.shift_at(verdict::Look::Final).slower, 1.04);
  EXPECT_TRUE(undecided_benchmarks("slow", outcome.records, s, verdict::Look::Final).empty())
      << "a regression on its own";
  EXPECT_EQ(undecided_benchmarks("slow", outcome.records, s, verdict::Look::Final, controls),
            std::vector<std::string>{"BM_a"});
}

TEST(Schedule, FixedAndAutomaticRepetitionsReachTheRunner) {
  FakeRunner runner;
  runner.targets["t"] = {};
  auto hooks = fake_clock(runner);
  auto s = settings(2, 2);
  s.repetitions.fixed = 5;
  run_schedule(runner, fake_pairs(runner), s, hooks);
  for (const auto& scope : runner.scopes) EXPECT_EQ(scope.repetitions, 5);
  FakeRunner automatic;
  automatic.targets["t"] = {1.0, 0.5};  // undecided: blocks follow the first runs
  s = settings(4, 8);
  s.repetitions.automatic = true;
  s.repetitions.first = 3;
  run_schedule(automatic, fake_pairs(automatic), s, fake_clock(automatic));
  EXPECT_EQ(automatic.scopes.front().repetitions, 3);  // the first runs measure the noise split
  for (const auto& scope : automatic.scopes) {
    EXPECT_GE(scope.repetitions, 1);
    EXPECT_LE(scope.repetitions, s.repetitions.most);
  }
}

/// Settings with run length auto from `seconds`, the first pairs measuring `share` of it.
ScheduleSettings automatic_length(int min_runs, int max_runs, double seconds,
                                  double share = results::kFirstPairsShare) {
  auto s = defaults(min_runs, max_runs);
  s.run_length.automatic = true;
  s.run_length.seconds = seconds;
  s.run_length.first_pairs_share = share;
  return s;
}

/// One call of the fake runner: its target, the run's index on that target (both sides), what it covered.
struct Call {
  std::string target;
  int run = 0;
  RunScope scope;
};

std::vector<Call> calls_of(const FakeRunner& runner) {
  std::vector<Call> out;
  std::map<std::string, int> runs;
  for (size_t i = 0; i < runner.calls.size(); ++i) {
    const std::string& target = runner.calls[i].first;
    out.push_back({target, runs[target]++, runner.scopes[i]});
  }
  return out;
}

TEST(Schedule, AnAutomaticRunLengthIsChosenOnceAtTheFirstLookFromTheSplit) {
  FakeRunner runner;
  runner.run_seconds = 0.22;  // per benchmark 0.03 s of start and search besides two repetitions of 0.0125 s
  // Four benchmarks per target: their split is pooled (one process runs them all), which six pairs of one tell roughly.
  const std::vector<std::string> four = {"BM_a", "BM_b", "BM_c", "BM_d"};
  runner.targets["between"] = {1.0, 0.15, four};          // a process's own offset ±15%, repetitions agree
  runner.targets["between"].within = 0.005;
  runner.targets["within"] = {1.0, 0.0, four};            // no offset, repetitions scatter σ 10%
  runner.targets["within"].within = 0.10;
  auto pairs = fake_pairs(runner);
  runner.targets["machine"] = {};  // cobench's machine control: a fixed iteration count, no length to choose
  const auto all = fake_pairs(runner);
  auto machine = *std::find_if(all.begin(), all.end(), [](const UnitPair& p) { return p.target == "machine"; });
  machine.follows = machine.one_binary = true;
  pairs.push_back(machine);
  const auto s = automatic_length(6, 12, 0.05);  // the shortest: 0.01 s
  std::map<std::string, std::string> chosen;
  auto hooks = fake_clock(runner);
  hooks.on_run_length = [&](const results::RunLength& length) {
    EXPECT_FALSE(chosen.count(length.target)) << "chosen twice: " << length.target;
    chosen[length.target] = results::describe(length);
  };
  run_schedule(runner, pairs, s, hooks);
  std::map<std::string, int> runs;
  for (const auto& [target, run, scope] : calls_of(runner)) {
    ++runs[target];
    const bool first_pairs = run < 2 * s.min_runs;
    if (target == "machine") {
      EXPECT_EQ(scope.repetitions, 0);
      EXPECT_EQ(scope.min_time, 0);
    } else if (first_pairs) {  // half the measuring of one whole run, with a split to read
      EXPECT_EQ(scope.repetitions, 2) << target;
      EXPECT_DOUBLE_EQ(scope.min_time, 0.0125) << target;
    } else {
      EXPECT_EQ(scope.repetitions, 1) << target;
      if (target == "between") EXPECT_DOUBLE_EQ(scope.min_time, 0.01);  // the shortest
      // Lengthened past the 0.025 s each first pair measured, towards the whole: six pairs tell "no offset"
      // only roughly (here they read an offset of about σ_within / 1.5, which keeps it short of the whole).
      else EXPECT_GT(scope.min_time, 0.0275);
      EXPECT_LE(scope.min_time, 0.05) << target << ": never past the whole length";
    }
  }
  EXPECT_GT(runs["between"], 2 * s.min_runs) << "no run after the first look to check";
  EXPECT_GT(runs["within"], 2 * s.min_runs) << "no run after the first look to check";
  EXPECT_EQ(chosen.size(), 2u);
  EXPECT_NE(chosen["between"].find("--benchmark_min_time=0.01:"), std::string::npos) << chosen["between"];
  EXPECT_NE(chosen["within"].find("within a process"), std::string::npos) << chosen["within"];
}

TEST(Schedule, RunsLengthenedAtTheFirstLookAreFittedIntoTheTimeBudgetAtTheirNewCost) {
  FakeRunner runner;
  // On the budget line (open at the first look), its noise inside the process, and a costly process start
  // (0.3 s: a benchmark's setup): the whole length is chosen at the first look.
  runner.targets["within"] = {1.05, 0.001, {"BM_a", "BM_b", "BM_c", "BM_d"}};
  runner.targets["within"].within = 0.10;
  // What a run covers costs what it measures on top of its start: a first pair's 4 × 2 × 0.0125 s, then 4 × 0.05 s.
  runner.run_cost = [](const RunScope& scope) {
    return 0.3 + 4 * std::max(1, scope.repetitions) * scope.min_time;
  };
  auto s = automatic_length(6, 30, 0.05);
  // The first pairs (12 runs of 0.4 s), then room for a block of 2 pairs at their cost (1.6 s), not at 0.5 s a run.
  s.time_budget = 12 * 0.4 + 1.7;
  std::map<std::string, std::string> stops;
  auto hooks = fake_clock(runner);
  hooks.on_stop = [&](const std::string& target, const std::string& reason) { stops[target] = reason; };
  double chosen = 0;
  hooks.on_run_length = [&](const results::RunLength& length) { chosen = length.min_time; };
  run_schedule(runner, fake_pairs(runner), s, hooks);
  ASSERT_GT(chosen, 0.04) << "the test needs the length chosen well past the first pairs' 0.025 s";
  EXPECT_LE(runner.clock, *s.time_budget + 1e-9) << "a block of lengthened runs went past the time budget";
  EXPECT_EQ(runner.count("within", Side::Base), 6);
  EXPECT_NE(stops["within"].find("exhausted after 6 runs per side"), std::string::npos) << stops["within"];
}

TEST(Schedule, FirstPairsMeasuringTheWholeLengthAreNeverLengthened) {
  // A first-pairs share of 1 (results files from before kFirstPairsShare): two halves of the whole, then at most it.
  FakeRunner runner;
  runner.run_seconds = 0.32;
  runner.targets["within"] = {1.0, 0.0, {"BM_a", "BM_b"}};
  runner.targets["within"].within = 0.10;
  const auto s = automatic_length(6, 12, 0.05, 1.0);
  run_schedule(runner, fake_pairs(runner), s, fake_clock(runner));
  int later = 0;
  for (const auto& [target, run, scope] : calls_of(runner)) {
    if (run < 2 * s.min_runs) {
      EXPECT_DOUBLE_EQ(scope.min_time, 0.025) << "run " << run;
    } else {
      ++later;
      EXPECT_GT(scope.min_time, 0.035) << "run " << run;
      EXPECT_LE(scope.min_time, 0.05) << "run " << run;
    }
  }
  EXPECT_GT(later, 0) << "no run after the first look to check";
}

TEST(Schedule, ATargetWhoseBenchmarksSetTheirOwnLengthRunsOneRepetitionAfterItsFirstPair) {
  FakeRunner runner;
  // ->Iterations(n) and ->MinTime(s) put their option in the name; --benchmark_min_time does not move them.
  runner.targets["set"] = {1.0, 0.3, {"BM_format/iterations:2500000", "BM_pad/64/min_time:0.500"}};
  runner.targets["mixed"] = {1.0, 0.3, {"BM_format/iterations:2500000", "BM_join/64"}};
  // A name registered at run time may say anything in its family part.
  runner.targets["named"] = {1.0, 0.3, {"iterations:many [a/b]"}};
  const auto s = automatic_length(6, 12, 0.05);
  std::map<std::string, results::RunLength> logged;
  auto hooks = fake_clock(runner);
  hooks.on_run_length = [&](const results::RunLength& length) {
    EXPECT_FALSE(logged.count(length.target)) << "logged twice: " << length.target;
    logged[length.target] = length;
  };
  run_schedule(runner, fake_pairs(runner), s, hooks);
  std::map<std::string, int> runs;
  for (const auto& [target, run, scope] : calls_of(runner)) {
    ++runs[target];
    const bool first_pair = run < 2, first_pairs = run < 2 * s.min_runs;
    if (target == "set" && !first_pair) {
      EXPECT_LE(scope.repetitions, 1) << "run " << run;  // one: the flag, or none
      EXPECT_DOUBLE_EQ(scope.min_time, 0.05) << "run " << run;
    } else if (first_pairs) {  // one benchmark's length can be chosen: the halves tell the split
      EXPECT_EQ(scope.repetitions, 2) << target << " run " << run;
      EXPECT_DOUBLE_EQ(scope.min_time, 0.0125) << target << " run " << run;
    }
  }
  EXPECT_GT(runs["set"], 2 * s.min_runs) << "no run after the first look to check";
  ASSERT_TRUE(logged.count("set"));
  EXPECT_TRUE(logged["set"].set_by_benchmarks);
  EXPECT_DOUBLE_EQ(logged["set"].min_time, 0.05);
  EXPECT_FALSE(logged.count("mixed") && logged["mixed"].set_by_benchmarks);
  EXPECT_FALSE(logged.count("named") && logged["named"].set_by_benchmarks);
}

TEST(Schedule, ALengthChosenBeforeIsRunFromTheFirstPairAndNotChosenAgain) {
  FakeRunner runner;
  runner.targets["chosen"] = {1.0, 0.3, {"BM_a"}};
  runner.targets["open"] = {1.0, 0.3, {"BM_b"}};
  auto s = automatic_length(6, 12, 0.05);
  s.run_length.chosen = {{"chosen", 0.0125}};
  std::vector<std::string> logged;
  auto hooks = fake_clock(runner);
  hooks.on_run_length = [&](const results::RunLength& length) { logged.push_back(length.target); };
  run_schedule(runner, fake_pairs(runner), s, hooks);
  std::map<std::string, int> runs;
  for (const auto& [target, run, scope] : calls_of(runner)) {
    ++runs[target];
    if (target == "chosen") {
      EXPECT_LE(scope.repetitions, 1) << "run " << run;
      EXPECT_DOUBLE_EQ(scope.min_time, 0.0125) << "run " << run;
    } else if (run < 2 * s.min_runs) {
      EXPECT_EQ(scope.repetitions, 2) << "run " << run;
    }
  }
  EXPECT_GT(runs["chosen"], 0);
  EXPECT_EQ(logged, std::vector<std::string>{"open"});  // the one chosen here
}

TEST(Schedule, FailedRunsAreRecordedAndRunsGoOn) {
  FakeRunner runner;
  runner.targets["t"] = {2.0, 0.01};
  runner.targets["t"].failure = [](Side side, int run) { return side == Side::Head && run == 1 ? "SIGSEGV" : ""; };
  auto hooks = fake_clock(runner);
  std::vector<RunRecord> logged;
  hooks.on_record = [&](const RunRecord& r) { logged.push_back(r); };
  auto outcome = run_schedule(runner, fake_pairs(runner), settings(6, 6), hooks);
  ASSERT_EQ(logged.size(), 12u);
  int failed = 0;
  for (const auto& r : logged) failed += !r.ok();
  EXPECT_EQ(failed, 1);
  EXPECT_TRUE(undecided_benchmarks("t", outcome.records, settings(6, 6), verdict::Look::Final).empty());
}

TEST(Schedule, CancellationStopsAtOnceAndKeepsFinishedRuns) {
  FakeRunner runner;
  runner.targets["t"] = {};
  auto hooks = fake_clock(runner);
  hooks.cancelled = [&runner] { return runner.calls.size() >= 5; };
  auto outcome = run_schedule(runner, fake_pairs(runner), settings(6, 6), hooks);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_EQ(runner.calls.size(), 5u);
  EXPECT_EQ(outcome.records.size(), 5u);
}

}  // namespace
}  // namespace cobench::run
