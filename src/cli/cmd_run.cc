// `cobench run`: flags over cobench.toml over defaults, then the pipeline.
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.h"
#include "config/config.h"
#include "core/errors.h"
#include "core/parse.h"
#include "git/git.h"
#include "host/environment.h"
#include "job/pipeline.h"
#include "select/input.h"

namespace cobench::cli {
namespace {

/// Raw flag values; applied only when given (on the command line or through COBENCH_* variables).
struct RunFlags {
  std::string head = "HEAD", base, repo, work_dir, out, target, config, metric, budget, time_budget, run_timeout,
              source_dir, filter;
  bool keep = false, gate = false, fail_on_inconclusive = false, all = false, strict_layout = false;
  std::vector<std::string> cmake_args, bench_args, commands, prepare;
  std::string runner, allocs_budget, bytes_budget;
  int alloc_runs = 0;
  int cpu = 0, min_runs = 0, max_runs = 0, max_targets = 0;
  double confidence = 0;
};

bool given(CLI::App* app, const std::string& name) { return app->get_option(name)->count() > 0; }

double parse_seconds(const std::string& flag, const std::string& text) {
  auto seconds = parse_duration_seconds(text);
  if (!seconds) throw InputError(fmt::format("{}: not a duration: '{}' (e.g. 300, 90s, 20m, 1h30m)", flag, text));
  return *seconds;
}

job::RunOptions layered_options(CLI::App* app, const RunFlags& f) {
  const std::filesystem::path start = f.repo.empty() ? std::filesystem::current_path() : std::filesystem::path(f.repo);
  const auto repo = git::toplevel(start);
  std::filesystem::path config_path = f.config.empty() ? repo / "cobench.toml" : std::filesystem::path(f.config);
  job::RunOptions o = job::options_from_config(config::load_file(config_path, /*required=*/!f.config.empty()));
  o.repo = repo;
  o.env = host::environment_map();
  o.head = f.head;
  o.base = f.base;
  o.keep = f.keep;
  o.gate = f.gate || f.fail_on_inconclusive;  // asking to fail on inconclusive implies gating
  if (f.fail_on_inconclusive) o.fail_on_inconclusive = true;
  if (given(app, "--work-dir")) o.work_dir = f.work_dir;
  if (given(app, "--out")) o.out_dir = f.out;
  if (given(app, "--cmake-arg")) o.cmake_args.insert(o.cmake_args.end(), f.cmake_args.begin(), f.cmake_args.end());
  if (given(app, "--bench-arg")) o.bench_args.insert(o.bench_args.end(), f.bench_args.begin(), f.bench_args.end());
  if (given(app, "--source-dir")) o.source_dir = f.source_dir;
  if (given(app, "--target")) o.target_regex = f.target;
  if (given(app, "--filter")) o.filter = f.filter;
  o.all = f.all;
  o.select = select::with_select_flags(o.select, given(app, "--max-targets") ? std::optional(f.max_targets) : std::nullopt,
                                       f.strict_layout);
  if (given(app, "--cpu")) o.cpu = f.cpu;
  if (given(app, "--min-runs")) o.min_runs = f.min_runs;
  if (given(app, "--max-runs")) o.max_runs = f.max_runs;
  if (given(app, "--run-timeout")) o.run_timeout = parse_seconds("--run-timeout", f.run_timeout);
  if (given(app, "--time-budget")) o.time_budget = parse_seconds("--time-budget", f.time_budget);
  if (given(app, "--metric")) o.metric = f.metric;
  if (given(app, "--confidence")) o.confidence = f.confidence;
  if (given(app, "--budget")) {
    auto fraction = parse_fraction(f.budget);
    if (!fraction) throw InputError(fmt::format("--budget: not a fraction: '{}' (e.g. 5% or 0.05)", f.budget));
    o.budget = *fraction;
  }
  // Allocation counts, Go and plain commands (issue 5).
  if (given(app, "--runner")) o.runner = f.runner;
  if (given(app, "--command")) o.commands = f.commands;
  if (given(app, "--prepare")) o.prepare = f.prepare;
  if (!o.commands.empty() && !given(app, "--runner")) o.runner = "command";
  if (given(app, "--alloc-runs")) o.alloc_runs = f.alloc_runs;
  if (given(app, "--allocs-budget")) o.allocs_budget = f.allocs_budget;
  if (given(app, "--bytes-budget")) o.bytes_budget = f.bytes_budget;
  return o;
}

}  // namespace

Subcommand add_run(CLI::App& root) {
  auto flags = std::make_shared<RunFlags>();
  Subcommand sub;
  auto* app = root.add_subcommand(
      "run", "Build merge base and head in two worktrees, run their benchmarks interleaved, report head/base ratios");
  sub.app = app;
  auto& f = *flags;
  app->add_option("--head", f.head, "head revision (default HEAD)");
  app->add_option("--base", f.base, "base revision; compared at its merge base with head (default: from CI "
                                    "variables, origin/HEAD, main, master)");
  app->add_option("--repo", f.repo, "repository (default: the current directory's)");
  app->add_option("--work-dir", f.work_dir, "worktrees and builds go here (default <repo>/.cobench)");
  app->add_flag("--keep", f.keep, "keep worktrees and build folders");
  app->add_option("--cmake-arg", f.cmake_args, "extra CMake argument (repeatable)")->allow_extra_args(false);
  app->add_option("--source-dir", f.source_dir, "CMake project folder inside the repository (default: root)");
  app->add_option("--target", f.target, "only benchmark targets whose name matches this regex (or COBENCH_TARGETS)");
  app->add_option("--filter", f.filter, "benchmark-name regex passed as --benchmark_filter (or COBENCH_FILTER)");
  app->add_flag("--all", f.all, "measure every benchmark target, not only those the diff reaches");
  app->add_option("--max-targets", f.max_targets, "most targets the diff selects, closest first (default 20; 0: no cap)");
  app->add_flag("--strict-layout", f.strict_layout,
                "exit 2 when a selected source registers several benchmark families");
  app->add_option("--cpu", f.cpu, "pin benchmark runs to this CPU (default: the last online CPU)")
      ->envname("COBENCH_CPU");
  app->add_option("--bench-arg", f.bench_args, "argument for every benchmark run (repeatable)")
      ->allow_extra_args(false);
  app->add_option("--run-timeout", f.run_timeout, "per-run timeout (default 300s)")->envname("COBENCH_RUN_TIMEOUT");
  app->add_option("--min-runs", f.min_runs, "runs per side before judging (default 6)")->envname("COBENCH_MIN_RUNS");
  app->add_option("--max-runs", f.max_runs, "most runs per side (default 30)")->envname("COBENCH_MAX_RUNS");
  app->add_option("--time-budget", f.time_budget, "bound on the measuring phase, e.g. 20m")
      ->envname("COBENCH_TIME_BUDGET");
  app->add_option("--out", f.out, "report folder (default <work-dir>/report)");
  app->add_flag("--gate", f.gate, "exit 1 when any benchmark regressed");
  app->add_flag("--fail-on-inconclusive", f.fail_on_inconclusive, "with --gate: inconclusive fails too");
  app->add_option("--config", f.config, "settings file (default <repo>/cobench.toml when present)");
  app->add_option("--metric", f.metric, "real_time or cpu_time (default real_time)")->envname("COBENCH_METRIC");
  app->add_option("--budget", f.budget, "allowed slowdown, e.g. 5%")->envname("COBENCH_BUDGET");
  app->add_option("--confidence", f.confidence, "confidence of the interval (default 0.95)");
  app->add_option("--runner", f.runner, "gbench (default), go (go test -bench per package) or command");
  app->add_option("--command", f.commands, "a command to time as one benchmark, e.g. './bench.sh --fast' or a JSON "
                                           "array (repeatable; implies --runner command)")->allow_extra_args(false);
  app->add_option("--prepare", f.prepare, "a command run once in each worktree before measuring (repeatable)")
      ->allow_extra_args(false);
  app->add_option("--alloc-runs", f.alloc_runs, "allocation-counting runs per side (default 3; 0: none)");
  app->add_option("--allocs-budget", f.allocs_budget, "allowed increase of allocs/op, e.g. 0");
  app->add_option("--bytes-budget", f.bytes_budget, "allowed increase of bytes/op, e.g. 5% or 64");
  sub.run = [app, flags]() -> int { return job::run_pipeline(layered_options(app, *flags)); };
  return sub;
}

}  // namespace cobench::cli
