// The CI templates run by real clients, not read as strings: gitlab-ci-local
// runs the GitLab template's jobs (shell executor) for a merge-request event
// on a temporary repository with a base and a head, against a fake GitLab API;
// action-validator validates the GitHub workflow. Each test skips, saying why,
// when its tool is missing (scripts/install_ci_clients.sh installs them).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "post/fake_api.h"
#include "process/process.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = COBENCH_SOURCE_DIR;

/// `name` on PATH, else where scripts/install_ci_clients.sh puts it.
std::optional<fs::path> find_tool(const std::string& name) {
  std::vector<fs::path> folders;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream list(path);
    for (std::string folder; std::getline(list, folder, ':');)
      if (!folder.empty()) folders.emplace_back(folder);
  }
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (cache && *cache) folders.push_back(fs::path(cache) / "cobench/ci-clients/node_modules/.bin");
  else if (home && *home) folders.push_back(fs::path(home) / ".cache/cobench/ci-clients/node_modules/.bin");
  for (const auto& folder : folders) {
    std::error_code ec;
    if (fs::exists(folder / name, ec) && ::access((folder / name).c_str(), X_OK) == 0) return folder / name;
  }
  return std::nullopt;
}

/// Why a client cannot run here, or "" when it can; printed with the skip.
std::string missing(const std::string& tool, std::initializer_list<const char*> also) {
  if (!find_tool(tool))
    return tool + " not found on PATH nor in ~/.cache/cobench/ci-clients (scripts/install_ci_clients.sh installs it)";
  for (const char* other : also)
    if (!find_tool(other)) return std::string(other) + " not found on PATH (" + tool + " needs it)";
  return "";
}

#define SKIP_WITHOUT(tool, ...)                                              \
  if (const std::string why = missing(tool, {__VA_ARGS__}); !why.empty()) { \
    std::fprintf(stderr, "skipped: %s\n", why.c_str());                     \
    GTEST_SKIP() << why;                                                     \
  }

/// A repository whose .gitlab-ci.yml includes the shipped template, and its wide change.
struct GitLabProject {
  TempDir dir;
  GitRepo repo{dir / "repo"};
  WideChange sides;
  GitLabProject() {
    repo.write("ci/gitlab/cobench.yml", read_text(kSource / "ci/gitlab/cobench.yml"));
    repo.write(".gitlab-ci.yml", "include:\n  - local: ci/gitlab/cobench.yml\n");
    sides = write_wide_change(repo, {"a", "b", "c"});
  }

  /// gitlab-ci-local on the repository with these pipeline variables, the built cobench on PATH.
  process::Result pipeline(const std::vector<std::pair<std::string, std::string>>& variables,
                           std::vector<std::string> extra = {}) const {
    process::Command command;
    command.argv = {find_tool("gitlab-ci-local")->string(), "--force-shell-executor", "--no-color"};
    std::string predefined;
    for (const auto& [key, value] : variables) {
      command.argv.insert(command.argv.end(), {"--variable", key + "=" + value});
      if (key.starts_with("CI_")) predefined += (predefined.empty() ? "" : ",") + key;
    }
    if (!predefined.empty()) command.argv.insert(command.argv.end(), {"--ignore-predefined-vars", predefined});
    command.argv.insert(command.argv.end(), extra.begin(), extra.end());
    command.cwd = repo.path();
    const char* path = std::getenv("PATH");
    command.env_overrides = {{"PATH", fs::path(COBENCH_EXE).parent_path().string() + ":" + (path ? path : "")},
                             {"HTTP_PROXY", ""}, {"http_proxy", ""}, {"HOME", dir.path().string()}};
    command.timeout_seconds = 900;
    command.keep_output_bytes = 0;
    command.merge_stderr_into_stdout = true;
    return process::run(command);
  }
};

