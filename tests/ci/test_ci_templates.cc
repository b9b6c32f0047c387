// The shipped CI templates parse as YAML (PyYAML, as `make deps` installs it)
// and carry the keys that make the label opt-in, the shards, the artifacts and
// the report-not-gate default work. test_ci_clients runs them for real.
#include <algorithm>

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
  static const std::regex label_clause(R"(\$CI_MERGE_REQUEST_LABELS =~ /(.+)/)");
  for (const char* name : {"bench:mr", "bench:report"}) {
    ASSERT_TRUE(yaml.contains(name)) << name;
    const auto& rules = yaml[name]["rules"];
    ASSERT_TRUE(rules.is_array() && !rules.empty()) << name;
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
}

TEST(GitLabTemplate, ShardsNeverGateTheReportJobGatesOnlyWhenCobenchGateIsOne) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  EXPECT_EQ(text(yaml[".cobench"]["variables"]["COBENCH_GATE"]), "0");
  for (const auto& rule : yaml["bench:mr"]["rules"]) EXPECT_TRUE(rule["allow_failure"].get<bool>()) << rule;
  const auto& job = yaml["bench:report"];
  bool gated_rule = false;
  for (const auto& rule : job["rules"]) {
    bool gate = rule.value("if", "").find(R"($COBENCH_GATE == "1")") != std::string::npos;
    ASSERT_TRUE(rule.contains("allow_failure")) << rule;
    EXPECT_EQ(rule["allow_failure"].get<bool>(), !gate) << rule;
    EXPECT_EQ(rule.value("when", ""), "always") << "the report must also follow a failed shard: " << rule;
    gated_rule |= gate;
  }
  EXPECT_TRUE(gated_rule);
  EXPECT_TRUE(job["rules"].back()["allow_failure"].get<bool>()) << "the catch-all rule must not gate";
  std::string script = joined_script(job);
  EXPECT_NE(script.find(R"(if [ "$COBENCH_GATE" = "1" ]; then GATE_FLAG="--gate")"), std::string::npos) << script;
  EXPECT_EQ(joined_script(yaml["bench:mr"]).find("--gate"), std::string::npos);
}

TEST(GitLabTemplate, ParallelShardsThenOneMergeThatPostsAndKeepsArtifactsAlways) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  EXPECT_EQ(text(yaml[".cobench"]["variables"]["GIT_DEPTH"]), "0");
  const auto& shards = yaml["bench:mr"];
  EXPECT_EQ(shards["extends"], ".cobench");
  ASSERT_TRUE(shards["parallel"].is_number_integer());
  EXPECT_GE(shards["parallel"].get<int>(), 1);
  std::string script = joined_script(shards);
  EXPECT_NE(script.find(R"(cobench run --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}" --out "cobench-shard-${CI_NODE_INDEX:-1}")"),
            std::string::npos)
      << script;
  EXPECT_EQ(shards["artifacts"]["when"], "always");
  std::string paths = shards["artifacts"]["paths"].dump();
  for (const char* path : {"cobench-shard-*/report.*", "cobench-shard-*/results.jsonl", "cobench-shard-*/logs/"})
    EXPECT_NE(paths.find(path), std::string::npos) << path;

  const auto& merge = yaml["bench:report"];
  EXPECT_EQ(merge["needs"][0]["job"], "bench:mr");
  EXPECT_TRUE(merge["needs"][0]["artifacts"].get<bool>());
  script = joined_script(merge);
  for (const char* step : {"cobench merge cobench-shard-*/ --out cobench-report $GATE_FLAG",
                           "cobench post --gitlab cobench-report/report.md", "exit $status"})
    EXPECT_NE(script.find(step), std::string::npos) << step << "\n" << script;
  EXPECT_EQ(merge["artifacts"]["when"], "always");
  EXPECT_EQ(merge["artifacts"]["reports"]["junit"], "cobench-report/report.xml");
  // Without cobench on PATH the jobs build it; with it (an image that has it) they use it.
  const std::string setup = joined_script(yaml[".cobench"]);
  EXPECT_NE(setup.find("if command -v cobench"), std::string::npos) << setup;
  EXPECT_NE(setup.find("cmake --build /opt/cobench-build --target cobench"), std::string::npos) << setup;
  // The reach index is kept per merge base, also when a shard fails.
  ASSERT_TRUE(shards["cache"].is_array()) << shards["cache"].dump();
  const auto reach = std::find_if(shards["cache"].begin(), shards["cache"].end(),
                                  [](const auto& cache) { return cache["paths"] == nlohmann::json{".cobench/reach/"}; });
  ASSERT_NE(reach, shards["cache"].end()) << shards["cache"].dump();
  EXPECT_EQ((*reach)["key"], "cobench-reach-$CI_MERGE_REQUEST_DIFF_BASE_SHA");
  EXPECT_EQ((*reach)["when"], "always");
}

