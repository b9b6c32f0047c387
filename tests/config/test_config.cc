// cobench.toml: every key read into Config, every mistake a one-line error
// with FILE:LINE:COL, defaults when there is no file.
#include "config/config.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "support/testing.h"

namespace cobench::config {
namespace {

// A cobench.toml text and the exact error it must give.
struct Case {
  std::string toml;
  std::string error;
};

// The message of the InputError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse(text, "cobench.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_errors(const std::vector<Case>& cases) {
  for (const auto& c : cases) EXPECT_EQ(error_of(c.toml), c.error) << c.toml;
}

// As expect_errors, for messages whose tail comes from a library (std::regex).
void expect_error_prefixes(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    std::string error = error_of(c.toml);
    EXPECT_EQ(error.rfind(c.error, 0), 0u) << c.toml << " -> " << error;
  }
}

TEST(Config, FullValidFile) {
  Config c = parse(R"(
[build]
cmake_args = ["-DFOO=ON", "-DBAR=2"]
targets = ["^bench_.*", "perf[0-9]+"]
source_dir = "benchmarks"
build_type = "RelWithDebInfo"

[run]
cpu = 3
min_runs = 8
max_runs = 40
run_timeout = "2m"
time_budget = "20m"
bench_args = ["--benchmark_min_time=0.1"]
metric = "cpu_time"
alloc_runs = 5
runner = "go"

[budget]
time = "3%"
fail_on_inconclusive = true
confidence = 0.99
allocs = "0"
bytes = "64"

[[budget.override]]
match = "BM_Gemm/.*"
time = "10%"

[[budget.override]]
match = "BM_Alloc"
allocs = 2
bytes = "5%"

[select]
max_targets = 7
always_all = ["cmake/**"]
ignore = ["docs/**"]
strict_layout = true
)",
                   "cobench.toml");
  EXPECT_EQ(c.build.cmake_args, (std::vector<std::string>{"-DFOO=ON", "-DBAR=2"}));
  EXPECT_EQ(c.build.targets, (std::vector<std::string>{"^bench_.*", "perf[0-9]+"}));
  EXPECT_EQ(c.build.source_dir, "benchmarks");
  EXPECT_EQ(c.build.build_type, "RelWithDebInfo");
  EXPECT_EQ(c.run.cpu, 3);
  EXPECT_EQ(c.run.min_runs, 8);
  EXPECT_EQ(c.run.max_runs, 40);
  EXPECT_DOUBLE_EQ(c.run.run_timeout, 120);
  ASSERT_TRUE(c.run.time_budget);
  EXPECT_DOUBLE_EQ(*c.run.time_budget, 1200);
  EXPECT_EQ(c.run.bench_args, (std::vector<std::string>{"--benchmark_min_time=0.1"}));
  EXPECT_EQ(c.run.metrics, (std::vector<std::string>{"cpu_time"}));
  EXPECT_EQ(c.run.alloc_runs, 5);
  EXPECT_EQ(c.run.runner, "go");
  EXPECT_DOUBLE_EQ(c.budget.time, 0.03);
  EXPECT_TRUE(c.budget.fail_on_inconclusive);
  EXPECT_DOUBLE_EQ(c.budget.confidence, 0.99);
  EXPECT_EQ(c.budget.allocs->text, "0");
  EXPECT_EQ(c.budget.bytes->text, "64");
  ASSERT_EQ(c.budget.overrides.size(), 2u);
  EXPECT_EQ(c.budget.overrides[0].match, "BM_Gemm/.*");
  EXPECT_DOUBLE_EQ(c.budget.overrides[0].time.value(), 0.10);
  EXPECT_FALSE(c.budget.overrides[0].allocs);
  EXPECT_EQ(c.budget.overrides[1].match, "BM_Alloc");
  EXPECT_FALSE(c.budget.overrides[1].time);
  EXPECT_EQ(c.budget.overrides[1].allocs->text, "2");
  EXPECT_EQ(c.budget.overrides[1].bytes->text, "5%");
  EXPECT_EQ(c.select.max_targets, 7);
  EXPECT_EQ(c.select.always_all, (std::vector<std::string>{"cmake/**"}));
  EXPECT_EQ(c.select.ignore, (std::vector<std::string>{"docs/**"}));
  EXPECT_TRUE(c.select.strict_layout);
}

