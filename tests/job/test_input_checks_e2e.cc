// Issue 23's weak cases, each on a real repository: input that a hostile or a
// clumsy user gives is refused with exit 2 and one line naming it, and what
// is measured is what the user believes is measured.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "job/run_fixture.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using namespace cobench::testing;

/// A repository without a build: jobs of the command runner, which finish in seconds.
struct CommandRepo : testing::CommandFixture {
  process::Result run(std::vector<std::string> extra, const std::vector<std::pair<std::string, std::string>>& env = {}) const {
    std::vector<std::string> argv = {"run", "--repo", repo.path().string(), "--base", base, "--out", (dir / "out").string(),
                                     "--min-runs", "2", "--max-runs", "2", "--runner", "command",
                                     "--no-machine-control", "--command", "true"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_cobench(argv, repo.path(), env, 600);
  }
};

/// The one line cobench printed as its error.
std::string error_line(const process::Result& result) {
  const size_t at = result.err.find("cobench: error: ");
  return at == std::string::npos ? "" : result.err.substr(at, result.err.find('\n', at) - at);
}

TEST_F(CommandRepo, ABudgetBeyondAnyMeaningIsRefused) {
  for (const auto& budget : {"1e308%", "100000%"}) {
    auto result = run({"--budget", budget});
    EXPECT_EQ(result.exit_code, 2) << explain(result);
    EXPECT_NE(error_line(result).find("--budget"), std::string::npos) << explain(result);
  }
  auto from_env = run({}, {{"COBENCH_BUDGET", "1e308%"}});
  EXPECT_EQ(from_env.exit_code, 2) << explain(from_env);
  EXPECT_NE(error_line(from_env).find("COBENCH_BUDGET"), std::string::npos) << explain(from_env);
  EXPECT_EQ(run({"--budget", "300%"}).exit_code, 0);  // generous is fine
}

TEST_F(CommandRepo, AReflogEntryThatDoesNotExistIsAnInputError) {
  for (const auto& [head, base] : {std::pair{"HEAD@{5}", "HEAD~1"}, std::pair{"HEAD", "HEAD@{5}"}}) {
    auto result = run_cobench({"run", "--repo", repo.path().string(), "--head", head, "--base", base, "--runner",
                               "command", "--command", "true", "--out", (dir / "out").string()},
                              repo.path(), {}, 600);
    EXPECT_EQ(result.exit_code, 2) << explain(result);
    EXPECT_NE(error_line(result).find("HEAD@{5}"), std::string::npos) << explain(result);
  }
}

TEST_F(CommandRepo, UncommittedChangesAreNamedInAWarning) {
  repo.write("README", "edited, not committed\n");
  auto result = run({});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  EXPECT_NE(result.err.find("warning: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("uncommitted"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("README"), std::string::npos) << result.err;
  repo.git({"checkout", "README"});
  auto clean = run({});
  EXPECT_EQ(clean.err.find("uncommitted"), std::string::npos) << clean.err;
}

TEST_F(CommandRepo, TheRootFolderIsNoReportFolder) {
  auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--runner", "command", "--command",
                             "true", "--out", "/"},
                            repo.path(), {}, 600);
  EXPECT_EQ(result.exit_code, 2) << explain(result);
  EXPECT_NE(error_line(result).find("--out /"), std::string::npos) << explain(result);
  EXPECT_FALSE(fs::exists("/.cobench-lock"));
  EXPECT_FALSE(fs::exists("/.cobench-manifest"));
}

TEST_F(CommandRepo, AGitFolderIsNoReportFolder) {
  // Hostile retest: --out .git was taken, and the run logs went into git's reflog folder .git/logs.
  for (const std::string out : {".git", ".git/reports"}) {
    auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--runner", "command",
                               "--command", "true", "--out", out},
                              repo.path(), {}, 600);
    EXPECT_EQ(result.exit_code, 2) << out << "\n" << explain(result);
    EXPECT_NE(error_line(result).find("inside a .git folder"), std::string::npos) << explain(result);
    EXPECT_FALSE(fs::exists(repo.path() / ".git" / ".cobench-lock"));
    EXPECT_FALSE(fs::exists(repo.path() / ".git" / "reports"));
  }
}

TEST_F(CommandRepo, FilterIsCheckedTheWayGoogleBenchmarkReadsIt) {
  // Valid ECMAScript, refused by Google Benchmark's POSIX extended grammar ("Invalid escape").
  for (const auto& filter : {"BM_a\\]", "BM_\\d+", "BM_x\\}"}) {
    auto result = run({"--filter", filter});
    EXPECT_EQ(result.exit_code, 2) << filter << "\n" << explain(result);
    EXPECT_NE(error_line(result).find("--filter"), std::string::npos) << explain(result);
    EXPECT_NE(error_line(result).find("POSIX"), std::string::npos) << explain(result);
  }
}

