// The shipped CI templates parse as YAML (PyYAML, as `make deps` installs it)
// and carry the keys that make the label opt-in, the artifacts and the
// report-not-gate default work.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "process/process.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

const std::filesystem::path kSource = COBENCH_SOURCE_DIR;

// YAML -> JSON through PyYAML's safe loader; skips the test when PyYAML is missing.
nlohmann::json load_yaml(const std::filesystem::path& file) {
  auto probe = process::run_capture({"python3", "-c", "import yaml"});
  if (!probe.ok()) return nlohmann::json();
  auto result = process::run_capture(
      {"python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), default=str))",
       file.string()});
  EXPECT_TRUE(result.ok()) << file << ": not valid YAML\n" << explain(result);
  return nlohmann::json::parse(result.out);
}

#define LOAD_OR_SKIP(var, path)                                                        \
  nlohmann::json var = load_yaml(path);                                                \
  if (var.is_null()) GTEST_SKIP() << "python3 with PyYAML not available (make deps installs python3-yaml)"

std::string text(const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

std::string joined_script(const nlohmann::json& job) {
  std::string all;
  for (const char* key : {"before_script", "script"})
    for (const auto& line : job.value(key, nlohmann::json::array())) all += text(line) + "\n";
  return all;
}

TEST(GitLabTemplate, RunsOnlyForMergeRequestsLabelledBenchmarks) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  ASSERT_TRUE(yaml.contains("bench:mr"));
  const auto& rules = yaml["bench:mr"]["rules"];
  ASSERT_TRUE(rules.is_array() && !rules.empty());
  static const std::regex label_clause(R"(\$CI_MERGE_REQUEST_LABELS =~ /(.+)/)");
  for (const auto& rule : rules) {
    // No rule may match without the label: every rule is an `if` on both conditions.
    std::string condition = rule.value("if", "");
    EXPECT_NE(condition.find(R"($CI_PIPELINE_SOURCE == "merge_request_event")"), std::string::npos) << condition;
    std::smatch match;
    ASSERT_TRUE(std::regex_search(condition, match, label_clause)) << condition;
    std::regex label(match[1].str().substr(0, match[1].str().find('/')));
    for (const char* labels : {"benchmarks", "bug,benchmarks", "benchmarks,all-tests", "a,benchmarks,b"})
      EXPECT_TRUE(std::regex_search(labels, label)) << labels;
    for (const char* labels : {"", "bug", "no-benchmarks", "benchmarks-later", "affected-tests,all-tests"})
      EXPECT_FALSE(std::regex_search(labels, label)) << labels;
    EXPECT_NE(rule.value("when", "on_success"), "never");
  }
}

TEST(GitLabTemplate, ReportsWithoutGatingUnlessCobenchGateIsOne) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  const auto& job = yaml["bench:mr"];
  EXPECT_EQ(text(job["variables"]["COBENCH_GATE"]), "0");
  bool gated_rule = false;
  for (const auto& rule : job["rules"]) {
    bool gate = rule.value("if", "").find(R"($COBENCH_GATE == "1")") != std::string::npos;
    ASSERT_TRUE(rule.contains("allow_failure")) << rule;
    EXPECT_EQ(rule["allow_failure"].get<bool>(), !gate) << rule;
    gated_rule |= gate;
  }
  EXPECT_TRUE(gated_rule);
  EXPECT_TRUE(job["rules"].back()["allow_failure"].get<bool>()) << "the catch-all rule must not gate";
  std::string script = joined_script(job);
  EXPECT_NE(script.find(R"(if [ "$COBENCH_GATE" = "1" ]; then GATE_FLAG="--gate")"), std::string::npos) << script;
}

TEST(GitLabTemplate, FullHistoryBuildRunPostAndArtifactsAlways) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  const auto& job = yaml["bench:mr"];
  EXPECT_EQ(text(job["variables"]["GIT_DEPTH"]), "0");
  std::string script = joined_script(job);
  for (const char* step : {"cmake --build /opt/cobench-build --target cobench", "cobench run --out cobench-report",
                           "cobench post --gitlab cobench-report/report.md", "exit $status"})
    EXPECT_NE(script.find(step), std::string::npos) << step << "\n" << script;
  const auto& artifacts = job["artifacts"];
  EXPECT_EQ(artifacts["when"], "always");
  EXPECT_EQ(artifacts["reports"]["junit"], "cobench-report/report.xml");
  std::string paths = artifacts["paths"].dump();
  for (const char* path : {"cobench-report/report.*", "cobench-report/results.jsonl", "cobench-report/logs/"})
    EXPECT_NE(paths.find(path), std::string::npos) << path;
}

// Issue 15, item 4: cobench from the image, else the package, else a build;
// the compile cache kept between pipelines.
TEST(GitLabTemplate, TakesCobenchFromTheImageThePackageOrABuildAndKeepsTheCompileCache) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  const auto& job = yaml["bench:mr"];
  EXPECT_EQ(text(job["image"]), "$COBENCH_IMAGE");
  EXPECT_EQ(text(job["variables"]["COBENCH_IMAGE"]), "debian:12");
  EXPECT_EQ(text(job["variables"]["CCACHE_DIR"]), "$CI_PROJECT_DIR/.ccache");
  EXPECT_NE(job["cache"]["paths"].dump().find(".ccache/"), std::string::npos) << job["cache"].dump();
  const std::string script = joined_script(job);
  const size_t image = script.find("if command -v cobench"), deb = script.find("elif [ -n \"$COBENCH_DEB\" ]"),
               build = script.find("cmake --install /opt/cobench-build --prefix /usr/local");
  EXPECT_TRUE(image < deb && deb < build && build != std::string::npos) << script;
  EXPECT_NE(script.find("apt-get install -y -qq --no-install-recommends /tmp/cobench.deb"), std::string::npos);
  EXPECT_EQ(script.find("/opt/cobench-build/cobench "), std::string::npos) << "runs the installed cobench";
}

