#include "job/console.h"
#include "job/pipeline.h"

#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "core/clock.h"
#include "core/errors.h"
#include "git/git.h"
#include "host/environment.h"
#include "host/host.h"
#include "job/cmake_job.h"
#include "job/job_context.h"
#include "job/job_folder.h"
#include "job/output_dir.h"
#include "job/settings_step.h"
#include "job/target_choice.h"
#include "job/workspace.h"
#include "job/worktree_job.h"
#include "plan/plan.h"
#include "report/escape.h"
#include "select/select.h"

namespace cobench::job {

namespace fs = std::filesystem;

int run_pipeline(const RunOptions& options) {
  const auto job_start = std::chrono::steady_clock::now();
  const config::Config& settings = options.settings;
  const DecidedSettings decided = check_settings(settings);
  // Before anything is started: no build, benchmark or command gets a credential it was not given on purpose.
  if (const auto withheld = host::describe_withheld(host::withhold_credentials(settings.run.pass_env)); !withheld.empty())
    console().line(withheld);
  if (const auto flags = host::describe_withheld_flags(host::withhold_google_benchmark_flags(settings.run.pass_env));
      !flags.empty())
    console().line(flags);
  const plan::CostHistory history =
      plan::read_cost_history(settings.select.cost_from, settings.origin("select.cost_from").describe("select.cost_from"));
  Prepared prepared;
  prepared.job_elapsed = [job_start] {
    return seconds_since(job_start);
  };
  const fs::path repo = git::toplevel(options.repo.empty() ? fs::current_path() : options.repo);
  const fs::path work_dir = fs::absolute(options.work_dir.empty() ? repo / ".cobench" : options.work_dir);
  const fs::path out_dir = fs::absolute(options.out_dir.empty() ? work_dir / "report" : options.out_dir);
  const auto env = options.env.empty() ? host::environment_map() : options.env;
  const std::vector<std::string> bench_args = with_filter(settings.run.bench_args, decided.narrowing);

  const bool probe = settings.run.layout_probe;
  if (probe && !options.base.empty())
    throw InputError(fmt::format("{}: builds one commit against itself; drop --base {}",
                                 settings.origin("run.layout_probe").describe("run.layout_probe"), options.base));
  const Revisions revs = probe ? probe_revisions(repo, options.head)
                               : resolve_revisions(repo, options.head, options.base, env);
  if (probe)
    console().line(fmt::format("layout probe: base and head are both {} ({}); the head side is perturbed", revs.head_sha,
                               revs.head_ref));
  else
    console().block(describe(revs));
  if (const auto warning = uncommitted_changes_warning(repo, revs))
    console().warning(report::sanitize_text(*warning, true));
  git::ensure_ignored(repo, ".cobench/");
  if (auto rel = work_dir.lexically_relative(repo); !rel.empty() && *rel.begin() != ".." && rel != ".cobench")
    git::ensure_ignored(repo, "/" + rel.generic_string() + "/");  // a custom work folder inside the repo

  if (inside_a_job_folder(out_dir, work_dir))
    throw InputError(fmt::format("--out {}: inside a job folder of {}, which cobench removes when a job ends",
                                 out_dir.string(), work_dir.string()));
  // Taken before anything is built: a second job on this folder stops now, naming the first.
  const OutputDir output(out_dir, "--out", options.out_dir.empty());

  run::Progress progress = run::Progress::for_stream(stderr);
  Workspace workspace(repo, work_dir, revs);
  if (options.keep) workspace.keep();

  const int cpu = settings.run.cpu ? *settings.run.cpu : host::last_online_cpu();
  JobContext context{options, settings, decided, repo, work_dir, out_dir, revs, workspace, bench_args, cpu,
                     history, progress, prepared};
  return decided.runner.recognises ? run_cmake_job(context) : run_worktree_job(context);
}

}  // namespace cobench::job
