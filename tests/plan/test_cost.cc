// What earlier jobs say targets cost: build lines and run lines of their
// results.jsonl, the machine control left out; unreadable files are input errors.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "plan/plan.h"
#include "results/log.h"
#include "support/testing.h"

namespace cobench::plan {
namespace {

using results::Side;

results::RunRecord run(const std::string& target, Side side, double seconds, const std::string& kind = "time") {
  results::RunRecord r;
  r.target = target;
  r.side = side;
  r.wall_seconds = seconds;
  r.kind = kind;
  return r;
}

TEST(CostHistory, MeansPerSideAndPerRunAcrossFiles) {
  results::ResultsFile one, two;
  one.settings.machine_control = "machine:a";
  one.builds = {{"a", Side::Base, 10}, {"a", Side::Head, 14}, {"b", Side::Base, 2}};
  one.runs = {run("a", Side::Base, 1), run("a", Side::Head, 3), run("machine:a", Side::Base, 50),
              run("a", Side::Base, 4, "alloc")};
  two.builds = {{"a", Side::Base, 12}};
  two.runs = {run("a", Side::Base, 2), run("a", Side::Head, 2)};
  const CostHistory history = cost_history({one, two});
  ASSERT_EQ(history.targets.count("machine:a"), 0u);
  const PastCost& a = history.targets.at("a");
  EXPECT_EQ(a.builds, 3);
  EXPECT_DOUBLE_EQ(a.build_seconds, 12);
  EXPECT_EQ(a.runs, 4);  // timing runs only
  EXPECT_DOUBLE_EQ(a.run_seconds, 2);
  EXPECT_DOUBLE_EQ(a.measured_seconds, (8 + 4) / 2.0);  // all its runs in a job, allocation runs too
  EXPECT_EQ(history.targets.at("b").runs, 0);
}

TEST(CostHistory, AFileThatIsNotAResultsLogIsAnInputErrorNamingTheFlag) {
  testing::TempDir dir;
  testing::write_file(dir / "x.jsonl", "{\"type\":\"host\"}\n");
  try {
    read_cost_history({(dir / "x.jsonl").string()}, "--cost-from");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--cost-from: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("no settings line"), std::string::npos) << e.what();
  }
  try {
    read_cost_history({(dir / "missing.jsonl").string()}, "COBENCH_COST_FROM");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("COBENCH_COST_FROM: '"), std::string::npos) << e.what();
  }
}

TEST(CostHistory, ReadsBackWhatTheLogWrote) {
  testing::TempDir dir;
  {
    results::ResultsLog log(dir / "results.jsonl");
    log.host({});
    results::JobSettings settings;
    settings.base = "b";
    settings.head = "h";
    log.settings(settings);
    log.build({"bench_x", Side::Base, 3.5});
    log.build({"bench_x", Side::Head, 4.5});
    log.run(run("bench_x", Side::Base, 0.5));
  }
  const CostHistory history = read_cost_history({(dir / "results.jsonl").string()}, "--cost-from");
  EXPECT_DOUBLE_EQ(history.targets.at("bench_x").build_seconds, 4);
  EXPECT_DOUBLE_EQ(history.targets.at("bench_x").run_seconds, 0.5);
  EXPECT_EQ(history.files.size(), 1u);
}

}  // namespace
}  // namespace cobench::plan
