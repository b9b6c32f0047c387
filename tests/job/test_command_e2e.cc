// `cobench run --command`: whole processes timed in both worktrees, ABBA,
// with --prepare run once per worktree first. No CMake project involved.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_fixture.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

using job::testing::find_row;
using verdict::Verdict;

report::Report read_report(const std::filesystem::path& dir) {
  return report::from_json(nlohmann::json::parse(read_text(dir / "report.json")));
}

void make_executable(const GitRepo& repo, const std::vector<std::string>& files) {
  for (const auto& file : files)
    std::filesystem::permissions(repo.path() / file, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
}

TEST(CommandRun, SlowerHeadScriptIsARegressionAndTheControlIsNot) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  // work.sh refuses to run unless --prepare created its input in this worktree.
  // work.sh spins rather than sleeps: the command after it starts on a CPU that stayed busy on
  // both sides. After the head's longer sleep it started on one that idled longer, and the CI
  // machine once called the unchanged command a regression that way (likely slower to wake).
  const auto spin = [](int steps) {
    return "#!/bin/sh\ntest -f prepared || exit 7\ni=0\nwhile [ $i -lt " + std::to_string(steps) +
           " ]; do i=$((i+1)); done\n";
  };
  repo.write("work.sh", spin(40000));
  // The control does the base's work on both sides. An empty script (~1 ms, mostly fork and exec)
  // was once called a regression from its 6 pairs under -j2: at that size the wall time measures
  // the scheduler, not the command.
  repo.write("control.sh", spin(40000));
  make_executable(repo, {"work.sh", "control.sh"});
  repo.commit("base");
  repo.git({"checkout", "-q", "-b", "feature"});
  repo.write("work.sh", spin(240000));
  make_executable(repo, {"work.sh"});
  repo.commit("head spins six times as long");

  auto result = run_cobench({"run", "--base", "main", "--command", "./work.sh", "--command", "sh -c './control.sh'",
                             "--prepare", "touch prepared", "--min-runs", "6", "--max-runs", "6", "--out",
                             (dir / "out").string()},
                            repo.path());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto report = read_report(dir / "out");
  const auto* work = find_row(report, "./work.sh");
  const auto* control = find_row(report, "sh -c './control.sh'");
  ASSERT_TRUE(work && control);
  EXPECT_EQ(work->verdict, Verdict::Regression) << work->note;
  EXPECT_EQ(work->base_samples.size(), 6u);
  EXPECT_GT(work->time.estimate.ratio, 2.0);  // six times the steps
  EXPECT_NE(control->verdict, Verdict::Regression) << control->note;
  ASSERT_EQ(report.targets.size(), 2u);  // the commands, and the machine control: cobench's own program, not a command
  EXPECT_EQ(report.targets[1].name, "machine:cobench_machine_control");
  EXPECT_NE(report.targets[0].alloc_status.find("not applicable"), std::string::npos);

  // Every run recorded wall, user+sys and max RSS.
  std::istringstream lines(read_text(dir / "out/results.jsonl"));
  int runs = 0;
  for (std::string line; std::getline(lines, line);) {
    auto json = nlohmann::json::parse(line);
    if (json["type"] != "run" || json["target"] != "commands") continue;  // the machine control's are its own
    ++runs;
    EXPECT_EQ(json["status"], "ok") << line;
    const auto& sample = json["samples"]["./work.sh"];
    EXPECT_GT(sample["real_ns"].get<double>(), 1e7) << line;
    EXPECT_GE(sample["cpu_ns"].get<double>(), 0) << line;
    EXPECT_GT(sample["max_rss_bytes"].get<double>(), 0) << line;
  }
  EXPECT_EQ(runs, 12);
}

TEST(CommandRun, FailingPrepareIsAnInfrastructureError) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  repo.write("README", "x\n");
  repo.commit("base");
  auto result = run_cobench({"run", "--base", "HEAD", "--command", "true", "--prepare", "sh -c 'exit 4'"}, repo.path());
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  EXPECT_NE(result.err.find("--prepare 'sh -c 'exit 4''"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("exit status 4"), std::string::npos) << result.err;
}

TEST(CommandRun, UnbalancedQuotesAreAUsageError) {
  TempDir dir;
  GitRepo repo(dir / "repo");
  repo.write("README", "x\n");
  repo.commit("base");
  auto result = run_cobench({"run", "--base", "HEAD", "--command", "echo 'open"}, repo.path());
  EXPECT_EQ(result.exit_code, 2) << explain(result);
  EXPECT_NE(result.err.find("unterminated single quote"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace cobench::testing
