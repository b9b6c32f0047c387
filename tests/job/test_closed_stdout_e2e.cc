// `cobench run … | head`: a reader that stops early must cost neither the cleanup nor the reports.
#include <gtest/gtest.h>

#include "job/run_fixture.h"

namespace cobench::job {
namespace {

using cobench::testing::explain;
using testing::RunFixture;

TEST(ClosedStdoutE2E, StillRemovesWorktreesWritesReportsAndExitsAsUsual) {
  RunFixture fx;
  // The reader takes the first bytes ("base: …") and closes the pipe; whatever cobench prints
  // after that (the selection, the table) goes to a pipe nobody reads.
  std::vector<std::string> argv = {COBENCH_TEST_CHILD, "head", "10", COBENCH_EXE};
  for (auto& arg : fx.run_args({"--target", "^bench_same$"})) argv.push_back(arg);
  const auto result = process::run_capture(argv);
  EXPECT_EQ(result.exit_code, 0) << explain(result);  // what the same run gives with a reader to the end
  EXPECT_TRUE(std::filesystem::exists(fx.out_dir() / "report.json")) << explain(result);
  EXPECT_TRUE(std::filesystem::exists(fx.out_dir() / "report.md"));
  EXPECT_EQ(fx.repo.git({"worktree", "list"}).find(".cobench"), std::string::npos);
  for (const auto& entry : std::filesystem::directory_iterator(fx.repo.path() / ".cobench"))  // worktrees, builds
    EXPECT_NE(entry.path().filename().string().rfind("job-", 0), 0u) << entry.path() << " is left behind";
}

}  // namespace
}  // namespace cobench::job
