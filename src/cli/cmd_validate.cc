// `cobench validate`: how often cobench run's verdicts are right on this
// machine. Real `cobench run` jobs on a bundled fixture whose truth is known
// (A/A benchmarks, slowdowns of 3-50%, an extra allocation), tallied per true
// effect: the shares of regression / pass / inconclusive and the runs taken.
//
// Each job is a child process of this very binary, not a call of
// job::run_pipeline: a job is then exactly what a user's `cobench run` is
// (its own job id, signal handling, settings layering from COBENCH_* and
// --config, exit code), its output goes to a log instead of into the tables,
// and a method's flags are parsed by `cobench run` itself.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/run_flags.h"
#include "cli/version.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "host/environment.h"
#include "host/host.h"
#include "git/git.h"
#include "job/pipeline.h"
#include "process/process.h"
#include "validate/campaign.h"
#include "validate/fixture.h"
#include "validate/resume.h"
#include "validate/summary.h"

namespace cobench::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kDefaultJobs = 50;  // 200 A/A verdicts and 50 per true slowdown
constexpr int kShortJobs = 2;

struct ValidateFlags {
  int jobs = kDefaultJobs;
  bool short_run = false;
  bool keep = false;
  bool resume = false;
  std::string out;
  std::vector<std::string> methods;
  std::vector<std::string> run_args;
  double min_time = 0.05;
  int extra_allocs = 1;
  std::string repo;        ///< a user's repository instead of the fixture
  std::string source_dir;  ///< its CMake project inside it
  CLI::Option* jobs_option = nullptr;
  CLI::Option* min_time_option = nullptr;
  CLI::Option* extra_allocs_option = nullptr;
};

/// This process's command line as typed (for the report), from /proc/self/cmdline.
std::string invoked_command() {
  std::string raw;
  try {
    raw = read_file("/proc/self/cmdline");
  } catch (const InputError&) {
    return "cobench validate";
  }
  std::vector<std::string> argv;
  for (size_t start = 0; start < raw.size();) {
    const size_t end = std::min(raw.find('\0', start), raw.size());
    argv.push_back(raw.substr(start, end - start));
    start = end + 1;
  }
  return process::quote_command_line(argv);
}

/// Parses `args` as `cobench run`'s flags would be; a CLI11 error becomes InputError naming `origin`.
void parse_run_flags(CLI::App& app, std::vector<std::string> args, const std::string& origin) {
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    throw InputError(fmt::format("{}: {}", origin, e.what()));
  }
}

/// Refuses flags of the user's that validate sets for every job itself.
void check_given_flags(const std::vector<std::string>& given, const std::string& origin) {
  CLI::App app{"cobench run"};
  RunFlags flags(&app);
  parse_run_flags(app, given, origin);
  for (const char* own : {"--repo", "--base", "--head", "--out"})
    if (app.get_option(own)->count() > 0)
      throw InputError(fmt::format("{}: {} is set by cobench validate for every job", origin, own));
}

/// Refuses, before anything is built, what `cobench run` would refuse in
/// every job of `method` (exit 2): a bad flag or value, min_runs above max_runs, a flag cobench must own,
/// a layout probe (it has no base side), a reach pass (it changes the verdicts validate tallies).
void check_job_flags(const validate::JobSpec& spec, const validate::Method& method) {
  const std::string origin = method.args.empty() ? "--run-arg" : fmt::format("--method {}", method.name);
  check_given_flags(method.args, origin);
  CLI::App app{"cobench run"};
  RunFlags flags(&app);
  const std::vector<std::string> argv = validate::job_argv(spec, method, spec.repo / ".cobench/check");
  parse_run_flags(app, {argv.begin() + 2, argv.end()}, origin);  // without the binary and "run"
  try {
    const config::Config settings = flags.options(host::environment_map()).settings;
    if (settings.run.layout_probe)
      throw InputError(fmt::format("{}: measures the head against itself; validate's jobs compare the fixture's "
                                   "base and head",
                                   settings.origin("run.layout_probe").describe("run.layout_probe")));
    if (settings.run.reach)
      throw InputError(fmt::format("{}: the reach pass makes every benchmark that does not execute the change an "
                                   "unrelated change, never a regression; validate tallies the verdicts themselves",
                                   settings.origin("run.reach").describe("run.reach")));
    job::check_settings(settings);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", origin, e.what()));
  }
}

