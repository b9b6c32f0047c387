// `cobench validate` refuses what every job would be refused for, before
// anything is built, and leaves no temporary folder behind.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/testing.h"

namespace t = cobench::testing;
namespace fs = std::filesystem;

namespace {

/// Runs `cobench validate ARGS` with its own TMPDIR; expects exit 2 with `message` and nothing left in TMPDIR.
void expect_refused(const std::vector<std::string>& args, const std::string& message) {
  t::TempDir dir;
  fs::create_directories(dir / "tmp");
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
}

TEST(Validate, RefusesAMalformedMethod) {
  expect_refused({"--method", "now"}, "--method now: write NAME=ARGS");
  expect_refused({"--method", "a=", "--method", "a=--pairing unpaired"}, "the name 'a' is given twice");
}

}  // namespace
