#include "job/pipeline.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "core/parse.h"
#include "process/process.h"
#include "process/signals.h"
#include "report/report.h"
#include "results/aggregate.h"
#include "run/alloc_runs.h"
#include "verdict/budget.h"
#include "run/command_runner.h"
#include "host/environment.h"
#include "run/gbench_runner.h"
#include "run/go_runner.h"
#include "host/host.h"
#include "run/progress.h"
#include "results/log.h"
#include "results/samples.h"
#include "run/schedule.h"
#include "job/side_build.h"
#include "job/target_choice.h"
#include "job/workspace.h"
#include "select/select.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

void validate(const RunOptions& o) {
  if (o.min_runs < 1) throw InputError(fmt::format("--min-runs must be at least 1 (got {})", o.min_runs));
  if (o.max_runs < o.min_runs)
    throw InputError(fmt::format("--max-runs ({}) must not be below --min-runs ({})", o.max_runs, o.min_runs));
  if (o.run_timeout <= 0) throw InputError("--run-timeout must be positive");
  if (o.time_budget && *o.time_budget <= 0) throw InputError("--time-budget must be positive");
  if (!(o.confidence > 0 && o.confidence < 1)) throw InputError("--confidence must be between 0 and 1");
  if (o.budget < 0) throw InputError("--budget must not be negative");
  if (o.cpu && *o.cpu < 0) throw InputError("--cpu must not be negative");
  if (o.runner != "gbench" && o.runner != "go" && o.runner != "command")
    throw InputError(fmt::format("--runner '{}': expected gbench, go or command", o.runner));
  if (o.runner == "command" && o.commands.empty()) throw InputError("--runner command needs at least one --command");
  if (o.runner != "command" && (!o.commands.empty() || !o.prepare.empty()))
    throw InputError(fmt::format("--command/--prepare need --runner command (got --runner {})", o.runner));
  run::parse_commands(o.commands, "--command");
  run::parse_commands(o.prepare, "--prepare");
  if (o.alloc_runs < 0) throw InputError("--alloc-runs must not be negative");
  for (const auto& budget : {o.allocs_budget, o.bytes_budget})
    if (budget) report::compare_medians({0}, {0}, *budget);  // throws on a malformed budget
  results::sample_key_for_metric(o.metric);
  verdict::BudgetRules{o.budget, o.overrides}.validate();
}

/// The compiler named in the CMake arguments, for the host context.
std::string compiler_of(const std::vector<std::string>& cmake_args) {
  const std::string key = "-DCMAKE_CXX_COMPILER=";
  for (const auto& arg : cmake_args)
    if (arg.rfind(key, 0) == 0) return arg.substr(key.size());
  return {};
}

nlohmann::json settings_json(const RunOptions& o, const Revisions& revs, int cpu, const TargetChoice& choice,
                             const std::vector<std::string>& bench_args) {
  nlohmann::json s = {{"base", revs.base_sha},          {"head", revs.head_sha},
                      {"base_ref", revs.base_ref},      {"head_ref", revs.head_ref},
                      {"metric", o.metric},             {"budget", to_json(verdict::BudgetRules{o.budget, o.overrides})},
                      {"confidence", o.confidence},     {"min_runs", o.min_runs},
                      {"max_runs", o.max_runs},         {"run_timeout", o.run_timeout},
                      {"cpu", cpu},                     {"bench_args", bench_args},
                      {"cmake_args", o.cmake_args},     {"build_type", o.build_type},
                      {"source_dir", o.source_dir},     {"runner", o.runner},
                      {"targets", choice.both},         {"selection", choice.selection}};
  s["time_budget"] = o.time_budget ? nlohmann::json(*o.time_budget) : nlohmann::json(nullptr);
  s["alloc_runs"] = o.runner == "gbench" ? o.alloc_runs : 0;
  s["allocs_budget"] = o.allocs_budget ? nlohmann::json(*o.allocs_budget) : nlohmann::json(nullptr);
  s["bytes_budget"] = o.bytes_budget ? nlohmann::json(*o.bytes_budget) : nlohmann::json(nullptr);
  return s;
}

