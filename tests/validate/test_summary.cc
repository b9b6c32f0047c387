// The tallies per method and true effect, and how they are shown: every row
// in the markdown, counts in the JSON, a pass at a slowdown of 10% or more
// counted as the method's failure.
#include <gtest/gtest.h>

#include "validate/summary.h"

namespace cobench::validate {
namespace {

using verdict::Verdict::Inconclusive;
using verdict::Verdict::Pass;
using verdict::Verdict::Regression;

JobResult job(int index, int method, std::vector<std::pair<std::string, verdict::Verdict>> verdicts) {
  JobResult result;
  result.index = index;
  result.method = method;
  result.wall_seconds = 30;
  result.measuring_seconds = 20;
  for (const auto& [target, verdict] : verdicts) result.verdicts.push_back({target, "BM", verdict, 1.0, 6, 8});
  return result;
}

const std::vector<Method> kMethods = {{"before", {"--pairing", "unpaired"}}, {"now", {}}};

std::vector<JobResult> jobs() {
  JobResult failed = job(4, 0, {{"bench_aa_compute", Pass}});
  failed.failure = "cobench run exit status 3";
  JobResult first = job(1, 0, {{"bench_aa_compute", Pass}, {"bench_aa_join_strings", Inconclusive},
                               {"bench_slowdown_10", Pass}, {"bench_slowdown_50", Regression},
                               {"bench_extra_allocations", Regression}, {"other", Pass}});
  first.controls = {{"machine:bench_control/BM_Control", "machine", 1.0, 0.98, 1.01, 0.02}};
  JobResult second = job(2, 1, {{"bench_aa_compute", Regression}, {"bench_slowdown_10", Regression}});
  second.controls = {{"bench_control/BM_Control", "layout", 1.0, 0.96, 1.02, 0.04},
                     {"machine:bench_control/BM_Control", "machine", 1.0, 0.99, 1.01, 0.01}};
  return {first, second, job(3, 1, {{"bench_aa_compute", Pass}, {"bench_slowdown_3", Inconclusive}}), failed};
}

TEST(Summary, TalliesEachMethodsVerdictsByTrueEffect) {
  const Fixture fixture = plan_fixture({});
  const auto methods = summarize(fixture, kMethods, jobs());
  ASSERT_EQ(methods.size(), 2u);
  const MethodSummary& before = methods[0];
  EXPECT_EQ(before.jobs.size(), 1u);  // the failed job counts nowhere
  EXPECT_EQ(before.rows[0].verdicts, 2);  // two A/A benchmarks; "other" is not the fixture's
  EXPECT_EQ(before.rows[0].pass, 1);
  EXPECT_EQ(before.rows[0].inconclusive, 1);
  EXPECT_DOUBLE_EQ(before.rows[0].mean_runs_per_side(), 7.0);
  EXPECT_EQ(before.rows[fixture.row_of("bench_slowdown_10")].pass, 1);
  EXPECT_EQ(before.rows[fixture.row_of("bench_extra_allocations")].regression, 1);
  EXPECT_EQ(before.pass_at_10_or_more, 1);
  EXPECT_EQ(before.verdicts_at_10_or_more, 2);
  // The job's measuring time was spent on every benchmark it judged, "other" too: 5 decided.
  EXPECT_DOUBLE_EQ(before.measuring_seconds_per_decided(), 20.0 / 5);

  const MethodSummary& now = methods[1];
  EXPECT_EQ(now.jobs.size(), 2u);
  EXPECT_EQ(now.rows[0].verdicts, 2);
  EXPECT_EQ(now.rows[0].regression, 1);
  EXPECT_EQ(now.rows[fixture.row_of("bench_slowdown_3")].inconclusive, 1);
  EXPECT_EQ(now.pass_at_10_or_more, 0);
  EXPECT_EQ(now.verdicts_at_10_or_more, 1);
  // Per job the widest control (job 2: the layout control's ±4%), the median over jobs that had one.
  EXPECT_DOUBLE_EQ(before.median_control_spread(), 0.02);
  EXPECT_DOUBLE_EQ(now.median_control_spread(), 0.04);
}

TEST(Summary, AUsersRepositoryIsOneAARowTalliedPerBenchmarkFalseAlarmsFirst) {
  const Fixture fixture = repository_fixture("/src/suite", "abc");
  EXPECT_EQ(fixture.row_of("any target at all"), 0);
  JobResult one = job(1, 0, {{"bench_quiet", Pass}, {"bench_noisy", Inconclusive}});
  JobResult two = job(2, 0, {{"bench_quiet", Pass}, {"bench_noisy", Regression}});
  two.verdicts[0].faster = true;  // a pass below 1: a false claim too
  const auto methods = summarize(fixture, {{"default", {}}}, {one, two});
  ASSERT_EQ(methods[0].rows.size(), 1u);
  EXPECT_EQ(methods[0].rows[0].verdicts, 4);
  EXPECT_EQ(methods[0].rows[0].faster, 1);
  const Tally& noisy = methods[0].benchmarks.at({"bench_noisy", "BM"});
  EXPECT_EQ(noisy.regression, 1);
  EXPECT_EQ(noisy.inconclusive, 1);
  const Tally& quiet = methods[0].benchmarks.at({"bench_quiet", "BM"});
  EXPECT_EQ(quiet.pass, 2);
  EXPECT_EQ(quiet.faster, 1);
  Context context;
  context.host = nlohmann::json::object();
  const std::string md = render_markdown(context, fixture, methods);
  EXPECT_NE(md.find("- repository: /src/suite at abc, measured against itself"), std::string::npos) << md;
  const auto noisy_row = md.find("| bench\\_noisy | BM | 2 | 1 | 0 (0) | 1 |");
  const auto quiet_row = md.find("| bench\\_quiet | BM | 2 | 0 | 2 (1) | 0 |");
  ASSERT_NE(noisy_row, std::string::npos) << md;
  ASSERT_NE(quiet_row, std::string::npos) << md;
  EXPECT_LT(noisy_row, quiet_row) << "a regression and an inconclusive come before a faster claim";
  const auto json = to_json(context, fixture, methods);
  EXPECT_EQ(json.at("repository"), "/src/suite");
  EXPECT_EQ(json.at("methods").at(0).at("benchmarks").size(), 2u);
}

TEST(Summary, MarkdownHasTheContextEveryRowAndTheMethodsSideBySide) {
  const Fixture fixture = plan_fixture({});
  Context context;
  context.command = "cobench validate --short";
  context.version = "9.9.9";
  context.host = {{"cpu_model", "Test CPU"}, {"cpu_count", 2}, {"load_average", {1.5, 1.25, 1.0}}};
  context.load_end = {2.0, 1.5, 1.0};
  context.jobs_per_method = 2;
  context.builds = "ccache";
  const auto methods = summarize(fixture, kMethods, jobs());
  const std::string md = render_markdown(context, fixture, methods);
  for (const char* expected :
       {"`cobench validate --short`", "cobench 9.9.9; Test CPU, 2 online CPUs", "1.50 / 1.25 / 1.00 at the start",
        "2.00 / 1.50 / 1.00 at the end", "### Method `before`: `--pairing unpaired`",
        "### Method `now`: cobench run's defaults", "| 0% (A/A) | 2 | 0.0% (0) | 50.0% (1) | 50.0% (1) | 1.000 | 7.0 |",
        "| 3% | 0 | - | - | - | - | - |", "| 5% |", "| 10% | 1 | 0.0% (0) | 100.0% (1) |", "| 20% |", "| 50% |",
        "| +1 allocation per iteration | 1 |", "should be 0): **1** of 2 verdicts", "### Side by side",
        "| 0% (A/A) | 0% / 50% / 50% (7.0) | 50% / 50% / 0% (7.0) |", "| control spread (median) | ±2.0% | ±4.0% |",
        "control spread ±2.0% (median over jobs", "<details>",
        "| 2 | `now` | 0 | 10.0 s | 20.0 s | 2 | 2 | 10.0 | ±4.0% |",
        "| 3 | `now` | 0 | 10.0 s | 20.0 s | 2 | 1 | 20.0 | - |", "names `bench_control` the layout control"})
    EXPECT_NE(md.find(expected), std::string::npos) << expected << "\n" << md;
  const std::string one = render_markdown(context, fixture, summarize(fixture, {kMethods[1]}, {}));
  EXPECT_EQ(one.find("Side by side"), std::string::npos) << one;
}

TEST(Summary, JsonCarriesCountsPerRowAndEveryJob) {
  const Fixture fixture = plan_fixture({});
  const auto json = to_json(Context{}, fixture, summarize(fixture, kMethods, jobs()));
  EXPECT_EQ(json.at("tool"), "validate");
  EXPECT_EQ(json.at("fixture").size(), fixture.targets.size());
  const auto& before = json.at("methods").at(0);
  EXPECT_EQ(before.at("name"), "before");
  EXPECT_EQ(before.at("rows").size(), fixture.rows.size());
  EXPECT_EQ(before.at("rows").at(0).at("row"), "aa");
  EXPECT_EQ(before.at("rows").at(0).at("verdicts"), 2);
  EXPECT_EQ(before.at("rows").at(fixture.row_of("bench_slowdown_10")).at("true_slowdown"), 0.1);
  EXPECT_EQ(before.at("pass_at_10_or_more"), 1);
  EXPECT_EQ(before.at("jobs").size(), 1u);
  EXPECT_EQ(before.at("jobs").at(0).at("verdicts").size(), 6u);
  EXPECT_EQ(before.at("jobs").at(0).at("report"), "jobs/001/report.json");
  EXPECT_TRUE(json.at("stopped").is_null());
  EXPECT_EQ(json.at("layout_control"), "bench_control");
  EXPECT_EQ(before.at("median_control_spread"), 0.02);
  EXPECT_EQ(before.at("jobs").at(0).at("control_spread"), 0.02);
  EXPECT_EQ(before.at("jobs").at(0).at("controls").at(0).at("kind"), "machine");
  EXPECT_TRUE(json.at("methods").at(1).at("jobs").at(1).at("control_spread").is_null());  // job 3: no control
}

}  // namespace
}  // namespace cobench::validate