std::vector<validate::Method> methods_of(const ValidateFlags& flags) {
  std::vector<validate::Method> methods;
  std::set<std::string> names;
  for (const auto& text : flags.methods) {
    methods.push_back(validate::parse_method(text));
    if (!names.insert(methods.back().name).second)
      throw InputError(fmt::format("--method {}: the name '{}' is given twice", text, methods.back().name));
  }
  if (methods.empty()) methods.push_back({"default", {}});
  return methods;
}

/// Copies what a finished job left that a reader needs (its report, its run log, its output) into --out.
void keep_job_files(const fs::path& job_out, const fs::path& log, const fs::path& dest) {
  fs::create_directories(dest);
  for (const char* name : {"report.json", "results.jsonl"})
    fs::copy_file(job_out / name, dest / name, fs::copy_options::overwrite_existing);
  fs::copy_file(log, dest / "cobench-run.log", fs::copy_options::overwrite_existing);
}

std::string progress_line(const validate::JobResult& job) {
  int counts[3] = {0, 0, 0};
  for (const auto& v : job.verdicts) ++counts[static_cast<int>(v.verdict)];
  return fmt::format("{} verdicts ({} regression, {} pass, {} inconclusive); build and setup {:.0f} s, "
                     "measuring {:.0f} s",
                     job.verdicts.size(), counts[static_cast<int>(verdict::Verdict::Regression)],
                     counts[static_cast<int>(verdict::Verdict::Pass)],
                     counts[static_cast<int>(verdict::Verdict::Inconclusive)], job.build_seconds(),
                     job.measuring_seconds);
}