/// Pairs the two sides' units by name.
std::vector<run::UnitPair> pair_units(run::Runner& runner, const run::SideContext& base, const run::SideContext& head) {
  auto head_units = runner.prepare(head);
  std::vector<run::UnitPair> pairs;
  for (auto& unit : runner.prepare(base))
    for (auto& other : head_units)
      if (other.name == unit.name) pairs.push_back({unit.name, unit, other, base.sha, head.sha});
  return pairs;
}

/// Lists the benchmarks of targets that exist on one side only.
void log_one_sided(run::Runner& runner, const run::SideContext& side, const std::vector<std::string>& names, results::ResultsLog& log) {
  if (names.empty()) return;  // prepare() may run commands (--prepare): only when needed
  for (auto& unit : runner.prepare(side))
    if (std::find(names.begin(), names.end(), unit.name) != names.end())
      log.one_sided({unit.name, side.side, runner.list(unit)});
}

/// A job whose diff reaches no benchmark: say so, and leave a report that says so.
int report_unreached(const std::string& why, const RunOptions& o, const Revisions& revs, int cpu,
                     const select::Selection& selection, const fs::path& out_dir) {
  std::printf("%s; nothing to build or measure\n", why.c_str());
  results::ResultsLog log(out_dir / "results.jsonl");
  log.host(host::collect_host_context(compiler_of(o.cmake_args)));
  log.settings(settings_json(o, revs, cpu, choose_targets({}, selection), o.bench_args));
  log.note(why);
  report::write_reports(results::aggregate(results::read_results(log.path()), log.path().string()), out_dir);
  std::printf("reports: %s/report.{json,md,xml,html}\n", out_dir.string().c_str());
  return kExitOk;
}

int exit_code_for(const report::Report& report, bool gate, bool fail_on_inconclusive) {
  if (!gate) return kExitOk;
  for (const auto& row : report.benchmarks) {
    if (row.verdict == stats::Verdict::Regression) return kExitGateFailed;
    if (fail_on_inconclusive && row.verdict == stats::Verdict::Inconclusive) return kExitGateFailed;
  }
  return kExitOk;
}

}  // namespace

RunOptions options_from_config(const config::Config& c) {
  RunOptions o;
  o.cmake_args = c.build.cmake_args;
  o.build_type = c.build.build_type;
  o.source_dir = c.build.source_dir;
  o.target_patterns = c.build.targets;
  o.select = c.select;
  o.bench_args = c.run.bench_args;
  o.cpu = c.run.cpu;
  o.min_runs = c.run.min_runs;
  o.max_runs = c.run.max_runs;
  o.run_timeout = c.run.run_timeout;
  o.time_budget = c.run.time_budget;
  o.metric = c.run.metric;
  o.runner = c.run.runner;
  o.alloc_runs = c.run.alloc_runs;
  o.budget = c.budget.time;
  o.overrides = c.budget.overrides;
  o.confidence = c.budget.confidence;
  o.fail_on_inconclusive = c.budget.fail_on_inconclusive;
  o.allocs_budget = c.budget.allocs;
  o.bytes_budget = c.budget.bytes;
  return o;
}

int report_results(const fs::path& results_path, const fs::path& out_dir, bool gate, bool fail_on_inconclusive) {
  auto report = results::aggregate(results::read_results(results_path), results_path.string());
  report::write_reports(report, out_dir);
  std::fputs(report::render_table(report, ::isatty(STDOUT_FILENO)).c_str(), stdout);
  std::printf("reports: %s/report.{json,md,xml,html}\n", out_dir.string().c_str());
  std::fflush(stdout);
  return exit_code_for(report, gate, fail_on_inconclusive);
}