TEST(Config, NumbersAreAcceptedWhereTheyMeanTheSame) {
  Config c = parse("[run]\nrun_timeout = 45\ntime_budget = 90.5\n[budget]\ntime = 0.05\n", "f.toml");
  EXPECT_DOUBLE_EQ(c.run.run_timeout, 45);
  EXPECT_DOUBLE_EQ(*c.run.time_budget, 90.5);
  EXPECT_DOUBLE_EQ(c.budget.time, 0.05);
  Config s = parse("[run]\nrun_timeout = \"300s\"\n", "f.toml");
  EXPECT_DOUBLE_EQ(s.run.run_timeout, 300);
}

TEST(Config, EmptyTextGivesDefaults) {
  Config c = parse("", "cobench.toml");
  Config d;
  EXPECT_EQ(c.run.min_runs, 6);
  EXPECT_EQ(c.run.max_runs, 30);
  EXPECT_DOUBLE_EQ(c.run.run_timeout, 300);
  EXPECT_FALSE(c.run.time_budget);
  EXPECT_FALSE(c.run.cpu);
  EXPECT_EQ(c.run.time_metric(), "auto");  // per benchmark: cpu_time for single-threaded ones
  EXPECT_FALSE(c.run.counts_instructions());
  EXPECT_DOUBLE_EQ(c.budget.instructions_tolerance, 0.005);
  EXPECT_EQ(c.budget.governing, "time");
  EXPECT_DOUBLE_EQ(c.budget.time, 0.05);
  EXPECT_EQ(c.build.build_type, "Release");
  EXPECT_EQ(c.select.max_targets, 20);
  EXPECT_EQ(c.select.ignore, d.select.ignore);
}

TEST(Config, MissingOptionalFileGivesDefaults) {
  testing::TempDir dir;
  Config c = load_file(dir / "cobench.toml");
  EXPECT_TRUE(c.loaded_from.empty());
  EXPECT_EQ(c.run.min_runs, 6);
  Config again = load_file(dir / "cobench.toml", false);
  EXPECT_TRUE(again.loaded_from.empty());
}

TEST(Config, MissingRequiredFileIsAnError) {
  testing::TempDir dir;
  try {
    load_file(dir / "nope.toml", true);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {

    EXPECT_NE(std::string(e.what()).find("nope.toml: config file not found"), std::string::npos) << e.what();
  }
}

TEST(Config, LoadFileRecordsWhereItCameFromAndNamesTheFileInErrors) {
  testing::TempDir dir;
  testing::write_file(dir / "cobench.toml", "[run]\nmin_runs = 10\n");
  Config c = load_file(dir / "cobench.toml");
  EXPECT_EQ(c.loaded_from, dir / "cobench.toml");
  EXPECT_EQ(c.run.min_runs, 10);
  testing::write_file(dir / "bad.toml", "[run]\n\nmin_runs = \"x\"\n");
  try {
    load_file(dir / "bad.toml", true);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((dir / "bad.toml").string() + ":3:12: run.min_runs:", 0), 0u) << e.what();
  }
}

TEST(Config, ADirectoryIsNotAConfigFile) {
  testing::TempDir dir;
  EXPECT_THROW(load_file(dir.path(), true), InputError);
}

TEST(Config, SyntaxErrorHasLineAndColumn) {
  std::string e = error_of("[run]\nmin_runs = = 3\n");
  EXPECT_EQ(e.rfind("cobench.toml:2:", 0), 0u) << e;
  EXPECT_EQ(error_of("[run]\nmin_runs = 2\nmin_runs = 3\n").rfind("cobench.toml:3:", 0), 0u);
  EXPECT_EQ(error_of("[run]\n[select]\n[run]\n").rfind("cobench.toml:3:", 0), 0u);
  std::string unterminated = error_of("[build]\ncmake_args = [\"-DX\"\n");
  EXPECT_EQ(unterminated.rfind("cobench.toml:", 0), 0u) << unterminated;
}

TEST(Config, UnknownKeysAtEveryLevel) {
  expect_errors({
      {"colour = 1\n", "cobench.toml:1:1: unknown key 'colour' at the top level"},
      {"[selct]\n", "cobench.toml:1:2: unknown key 'selct' at the top level (did you mean 'select'?)"},
      {"[report]\nx = 1\n", "cobench.toml:1:2: unknown key 'report' at the top level"},
      {"[run]\nmin_run = 3\n", "cobench.toml:2:1: unknown key 'min_run' in [run] (did you mean 'min_runs'?)"},
      {"[build]\n  target = []\n", "cobench.toml:2:3: unknown key 'target' in [build] (did you mean 'targets'?)"},
      {"[budget]\ntim = \"5%\"\n", "cobench.toml:2:1: unknown key 'tim' in [budget] (did you mean 'time'?)"},
      {"[select]\nmax = 3\n", "cobench.toml:2:1: unknown key 'max' in [select]"},
      {"[[budget.override]]\nmatch = \"x\"\nbudget = \"5%\"\n", "cobench.toml:3:1: unknown key 'budget' in [budget.override[1]]"},
  });
}

