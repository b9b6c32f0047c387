// The settings model: one order of layers (defaults < cobench.toml <
// COBENCH_* < flags), one validator per key whose errors name the origin,
// and the same refusals from every source and every command.
#include <gtest/gtest.h>

#include "support/input_error.h"

#include "config/config.h"
#include "core/errors.h"
#include "support/testing.h"

namespace cobench::config {
namespace {

const Origin kFlag{Origin::Kind::Flag, "--budget"};

using testing::input_error_of;

TEST(Settings, LayersApplyInOrderAndRememberTheirOrigin) {
  Config c = parse("[run]\nmin_runs = 8\nmax_runs = 20\nmetric = \"cpu_time\"\n", "cobench.toml");
  EXPECT_EQ(c.origin("run.min_runs").where, "cobench.toml:2:12");
  apply_environment(c, {{"COBENCH_MIN_RUNS", "10"}, {"COBENCH_METRIC", ""}, {"UNRELATED", "x"}});
  EXPECT_EQ(c.run.min_runs, 10);
  EXPECT_EQ(c.origin("run.min_runs").kind, Origin::Kind::Environment);
  EXPECT_EQ(c.origin("run.min_runs").where, "COBENCH_MIN_RUNS");
  EXPECT_EQ(c.run.time_metric(), "cpu_time");  // an empty variable changes nothing
  EXPECT_EQ(c.origin("run.metric").kind, Origin::Kind::File);
  set(c, "run.min_runs", {"12"}, {Origin::Kind::Flag, "--min-runs"});
  EXPECT_EQ(c.run.min_runs, 12);
  EXPECT_EQ(c.origin("run.min_runs").where, "--min-runs");
  EXPECT_EQ(c.run.max_runs, 20);
  EXPECT_EQ(c.origin("run.max_runs").kind, Origin::Kind::File);
  EXPECT_EQ(c.origin("run.cpu").kind, Origin::Kind::Default);
}

TEST(Settings, EverySourceNamesItselfInItsError) {
  const std::string what = "5 would mean 500%; write a fraction (0.05) or a percentage (\"5%\")";
  EXPECT_EQ(input_error_of([] { parse("[budget]\ntime = 5\n", "cobench.toml"); }), "cobench.toml:2:8: budget.time: " + what);
  EXPECT_EQ(input_error_of([] { parse("[budget]\ntime = \"5\"\n", "cobench.toml"); }),
            "cobench.toml:2:8: budget.time: " + what);
  Config c;
  EXPECT_EQ(input_error_of([&] { apply_environment(c, {{"COBENCH_BUDGET", "5"}}); }), "COBENCH_BUDGET: " + what);
  EXPECT_EQ(input_error_of([&] { set(c, "budget.time", {"5"}, kFlag); }), "--budget: " + what);
  EXPECT_DOUBLE_EQ(c.budget.time, 0.05);  // nothing was stored
}

TEST(Settings, OneValidatorForEveryKeyAndSource) {
  Config c;
  const std::string min = "must be at least 2, got 1";
  EXPECT_EQ(input_error_of([] { parse("[run]\nmin_runs = 1\n", "t.toml"); }), "t.toml:2:12: run.min_runs: " + min);
  EXPECT_EQ(input_error_of([&] { apply_environment(c, {{"COBENCH_MIN_RUNS", "1"}}); }), "COBENCH_MIN_RUNS: " + min);
  EXPECT_EQ(input_error_of([&] { set(c, "run.min_runs", {"1"}, {Origin::Kind::Flag, "--min-runs"}); }), "--min-runs: " + min);
  EXPECT_EQ(input_error_of([&] { set(c, "run.min_runs", {"six"}, {Origin::Kind::Flag, "--min-runs"}); }),
            "--min-runs: expected an integer, got 'six'");
  EXPECT_EQ(input_error_of([&] { set(c, "run.metric", {"wall"}, {Origin::Kind::Environment, "COBENCH_METRIC"}); }),
            "COBENCH_METRIC: 'wall' is not one of auto, real_time, cpu_time, instructions");
  EXPECT_EQ(input_error_of([&] { set(c, "run.run_timeout", {"soon"}, {Origin::Kind::Flag, "--run-timeout"}); })
                .rfind("--run-timeout: bad duration", 0),
            0u);
  EXPECT_EQ(input_error_of([&] { set(c, "budget.confidence", {"1.5"}, {Origin::Kind::Flag, "--confidence"}); }),
            "--confidence: must be strictly between 0 and 1, e.g. 0.95");
  EXPECT_EQ(input_error_of([&] { set(c, "budget.allocs", {"lots"}, {Origin::Kind::Flag, "--allocs-budget"}); })
                .rfind("--allocs-budget: bad allowed increase 'lots'", 0),
            0u);
  EXPECT_EQ(input_error_of([&] { set(c, "run.filter", {"BM_("}, {Origin::Kind::Environment, "COBENCH_FILTER"}); })
                .rfind("COBENCH_FILTER: bad filter 'BM_(': Google Benchmark reads filters as POSIX extended", 0),
            0u);
  EXPECT_EQ(input_error_of([&] { set(c, "run.cpu", {"-1"}, {Origin::Kind::Environment, "COBENCH_CPU"}); }),
            "COBENCH_CPU: must be at least 0, got -1");
}

TEST(Settings, MetricsAreOneSettingWrittenAsAListOrCommaSeparated) {
  Config c;
  EXPECT_EQ(c.run.time_metric(), "auto");
  EXPECT_FALSE(c.run.counts_instructions());
  set(c, "run.metric", {"instructions"}, {Origin::Kind::Flag, "--metric"});
  EXPECT_EQ(c.run.time_metric(), "");  // instructions only: no timing rounds
  EXPECT_TRUE(c.run.counts_instructions());
  set(c, "run.metric", {"real_time, instructions"}, {Origin::Kind::Environment, "COBENCH_METRIC"});
  EXPECT_EQ(c.run.metrics, (std::vector<std::string>{"real_time", "instructions"}));
  EXPECT_EQ(c.run.time_metric(), "real_time");

  Config file = parse("[run]\nmetrics = [\"cpu_time\", \"instructions\"]\ninstruction_runs = 2\n", "cobench.toml");
  EXPECT_EQ(file.run.time_metric(), "cpu_time");
  EXPECT_TRUE(file.run.counts_instructions());
  EXPECT_EQ(file.run.instruction_runs, 2);
  Config one = parse("[run]\nmetric = \"instructions\"\n[budget]\ninstructions_tolerance = \"1%\"\n"
                     "governing = \"worst\"\n",
                     "cobench.toml");
  EXPECT_EQ(one.run.metrics, (std::vector<std::string>{"instructions"}));
  EXPECT_DOUBLE_EQ(one.budget.instructions_tolerance, 0.01);
  EXPECT_EQ(one.budget.governing, "worst");
  validate(one);
  // The old single values keep working.
  EXPECT_EQ(parse("[run]\nmetric = \"cpu_time\"\n", "t.toml").run.time_metric(), "cpu_time");
}

TEST(Settings, BadMetricListsNameTheirOrigin) {
  Config c;
  const Origin flag{Origin::Kind::Flag, "--metric"};
  EXPECT_EQ(input_error_of([&] { set(c, "run.metric", {"real_time,cpu_time"}, flag); }),
            "--metric: one time metric at most, got real_time, cpu_time: a row is judged on one time");
  EXPECT_EQ(input_error_of([&] { set(c, "run.metric", {"instructions,instructions"}, flag); }),
            "--metric: 'instructions' is named twice");
  EXPECT_EQ(input_error_of([&] { set(c, "run.metric", {"cycles"}, flag); }),
            "--metric: 'cycles' is not one of auto, real_time, cpu_time, instructions");
  EXPECT_EQ(input_error_of([&] { set(c, "run.metric", {""}, flag); }),
            "--metric: '' is not one of auto, real_time, cpu_time, instructions");
  EXPECT_EQ(input_error_of([] { parse("[run]\nmetrics = []\n", "t.toml"); }),
            "t.toml:2:11: run.metrics: name at least one of auto, real_time, cpu_time, instructions");
  EXPECT_EQ(input_error_of([] { parse("[run]\nmetrics = [\"real_time\", 3]\n", "t.toml"); }),
            "t.toml:2:25: run.metrics: expected strings in the array, got integer");
  EXPECT_EQ(input_error_of([] { validate(parse("[run]\nmetric = \"real_time\"\nmetrics = [\"instructions\"]\n", "t.toml")); }),
            "t.toml:3:11: run.metrics: the metrics are also given as run.metric (t.toml:2:10); give them once");
  Config governed;
  set(governed, "budget.governing", {"instructions"}, {Origin::Kind::Flag, "--governing"});
  EXPECT_EQ(input_error_of([&] { validate(governed); }),
            "--governing: 'instructions' needs instructions among the metrics (run.metric measures auto)");
  EXPECT_EQ(input_error_of([&] { set(c, "budget.instructions_tolerance", {"5"}, {Origin::Kind::Flag, "--instructions-tolerance"}); })
                .rfind("--instructions-tolerance: 5 would mean 500%", 0),
            0u);
}

TEST(Settings, AShardIsAPartIOfNFromEverySource) {
  Config c = parse("[select]\nshard = \"2/4\"\ncost_from = [\"a.jsonl\", \"b.jsonl\"]\n", "cobench.toml");
  ASSERT_TRUE(c.select.shard);
  EXPECT_EQ(c.select.shard->index, 2);
  EXPECT_EQ(c.select.shard->count, 4);
  EXPECT_EQ(c.select.cost_from, (std::vector<std::string>{"a.jsonl", "b.jsonl"}));
  apply_environment(c, {{"COBENCH_SHARD", "1/1"}, {"COBENCH_COST_FROM", "last/results.jsonl"}});
  EXPECT_EQ(c.select.shard->count, 1);
  EXPECT_EQ(c.select.cost_from, std::vector<std::string>{"last/results.jsonl"});
  EXPECT_EQ(c.origin("select.shard").where, "COBENCH_SHARD");
  for (const char* bad : {"0/2", "3/2", "1/0"})
    EXPECT_EQ(input_error_of([&] { set(c, "select.shard", {bad}, {Origin::Kind::Flag, "--shard"}); }),
              std::string("--shard: '") + bad + "': the part I of I/N must be between 1 and N");
  for (const char* bad : {"2", "a/b", "1/2/3", "-1/2", " 1/2", "1/9999999"})
    EXPECT_EQ(input_error_of([&] { set(c, "select.shard", {bad}, {Origin::Kind::Flag, "--shard"}); }),
              std::string("--shard: '") + bad + "': write the part as I/N, e.g. 2/4");
  EXPECT_EQ(input_error_of([] { parse("[select]\nshard = 2\n", "t.toml"); }),
            "t.toml:2:9: select.shard: expected a part like \"2/4\", got integer");
  EXPECT_EQ(c.select.shard->index, 1);  // nothing bad was stored
}

TEST(Settings, TheTimeBudgetBoundsTheJobTheMeasureBudgetTheMeasuring) {
  Config c = parse("[run]\ntime_budget = \"20m\"\nmeasure_budget = \"5m\"\n", "cobench.toml");
  EXPECT_DOUBLE_EQ(*c.run.time_budget, 1200);
  EXPECT_DOUBLE_EQ(*c.run.measure_budget, 300);
  apply_environment(c, {{"COBENCH_MEASURE_BUDGET", "90s"}});
  EXPECT_DOUBLE_EQ(*c.run.measure_budget, 90);
  EXPECT_EQ(input_error_of([&] { set(c, "run.measure_budget", {"0"}, {Origin::Kind::Flag, "--measure-budget"}); })
                .rfind("--measure-budget: bad duration", 0),
            0u);
  EXPECT_NE(key_for_flag("--measure-budget"), nullptr);
  EXPECT_NE(std::string(key_for_flag("--time-budget")->help).find("whole job"), std::string::npos);
}

TEST(Settings, CrossChecksBlameTheLaterLayer) {
  Config c = parse("[run]\nmin_runs = 10\n", "cobench.toml");
  set(c, "run.max_runs", {"8"}, {Origin::Kind::Flag, "--max-runs"});
  EXPECT_EQ(input_error_of([&] { validate(c); }), "--max-runs: min_runs (10) is greater than max_runs (8)");
  Config d;
  set(d, "run.min_runs", {"40"}, {Origin::Kind::Environment, "COBENCH_MIN_RUNS"});
  EXPECT_EQ(input_error_of([&] { validate(d); }), "COBENCH_MIN_RUNS: min_runs (40) is greater than max_runs (30)");
}

TEST(Settings, RepeatedFlagsAddToTheFilesLists) {
  Config c = parse("[build]\ncmake_args = [\"-DA=1\"]\n[run]\nbench_args = [\"--x\"]\n", "cobench.toml");
  set(c, "build.cmake_args", {"-DB=2"}, {Origin::Kind::Flag, "--cmake-arg"});
  EXPECT_EQ(c.build.cmake_args, (std::vector<std::string>{"-DA=1", "-DB=2"}));
  Config fresh;
  set(fresh, "run.bench_args", {"--y", "--z"}, {Origin::Kind::Flag, "--bench-arg"});
  EXPECT_EQ(fresh.run.bench_args, (std::vector<std::string>{"--y", "--z"}));
}

TEST(Settings, CommandsImplyTheCommandRunnerUnlessOneWasNamed) {
  Config c;
  set(c, "run.commands", {"./bench.sh"}, {Origin::Kind::Flag, "--command"});
  EXPECT_EQ(c.run.runner, "command");
  validate(c);
  Config go;
  set(go, "run.runner", {"go"}, {Origin::Kind::Flag, "--runner"});
  set(go, "run.commands", {"./bench.sh"}, {Origin::Kind::Flag, "--command"});
  EXPECT_EQ(go.run.runner, "go");  // what the go runner makes of commands is the job's to say (tests/job)
}

TEST(Settings, ASharedParentIsOneOfTheProjectsOwnTargets) {
  Config c = parse("[build]\nshared_parent = \"routines\"\n", "cobench.toml");
  EXPECT_EQ(c.build.shared_parent, "routines");
  validate(c);
  EXPECT_EQ(input_error_of([&] { set(c, "build.shared_parent", {"fmt::fmt"}, {Origin::Kind::Flag, "--shared-parent"}); }),
            "--shared-parent: 'fmt::fmt' is an ALIAS or IMPORTED name; name the project's own library target");
  EXPECT_EQ(input_error_of([&] { parse("[build]\nshared_parent = \"my lib\"\n", "cobench.toml"); }),
            "cobench.toml:2:17: build.shared_parent: 'my lib' is not a CMake target name (letters, digits and _ . + -)");
  // An empty value turns a file's setting off from the command line.
  set(c, "build.shared_parent", {""}, {Origin::Kind::Flag, "--shared-parent"});
  EXPECT_EQ(c.build.shared_parent, "");
  Config probe = parse("[build]\nshared_parent = \"routines\"\n", "cobench.toml");
  set(probe, "run.layout_probe", {"true"}, {Origin::Kind::Flag, "--layout-probe"});
  EXPECT_EQ(input_error_of([&] { validate(probe); }),
            "cobench.toml:2:17: build.shared_parent: the layout probe compiles every unit of the head differently, so "
            "a shared parent library would share nothing; drop one of them");
}

// The same refusal through the binary, from every source and every command that takes a budget.
TEST(SettingsCli, ABareNumberBudgetIsRefusedEverywhere) {
  testing::TempDir dir;
  testing::GitRepo repo(dir / "repo");
  repo.write("README", "x\n");
  repo.commit("first");
  const std::string what = "5 would mean 500%; write a fraction (0.05) or a percentage (\"5%\")";
  auto flag = testing::run_cobench({"run", "--budget", "5"}, repo.path(), {}, 60);
  EXPECT_EQ(flag.exit_code, 2) << testing::explain(flag);
  EXPECT_NE(flag.err.find("--budget: " + what), std::string::npos) << flag.err;
  auto env = testing::run_cobench({"run"}, repo.path(), {{"COBENCH_BUDGET", "5"}}, 60);
  EXPECT_EQ(env.exit_code, 2) << testing::explain(env);
  EXPECT_NE(env.err.find("COBENCH_BUDGET: " + what), std::string::npos) << env.err;
  repo.write("cobench.toml", "[budget]\ntime = 5\n");
  auto file = testing::run_cobench({"run"}, repo.path(), {}, 60);
  EXPECT_EQ(file.exit_code, 2) << testing::explain(file);
  EXPECT_NE(file.err.find("cobench.toml:2:8: budget.time: " + what), std::string::npos) << file.err;
  testing::write_file(dir / "a.json", "{\"benchmarks\": []}");
  auto compare = testing::run_cobench({"compare", (dir / "a.json").string(), "--vs", (dir / "a.json").string(),
                                       "--budget", "5", "--gate"},
                                      dir.path(), {}, 60);
  EXPECT_EQ(compare.exit_code, 2) << testing::explain(compare);
  EXPECT_NE(compare.err.find("--budget: " + what), std::string::npos) << compare.err;
}

TEST(SettingsCli, MinRunsOfOneIsRefusedByFlagAsByTheFile) {
  testing::TempDir dir;
  testing::GitRepo repo(dir / "repo");
  repo.write("README", "x\n");
  repo.commit("first");
  auto result = testing::run_cobench({"run", "--min-runs", "1"}, repo.path(), {}, 60);
  EXPECT_EQ(result.exit_code, 2) << testing::explain(result);
  EXPECT_NE(result.err.find("--min-runs: must be at least 2, got 1"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace cobench::config