// Issue 15, item 4: cobench from the image, else the package, else a build;
// the compile cache kept between pipelines.
TEST(GitLabTemplate, TakesCobenchFromTheImageThePackageOrABuildAndKeepsTheCompileCache) {
  LOAD_OR_SKIP(yaml, kSource / "ci/gitlab/cobench.yml");
  const auto& common = yaml[".cobench"];  // what the shards and the merge job share
  EXPECT_EQ(text(common["image"]), "$COBENCH_IMAGE");
  EXPECT_EQ(text(common["variables"]["COBENCH_IMAGE"]), "debian:12");
  const auto& job = yaml["bench:mr"];  // the shards compile
  EXPECT_EQ(text(job["variables"]["CCACHE_DIR"]), "$CI_PROJECT_DIR/.ccache");
  EXPECT_NE(job["cache"].dump().find("\".ccache/\""), std::string::npos) << job["cache"].dump();
  const std::string script = joined_script(common) + joined_script(job);
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
      cache |= text(step["with"]["path"]) == ".ccache";
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
  for (const char* name : {"bench", "report"}) {
    std::string condition = yaml["jobs"][name]["if"];
    EXPECT_NE(condition.find("contains(github.event.pull_request.labels.*.name, 'benchmarks')"), std::string::npos);
    EXPECT_NE(condition.find("github.event.label.name == 'benchmarks'"), std::string::npos);
  }
  EXPECT_NE(yaml["jobs"]["report"]["if"].get<std::string>().find("always()"), std::string::npos);
  EXPECT_EQ(text(yaml["jobs"]["bench"]["continue-on-error"]), "true");
  EXPECT_EQ(text(yaml["jobs"]["report"]["continue-on-error"]), "${{ vars.COBENCH_GATE != 'true' }}");
  EXPECT_EQ(yaml["permissions"]["pull-requests"], "write");
}

TEST(GitHubTemplate, MatrixShardsThenOneMergeWithSummaryCommentAndArtifactsAlways) {
  LOAD_OR_SKIP(yaml, kSource / "ci/github/cobench.yml");
  const auto& bench = yaml["jobs"]["bench"];
  EXPECT_FALSE(bench["strategy"]["fail-fast"].get<bool>());
  EXPECT_EQ(bench["strategy"]["matrix"]["shard"], nlohmann::json::array({1, 2}));
  bool full_checkout = false, run = false, shard_upload = false, reach_cache = false;
  for (const auto& step : bench["steps"]) {
    std::string uses = step.value("uses", ""), command = step.value("run", ""), condition = step.value("if", "");
    if (uses.starts_with("actions/checkout") && step.contains("with") && step["with"].contains("fetch-depth"))
      full_checkout |= text(step["with"]["fetch-depth"]) == "0";
    if (command.find("cobench run") != std::string::npos) {
      run = true;
      EXPECT_NE(command.find("--base \"${{ github.event.pull_request.base.sha }}\""), std::string::npos) << command;
      EXPECT_NE(command.find("--shard \"${{ matrix.shard }}/${{ strategy.job-total }}\""), std::string::npos) << command;
      EXPECT_EQ(command.find("GATE"), std::string::npos) << command;
    }
    if (uses.starts_with("actions/cache") && text(step["with"]["path"]) == ".cobench/reach") {
      reach_cache = true;
      EXPECT_FALSE(run) << "restored before cobench runs";
      EXPECT_EQ(step["with"]["path"], ".cobench/reach");
      EXPECT_EQ(step["with"]["key"], "cobench-reach-${{ github.event.pull_request.base.sha }}");
    }
    if (uses.starts_with("actions/upload-artifact")) {
      shard_upload = true;
      EXPECT_EQ(condition, "always()");
      EXPECT_EQ(step["with"]["name"], "cobench-shard-${{ matrix.shard }}");
    }
  }
  EXPECT_TRUE(full_checkout && run && shard_upload && reach_cache) << full_checkout << run << shard_upload << reach_cache;

  const auto& report = yaml["jobs"]["report"];
  EXPECT_EQ(report["needs"], "bench");
  bool download = false, merge = false, post = false, upload = false;
  for (const auto& step : report["steps"]) {
    std::string uses = step.value("uses", ""), command = step.value("run", ""), condition = step.value("if", "");
    if (uses.starts_with("actions/download-artifact")) download = step["with"]["pattern"] == "cobench-shard-*";
    if (command.find("cobench merge") != std::string::npos) {
      merge = true;
      EXPECT_NE(command.find("cobench merge cobench-shard-*/ --out cobench-report $GATE_FLAG"), std::string::npos);
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
      EXPECT_NE(step["with"]["path"].get<std::string>().find("cobench-report/report.*"), std::string::npos);
    }
  }
  EXPECT_TRUE(download && merge && post && upload) << download << merge << post << upload;
}

TEST(CiDocs, QuickStartDocumentsBothTemplatesAndTheGateSwitch) {
  std::string doc = read_text(kSource / "README.md");
  for (const char* needle : {"ci/gitlab/cobench.yml", "ci/github/cobench.yml", "COBENCH_GATE", "COBENCH_GITLAB_TOKEN",
                             "benchmarks"})
    EXPECT_NE(doc.find(needle), std::string::npos) << needle;
}

}  // namespace
}  // namespace cobench::testing