TEST(Config, WrongTypes) {
  expect_errors({
      {"[run]\nmin_runs = \"6\"\n", "cobench.toml:2:12: run.min_runs: expected an integer, got string"},
      {"[run]\nmin_runs = 6.5\n", "cobench.toml:2:12: run.min_runs: expected an integer, got float"},
      {"[build]\ncmake_args = \"-DX=1\"\n", "cobench.toml:2:14: build.cmake_args: expected an array of strings, got string"},
      {"[build]\ncmake_args = [\"-DX=1\", 2]\n", "cobench.toml:2:24: build.cmake_args: expected strings in the array, got integer"},
      {"[budget]\nfail_on_inconclusive = \"yes\"\n", "cobench.toml:2:24: budget.fail_on_inconclusive: expected true or false, got string"},
      {"run = 3\n", "cobench.toml:1:7: run: expected a table [run], got integer"},
      {"[build]\nsource_dir = 1\n", "cobench.toml:2:14: build.source_dir: expected a string, got integer"},
      {"[budget]\noverride = 3\n", "cobench.toml:2:12: budget.override: expected [[budget.override]] tables, got integer"},
      {"[select]\nstrict_layout = 1\n", "cobench.toml:2:17: select.strict_layout: expected true or false, got integer"},
  });
  EXPECT_NE(error_of("[run]\ntime_budget = true\n").find("run.time_budget: expected a duration"), std::string::npos);
  EXPECT_NE(error_of("[budget]\ntime = [1]\n").find("budget.time: expected a percentage"), std::string::npos);
  EXPECT_NE(error_of("[budget]\nallocs = false\n").find("budget.allocs: expected an allowed increase"), std::string::npos);
}

TEST(Config, BadRunCounts) {
  expect_errors({
      {"[run]\nmin_runs = -3\n", "cobench.toml:2:12: run.min_runs: must be at least 2, got -3"},
      {"[run]\nmax_runs = 0\n", "cobench.toml:2:12: run.max_runs: must be at least 2, got 0"},
      {"[run]\nmin_runs = 10\nmax_runs = 8\n", "cobench.toml:3:12: run.max_runs: min_runs (10) is greater than max_runs (8)"},
      {"[run]\nmin_runs = 31\n", "cobench.toml:2:12: run.min_runs: min_runs (31) is greater than max_runs (30)"},
      {"[run]\ncpu = -1\n", "cobench.toml:2:7: run.cpu: must be at least 0, got -1"},
      {"[run]\nalloc_runs = -1\n", "cobench.toml:2:14: run.alloc_runs: must be at least 0, got -1"},
      {"[select]\nmax_targets = -1\n", "cobench.toml:2:15: select.max_targets: must be at least 0, got -1"},
  });
  EXPECT_NE(error_of("[run]\nmin_runs = 99999999999\n").find("too large"), std::string::npos);
  EXPECT_EQ(parse("[select]\nmax_targets = 0\n", "x").select.max_targets, 0);  // no cap, as --max-targets 0
}