/// Logs, measures (timing rounds, then allocation runs when `alloc_process`
/// is given) and reports one prepared pair of sides, whatever the runner.
int measure(const RunOptions& options, run::Runner& runner, const run::SideContext& base, const run::SideContext& head,
            const nlohmann::json& settings, const TargetChoice& choice, const run::GoogleBenchmarkSettings* alloc_process,
            const fs::path& out_dir, const fs::path& work_dir, run::Progress& progress) {
  results::ResultsLog log(out_dir / "results.jsonl");
  log.host(host::collect_host_context(compiler_of(options.cmake_args)));
  log.settings(settings);
  log_one_sided(runner, base, choice.base_only, log);
  log_one_sided(runner, head, choice.head_only, log);

  const verdict::BudgetRules budgets{options.budget, options.overrides};
  run::ScheduleSettings schedule{options.min_runs, options.max_runs, options.time_budget,
                            results::sample_key_for_metric(options.metric), options.confidence,
                            [&](const std::string& t, const std::string& n) { return budgets.time_for(t, n); }};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  run::ScheduleHooks hooks;
  hooks.on_record = [&](const results::RunRecord& r) { log.run(r); };
  hooks.on_stop = [&](const std::string& target, const std::string& reason) { log.stop(target, reason); };
  hooks.on_round = [&](const std::string& label, int round, int undecided) {
    // Until min_runs the rest is known; after that it depends on the verdicts.
    const double eta = round < options.min_runs ? elapsed() / round * (options.min_runs - round) : -1;
    progress.update({label, round, round, round, undecided, elapsed(), eta});
  };
  const auto pairs = pair_units(runner, base, head);
  auto outcome = run::run_schedule(runner, pairs, schedule, hooks);
  progress.finish();
  if (!outcome.interrupted && alloc_process) {
    outcome.interrupted = !run::run_alloc_rounds(pairs, *alloc_process, options.alloc_runs, hooks.on_record,
                                            run::alloc_time_gate(options.time_budget, outcome.records, elapsed),
                                            [&](const std::string& line) { progress.message(line); });
  }
  if (outcome.interrupted) {
    log.note(fmt::format("interrupted by {} after {} runs; report from the runs done",
                         process::signal_name(signals::cancellation_signal()), outcome.records.size()));
  }

  const int code = report_results(log.path(), out_dir, options.gate, options.fail_on_inconclusive);
  if (options.keep) std::printf("kept worktrees and builds in %s\n", work_dir.string().c_str());
  return outcome.interrupted ? kExitInterrupted : code;
}

/// Go packages and plain commands: nothing to configure or build, the worktrees are the sides.
int measure_without_cmake(const RunOptions& options, const Revisions& revs, Workspace& workspace,
                          const std::vector<std::string>& bench_args, int cpu, const fs::path& out_dir,
                          const fs::path& work_dir, run::Progress& progress) {
  const run::GoogleBenchmarkSettings process{bench_args, cpu, options.run_timeout, host::benchmark_environment(), out_dir};
  std::unique_ptr<run::Runner> runner;
  if (options.runner == "go") runner = std::make_unique<run::GoRunner>(process);
  else runner = std::make_unique<run::CommandRunner>(process, run::parse_commands(options.commands, "--command"),
                                                run::parse_commands(options.prepare, "--prepare"));
  const run::SideContext base{Side::Base, revs.base_sha, workspace.worktree(Side::Base), {}, {}};
  const run::SideContext head{Side::Head, revs.head_sha, workspace.worktree(Side::Head), {}, {}};
  TargetChoice choice;
  choice.reason = options.runner == "go" ? "go packages" : "commands";
  nlohmann::json settings = settings_json(options, revs, cpu, choice, bench_args);
  settings["commands"] = options.commands;
  settings["prepare"] = options.prepare;
  return measure(options, *runner, base, head, settings, choice, nullptr, out_dir, work_dir, progress);
}

