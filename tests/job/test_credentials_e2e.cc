// Issue 23, defect 1: no secret published. A CI job's environment holds
// tokens; a benchmark or command that prints its environment and fails put
// them into every report, and from there into the merge-request note. Runs
// get the environment without credentials (unless [run] pass_env names one),
// and what cobench writes is scrubbed of their values as a second defence.
#include <gtest/gtest.h>

#include "core/files.h"
#include "job/run_fixture.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using namespace cobench::testing;

const std::vector<std::pair<std::string, std::string>> kCredentials = {
    {"COBENCH_GITLAB_TOKEN", "glpat-AAAAsecretgitlab0001"}, {"GITHUB_TOKEN", "ghp_BBBBsecretgithub0002"},
    {"CI_JOB_TOKEN", "CCCCsecretjobtoken0003"},            {"MY_API_KEY", "DDDDsecretapikey0004"},
    {"CI_JOB_JWT_V2", "eyJEEEEsecretjwt0005"},             {"DEPLOY_PASSWORD", "FFFFsecretpassword0006"},
    {"MY_PASSED_TOKEN", "GGGGsecretpassed0007"}};

struct CredentialsE2E : testing::CommandFixture {
  void SetUp() override {
    CommandFixture::SetUp();
    // A value that reaches an output without the environment: read from a file.
    write_file(dir / "leak.txt", "CI_JOB_TOKEN is CCCCsecretjobtoken0003\n");
  }
  process::Result run(const fs::path& out, std::vector<std::string> args) const {
    std::vector<std::string> argv = {"run",     "--repo",    repo.path().string(), "--base",   base,
                                     "--out",   out.string(), "--min-runs",        "2",        "--max-runs",
                                     "2",       "--runner",  "command",            "--no-machine-control"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_cobench(argv, repo.path(), kCredentials, 600);
  }
};

/// Every file under `folder`, and what cobench printed, holds none of the values.
void expect_no_credential(const fs::path& folder, const process::Result& result) {
  std::vector<std::pair<std::string, std::string>> texts = {{"stdout", result.out}, {"stderr", result.err}};
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) texts.emplace_back(entry.path().string(), read_file(entry.path()));
  for (const auto& [where, text] : texts)
    for (const auto& [name, value] : kCredentials)
      EXPECT_EQ(text.find(value), std::string::npos) << name << "'s value is in " << where << ":\n" << text;
}

TEST_F(CredentialsE2E, ACommandThatPrintsItsEnvironmentAndFailsPublishesNoToken) {
  const fs::path out = dir / "out";
  // What it prints last goes into every report as the failed run's output.
  auto result = run(out, {"--command", "sh -c 'env | sort | grep -E \"TOKEN|KEY|JWT|PASSWORD\"; cat \"$0\"; exit 1' " +
                                           (dir / "leak.txt").string()});
  EXPECT_EQ(result.exit_code, 3) << explain(result);  // every run failed: nothing measured
  ASSERT_TRUE(fs::exists(out / "report.md")) << explain(result);
  expect_no_credential(out, result);
  const std::string report = read_file(out / "report.json");  // as printed (report.md escapes _ and [)
  // Withheld, not merely scrubbed; and the value that came from a file is redacted.
  EXPECT_EQ(report.find("GITHUB_TOKEN="), std::string::npos) << report;
  EXPECT_NE(report.find("CI_JOB_TOKEN is [redacted $CI_JOB_TOKEN]"), std::string::npos) << report;
}

