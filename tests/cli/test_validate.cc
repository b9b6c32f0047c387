// `cobench validate` refuses what every job would be refused for, before
// anything is built, and leaves no temporary folder behind.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/testing.h"

namespace t = cobench::testing;
namespace fs = std::filesystem;

namespace {

/// Runs `cobench validate ARGS` with its own TMPDIR, in a folder holding `existing` (files, relative to it);
/// expects exit 2 with `message` and nothing left in TMPDIR.
void expect_refused(const std::vector<std::string>& args, const std::string& message,
                    const std::vector<std::string>& existing = {}) {
  t::TempDir dir;
  fs::create_directories(dir / "tmp");
  for (const auto& file : existing) t::write_file(dir / file, "{}\n");
  std::vector<std::string> argv = {"validate"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto result = t::run_cobench(argv, dir.path(), {{"TMPDIR", (dir / "tmp").string()}}, 60);
  EXPECT_EQ(result.exit_code, 2) << t::explain(result);
  EXPECT_NE(result.err.find(message), std::string::npos) << t::explain(result);
  EXPECT_TRUE(fs::is_empty(dir / "tmp")) << "the temporary fixture must be removed";
}

TEST(Validate, RefusesTheFlagsItSetsForEveryJob) {
  expect_refused({"--run-arg=--out=elsewhere"}, "--run-arg: --out is set by cobench validate for every job");
  expect_refused({"--method", "m=--base HEAD~1"}, "--method m: --base is set by cobench validate for every job");
}

TEST(Validate, RefusesWhatCobenchRunWouldRefuse) {
  expect_refused({"--method", "bad=--pairing sometimes"}, "--method bad: --pairing: 'sometimes' is not one of");
  expect_refused({"--run-arg=--min-runs=12", "--run-arg=--max-runs=8"}, "min_runs (12) is greater than max_runs (8)");
  expect_refused({"--run-arg=--bench-arg=--benchmark_format=csv"}, "--benchmark_format");
  expect_refused({"--run-arg=--no-such-flag"}, "--run-arg: ");
  expect_refused({"--method", "probe=--layout-probe"},
                 "--method probe: --layout-probe: measures the head against itself");
  expect_refused({"--run-arg=--reach"}, "--run-arg: --reach: the reach pass makes every benchmark that does not execute "
                                        "the change an unrelated change");
}

TEST(Validate, RefusesAMalformedMethod) {
  expect_refused({"--method", "now"}, "--method now: write NAME=ARGS");
  expect_refused({"--method", "a=", "--method", "a=--pairing unpaired"}, "the name 'a' is given twice");
}

TEST(Validate, ResumesOnlyACampaignItCanFindAndStartsNoneOverAnother) {
  expect_refused({"--resume"}, "--resume: give --out, the folder of the campaign to go on with");
  expect_refused({"--out", "campaign"}, "/campaign: a campaign's summary.json is already there; --resume goes on with it",
                 {"campaign/summary.json"});
  expect_refused({"--out", "campaign", "--resume"}, "/campaign/summary.json: not found; --resume goes on with");
  expect_refused({"--out", "campaign", "--resume"}, "/campaign/summary.json: not a summary cobench validate wrote",
                 {"campaign/summary.json"});
}

}  // namespace