int run_pipeline(const RunOptions& options) {
  validate(options);
  const fs::path repo = git::toplevel(options.repo.empty() ? fs::current_path() : options.repo);
  const fs::path work_dir = fs::absolute(options.work_dir.empty() ? repo / ".cobench" : options.work_dir);
  const fs::path out_dir = fs::absolute(options.out_dir.empty() ? work_dir / "report" : options.out_dir);
  const auto env = options.env.empty() ? host::environment_map() : options.env;
  const select::Narrowing narrowing = select::resolve_narrowing(options.target_regex, options.filter, env);
  const std::vector<std::string> bench_args = with_filter(options.bench_args, narrowing);

  const Revisions revs = resolve_revisions(repo, options.head, options.base, env);
  std::printf("base: %s (merge base of %s and %s)\nhead: %s (%s)\n", revs.base_sha.c_str(), revs.base_ref.c_str(),
              revs.head_ref.c_str(), revs.head_sha.c_str(), revs.head_ref.c_str());
  std::fflush(stdout);
  git::ensure_ignored(repo, ".cobench/");
  if (auto rel = work_dir.lexically_relative(repo); !rel.empty() && *rel.begin() != ".." && rel != ".cobench")
    git::ensure_ignored(repo, "/" + rel.generic_string() + "/");  // a custom work folder inside the repo

  std::error_code ec;  // a previous job's per-run files must not mix with this one's
  for (const char* sub : {"runs", "logs"}) fs::remove_all(out_dir / sub, ec);

  run::Progress progress = run::Progress::for_stream(stderr);
  Workspace workspace(repo, work_dir, revs);
  if (options.keep) workspace.keep();

  if (options.runner != "gbench") {
    const int cpu = options.cpu ? *options.cpu : host::last_online_cpu();
    return measure_without_cmake(options, revs, workspace, bench_args, cpu, out_dir, work_dir, progress);
  }
  SharedBuildSettings shared{options.cmake_args, options.build_type, options.source_dir,
                             fmt::format("{}", fmt::join(options.target_patterns, "|")), out_dir / "logs"};
  const int cpu = options.cpu ? *options.cpu : host::last_online_cpu();
  // Head first: selection needs only its targets, and a diff that reaches none builds nothing.
  progress.message("configuring head");
  const SideBuild head_build = configure_side(Side::Head, workspace.worktree(Side::Head),
                                              workspace.build_dir(Side::Head), shared);
  const select::Selection selection = select_on_head(options, revs, workspace, head_build, narrowing);
  std::fputs(select::to_text(selection).c_str(), stdout);
  std::fflush(stdout);
  select::enforce_strict_layout(selection);
  if (auto why = nothing_to_measure(selection)) return report_unreached(*why, options, revs, cpu, selection, out_dir);
  progress.message("configuring base");
  const SideBuild base_build = configure_side(Side::Base, workspace.worktree(Side::Base),
                                              workspace.build_dir(Side::Base), shared);
  const TargetChoice choice = choose_targets(base_build.targets, selection);
  progress.message(fmt::format("building {} ({})", fmt::join(choice.both, ", "), choice.reason));
  auto base_targets = choice.both, head_targets = choice.both;
  base_targets.insert(base_targets.end(), choice.base_only.begin(), choice.base_only.end());
  head_targets.insert(head_targets.end(), choice.head_only.begin(), choice.head_only.end());
  build_side(base_build, base_targets);
  build_side(head_build, head_targets);
  signals::throw_if_cancelled();

  const run::GoogleBenchmarkSettings process{bench_args, cpu, options.run_timeout, host::benchmark_environment(), out_dir};
  run::GoogleBenchmarkRunner runner(process);
  const run::SideContext base{Side::Base, revs.base_sha, workspace.worktree(Side::Base), workspace.build_dir(Side::Base),
                         executables(base_build, base_targets)};
  const run::SideContext head{Side::Head, revs.head_sha, workspace.worktree(Side::Head), workspace.build_dir(Side::Head),
                         executables(head_build, head_targets)};
  return measure(options, runner, base, head, settings_json(options, revs, cpu, choice, bench_args), choice,
                 options.alloc_runs > 0 ? &process : nullptr, out_dir, work_dir, progress);
}

}  // namespace cobench::job