TEST_F(CommandRepo, ResultsWithRepeatedRunsUnknownLinesOrANewerSchemaAreRefused) {
  ASSERT_EQ(run({}).exit_code, 0);
  const fs::path results = dir / "out/results.jsonl";
  std::vector<std::string> lines;
  for (size_t from = 0; from < read_file(results).size();) {
    const std::string text = read_file(results);
    const size_t end = text.find('\n', from);
    lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  size_t first_run = 0;
  while (first_run < lines.size() && lines[first_run].find("\"type\":\"run\"") == std::string::npos) ++first_run;
  ASSERT_LT(first_run, lines.size());
  auto rebuilt_from = [&](std::vector<std::string> edited) {
    std::string text;
    for (const auto& line : edited) text += line + "\n";
    const fs::path copy = dir / "edited/results.jsonl";
    fs::create_directories(copy.parent_path());
    write_file_atomic(copy, text);
    return run_cobench({"report", copy.string()});
  };
  const std::string copy = (dir / "edited/results.jsonl").string();

  auto twice = lines;  // the same run twice would be pooled as two samples
  twice.insert(twice.begin() + static_cast<long>(first_run) + 1, lines[first_run]);
  auto repeated = rebuilt_from(twice);
  EXPECT_EQ(repeated.exit_code, 2) << explain(repeated);
  EXPECT_NE(error_line(repeated).find(copy + ":" + std::to_string(first_run + 2) + ":"), std::string::npos)
      << explain(repeated);
  EXPECT_NE(error_line(repeated).find("twice"), std::string::npos) << explain(repeated);

  auto unknown = lines;
  unknown.insert(unknown.begin() + 2, R"({"type":"mystery","x":1})");
  auto mystery = rebuilt_from(unknown);
  EXPECT_EQ(mystery.exit_code, 2) << explain(mystery);
  EXPECT_NE(error_line(mystery).find(copy + ":3:"), std::string::npos) << explain(mystery);

  auto newer = lines;
  for (auto& line : newer)
    if (line.find("\"type\":\"settings\"") != std::string::npos) line.replace(line.find("\"schema\":1"), 10, "\"schema\":9");
  auto schema = rebuilt_from(newer);
  EXPECT_EQ(schema.exit_code, 2) << explain(schema);
  EXPECT_NE(error_line(schema).find("schema 9"), std::string::npos) << explain(schema);
  EXPECT_NE(error_line(schema).find(copy + ":"), std::string::npos) << explain(schema);

  EXPECT_EQ(rebuilt_from(lines).exit_code, 0);  // the file as written is fine
}

using testing::RunFixture;

TEST(InputChecksE2E, AFilterMatchingNothingIsAnInputErrorLikeATargetMatchingNothing) {
  RunFixture fx;
  auto result = fx.run({"--target", "^bench_same$", "--filter", "BM_Nothing", "--alloc-runs", "0"});
  EXPECT_EQ(result.exit_code, 2) << explain(result);
  EXPECT_NE(error_line(result).find("--filter 'BM_Nothing' matches no benchmark"), std::string::npos)
      << explain(result);
}

TEST(InputChecksE2E, AHeadThatCrashesInEveryRunFailsTheGateNamingTheCrash) {
  RunFixture fx;
  auto result = fx.run({"--target", "^bench_crash$", "--gate", "--alloc-runs", "0"});
  EXPECT_EQ(result.exit_code, 1) << explain(result);
  const auto report = fx.report();
  const auto* row = testing::find_row(report, "BM_Crash");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->verdict, verdict::Verdict::Regression) << row->note;
  EXPECT_NE(row->note.find("head crashed (SIGSEGV)"), std::string::npos) << row->note;
  EXPECT_NE(result.out.find("SIGSEGV"), std::string::npos) << result.out;
}

TEST(InputChecksE2E, ATwoMegabyteArgumentIsShownShortened) {
  RunFixture fx;
  const std::string huge(2 << 20, 'x');
  write_file(fx.dir / "huge.toml", "[run]\nbench_args = [\"--benchmark_context=k=" + huge + "\"]\n");
  auto result = fx.run({"--config", (fx.dir / "huge.toml").string(), "--target", "^bench_same$", "--min-runs", "2",
                        "--max-runs", "2", "--alloc-runs", "0"});
  EXPECT_EQ(result.exit_code, 3) << explain(result).substr(0, 4000);  // no run could start: E2BIG
  EXPECT_LT(result.err.size(), 20000u) << result.err.substr(0, 4000);
  EXPECT_LT(result.out.size(), 20000u) << result.out.substr(0, 4000);
  for (const char* report : {"report.md", "report.html", "report.xml"})
    EXPECT_LT(fs::file_size(fx.out_dir() / report), 200000u) << report;
  // The settings line keeps it once, as given; no run line repeats it.
  const std::string results = read_file(fx.out_dir() / "results.jsonl");
  EXPECT_EQ(results.find(huge), results.rfind(huge));

  write_file(fx.dir / "huge-cmake.toml", "[build]\ncmake_args = [\"-DX=" + huge + "\"]\n");
  auto configure = fx.run({"--config", (fx.dir / "huge-cmake.toml").string(), "--target", "^bench_same$"});
  EXPECT_EQ(configure.exit_code, 3) << explain(configure).substr(0, 4000);
  EXPECT_LT(configure.err.size(), 20000u) << configure.err.substr(0, 4000);
}

}  // namespace
}  // namespace cobench::job
