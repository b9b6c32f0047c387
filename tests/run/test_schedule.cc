#include "run/schedule.h"

#include <gtest/gtest.h>

#include <map>

#include "run/fake_runner.h"

namespace cobench::run {
namespace {

using testing::FakeRunner;
using testing::fake_pairs;

ScheduleSettings settings(int min_runs, int max_runs) {
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
  EXPECT_TRUE(undecided_benchmarks("t", outcome.records, settings(6, 6)).empty());
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
