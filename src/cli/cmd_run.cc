// `cobench run`: the settings layered (defaults < cobench.toml < COBENCH_* <
// flags), then the pipeline.
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "git/git.h"
#include "host/environment.h"
#include "job/pipeline.h"

namespace cobench::cli {
namespace {

/// What only this job names; every setting is in SettingFlags.
struct RunFlags {
  std::string head = "HEAD", base, repo, work_dir, out, config;
  bool keep = false, all = false;
};

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
  app->add_flag("--all", f.all, "measure every benchmark target, not only those the diff reaches");
  app->add_option("--out", f.out, "report folder (default <work-dir>/report)");
  app->add_option("--config", f.config, "settings file (default <repo>/cobench.toml when present)");
  auto settings = std::make_shared<SettingFlags>(
      app, std::initializer_list<std::string_view>{
               "build.cmake_args", "build.source_dir", "select.targets", "run.filter", "select.max_targets",
               "select.strict_layout", "run.cpu", "run.bench_args", "run.run_timeout", "run.min_runs", "run.max_runs",
               "run.time_budget", "budget.gate", "budget.fail_on_inconclusive", "run.metric", "budget.time",
               "budget.confidence", "run.runner", "run.commands", "run.prepare", "run.alloc_runs", "budget.allocs",
               "budget.bytes", "run.pairing", "run.looks", "run.stopping", "run.repetitions", "run.control",
               "run.machine_control", "run.layout_probe", "build.layout_stable", "build.shared_parent",
               "build.ccache", "build.ccache_dir"});
  sub.run = [flags, settings]() -> int {
    job::RunOptions options;
    const std::filesystem::path start =
        flags->repo.empty() ? std::filesystem::current_path() : std::filesystem::path(flags->repo);
    options.repo = git::toplevel(start);
    options.env = host::environment_map();
    options.settings = settings->layer(find_config_file(flags->config, options.repo), options.env);
    options.head = flags->head;
    options.base = flags->base;
    options.work_dir = flags->work_dir;
    options.out_dir = flags->out;
    options.keep = flags->keep;
    options.all = flags->all;
    return job::run_pipeline(options);
  };
  return sub;
}

}  // namespace cobench::cli