TEST(GitHubTemplate, TakesCobenchFromTheImageThePackageOrABuildAndKeepsTheCompileCache) {
  LOAD_OR_SKIP(yaml, kSource / "ci/github/cobench.yml");
  const auto& job = yaml["jobs"]["bench"];
  EXPECT_EQ(text(job["container"]), "${{ vars.COBENCH_IMAGE || 'debian:12' }}");
  EXPECT_EQ(text(job["env"]["COBENCH_DEB"]), "${{ vars.COBENCH_DEB }}");
  bool cache = false, guarded_build = false;
  std::string commands;
  for (const auto& step : job["steps"]) {
    commands += step.value("run", "") + "\n";
    if (step.value("uses", "").starts_with("actions/cache"))
      cache = text(step["with"]["path"]) == ".ccache";
    if (step.value("run", "").find("cmake --install /opt/cobench-build") != std::string::npos)
      guarded_build = step.value("if", "") == "steps.source.outputs.build == 'true'";
  }
  EXPECT_TRUE(cache);
  EXPECT_TRUE(guarded_build) << "the build runs only without an installed cobench";
  EXPECT_NE(commands.find("/tmp/cobench.deb"), std::string::npos) << commands;
  EXPECT_EQ(commands.find("/opt/cobench-build/cobench "), std::string::npos) << commands;
}

TEST(GitHubTemplate, PullRequestLabelOptInAndReportNotGate) {
  LOAD_OR_SKIP(yaml, kSource / "ci/github/cobench.yml");
  // PyYAML reads the bare key `on` as the boolean true.
  const auto& on = yaml.contains("on") ? yaml["on"] : yaml["true"];
  ASSERT_TRUE(on.contains("pull_request")) << yaml.dump();
  std::string types = on["pull_request"]["types"].dump();
  for (const char* type : {"labeled", "synchronize", "opened"}) EXPECT_NE(types.find(type), std::string::npos) << type;
  const auto& job = yaml["jobs"]["bench"];
  std::string condition = job["if"];
  EXPECT_NE(condition.find("contains(github.event.pull_request.labels.*.name, 'benchmarks')"), std::string::npos);
  EXPECT_NE(condition.find("github.event.label.name == 'benchmarks'"), std::string::npos);
  EXPECT_EQ(text(job["continue-on-error"]), "${{ vars.COBENCH_GATE != 'true' }}");
  EXPECT_EQ(yaml["permissions"]["pull-requests"], "write");
}

TEST(GitHubTemplate, FullHistoryCheckoutSummaryCommentAndArtifactsAlways) {
  LOAD_OR_SKIP(yaml, kSource / "ci/github/cobench.yml");
  bool full_checkout = false, post = false, upload = false, run = false;
  for (const auto& step : yaml["jobs"]["bench"]["steps"]) {
    std::string uses = step.value("uses", ""), command = step.value("run", ""), condition = step.value("if", "");
    if (uses.starts_with("actions/checkout") && step.contains("with") && step["with"].contains("fetch-depth"))
      full_checkout |= text(step["with"]["fetch-depth"]) == "0";
    if (command.find("cobench run") != std::string::npos) {
      run = true;
      EXPECT_NE(command.find("--base \"${{ github.event.pull_request.base.sha }}\""), std::string::npos) << command;
      EXPECT_NE(command.find("$GATE_FLAG"), std::string::npos) << command;
    }
    if (command.find("cobench post --github") != std::string::npos) {
      post = true;
      EXPECT_EQ(command.find("--no-summary"), std::string::npos);
      EXPECT_NE(condition.find("always()"), std::string::npos) << condition;
      EXPECT_EQ(step["env"]["GITHUB_TOKEN"], "${{ secrets.GITHUB_TOKEN }}");
    }
    if (uses.starts_with("actions/upload-artifact")) {
      upload = true;
      EXPECT_EQ(condition, "always()");
      std::string paths = step["with"]["path"];
      for (const char* path : {"cobench-report/report.*", "cobench-report/results.jsonl"})
        EXPECT_NE(paths.find(path), std::string::npos) << path;
    }
  }
  EXPECT_TRUE(full_checkout && run && post && upload) << full_checkout << run << post << upload;
}

TEST(CiDocs, QuickStartDocumentsBothTemplatesAndTheGateSwitch) {
  std::string doc = read_text(kSource / "README.md");
  for (const char* needle : {"ci/gitlab/cobench.yml", "ci/github/cobench.yml", "COBENCH_GATE", "COBENCH_GITLAB_TOKEN",
                             "benchmarks"})
    EXPECT_NE(doc.find(needle), std::string::npos) << needle;
}

}  // namespace
}  // namespace cobench::testing