TEST(Config, BadRegexes) {
  expect_error_prefixes({
      {"[[budget.override]]\nmatch = \"BM_(\"\n", "cobench.toml:2:9: budget.override[1].match: bad regex 'BM_('"},
      {"[build]\ntargets = [\"ok\", \"[z-a]\"]\n", "cobench.toml:2:18: build.targets: bad regex '[z-a]'"},
      {"[[budget.override]]\nmatch = \"a\"\n[[budget.override]]\nmatch = \"*x\"\n",
       "cobench.toml:4:9: budget.override[2].match: bad regex"},
  });
  // libstdc++ overflowed a long reading these numbers, undefined behaviour (found by fuzz_config_toml).
  expect_errors({{"[[budget.override]]\nmatch = \"BM_(a)\\\\8888888888888888888\"\n",
                  "cobench.toml:2:9: budget.override[1].match: bad regex 'BM_(a)\\8888888888888888888': a back-reference "
                  "or repeat count of more than 9 digits"},
                 {"[select]\ntargets = \"a{1,99999999999}\"\n",
                  "cobench.toml:2:11: select.targets: bad regex 'a{1,99999999999}': a back-reference or repeat count of "
                  "more than 9 digits"}});
  EXPECT_EQ(parse("[select]\ntargets = \"BM_Sort/1073741824|a{2,3}|\\\\{12345678901\"\n", "x").select.targets,
            "BM_Sort/1073741824|a{2,3}|\\{12345678901");  // long literal numbers stay fine
  // libstdc++'s regex compiler overflowed the stack on these (fuzz_config_toml, crafted inputs).
  expect_errors({{"[select]\ntargets = \"" + std::string(60'000, 'a') + "\"\n",
                  "cobench.toml:2:11: select.targets: a regex of 60000 characters; at most 1000 are accepted"},
                 {"[[budget.override]]\nmatch = \"" + std::string(20'000, '(') + "a" + std::string(20'000, ')') + "\"\n",
                  "cobench.toml:2:9: budget.override[1].match: a regex of 40001 characters; at most 1000 are accepted"}});
  expect_errors({{"[[budget.override]]\ntime = \"10%\"\n",
                  "cobench.toml:1:1: budget.override[1]: missing required key 'match' (a regex over benchmark names)"}});
}

TEST(Config, BadGlobs) {
  expect_errors({
      {"[select]\nignore = [\"docs/**\", \"src/[abc\"]\n",
       "cobench.toml:2:22: select.ignore: bad glob 'src/[abc': unterminated [ character class"},
      {"[select]\nalways_all = [\"\"]\n", "cobench.toml:2:15: select.always_all: bad glob '': empty pattern"},
      {"[select]\nignore = [\"docs/***\"]\n",
       "cobench.toml:2:11: select.ignore: bad glob 'docs/***': *** is not a glob: use ** for any depth"},
  });
}

TEST(Config, BadDurations) {
  for (std::string bad : {"\"20 minutes\"", "\"-5s\"", "\"\"", "-1", "0", "\"5x\""}) {
    std::string e = error_of("[run]\nrun_timeout = " + bad + "\n");
    EXPECT_EQ(e.rfind("cobench.toml:2:15: run.run_timeout: bad duration", 0), 0u) << bad << " -> " << e;
  }
  EXPECT_EQ(error_of("[run]\ntime_budget = \"soon\"\n").rfind("cobench.toml:2:15: run.time_budget: bad duration", 0), 0u);
}

TEST(Config, DurationsLongerThanAYearAreRefused) {
  for (std::string bad : {"\"99999999999999h\"", "1e300", "\"8800000h\""}) {
    std::string e = error_of("[run]\nrun_timeout = " + bad + "\n");
    EXPECT_EQ(e.rfind("cobench.toml:2:15: run.run_timeout: bad duration", 0), 0u) << bad << " -> " << e;
  }
  EXPECT_DOUBLE_EQ(parse("[run]\nrun_timeout = \"8760h\"\n", "x").run.run_timeout, 8760.0 * 3600);
}

TEST(Config, TheFilterIsCheckedAsGoogleBenchmarkReadsItAndPassEnvTakesVariableNames) {
  EXPECT_EQ(error_of("[run]\nfilter = \"BM_a\\\\]\"\n").rfind("cobench.toml:2:10: run.filter: bad filter 'BM_a\\]': Google "
                                                           "Benchmark reads filters as POSIX extended regexes",
                                                           0),
            0u)
      << error_of("[run]\nfilter = \"BM_a\\\\]\"\n");
  EXPECT_EQ(parse("[run]\nfilter = \"BM_a]|BM_(x|y)\"\n", "x").run.filter, "BM_a]|BM_(x|y)");
  EXPECT_EQ(parse("[run]\npass_env = [\"CI_JOB_TOKEN\", \"NPM_TOKEN\"]\n", "x").run.pass_env,
            (std::vector<std::string>{"CI_JOB_TOKEN", "NPM_TOKEN"}));
  EXPECT_NE(error_of("[run]\npass_env = [\"A=B\"]\n")
                .find("run.pass_env: 'A=B' is not an environment variable name (letters, digits and _, not first a digit)"),
            std::string::npos);
  Config layered;
  apply_environment(layered, {{"COBENCH_PASS_ENV", "CI_JOB_TOKEN,NPM_TOKEN"}});
  EXPECT_EQ(layered.run.pass_env, (std::vector<std::string>{"CI_JOB_TOKEN", "NPM_TOKEN"}));
  EXPECT_EQ(layered.origin("run.pass_env").where, "COBENCH_PASS_ENV");
}

TEST(Config, BadPercentages) {
  for (std::string bad : {"\"five\"", "\"-5%\"", "\"5%%\"", "-0.1"}) {
    std::string e = error_of("[budget]\ntime = " + bad + "\n");
    EXPECT_EQ(e.rfind("cobench.toml:2:8: budget.time: bad percentage", 0), 0u) << bad << " -> " << e;
  }
  EXPECT_EQ(error_of("[budget]\ntime = 5\n"),
            "cobench.toml:2:8: budget.time: 5 would mean 500%; write a fraction (0.05) or a percentage (\"5%\")");
  expect_error_prefixes({
      {"[[budget.override]]\nmatch = \"x\"\ntime = \"ten\"\n", "cobench.toml:3:8: budget.override[1].time: bad percentage"},
      {"[budget]\nconfidence = 1.0\n", "cobench.toml:2:14: budget.confidence: must be strictly between 0 and 1, e.g. 0.95"},
      {"[budget]\nbytes = \"lots\"\n", "cobench.toml:2:9: budget.bytes: bad allowed increase 'lots'"},
      {"[budget]\nallocs = -1\n", "cobench.toml:2:10: budget.allocs: bad allowed increase '-1'"},
  });
}

TEST(Config, BadChoices) {
  expect_errors({
      {"[run]\nmetric = \"wall_time\"\n", "cobench.toml:2:10: run.metric: 'wall_time' is not one of auto, real_time, cpu_time, instructions"},
      {"[build]\nbuild_type = \"\"\n", "cobench.toml:2:14: build.build_type: must not be empty"},
  });
}

TEST(Config, OverridesAccumulateInOrder) {
  Config c = parse("[[budget.override]]\nmatch = \"a\"\n[[budget.override]]\nmatch = \"b\"\ntime = 0.2\n", "x");
  ASSERT_EQ(c.budget.overrides.size(), 2u);
  EXPECT_EQ(c.budget.overrides[0].match, "a");
  EXPECT_EQ(c.budget.overrides[1].match, "b");
  EXPECT_DOUBLE_EQ(*c.budget.overrides[1].time, 0.2);
}

TEST(Config, ReachAndItsIndexFolderLayerLikeEveryOtherSetting) {
  Config c = parse("[run]\nreach = true\nreach_index = \"ci-cache/reach\"\n", "cobench.toml");
  EXPECT_TRUE(c.run.reach);
  EXPECT_EQ(c.run.reach_index, "ci-cache/reach");
  EXPECT_EQ(c.origin("run.reach").where, "cobench.toml:2:9");
  EXPECT_FALSE(parse("", "x").run.reach) << "off by default: it builds a third time";
  apply_environment(c, {{"COBENCH_REACH", "0"}, {"COBENCH_REACH_INDEX", "/cache"}});
  EXPECT_FALSE(c.run.reach);
  EXPECT_EQ(c.run.reach_index, "/cache");
  set(c, "run.reach", {"true"}, {Origin::Kind::Flag, "--reach"});
  EXPECT_TRUE(c.run.reach);
  EXPECT_EQ(error_of("[run]\nreach = \"yes\"\n"), "cobench.toml:2:9: run.reach: expected true or false, got string");
  ASSERT_NE(key_for_flag("--reach"), nullptr);
  EXPECT_TRUE(key_for_flag("--reach")->is_switch);
}

}  // namespace
}  // namespace cobench::config