int run_validate(const ValidateFlags& flags) {
  const auto start = std::chrono::steady_clock::now();
  const int jobs_per_method = flags.jobs_option->count() > 0 ? flags.jobs : flags.short_run ? kShortJobs : kDefaultJobs;
  const std::vector<validate::Method> methods = methods_of(flags);
  validate::FixtureSpec spec;
  spec.extra_allocations = flags.extra_allocs;
  validate::plan_fixture(spec);  // a bad knob fails before anything is written
  const bool own_repo = !flags.repo.empty();
  if (own_repo && flags.extra_allocs_option->count() > 0)
    throw InputError("--extra-allocs: a knob of the bundled fixture; --repo measures the repository as it is");
  if (!own_repo && !flags.source_dir.empty())
    throw InputError("--source-dir: where the CMake project is inside --repo; give --repo too");
  // A user's repository is checked before anything is written: it must be one, with a commit to measure.
  const fs::path user_repo = own_repo ? git::toplevel(fs::absolute(flags.repo)) : fs::path();
  const std::string user_sha = own_repo ? git::resolve(user_repo, "HEAD") : "";
  const fs::path out = flags.out.empty() ? fs::path() : fs::absolute(flags.out);
  if (flags.resume && out.empty()) throw InputError("--resume: give --out, the folder of the campaign to go on with");
  if (flags.resume) validate::earlier_summary(out);  // before anything is written
  if (!flags.resume && !out.empty() && fs::exists(out / "summary.json"))
    throw InputError(fmt::format("--out {}: a campaign's summary.json is already there; --resume goes on with it, "
                                 "another --out starts a new one",
                                 out.string()));
  if (!out.empty()) create_report_folder(out, "--out");  // fail now, not after the first job

  validate::Context context;
  context.command = invoked_command();
  context.version = version();
  context.host = host::collect_host_context();
  context.jobs_per_method = jobs_per_method;

  const fs::path dir = make_temp_dir("cobench-validate-");
  RemoveOnExit cleanup({dir});
  if (flags.keep) cleanup.keep();
  const validate::Fixture fixture =
      own_repo ? validate::repository_fixture(user_repo, user_sha) : validate::write_fixture(dir / "repo", spec);

  validate::JobSpec job_spec;
  job_spec.cobench = fs::read_symlink("/proc/self/exe");
  job_spec.repo = own_repo ? user_repo : dir / "repo";
  job_spec.base = fixture.base;
  job_spec.head = fixture.head;
  job_spec.cwd = fs::current_path();
  if (own_repo) {
    // The repository's own settings (its cobench.toml, the environment) as its jobs would run; worktrees and
    // builds in the temporary folder, so nothing is written into it but what `cobench run` writes anyway.
    job_spec.args = {"--work-dir", (dir / "work").string()};
    if (!flags.source_dir.empty()) job_spec.args.push_back("--source-dir=" + flags.source_dir);
    if (flags.min_time_option->count() > 0)
      job_spec.args.push_back(fmt::format("--min-time={}", flags.min_time));
  } else {
    // cobench's own length, not a --bench-arg: the runs start from it and --run-length auto may shorten them.
    job_spec.args = {fmt::format("--min-time={}", flags.min_time), "--allocs-budget", "0"};
  }
  if (process::find_on_path("ccache")) {
    // Every job checks out new worktrees; paths relative to the temporary folder make their compilations alike.
    if (!own_repo) job_spec.args.push_back("--cmake-arg=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache");
    const char* basedir = std::getenv("CCACHE_BASEDIR");
    if (!basedir || !*basedir) job_spec.env.push_back({"CCACHE_BASEDIR", dir.string()});
    context.builds = "ccache: the first job compiles, later jobs' builds are cache hits";
  } else {
    context.builds = "ccache not found (Debian package `ccache`), so every job compiles both sides";
  }
  context.job_args = job_spec.args;
  job_spec.args.insert(job_spec.args.end(), flags.run_args.begin(), flags.run_args.end());
  context.job_args.insert(context.job_args.end(), flags.run_args.begin(), flags.run_args.end());
  check_given_flags(flags.run_args, "--run-arg");
  for (const auto& method : methods) check_job_flags(job_spec, method);

  const std::vector<int> order = validate::job_order(static_cast<int>(methods.size()), jobs_per_method);
  if (own_repo)
    std::fprintf(stderr, "cobench validate: %s at %s against itself; %zu jobs (%d per method); %s\n",
                 job_spec.repo.c_str(), user_sha.c_str(), order.size(), jobs_per_method, context.builds.c_str());
  else
    std::fprintf(stderr, "cobench validate: fixture of %zu benchmarks in %s; %zu jobs (%d per method); %s\n",
                 fixture.targets.size(), job_spec.repo.c_str(), order.size(), jobs_per_method, context.builds.c_str());
  std::vector<validate::JobResult> jobs;
  std::set<int> done;  // job indices an earlier sitting finished
  if (flags.resume) {
    const validate::EarlierSittings earlier = validate::read_earlier_sittings(
        out, validate::to_json(context, fixture, validate::summarize(fixture, methods, {})), order);
    jobs = earlier.jobs;
    for (const auto& job : jobs) done.insert(job.index);
    context.resumed_commands = earlier.commands;
    context.resumed_wall_seconds = earlier.wall_seconds;
    context.resumed_jobs = static_cast<int>(jobs.size());
    std::fprintf(stderr, "cobench validate: %zu of %zu jobs read back from %s/jobs (earlier sittings); the rest run\n",
                 jobs.size(), order.size(), out.c_str());
  }
  std::optional<validate::JobResult> failed;
  bool interrupted = false;
  for (size_t i = 0; i < order.size() && !failed && !interrupted; ++i) {
    const int index = static_cast<int>(i) + 1;
    if (done.count(index)) continue;
    const validate::Method& method = methods[order[i]];
    const fs::path job_out = dir / "jobs" / fmt::format("{:03}", index);
    const fs::path log = dir / "jobs" / fmt::format("{:03}.log", index);
    std::fprintf(stderr, "job %d/%zu (%s): running (output: %s)\n", index, order.size(), method.name.c_str(),
                 log.c_str());
    try {
      validate::JobResult job = validate::run_job(job_spec, method, index, job_out, log);
      job.method = order[i];
      if (!job.failure.empty()) {
        failed = job;
        context.stopped = fmt::format("job {} ({}) failed: {}", index, method.name, job.failure);
        break;
      }
      std::fprintf(stderr, "job %d/%zu (%s): %s\n", index, order.size(), method.name.c_str(),
                   progress_line(job).c_str());
      if (!out.empty()) keep_job_files(job_out, log, out / "jobs" / fmt::format("{:03}", index));
      jobs.push_back(std::move(job));
    } catch (const Interrupted&) {
      interrupted = true;
      context.stopped = fmt::format("interrupted after {} of {} jobs", jobs.size(), order.size());
    }
  }

  // In run order, the earlier sittings' jobs among this sitting's, so that the tables list them as they ran.
  std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  context.load_end = host::collect_host_context().value("load_average", nlohmann::json());
  context.wall_seconds = seconds_since(start);
  const auto summaries = validate::summarize(fixture, methods, jobs);
  const std::string markdown = validate::render_markdown(context, fixture, summaries);
  std::fputs(markdown.c_str(), stdout);
  std::fflush(stdout);
  if (!out.empty()) {
    write_file_atomic(out / "summary.md", markdown);
    write_file_atomic(out / "summary.json", validate::to_json(context, fixture, summaries).dump(2) + "\n");
    std::fprintf(stderr, "summary: %s/summary.{md,json}; every job's report.json under %s/jobs/\n", out.c_str(),
                 out.c_str());
  }
  if (flags.keep) std::fprintf(stderr, "kept the fixture, its jobs' reports and logs in %s\n", dir.c_str());
  if (interrupted) throw Interrupted();
  if (failed) {
    cleanup.keep();  // the failed job's output is what to look at
    const std::string what = fmt::format("{}; its output: {}", context.stopped,
                                         (dir / "jobs" / fmt::format("{:03}.log", failed->index)).string());
    if (failed->exit_code == kExitUsage) throw InputError(what);
    throw InfraError(what);
  }
  return kExitOk;
}

}  // namespace