TEST_F(CredentialsE2E, ATokenCutWhereTheOutputTailIsShortenedLeavesNoPartOfIt) {
  // The failed run's output tail is cut at 2000 bytes: 1980 bytes of filler put the cut inside the
  // token, whose first part no longer matched the whole value when the record was scrubbed.
  write_file(dir / "cut.txt", std::string(1980, 'x') + "glpat-AAAAsecretgitlab0001\n");
  const fs::path out = dir / "out";
  auto result = run(out, {"--command", "sh -c 'cat \"$0\"; exit 1' " + (dir / "cut.txt").string()});
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  ASSERT_TRUE(fs::exists(out / "report.md")) << explain(result);
  expect_no_credential(out, result);
  const std::string first_part = "glpat-AAAAsecret";
  for (const char* file : {"results.jsonl", "report.json", "report.md", "report.xml", "report.html"})
    EXPECT_EQ(read_file(out / file).find(first_part), std::string::npos) << file << ":\n" << read_file(out / file);
  EXPECT_EQ((result.out + result.err).find(first_part), std::string::npos) << explain(result);
}

/// Every file under `folder`, and what cobench printed, holds no 10 bytes in a row of `value`.
void expect_no_part_of(const std::string& value, const fs::path& folder, const process::Result& result) {
  std::vector<std::pair<std::string, std::string>> texts = {{"stdout", result.out}, {"stderr", result.err}};
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) texts.emplace_back(entry.path().string(), read_file(entry.path()));
  for (const auto& [where, text] : texts)
    for (size_t at = 0; at + 10 <= value.size(); ++at)
      EXPECT_EQ(text.find(value.substr(at, 10)), std::string::npos)
          << value.substr(at, 10) << " (part of a token) is in " << where;
}

TEST_F(CredentialsE2E, ATokenSplitWhereARunsLogDropsItsMiddleLeavesNoPartOfIt) {
  // Found by the hostile retest: a run's log keeps its first and last 64 KiB; a token printed
  // across the cut left "glpat-AAAA" before the cut line and the rest after it, and the scrub of
  // the log matched neither. The token is let through to the command on purpose (--pass-env).
  const fs::path out = dir / "out";
  auto result = run(out, {"--pass-env", "COBENCH_GITLAB_TOKEN", "--command",
                          "sh -c 'head -c 65526 /dev/zero | tr \"\\000\" P; printf %s \"$COBENCH_GITLAB_TOKEN\"; "
                          "head -c 100000 /dev/zero | tr \"\\000\" M; printf \"%s\\n\" \"$COBENCH_GITLAB_TOKEN\"; exit 1'"});
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  ASSERT_TRUE(fs::exists(out / "report.md")) << explain(result);
  bool cut = false;
  for (const auto& entry : fs::recursive_directory_iterator(out / "logs"))
    cut = cut || read_file(entry.path()).find(" cut here]") != std::string::npos;
  EXPECT_TRUE(cut) << "no run log was cut: the test no longer puts the cut inside the token";
  expect_no_part_of("glpat-AAAAsecretgitlab0001", out, result);
}

TEST(CredentialsInNamesE2E, ABenchmarkNamedWithATokenLeavesItOutOfTheRunsOutputFiles) {
  // Found by the hostile retest: runs/*.json, Google Benchmark's own output kept in the report
  // folder, carried a benchmark name made of a token (read from a file, so no environment rule
  // applies) while every report had it redacted.
  TempDir dir;
  write_file(dir / "token.txt", "glpat-AAAAsecretgitlab0001\n");
  GitRepo repo{dir / "repo"};
  const std::string source =
      "#include <benchmark/benchmark.h>\n#include <fstream>\n#include <string>\n"
      "static void BM(benchmark::State& s) { unsigned x = 1; for (auto _ : s) benchmark::DoNotOptimize(x *= 3); }\n"
      "static int registered = [] { std::ifstream f(\"" + (dir / "token.txt").string() + "\"); std::string t; f >> t;\n"
      "  benchmark::RegisterBenchmark((\"BM_name_\" + t).c_str(), BM); return 0; }();\n"
      "BENCHMARK_MAIN();\n";
  const std::string base = commit_one_target_and_a_comment(repo, "bench_named", "named.cc", source);
  const fs::path out = dir / "out";
  auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--out", out.string(), "--all",
                             "--min-runs", "2", "--max-runs", "2", "--alloc-runs", "0", "--layouts", "1",
                             "--no-machine-control", "--bench-arg=--benchmark_min_time=0.001"},
                            repo.path(), kCredentials, 600);
  EXPECT_EQ(result.exit_code, 0) << explain(result);
  ASSERT_TRUE(fs::exists(out / "runs")) << explain(result);
  expect_no_credential(out, result);
  EXPECT_NE(read_file(out / "report.json").find("BM_name_[redacted $COBENCH_GITLAB_TOKEN]"), std::string::npos)
      << read_file(out / "report.json");
}

