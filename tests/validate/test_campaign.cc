// The campaign's pieces that need no build: methods, the order jobs take
// turns in, each job's command line, and reading a job's report folder back.
#include <cmath>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/files.h"
#include "support/testing.h"
#include "validate/campaign.h"
#include "validate/job_folder.h"

namespace cobench::validate {
namespace {

namespace fs = std::filesystem;

TEST(Campaign, MethodIsANameAndFlagsSplitAtSpaces) {
  Method m = parse_method("before=--pairing unpaired  --looks\tevery-look");
  EXPECT_EQ(m.name, "before");
  EXPECT_EQ(m.args, (std::vector<std::string>{"--pairing", "unpaired", "--looks", "every-look"}));
  m = parse_method("now=");
  EXPECT_EQ(m.name, "now");
  EXPECT_TRUE(m.args.empty());
  EXPECT_EQ(parse_method("a=--budget=10%").args, std::vector<std::string>{"--budget=10%"});
  EXPECT_THROW(parse_method("=--pairing unpaired"), InputError);
  EXPECT_THROW(parse_method("now"), InputError);
}

TEST(Campaign, MethodsTakeTurnsSoADriftHitsEachAlike) {
  EXPECT_EQ(job_order(2, 3), (std::vector<int>{0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(job_order(3, 2), (std::vector<int>{0, 1, 2, 2, 1, 0}));
  EXPECT_EQ(job_order(1, 3), (std::vector<int>{0, 0, 0}));
  EXPECT_TRUE(job_order(2, 0).empty());
}

TEST(Campaign, AJobsFlagsComeAfterTheDefaultsSoTheMethodWins) {
  JobSpec spec;
  spec.cobench = "/opt/cobench";
  spec.repo = "/tmp/v/repo";
  spec.base = "b";
  spec.head = "h";
  spec.args = {"--bench-arg=--benchmark_min_time=0.05", "--allocs-budget", "0", "--max-runs=8"};
  EXPECT_EQ(job_argv(spec, {"m", {"--max-runs", "12"}}, "/tmp/v/jobs/001"),
            (std::vector<std::string>{"/opt/cobench", "run", "--repo", "/tmp/v/repo", "--base", "b", "--head", "h",
                                      "--all", "--out", "/tmp/v/jobs/001", "--bench-arg=--benchmark_min_time=0.05",
                                      "--allocs-budget", "0", "--max-runs=8", "--max-runs", "12"}));
}

TEST(Campaign, AJobIsReadBackThroughTheReportModelAndTheRunLogWithoutItsControlsRows) {
  cobench::testing::TempDir dir;
  write_job_folder(dir.path());
  const JobResult job = read_job(dir.path());
  ASSERT_EQ(job.verdicts.size(), 2u);  // the two control rows are not verdicts
  EXPECT_EQ(job.verdicts[0].target, "bench_slowdown_10");
  EXPECT_EQ(job.verdicts[0].verdict, verdict::Verdict::Regression);
  EXPECT_NEAR(job.verdicts[0].ratio, 1.10, 0.01);
  EXPECT_EQ(job.verdicts[0].runs_base, 4);
  EXPECT_EQ(job.verdicts[1].verdict, verdict::Verdict::Inconclusive);
  EXPECT_TRUE(std::isnan(job.verdicts[1].ratio));  // nothing compared: no ratio, not 0
  EXPECT_DOUBLE_EQ(job.measuring_seconds, 4.5);
  EXPECT_EQ(job.decided(), 1);
  EXPECT_TRUE(std::isnan(JobResult{}.control_spread()));  // no control, no spread
  ASSERT_EQ(job.controls.size(), 2u);
  EXPECT_EQ(job.controls[0].kind, "machine");
  EXPECT_DOUBLE_EQ(job.control_spread(), 0.03);  // the widest: the one the rule held rows to
}

TEST(Campaign, AMissingReportNamesTheFile) {
  cobench::testing::TempDir dir;
  try {
    read_job(dir.path());
    FAIL() << "no report.json must be an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "report.json").string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cobench::validate