Subcommand add_validate(CLI::App& root) {
  auto flags = std::make_shared<ValidateFlags>();
  Subcommand sub;
  sub.app = root.add_subcommand(
      "validate",
      "Run real `cobench run` jobs on a bundled fixture whose truth is known (A/A benchmarks, 3-50% slowdowns, an "
      "extra allocation), or with --repo on your own repository's commit against itself, and report how often each "
      "verdict came out, on this machine");
  auto* app = sub.app;
  flags->jobs_option = app->add_option("--jobs", flags->jobs, "jobs per method (default 50; --short: 2)")
                           ->check(CLI::PositiveNumber);
  app->add_flag("--short", flags->short_run, "2 jobs per method: a check that fits a CI job");
  app->add_flag("--keep", flags->keep, "keep the temporary fixture repository, every job's reports and output");
  app->add_flag("--resume", flags->resume,
                "go on with the campaign an earlier run left in --out: its finished jobs are read back, the rest run "
                "(the same methods, flags and fixture; --jobs may grow)");
  app->add_option("--out", flags->out, "write summary.json, summary.md and every job's report.json here");
  app->add_option("--method", flags->methods,
                  "NAME=ARGS: a method, ARGS extra `cobench run` flags split at spaces (repeatable; jobs take turns)")
      ->allow_extra_args(false);
  app->add_option("--run-arg", flags->run_args,
                  "a `cobench run` flag for every job, e.g. --run-arg=--metric=cpu_time (repeatable)")
      ->allow_extra_args(false);
  flags->min_time_option =
      app->add_option("--min-time", flags->min_time,
                      "each job's --min-time, in seconds: how long a run measures, where --run-length auto starts from "
                      "(default 0.05; with --repo: the repository's own)")
          ->check(CLI::PositiveNumber);
  flags->extra_allocs_option =
      app->add_option("--extra-allocs", flags->extra_allocs,
                      "heap allocations the allocation benchmark's head adds per iteration (default 1)")
          ->check(CLI::PositiveNumber);
  app->add_option("--repo", flags->repo,
                  "validate on this repository instead of the fixture: A/A jobs of its checked-out commit (HEAD) "
                  "against itself, every target (--all), its own settings; any regression or faster verdict is a "
                  "false alarm, tallied per benchmark");
  app->add_option("--source-dir", flags->source_dir, "with --repo: its CMake project folder (default: its root)");
  sub.run = [flags]() -> int { return run_validate(*flags); };
  return sub;
}

}  // namespace cobench::cli
