// A job's terminal output goes through one seam (job::Console): a test puts
// its own console in the terminal's place and reads what the steps said.
#include "job/console.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "job/report_step.h"
#include "job/unmeasured.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

/// Every line and message a job's steps gave, tagged by where it would have gone.
struct RecordingConsole : Console {
  std::vector<std::string> said;
  void line(std::string_view text) override { said.push_back("out: " + std::string(text)); }
  void block(std::string_view text) override { said.push_back("out block: " + std::string(text)); }
  void warning(std::string_view text) override { said.push_back("warning: " + std::string(text)); }
  void error(std::string_view text) override { said.push_back("error: " + std::string(text)); }
  void note(std::string_view text) override { said.push_back("note: " + std::string(text)); }
};

struct ConsoleTest : ::testing::Test {
  RecordingConsole recording;
  void SetUp() override { set_console(&recording); }
  void TearDown() override { set_console(nullptr); }
};

TEST_F(ConsoleTest, AJobThatReachesNoBenchmarkSaysWhyAndWhereItsReportIs) {
  cobench::testing::TempDir dir;
  const Revisions revs{"main", "HEAD", "b0", "h0"};
  const config::Config settings;
  const DecidedSettings decided{run::runner_kinds().front(), {}, 1};
  EXPECT_EQ(report_unreached("the diff reaches no benchmark target", {settings, decided, revs, 0}, select::Selection{},
                             dir / "out"),
            0);
  EXPECT_EQ(recording.said, (std::vector<std::string>{
                                "out: the diff reaches no benchmark target; nothing to build or measure",
                                "out: reports: " + (dir / "out").string() + "/report.{json,md,xml,html}"}));
  for (const auto& name : report::report_file_names()) EXPECT_TRUE(std::filesystem::exists(dir / "out" / name)) << name;
}

TEST_F(ConsoleTest, ATargetWhoseEveryRunFailedIsAnErrorAfterTheTableAndNotAPass) {
  cobench::testing::TempDir dir;
  report::Report report;
  report.tool = "run";
  report.targets.push_back({"bench_fft", {}, {}, 0, "every run failed: exit status 3"});
  EXPECT_EQ(finish_report(report, dir / "out", {}), 3);
  ASSERT_EQ(recording.said.size(), 3u);
  EXPECT_EQ(recording.said[0].rfind("out block: ", 0), 0u);  // the table
  EXPECT_EQ(recording.said[2], "error: bench_fft: every run failed: exit status 3");
}

}  // namespace
}  // namespace cobench::job
