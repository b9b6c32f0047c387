// What a framework's runs cannot do is refused before anything is built
// (job::check_settings, which knows the runners; config only holds values).
#include <gtest/gtest.h>

#include "config/config.h"
#include "core/errors.h"
#include "job/pipeline.h"
#include "run/runner_kinds.h"

namespace cobench::job {
namespace {

using config::Config;
using config::Origin;

std::string error_of(const Config& settings) {
  try {
    check_settings(settings);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

Config with_runner(const std::string& runner, const std::string& toml = "") {
  Config c = config::parse(toml, "cobench.toml");
  config::set(c, "run.runner", {runner}, {Origin::Kind::Flag, "--runner"});
  return c;
}

TEST(RunnerSettings, EveryRunnerInTheTableIsKnownByNameAndAnUnknownOneListsThem) {
  for (const auto& kind : run::runner_kinds()) EXPECT_EQ(run::runner_kind(kind.name, "--runner").name, kind.name);
  EXPECT_EQ(error_of(with_runner("catch3")), "--runner: 'catch3' is not one of gbench, catch2, go, command");
  EXPECT_EQ(error_of(config::parse("[run]\nrunner = \"pytest\"\n", "cobench.toml")),
            "cobench.toml:2:10: run.runner: 'pytest' is not one of gbench, catch2, go, command");
  EXPECT_EQ(error_of(with_runner("gbench")), "no error");
  EXPECT_EQ(error_of(with_runner("catch2")), "no error");
}

TEST(RunnerSettings, WhatOnlyGoogleBenchmarkProgramsCanDoIsRefusedForOthers) {
  EXPECT_EQ(error_of(with_runner("go", "[run]\nmetrics = [\"instructions\"]\n")),
            "cobench.toml:2:11: run.metrics: instructions are counted for Google Benchmark targets only (runner is go)");
  EXPECT_EQ(error_of(with_runner("catch2", "[build]\nshared_parent = \"routines\"\n")),
            "cobench.toml:2:17: build.shared_parent: a shared parent library is linked into Google Benchmark targets "
            "only (runner is catch2)");
  Config filtered = with_runner("catch2");
  config::set(filtered, "run.filter", {"join"}, {Origin::Kind::Flag, "--filter"});
  EXPECT_EQ(error_of(filtered), "--filter: --filter is Google Benchmark's --benchmark_filter; give Catch2's own "
                                "selection flags with --bench-arg (runner is catch2)");
  EXPECT_EQ(error_of(with_runner("catch2", "[run]\nreach = true\n")),
            "cobench.toml:2:9: run.reach: the coverage pass runs each benchmark alone through Google Benchmark's "
            "filter (runner is catch2)");
  EXPECT_EQ(error_of(with_runner("go", "[run]\nreach = true\n")), "no error");  // its rows say reach is unknown
  EXPECT_EQ(error_of(with_runner("gbench", "[run]\nmetrics = [\"instructions\"]\n")), "no error");
}

TEST(RunnerSettings, ASharedParentIsOneCodeLayoutAndAskingForMoreIsRefused) {
  // By default the job has one layout and its reports say why; asked for two, it says which two settings clash.
  EXPECT_EQ(error_of(with_runner("gbench", "[build]\nshared_parent = \"routines\"\n")), "no error");
  Config asked = with_runner("gbench", "[build]\nshared_parent = \"routines\"\n");
  config::set(asked, "run.layouts", {"2"}, {Origin::Kind::Flag, "--layouts"});
  EXPECT_EQ(error_of(asked), "--layouts: a shared parent library (cobench.toml:2:17: build.shared_parent) is one code "
                             "layout, built once for both sides; drop one of them");
  config::set(asked, "run.layouts", {"1"}, {Origin::Kind::Flag, "--layouts"});
  EXPECT_EQ(error_of(asked), "no error");
}

TEST(RunnerSettings, CommandsBelongToTheCommandRunner) {
  Config go = with_runner("go");
  config::set(go, "run.commands", {"./bench.sh"}, {Origin::Kind::Flag, "--command"});
  EXPECT_EQ(error_of(go), "--command: commands need the command runner (runner is go)");
  EXPECT_EQ(error_of(with_runner("command")), "--runner: the command runner needs at least one --command");
  Config implied;
  config::set(implied, "run.commands", {"./bench.sh"}, {Origin::Kind::Flag, "--command"});
  EXPECT_EQ(error_of(implied), "no error");
}

TEST(RunnerSettings, CobenchChoosesTheRunLengthOnlyWhereTheUserLeftLengthAndRepetitionsToIt) {
  EXPECT_EQ(check_settings(with_runner("gbench")).run_length, "auto");
  EXPECT_EQ(check_settings(with_runner("gbench", "[run]\nmin_time = \"0.2s\"\n")).run_length, "auto");  // the start
  EXPECT_EQ(check_settings(with_runner("gbench", "[run]\nrun_length = \"fixed\"\n")).run_length, "fixed");
  EXPECT_EQ(check_settings(with_runner("gbench", "[run]\nrepetitions = \"auto\"\n")).run_length, "fixed");
  EXPECT_EQ(check_settings(with_runner("gbench", "[run]\nrepetitions = 3\n")).run_length, "fixed");
  for (const char* own : {"--benchmark_min_time=0.5", "--benchmark_min_time=100x", "--benchmark_repetitions=5"}) {
    Config c = with_runner("gbench");
    config::set(c, "run.bench_args", {own}, {Origin::Kind::Flag, "--bench-arg"});
    EXPECT_EQ(check_settings(c).run_length, "fixed") << own;
  }
  // As run::with_min_time reads the arguments: a filter that merely names the flag leaves the length to cobench.
  Config filtered = with_runner("gbench");
  config::set(filtered, "run.bench_args", {"--benchmark_filter=BM_benchmark_min_time"}, {Origin::Kind::Flag, "--bench-arg"});
  EXPECT_EQ(check_settings(filtered).run_length, "auto");
  // The same for the repetitions: a filter naming them neither fixes the length nor conflicts with --repetitions.
  config::set(filtered, "run.bench_args", {"--benchmark_filter=BM_benchmark_repetitions"},
              {Origin::Kind::Flag, "--bench-arg"});
  EXPECT_EQ(check_settings(filtered).run_length, "auto");
  config::set(filtered, "run.repetitions", {"3"}, {Origin::Kind::Flag, "--repetitions"});
  EXPECT_EQ(error_of(filtered), "no error");
  Config both = filtered;
  config::set(both, "run.bench_args", {"--benchmark_repetitions=5"}, {Origin::Kind::Flag, "--bench-arg"});
  EXPECT_EQ(error_of(both), "--repetitions: conflicts with --benchmark_repetitions in --bench-arg; give the repetitions once");
  EXPECT_EQ(check_settings(with_runner("catch2")).run_length, "fixed");  // no Google Benchmark flags to set
  try {
    config::parse("[run]\nrun_length = \"short\"\n", "cobench.toml");
    ADD_FAILURE() << "an unknown run length was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "cobench.toml:2:14: run.run_length: 'short' is not one of auto, fixed");
  }
}

}  // namespace
}  // namespace cobench::job
