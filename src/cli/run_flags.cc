#include "cli/run_flags.h"

#include <filesystem>

#include "git/git.h"

namespace cobench::cli {

RunFlags::RunFlags(CLI::App* app) {
  app->add_option("--head", head_, "head revision (default HEAD)");
  app->add_option("--base", base_, "base revision; compared at its merge base with head (default: from CI "
                                   "variables, origin/HEAD, main, master)");
  app->add_option("--repo", repo_, "repository (default: the current directory's)");
  app->add_option("--work-dir", work_dir_, "worktrees and builds go here (default <repo>/.cobench)");
  app->add_flag("--keep", keep_, "keep worktrees and build folders");
  app->add_flag("--all", all_, "measure every benchmark target, not only those the diff reaches");
  app->add_option("--out", out_, "report folder (default <work-dir>/report)");
  app->add_option("--config", config_, "settings file (default <repo>/cobench.toml when present)");
  settings_ = std::make_unique<SettingFlags>(
      app, std::initializer_list<std::string_view>{
               "build.cmake_args", "build.source_dir", "select.targets", "run.filter", "select.max_targets",
               "select.strict_layout", "select.shard", "select.cost_from", "run.cpu", "run.bench_args",
               "run.run_timeout", "run.min_time", "run.min_runs", "run.max_runs", "run.time_budget", "run.measure_budget", "budget.gate", "budget.fail_on_inconclusive", "run.metric", "run.pairing",
               "run.looks", "run.control_rule", "run.stopping", "run.repetitions", "run.run_length", "budget.time", "budget.confidence", "run.runner",
               "run.commands", "run.prepare", "run.alloc_runs", "budget.allocs", "budget.bytes", "run.control",
               "run.machine_control", "run.layout_probe", "run.layouts", "build.layout_stable", "build.shared_parent", "run.reach",
               "run.reach_index", "run.instruction_runs", "budget.instructions_tolerance", "budget.governing",
               "build.ccache", "build.ccache_dir", "run.pass_env"});
}

job::RunOptions RunFlags::options(const std::map<std::string, std::string>& env) const {
  job::RunOptions options;
  const std::filesystem::path start = repo_.empty() ? std::filesystem::current_path() : std::filesystem::path(repo_);
  options.repo = git::toplevel(start);
  options.env = env;
  options.settings = settings_->layer(find_config_file(config_, options.repo), options.env);
  options.head = head_;
  options.base = base_;
  options.work_dir = work_dir_;
  options.out_dir = out_;
  options.keep = keep_;
  options.all = all_;
  return options;
}

}  // namespace cobench::cli
