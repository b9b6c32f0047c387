#include "job/worktree_job.h"

#include <memory>

#include <fmt/format.h>

#include "host/environment.h"
#include "job/settings_step.h"

namespace cobench::job {

int run_worktree_job(JobContext& context) {
  const config::Config& settings = context.settings;
  const run::RunnerKind& kind = context.decided.runner;
  const Revisions& revs = context.revs;
  const int cpu = context.cpu;
  const std::vector<std::string>& bench_args = context.bench_args;
  const run::ProcessSettings process{bench_args, cpu, settings.run.run_timeout, host::benchmark_environment(),
                                     context.out_dir};
  const std::unique_ptr<run::Runner> runner = kind.make({process, settings.run.commands, settings.run.prepare});
  const run::SideContext base{Side::Base, revs.base_sha, context.workspace.worktree(Side::Base), {}, {}};
  const run::SideContext head{Side::Head, revs.head_sha, context.workspace.worktree(Side::Head), {}, {}};
  TargetChoice choice;
  choice.reason = kind.framework;
  results::JobSettings job = job_settings(context.basis(), choice, bench_args);
  std::vector<results::ReachRecord> reach;
  if (settings.run.reach) {
    const std::string why = fmt::format("runner {}: the coverage pass needs Google Benchmark targets built with CMake",
                                        settings.run.runner);
    job.reach_method = "unknown for every benchmark: " + why;
    reach.push_back({"", {verdict::ChangeReach::Status::Unknown, 0, 0, why}, {}});
  }
  std::optional<run::BesideMachineControl> beside;
  run::Runner& measured = with_machine_control(*runner, process, context.prepared, beside);
  return measure(context.options, measured, base, head, job, choice, nullptr, reach, context.out_dir,
                 context.workspace.job_dir(), context.progress, context.prepared, nullptr);
}

}  // namespace cobench::job