TEST(GitLabCiLocal, AMergeRequestPipelineRunsTheShardsThenPostsOneMergedNote) {
  SKIP_WITHOUT("gitlab-ci-local", "node", "rsync", "git");
  GitLabProject project;
  FakeApi api;
  const auto result = project.pipeline({
      {"CI_PIPELINE_SOURCE", "merge_request_event"},
      {"CI_MERGE_REQUEST_LABELS", "bug,benchmarks"},
      {"CI_MERGE_REQUEST_DIFF_BASE_SHA", project.sides.base},
      {"CI_API_V4_URL", api.url() + "/api/v4"},
      {"CI_PROJECT_ID", "7"},
      {"CI_MERGE_REQUEST_IID", "3"},
      {"COBENCH_GITLAB_TOKEN", "glpat-test-token"},
      {"COBENCH_ARGS", "--min-runs 4 --max-runs 4 --metric cpu_time --alloc-runs 0 "
                       "--bench-arg=--benchmark_min_time=0.002"},
  });
  ASSERT_EQ(result.exit_code, 0) << result.out;
  for (const char* job : {"PASS  bench:mr: [1/2]", "PASS  bench:mr: [2/2]", "PASS  bench:report"})
    EXPECT_NE(result.out.find(job), std::string::npos) << job << "\n" << result.out;
  // The shards used the cobench on PATH instead of building one.
  EXPECT_NE(result.out.find("cobench: " + std::string(COBENCH_EXE) + ", "), std::string::npos) << result.out;

  // One note, posted once, with every shard's rows.
  std::vector<std::string> posted;
  for (const auto& request : api.requests())
    if (request.method == "POST") posted.push_back(nlohmann::json::parse(request.body).value("body", ""));
  ASSERT_EQ(posted.size(), 1u);
  const std::string& body = posted.front();
  for (const char* needle : {"<!-- cobench-report -->", "BM\\_a", "BM\\_b", "BM\\_c", "control, shard 1/2",
                             "control, shard 2/2", "merged from 2 of 2 shards"})
    EXPECT_NE(body.find(needle), std::string::npos) << needle << "\n" << body;

  // The merged report set, and each shard's own folder with its part.
  const fs::path repo = project.repo.path();
  const auto merged = report::from_json(nlohmann::json::parse(read_text(repo / "cobench-report/report.json")));
  std::set<std::string> targets;
  for (const auto& row : merged.benchmarks)
    if (!row.is_control) targets.insert(row.target);
  EXPECT_EQ(targets, (std::set<std::string>{"bench_a", "bench_b", "bench_c"}));
  EXPECT_EQ(merged.shards.size(), 2u);
  EXPECT_EQ(merged.base, project.sides.base);
  for (const char* folder : {"cobench-shard-1", "cobench-shard-2"})
    EXPECT_TRUE(fs::exists(repo / folder / "results.jsonl")) << folder;
}

TEST(GitLabCiLocal, NoJobWithoutAMergeRequestOrWithoutTheLabel) {
  SKIP_WITHOUT("gitlab-ci-local", "node", "rsync", "git");
  GitLabProject project;
  const auto push = project.pipeline({}, {"--list"});
  ASSERT_EQ(push.exit_code, 0) << push.out;
  EXPECT_EQ(push.out.find("bench:"), std::string::npos) << push.out;
  const auto unlabelled = project.pipeline(
      {{"CI_PIPELINE_SOURCE", "merge_request_event"}, {"CI_MERGE_REQUEST_LABELS", "bug,no-benchmarks"}}, {"--list"});
  ASSERT_EQ(unlabelled.exit_code, 0) << unlabelled.out;
  EXPECT_EQ(unlabelled.out.find("bench:"), std::string::npos) << unlabelled.out;
  const auto labelled = project.pipeline(
      {{"CI_PIPELINE_SOURCE", "merge_request_event"}, {"CI_MERGE_REQUEST_LABELS", "benchmarks"}}, {"--list"});
  ASSERT_EQ(labelled.exit_code, 0) << labelled.out;
  for (const char* job : {"bench:mr: [1/2]", "bench:mr: [2/2]", "bench:report"})
    EXPECT_NE(labelled.out.find(job), std::string::npos) << job << "\n" << labelled.out;
}

process::Result validate(const fs::path& workflow) {
  return process::run_capture({find_tool("action-validator")->string(), workflow.string()});
}

TEST(ActionValidator, TheGitHubWorkflowIsValid) {
  SKIP_WITHOUT("action-validator", "node");
  const auto result = validate(kSource / "ci/github/cobench.yml");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  // The validator does look: the same workflow with the report job needing a job that does not exist fails.
  TempDir dir;
  std::string broken = read_text(kSource / "ci/github/cobench.yml");
  const std::string needs = "    needs: bench\n";
  ASSERT_NE(broken.find(needs), std::string::npos);
  broken.replace(broken.find(needs), needs.size(), "    needs: benchmark\n");
  write_file(dir / "cobench.yml", broken);
  const auto refused = validate(dir / "cobench.yml");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE((refused.out + refused.err).find("unresolved job benchmark"), std::string::npos) << refused.out << refused.err;
}

}  // namespace
}  // namespace cobench::testing