namespace cobench::config {
namespace {

// The file layer as `cobench run` sees it: a bad cobench.toml at the repo root
// stops the run before anything is built, with exit status 2 and the position.
TEST(ConfigCli, RunReportsABadRepoConfigWithItsPosition) {
  testing::TempDir dir;
  testing::GitRepo repo(dir / "repo");
  repo.write("cobench.toml", "[run]\nmin_run = 3\n");
  repo.commit("bad config");
  auto result = testing::run_cobench({"run"}, repo.path(), {}, 60);
  EXPECT_EQ(result.exit_code, 2) << testing::explain(result);
  EXPECT_NE(result.err.find("cobench.toml:2:1: unknown key 'min_run' in [run] (did you mean 'min_runs'?)"),
            std::string::npos)
      << testing::explain(result);
}

TEST(ConfigCli, AMissingExplicitConfigIsAnError) {
  testing::TempDir dir;
  testing::GitRepo repo(dir / "repo");
  repo.commit("empty");
  auto result = testing::run_cobench({"run", "--config", "nope.toml"}, repo.path(), {}, 60);
  EXPECT_EQ(result.exit_code, 2) << testing::explain(result);
  EXPECT_NE(result.err.find("nope.toml: config file not found"), std::string::npos) << testing::explain(result);
}

}  // namespace
}  // namespace cobench::config