TEST_F(CredentialsE2E, RunsGetNoCredentialButThoseThePassEnvSettingNames) {
  const fs::path out = dir / "out";
  repo.write("cobench.toml", "[run]\npass_env = [\"MY_PASSED_TOKEN\"]\n");
  repo.commit("settings");
  auto result = run(out, {"--head", "HEAD", "--command",
                          "sh -c 'test -n \"$MY_PASSED_TOKEN\" && test -z "
                          "\"$GITHUB_TOKEN$COBENCH_GITLAB_TOKEN$CI_JOB_TOKEN$MY_API_KEY$CI_JOB_JWT_V2$DEPLOY_PASSWORD\"'"});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const std::string report = read_file(out / "report.json");
  EXPECT_EQ(report.find("exit 1"), std::string::npos) << report;
  expect_no_credential(out, result);
  // Without the setting the variable is withheld too: the same command fails.
  write_file(dir / "none.toml", "");
  auto withheld = run(dir / "out2", {"--config", (dir / "none.toml").string(), "--command",
                                     "sh -c 'test -n \"$MY_PASSED_TOKEN\"'"});
  EXPECT_EQ(withheld.exit_code, 3) << explain(withheld);

  // A variable let through is still redacted from what is published.
  auto printed = run(dir / "out3", {"--config", (dir / "none.toml").string(), "--pass-env", "MY_PASSED_TOKEN",
                                    "--command", "sh -c 'echo MY_PASSED_TOKEN=$MY_PASSED_TOKEN; exit 1'"});
  EXPECT_EQ(printed.exit_code, 3) << explain(printed);
  expect_no_credential(dir / "out3", printed);
  const std::string passed = read_file(dir / "out3/report.json");
  EXPECT_NE(passed.find("MY_PASSED_TOKEN=[redacted $MY_PASSED_TOKEN]"), std::string::npos) << passed;
}

TEST_F(CredentialsE2E, TheBuildGetsNoCredential) {
  // The merge request's own CMake code runs at configure time: it must not see a token to print or send.
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_one", "one.cc"}}) +
                                   "foreach(name GITHUB_TOKEN CI_JOB_TOKEN COBENCH_GITLAB_TOKEN CI_JOB_JWT_V2)\n"
                                   "  if(DEFINED ENV{${name}})\n"
                                   "    message(FATAL_ERROR \"the build got the credential ${name}\")\n"
                                   "  endif()\n"
                                   "endforeach()\n");
  repo.write("one.cc", "#include <benchmark/benchmark.h>\n"
                       "static void BM_One(benchmark::State& s) { for (auto _ : s) benchmark::DoNotOptimize(s.iterations()); }\n"
                       "BENCHMARK(BM_One);\nBENCHMARK_MAIN();\n");
  const std::string with_build = repo.commit("a benchmark target");
  repo.write("one.cc", read_file(repo.path() / "one.cc") + "// head\n");
  repo.commit("head of the build");
  const fs::path out = dir / "out";
  auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", with_build, "--out", out.string(), "--all",
                             "--min-runs", "2", "--max-runs", "2", "--alloc-runs", "0", "--no-machine-control",
                             "--bench-arg=--benchmark_min_time=0.001"},
                            repo.path(), kCredentials, 900);
  EXPECT_EQ(result.exit_code, 0) << explain(result);
  EXPECT_EQ((result.out + result.err).find("the build got the credential"), std::string::npos) << explain(result);
  expect_no_credential(out, result);
}

}  // namespace
}  // namespace cobench::job
