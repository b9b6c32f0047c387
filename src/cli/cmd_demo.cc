// `cobench demo`: the whole pipeline on a bundled example project, in a
// throw-away git repository whose head makes one family slower, one faster
// and leaves one alone.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "demo_files.h"
#include "git/git.h"
#include "job/pipeline.h"

namespace cobench::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHeadPatch = "head.patch";

struct DemoFlags {
  bool keep = false;
  std::string out;
};

// Writes the example project into `repo` and returns the head patch's text.
std::string write_project(const fs::path& repo) {
  std::string patch;
  for (size_t i = 0; i < demo::kDemoFileCount; ++i) {
    const demo::EmbeddedFile& file = demo::kDemoFiles[i];
    std::string_view content(reinterpret_cast<const char*>(file.data), file.size);
    if (std::string_view(file.path) == kHeadPatch) patch = content;
    else write_file_atomic(repo / file.path, content);
  }
  if (patch.empty()) throw InfraError("cobench was built without the demo's head.patch");
  return patch;
}

// Two commits: the example as is (base), then the example with head.patch applied (head).
std::string make_repository(const fs::path& dir, const fs::path& repo) {
  fs::create_directories(repo);
  std::string patch = write_project(repo);
  git::init_scratch_repository(repo);
  const std::string base = git::commit_all(repo, "demo: base");
  write_file_atomic(dir / kHeadPatch, patch);
  git::apply_patch(repo, dir / kHeadPatch);
  git::commit_all(repo, "demo: checksum rotates its state (slower), top_k uses partial_sort (faster)");
  return base;
}

job::RunOptions demo_options(const fs::path& repo, const std::string& base, const fs::path& out, bool keep) {
  job::RunOptions o;
  o.repo = repo;
  o.base = base;
  o.head = "HEAD";
  o.out_dir = out;
  o.keep = keep;
  o.all = true;  // the unchanged family is the control: measured although the diff does not reach it
  config::RunConfig& run = o.settings.run;
  run.control = {"bench_join"};  // the layout control (the machine control is cobench's own program)
  // Short runs, few rounds and a measuring budget keep the demo near a minute on 2 cores.
  run.min_time = 0.05;
  run.min_runs = 6;
  run.max_runs = 16;
  // The demo often runs beside other work (`make test -j`, a laptop): CPU time leaves out the
  // time a run spent preempted, which real time (cobench run's default) would count as noise.
  run.metrics = {"cpu_time"};
  run.measure_budget = 90;
  run.run_timeout = 60;
  return o;
}

int run_demo(const DemoFlags& flags) {
  auto start = std::chrono::steady_clock::now();
  fs::path dir = make_temp_dir("cobench-demo-");
  fs::path repo = dir / "repo";
  fs::path out = flags.out.empty() ? dir / "report" : fs::absolute(flags.out);
  // The reports outlive the demo; the repository, worktrees and builds do not (unless --keep).
  std::vector<fs::path> doomed;
  if (!flags.keep) doomed = flags.out.empty() ? std::vector<fs::path>{repo, dir / kHeadPatch} : std::vector{dir};
  RemoveOnExit cleanup(doomed);
  create_report_folder(out, "--out");  // fail now, not after two builds
  std::string base = make_repository(dir, repo);
  std::fprintf(stderr,
               "cobench demo: example project in %s\n"
               "  head: bench_checksum ~75%% slower (three more operations per byte), bench_topk faster "
               "(partial_sort), bench_join unchanged\n",
               repo.c_str());
  int rc = job::run_pipeline(demo_options(repo, base, out, flags.keep));
  if (rc != kExitInterrupted)
    std::printf("\nexpected: bench_checksum regression, bench_topk faster, bench_join (the control) pass or "
                "inconclusive\n");
  if (flags.keep) std::printf("kept the demo repository, worktrees and builds in %s\n", repo.c_str());
  double seconds = seconds_since(start);
  std::printf("demo finished in %.0f s\n", seconds);
  return rc;
}

}  // namespace

Subcommand add_demo(CLI::App& root) {
  auto flags = std::make_shared<DemoFlags>();
  Subcommand sub;
  sub.app = root.add_subcommand("demo",
                                "Run the whole pipeline on a bundled example project (a temporary git repo whose "
                                "head slows one benchmark family, speeds one up and leaves one alone)");
  sub.app->add_flag("--keep", flags->keep, "keep the temporary repository, its worktrees and builds");
  sub.app->add_option("--out", flags->out, "report folder (default: a temporary folder, printed at the end)");
  sub.run = [flags]() -> int { return run_demo(*flags); };
  return sub;
}

}  // namespace cobench::cli
